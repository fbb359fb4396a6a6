//! The incremental JSONL parser: bytes in any chunking (a line, even a UTF-8 character, may be
//! split anywhere), each line through the line rules and the accumulator, the same result
//! whatever the chunking.

use alloc::format;
use alloc::vec::Vec;

use super::accumulate::{Accumulator, Summary};
use super::diagnostic::{Diagnostic, DiagnosticCode};
use super::model::Event;
use crate::json;

/// Longest line kept by default (16 MiB); a longer line is skipped unread with an
/// `invalid_json` diagnostic (the README's codes have no separate one).
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// What a push produced, in stream order.
#[derive(Clone, Debug, PartialEq)]
pub enum DecodedItem {
    /// An event that was kept (well-formed, before the terminal event; unknown types are kept
    /// and flagged), with its 1-based line.
    Event {
        /// The line.
        line: u64,
        /// The event.
        event: Event,
    },
    /// A problem with a line, or at the end of input.
    Diagnostic(Diagnostic),
}

/// Parses and validates a JSONL event stream pushed in chunks.
#[derive(Debug)]
pub struct StreamDecoder {
    pending: Vec<u8>,
    /// Lines completed so far.
    line: u64,
    /// The current line passed the limit: its bytes are dropped up to the next `\n`.
    overlong: bool,
    max_line_bytes: usize,
    accumulator: Accumulator,
    finished: bool,
}

impl Default for StreamDecoder {
    fn default() -> StreamDecoder {
        StreamDecoder::new(DEFAULT_MAX_LINE_BYTES)
    }
}

impl StreamDecoder {
    /// A decoder that refuses lines longer than `max_line_bytes`.
    pub fn new(max_line_bytes: usize) -> StreamDecoder {
        StreamDecoder {
            pending: Vec::new(),
            line: 0,
            overlong: false,
            max_line_bytes,
            accumulator: Accumulator::new(),
            finished: false,
        }
    }

    /// Feeds bytes; appends what complete lines produced to `out`. Pushing after
    /// [`finish`](Self::finish) does nothing.
    pub fn push(&mut self, mut chunk: &[u8], out: &mut Vec<DecodedItem>) {
        if self.finished {
            return;
        }
        while let Some(at) = chunk.iter().position(|&b| b == b'\n') {
            self.take(&chunk[..at]);
            self.end_line(out);
            chunk = &chunk[at + 1..];
        }
        self.take(chunk);
    }

    /// End of input: the last line (when the input does not end with `\n`), then the
    /// end-of-input diagnostics. Returns the verdict; later calls return it again.
    pub fn finish(&mut self, out: &mut Vec<DecodedItem>) -> Summary {
        if !self.finished {
            if !self.pending.is_empty() || self.overlong {
                self.end_line(out);
            }
            self.finished = true;
            let mut diagnostics = Vec::new();
            self.accumulator.finish(&mut diagnostics);
            out.extend(diagnostics.into_iter().map(DecodedItem::Diagnostic));
        }
        Summary {
            valid: self.accumulator.is_valid(),
            result: self.accumulator.result().clone(),
            diagnostics: Vec::new(),
        }
    }

    /// The accumulated state so far.
    pub fn accumulator(&self) -> &Accumulator {
        &self.accumulator
    }

    fn take(&mut self, bytes: &[u8]) {
        if self.overlong {
            return;
        }
        if self.pending.len() + bytes.len() > self.max_line_bytes {
            self.overlong = true;
            self.pending = Vec::new();
            return;
        }
        self.pending.extend_from_slice(bytes);
    }

    fn end_line(&mut self, out: &mut Vec<DecodedItem>) {
        self.line += 1;
        let line = self.line;
        let mut diagnostics = Vec::new();
        if core::mem::take(&mut self.overlong) {
            let message = format!(
                "the line is longer than {} bytes (skipped)",
                self.max_line_bytes
            );
            let diagnostic = Diagnostic::new(Some(line), DiagnosticCode::InvalidJson, message);
            self.accumulator
                .push_diagnostic(diagnostic, &mut diagnostics);
        } else {
            let mut bytes = core::mem::take(&mut self.pending);
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
            if !bytes.iter().all(|&b| b == b' ' || b == b'\t') {
                match json::parse_bytes(&bytes, &json::ParseOptions::default()) {
                    Ok(value) => {
                        if let Some(event) =
                            self.accumulator.push_value(line, value, &mut diagnostics)
                        {
                            out.extend(diagnostics.drain(..).map(DecodedItem::Diagnostic));
                            out.push(DecodedItem::Event { line, event });
                        }
                    }
                    Err(e) => {
                        self.accumulator
                            .push_invalid_json(line, e.message(), &mut diagnostics)
                    }
                }
            }
            // Keep the allocation for the next line.
            bytes.clear();
            self.pending = bytes;
        }
        out.extend(diagnostics.into_iter().map(DecodedItem::Diagnostic));
    }
}

/// Parses and validates a whole stream: `{valid, result, diagnostics}` and the kept events.
pub fn parse_stream(input: &[u8], max_line_bytes: usize) -> (Summary, Vec<(u64, Event)>) {
    let mut decoder = StreamDecoder::new(max_line_bytes);
    let mut items = Vec::new();
    decoder.push(input, &mut items);
    let mut summary = decoder.finish(&mut items);
    let mut events = Vec::new();
    for item in items {
        match item {
            DecodedItem::Event { line, event } => events.push((line, event)),
            DecodedItem::Diagnostic(d) => summary.diagnostics.push(d),
        }
    }
    (summary, events)
}
