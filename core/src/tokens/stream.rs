//! Counting text that arrives in chunks.
//!
//! A piece is counted once its end cannot change: the scanner that found it read nothing past
//! the end of the text it had ([`Partial`] records such reads). The rest, the last piece or
//! two, is held and scanned again with what follows. A chunk is read in place; only that tail
//! and, when a held piece spans into the next chunk, a window of that chunk are copied.

use alloc::string::String;

use super::Tokenizer;
use super::pretokenize::Partial;
use super::vocab::{MergeCache, ShortCounts};
use crate::{Error, ErrorKind, Position, Result};

/// How much of a chunk joins the held text at a time (at least; it doubles with the held text
/// so that a long piece is rescanned O(log n) times).
const WINDOW: usize = 4096;

/// An exact token counter fed in chunks ([`Tokenizer::count_stream`]).
///
/// ```
/// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
/// let mut stream = cl100k.count_stream();
/// for chunk in [&b"hello wo"[..], b"rld, \xE2\x82", b"\xAC5"] {
///     stream.push(chunk)?; // a character may be split between chunks
/// }
/// assert_eq!(stream.finish()?, cl100k.count("hello world, €5"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct CountStream<'t> {
    tokenizer: &'t Tokenizer,
    count: usize,
    /// Text not counted yet: pieces whose end may still move.
    held: String,
    /// The first bytes of a character the last chunk ended inside.
    split_char: ([u8; 4], usize),
    /// Bytes pushed so far (for error offsets).
    offset: u64,
}

impl<'t> CountStream<'t> {
    pub(super) fn new(tokenizer: &'t Tokenizer) -> CountStream<'t> {
        CountStream {
            tokenizer,
            count: 0,
            held: String::new(),
            split_char: ([0; 4], 0),
            offset: 0,
        }
    }

    /// Adds the next chunk of UTF-8 bytes; a chunk may end inside a character. Bytes that are not
    /// UTF-8 are `INVALID_UTF8` at their offset in the whole stream.
    ///
    /// ```
    /// let o200k = agentwire::tokens::Tokenizer::o200k_base();
    /// let mut stream = o200k.count_stream();
    /// let text = "naïve café".as_bytes();
    /// stream.push(&text[..3])?; // ends inside "ï"
    /// stream.push(&text[3..])?;
    /// assert_eq!(stream.finish()?, o200k.count("naïve café"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn push(&mut self, mut bytes: &[u8]) -> Result<()> {
        let chunk_start = self.offset;
        self.offset += bytes.len() as u64;
        let (mut buf, have) = self.split_char;
        if have > 0 {
            // Complete the character the last chunk ended inside.
            let len = utf8_len(buf[0]);
            let need = (len - have).min(bytes.len());
            buf[have..have + need].copy_from_slice(&bytes[..need]);
            bytes = &bytes[need..];
            if have + need < len {
                self.split_char = (buf, have + need);
                return Ok(());
            }
            self.split_char.1 = 0;
            let c = core::str::from_utf8(&buf[..len])
                .map_err(|_| not_utf8(chunk_start - have as u64))?;
            self.push_held(c);
        }
        let base = self.offset - bytes.len() as u64;
        let text = match core::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) if e.error_len().is_none() => {
                // The chunk ends inside a character: keep its first bytes for the next chunk.
                let valid = e.valid_up_to();
                let tail = &bytes[valid..];
                let mut buf = [0; 4];
                buf[..tail.len()].copy_from_slice(tail);
                self.split_char = (buf, tail.len());
                core::str::from_utf8(&bytes[..valid]).expect("valid up to here")
            }
            Err(e) => return Err(not_utf8(base + e.valid_up_to() as u64)),
        };
        self.push_held(text);
        Ok(())
    }

    /// Adds the next chunk of text.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// let mut stream = cl100k.count_stream();
    /// for chunk in ["{\"name\": ", "\"Alice\"", ",\n  \"age\": 30}\n"] {
    ///     stream.push_str(chunk)?;
    /// }
    /// assert_eq!(stream.finish()?, cl100k.count("{\"name\": \"Alice\",\n  \"age\": 30}\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn push_str(&mut self, text: &str) -> Result<()> {
        if self.split_char.1 > 0 {
            // A character the last `push` left open cannot be completed by a whole string.
            return self.push(text.as_bytes());
        }
        self.offset += text.len() as u64;
        self.push_held(text);
        Ok(())
    }

    fn push_held(&mut self, mut text: &str) {
        while !self.held.is_empty() && !text.is_empty() {
            let held_len = self.held.len();
            let mut take = WINDOW.max(held_len).min(text.len());
            while !text.is_char_boundary(take) {
                take += 1;
            }
            self.held.push_str(&text[..take]);
            let counted = self.count_settled_prefix_of_held();
            if counted >= held_len {
                // Settled into the new text: go on from there in place.
                text = &text[counted - held_len..];
                self.held.clear();
                break;
            }
            self.held.drain(..counted);
            text = &text[take..];
        }
        if self.held.is_empty() && !text.is_empty() {
            let counted = self.count_settled_prefix(text);
            self.held.push_str(&text[counted..]);
        }
    }

    fn count_settled_prefix_of_held(&mut self) -> usize {
        let held = core::mem::take(&mut self.held);
        let counted = self.count_settled_prefix(&held);
        self.held = held;
        counted
    }

    /// Counts the pieces of `text` whose ends are settled; returns where the rest starts.
    fn count_settled_prefix(&mut self, text: &str) -> usize {
        let bytes = text.as_bytes();
        let partial = Partial::new(bytes);
        let tokenizer = self.tokenizer;
        let mut count = 0;
        let mut settled = 0;
        let mut short = ShortCounts::new(bytes.len());
        let mut cache = MergeCache::new(bytes.len());
        tokenizer.for_each_piece(&partial, 0, |start, end| {
            if partial.take_looked_past_end() {
                return false;
            }
            count += tokenizer.piece_count(bytes, start, end, &mut short, &mut cache);
            settled = end;
            true
        });
        self.count += count;
        settled
    }

    /// The tokens counted so far (the held last pieces are not in it yet).
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// let mut stream = cl100k.count_stream();
    /// stream.push_str("hello world, hello")?;
    /// assert_eq!(stream.settled_count(), 3); // "hello", " world", ","; " hello" may go on
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn settled_count(&self) -> usize {
        self.count
    }

    /// The exact count of everything pushed. `INVALID_UTF8` if the input ended inside a
    /// character.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// let mut stream = cl100k.count_stream();
    /// stream.push(b"caf\xc3")?;
    /// assert_eq!(stream.finish().unwrap_err().code(), "INVALID_UTF8");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn finish(self) -> Result<usize> {
        let (_, have) = self.split_char;
        if have > 0 {
            return Err(not_utf8(self.offset - have as u64));
        }
        Ok(self.count + self.tokenizer.count(&self.held))
    }
}

fn not_utf8(offset: u64) -> Error {
    Error::at(
        ErrorKind::InvalidUtf8,
        "the text is not UTF-8",
        Position::at_byte(offset),
    )
}

/// The length of the UTF-8 sequence a lead byte starts (1 for a byte that starts none, so
/// that it is reported as invalid).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}
