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
///
/// ```
/// use agentwire::events::{StreamDecoder, DEFAULT_MAX_LINE_BYTES};
/// assert_eq!(DEFAULT_MAX_LINE_BYTES, 16 * 1024 * 1024);
/// let decoder = StreamDecoder::default(); // the same as StreamDecoder::new(DEFAULT_MAX_LINE_BYTES)
/// assert!(decoder.accumulator().is_valid());
/// ```
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// What a push produced, in stream order.
///
/// ```
/// use agentwire::events::{DecodedItem, DiagnosticCode, StreamDecoder};
/// let mut decoder = StreamDecoder::default();
/// let mut items = Vec::new();
/// decoder.push(b"not json\n{\"type\":\"response.completed\"}\n", &mut items);
/// assert!(matches!(&items[0], DecodedItem::Diagnostic(d) if d.code == DiagnosticCode::InvalidJson && d.line == Some(1)));
/// assert!(matches!(&items[1], DecodedItem::Event { line: 2, event } if event.type_name() == "response.completed"));
/// ```
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
///
/// ```
/// use agentwire::events::StreamDecoder;
/// let mut decoder = StreamDecoder::default();
/// let mut items = Vec::new();
/// // Chunks may split a line, even a UTF-8 character, anywhere.
/// let stream = "{\"type\":\"response.output_text.delta\",\"delta\":\"né\"}\n{\"type\":\"response.completed\"}\n";
/// for chunk in stream.as_bytes().chunks(5) {
///     decoder.push(chunk, &mut items);
/// }
/// let summary = decoder.finish(&mut items);
/// assert!(summary.valid);
/// assert_eq!((summary.result.text.as_str(), items.len()), ("né", 2));
/// ```
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
    ///
    /// ```
    /// use agentwire::events::{DecodedItem, DiagnosticCode, StreamDecoder};
    /// let mut decoder = StreamDecoder::new(16);
    /// let mut items = Vec::new();
    /// decoder.push(b"{\"type\":\"response.output_text.delta\",\"delta\":\"long\"}\n", &mut items);
    /// let DecodedItem::Diagnostic(d) = &items[0] else { unreachable!() };
    /// assert_eq!(d.code, DiagnosticCode::InvalidJson);
    /// assert_eq!(d.message, "the line is longer than 16 bytes (skipped)");
    /// ```
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
    ///
    /// ```
    /// use agentwire::events::StreamDecoder;
    /// let mut decoder = StreamDecoder::default();
    /// let mut items = Vec::new();
    /// decoder.push(b"{\"type\":\"response.output_text.delta\",", &mut items);
    /// assert!(items.is_empty()); // the line is not complete yet
    /// decoder.push(b"\"delta\":\"a\"}\n", &mut items);
    /// assert_eq!(items.len(), 1);
    /// ```
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
    ///
    /// ```
    /// use agentwire::events::{DecodedItem, DiagnosticCode, StreamDecoder};
    /// let mut decoder = StreamDecoder::default();
    /// let mut items = Vec::new();
    /// decoder.push(br#"{"type":"response.output_text.delta","delta":"no newline"}"#, &mut items);
    /// let summary = decoder.finish(&mut items);
    /// assert_eq!(summary.result.text, "no newline");
    /// // The end-of-input diagnostics go to `items`, not to `summary.diagnostics`.
    /// assert!(matches!(&items[1], DecodedItem::Diagnostic(d) if d.code == DiagnosticCode::MissingTerminal));
    /// assert!(!summary.valid && summary.diagnostics.is_empty());
    /// ```
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
    ///
    /// ```
    /// use agentwire::events::StreamDecoder;
    /// let mut decoder = StreamDecoder::default();
    /// decoder.push(b"{\"type\":\"response.output_text.delta\",\"delta\":\"so far\"}\n", &mut Vec::new());
    /// assert_eq!(decoder.accumulator().result().text, "so far");
    /// ```
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
///
/// ```
/// use agentwire::events::{decode::parse_stream, DiagnosticCode, DEFAULT_MAX_LINE_BYTES};
/// let input = b"{\"type\":\"response.output_text.delta\",\"delta\":\"a\"}\n[]\n{\"type\":\"response.completed\"}\n";
/// let (summary, events) = parse_stream(input, DEFAULT_MAX_LINE_BYTES);
/// assert_eq!(events.iter().map(|(line, _)| *line).collect::<Vec<_>>(), [1, 3]);
/// assert_eq!(summary.diagnostics[0].code, DiagnosticCode::NotObject);
/// assert!(!summary.valid);
/// ```
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
