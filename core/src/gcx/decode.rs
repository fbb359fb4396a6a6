//! The push-based GCX1 decoder (gcx-go `decoder.go`, line reader = `bufio.Scanner`).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::DEFAULT_MAX_LINE_BYTES;
use super::escape::unescape;
use super::header::{Header, TAG};
use crate::{Error, ErrorKind, Position, Result};

/// Options for the decoder: what to yield, and the limits that keep hostile input from
/// taking unbounded memory or time. Every limit fails with its own error code, at the line
/// that crossed it; a limit error is sticky in [`Decoder`] (every later call returns it).
///
/// ```
/// use agentwire::gcx::{self, DecodeOptions, Item};
/// let options = DecodeOptions { max_rows: 1, comments: true, ..DecodeOptions::default() };
/// let mut dec = gcx::Decoder::from_slice(b"GCX1 tool=t fields=a\n# hi\n1\n2\n", options);
/// assert!(matches!(dec.next()?, Some(Item::Section(_))));
/// assert_eq!(dec.next()?, Some(Item::Comment("hi")));
/// assert!(matches!(dec.next()?, Some(Item::Row(_))));
/// assert_eq!(dec.next().unwrap_err().code(), "GCX_TOO_MANY_ROWS");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DecodeOptions {
    /// Line limit: a line (not counting its LF; a CR before the LF counts) must be shorter
    /// than this many bytes, else [`ErrorKind::GcxLineTooLong`]. The default,
    /// [`DEFAULT_MAX_LINE_BYTES`] (4 MiB), is gcx-go's `bufio.Scanner` buffer: the longest
    /// accepted line is 4 MiB − 1 bytes. JS: `maxLineBytes`.
    pub max_line_bytes: usize,
    /// Most sections (headers) in one payload or stream, else
    /// [`ErrorKind::GcxTooManySections`] at the first header past it. Default
    /// [`DEFAULT_MAX_SECTIONS`] (65,536). JS: `maxSections`.
    pub max_sections: usize,
    /// Most rows in one payload or stream, all sections together, else
    /// [`ErrorKind::GcxTooManyRows`] at the first row past it. Default [`DEFAULT_MAX_ROWS`]
    /// (16,777,216). JS: `maxRows`.
    pub max_rows: usize,
    /// Most values in one payload or stream: every row counts one value per field of its
    /// header, padding included (a 2-byte row under a header of a million fields is a million
    /// values), else [`ErrorKind::GcxTooManyCells`] at the first row past it. This is what
    /// bounds the memory of [`decode`]. Default
    /// [`DEFAULT_MAX_CELLS`] (16,777,216). JS: `maxCells`.
    pub max_cells: usize,
    /// Longest JSON text the whole-payload decode to JSON
    /// ([`write_sections_json_limited`](crate::gcx::document::write_sections_json_limited),
    /// JS `gcx.decode`) may produce, else [`ErrorKind::GcxOutputTooLarge`]: every row repeats
    /// its field names there, so a long field name multiplies. Not used by the Rust decoders.
    /// Default [`DEFAULT_MAX_OUTPUT_BYTES`] (256 MiB). JS: `maxOutputBytes`.
    pub max_output_bytes: usize,
    /// Also yield comment lines as [`Item::Comment`] (gcx-go drops them).
    pub comments: bool,
}

/// The default [`DecodeOptions::max_sections`].
pub const DEFAULT_MAX_SECTIONS: usize = 1 << 16;
/// The default [`DecodeOptions::max_rows`].
pub const DEFAULT_MAX_ROWS: usize = 1 << 24;
/// The default [`DecodeOptions::max_cells`].
pub const DEFAULT_MAX_CELLS: usize = 1 << 24;
/// The default [`DecodeOptions::max_output_bytes`] (V8 strings hold at most about 512 Mi
/// UTF-16 units, so a JS caller could not take much more).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 256 << 20;

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            max_sections: DEFAULT_MAX_SECTIONS,
            max_rows: DEFAULT_MAX_ROWS,
            max_cells: DEFAULT_MAX_CELLS,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            comments: false,
        }
    }
}

/// How many sections, rows and values have been read, against the limits.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    sections: usize,
    rows: usize,
    cells: usize,
}

impl Counts {
    /// Room for one more section, whose header is on `line`.
    fn section(&mut self, options: &DecodeOptions, line: Line) -> Result<()> {
        if self.sections >= options.max_sections {
            return Err(limit_error(
                ErrorKind::GcxTooManySections,
                alloc::format!(
                    "the payload has more than {} sections (the decoder's max sections limit)",
                    options.max_sections
                ),
                line,
            ));
        }
        self.sections += 1;
        Ok(())
    }

    /// Room for one more row of `fields` values on `line`; counted only by [`Counts::add_row`].
    fn check_row(&self, options: &DecodeOptions, fields: usize, line: Line) -> Result<()> {
        if self.rows >= options.max_rows {
            return Err(limit_error(
                ErrorKind::GcxTooManyRows,
                alloc::format!(
                    "the payload has more than {} rows (the decoder's max rows limit)",
                    options.max_rows
                ),
                line,
            ));
        }
        if fields > options.max_cells - self.cells.min(options.max_cells) {
            return Err(limit_error(
                ErrorKind::GcxTooManyCells,
                alloc::format!(
                    "the payload has more than {} values, counting {fields} per row of this \
                     section (the decoder's max cells limit)",
                    options.max_cells
                ),
                line,
            ));
        }
        Ok(())
    }

    fn add_row(&mut self, fields: usize) {
        self.rows += 1;
        self.cells += fields;
    }
}

/// A limit error at the start of `line`.
fn limit_error(kind: ErrorKind, message: String, line: Line) -> Error {
    Error::at(
        kind,
        message,
        Position::line_start(line.offset, line.number),
    )
}

/// One thing the decoder read.
///
/// ```
/// use agentwire::gcx::{DecodeOptions, Decoder, Item};
/// let options = DecodeOptions { comments: true, ..DecodeOptions::default() };
/// let mut dec = Decoder::from_slice(b"GCX1 tool=t fields=a,b\n# note\nx\n", options);
/// match dec.next()? {
///     Some(Item::Section(header)) => assert_eq!(header.fields, ["a", "b"]),
///     other => panic!("{other:?}"),
/// }
/// assert_eq!(dec.next()?, Some(Item::Comment("note")));
/// assert_eq!(dec.next()?, Some(Item::Row(vec!["x".into(), "".into()])));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Item<'a> {
    /// A section starts; its header is also available from [`Decoder::header`].
    Section(&'a Header),
    /// A row: exactly one unescaped value per field of the current header, in field order
    /// (missing trailing values are empty).
    Row(Vec<Cow<'a, str>>),
    /// A comment line's text after `#` and one optional space (only with
    /// [`DecodeOptions::comments`]).
    Comment(&'a str),
}

enum Input<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl Input<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Borrowed(b) => b,
            Input::Owned(v) => v,
        }
    }
}

enum LineKind {
    Header,
    Row,
    Comment,
}

impl LineKind {
    /// What a line (LF and CR dropped) is; `None` for a line the decoder skips. Before the
    /// first header every line is read as a header (gcx-go rejects a leading blank line or
    /// comment).
    fn of(bytes: &[u8], in_section: bool, comments: bool) -> Option<LineKind> {
        if !in_section || bytes.starts_with(TAG.as_bytes()) {
            Some(LineKind::Header)
        } else if bytes.is_empty() {
            None
        } else if bytes[0] == b'#' {
            comments.then_some(LineKind::Comment)
        } else {
            Some(LineKind::Row)
        }
    }
}

/// A line found by the reader: `buf[start..end]` (CR dropped), numbered, placed.
#[derive(Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    number: u64,
    offset: u64,
}

/// Reads GCX1 pushed in chunks of any size (or a whole slice), one [`Item`] at a time.
///
/// Errors follow gcx-go: a header error or an over-long line is sticky (every later call
/// returns it), a bad row is not (the next call continues with the following line).
/// Memory stays bounded by the line limit plus the largest pushed chunk.
///
/// ```
/// use agentwire::gcx::{Decoder, DecodeOptions, Item};
/// let mut dec = Decoder::new(DecodeOptions::default());
/// dec.push(b"GCX1 tool=x fields=a,b\n1\t");
/// dec.push(b"2\n");
/// dec.finish();
/// assert!(matches!(dec.next().unwrap(), Some(Item::Section(h)) if h.tool == "x"));
/// assert!(matches!(dec.next().unwrap(), Some(Item::Row(r)) if r == ["1", "2"]));
/// assert!(dec.next().unwrap().is_none());
/// ```
pub struct Decoder<'a> {
    options: DecodeOptions,
    input: Input<'a>,
    /// Start of the unread part of `input`.
    consumed: usize,
    /// How far past `consumed` the current partial line has been searched for LF.
    scanned: usize,
    /// Number of the next line (1-based) and byte offset of `input[consumed]` in the stream.
    line_number: u64,
    offset: u64,
    finished: bool,
    header: Option<Header>,
    failed: Option<Error>,
    /// The line of the last item returned.
    last: Option<Line>,
    counts: Counts,
}

impl core::fmt::Debug for Decoder<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("line_number", &self.line_number)
            .field("offset", &self.offset)
            .field("finished", &self.finished)
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

impl Decoder<'static> {
    /// A decoder fed with [`push`](Decoder::push) and closed with [`finish`](Decoder::finish).
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder, Item, Section};
    /// let mut dec = Decoder::new(DecodeOptions::default());
    /// let mut sections = Vec::new();
    /// for chunk in [&b"GCX1 tool=t fie"[..], b"lds=n\n1\n2"] {
    ///     dec.push(chunk);
    ///     while let Some(item) = dec.next()? {
    ///         Section::collect(&mut sections, item);
    ///     }
    /// }
    /// dec.finish();
    /// while let Some(item) = dec.next()? {
    ///     Section::collect(&mut sections, item);
    /// }
    /// assert_eq!(sections[0].rows, [["1"], ["2"]]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn new(options: DecodeOptions) -> Decoder<'static> {
        Decoder::with_input(Input::Owned(Vec::new()), false, options)
    }
}

impl<'a> Decoder<'a> {
    /// A decoder over a complete payload, reading it in place (no copy).
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder, Item};
    /// let payload = b"GCX1 tool=t fields=path\nsrc/a.rs\n";
    /// let mut dec = Decoder::from_slice(payload, DecodeOptions::default());
    /// assert!(dec.is_finished());
    /// assert!(matches!(dec.next()?, Some(Item::Section(_))));
    /// assert_eq!(dec.next()?, Some(Item::Row(vec!["src/a.rs".into()])));
    /// assert_eq!(dec.next()?, None);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_slice(payload: &'a [u8], options: DecodeOptions) -> Decoder<'a> {
        Decoder::with_input(Input::Borrowed(payload), true, options)
    }

    fn with_input(input: Input<'a>, finished: bool, options: DecodeOptions) -> Decoder<'a> {
        Decoder {
            options,
            input,
            consumed: 0,
            scanned: 0,
            line_number: 1,
            offset: 0,
            finished,
            header: None,
            failed: None,
            last: None,
            counts: Counts::default(),
        }
    }

    /// Appends input. Pushing after [`finish`](Self::finish) is ignored.
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder, Item};
    /// let mut dec = Decoder::new(DecodeOptions::default());
    /// dec.push(b"GCX1 tool=t fields=a\nhal");
    /// assert!(matches!(dec.next()?, Some(Item::Section(_))));
    /// assert_eq!(dec.next()?, None); // the row has no LF yet
    /// dec.push(b"f\n");
    /// assert_eq!(dec.next()?, Some(Item::Row(vec!["half".into()])));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn push(&mut self, chunk: &[u8]) {
        if self.finished {
            return;
        }
        let mut owned = match core::mem::replace(&mut self.input, Input::Owned(Vec::new())) {
            Input::Owned(v) => v,
            Input::Borrowed(b) => b.to_vec(),
        };
        // Drop what has been read so the buffer only holds the current partial line.
        owned.drain(..self.consumed);
        self.last = None;
        self.consumed = 0;
        owned.extend_from_slice(chunk);
        self.input = Input::Owned(owned);
    }

    /// Marks the end of input: a final line without LF becomes readable.
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder, Item};
    /// let mut dec = Decoder::new(DecodeOptions::default());
    /// dec.push(b"GCX1 tool=t fields=a\nlast");
    /// dec.next()?; // the header
    /// assert_eq!(dec.next()?, None);
    /// dec.finish();
    /// assert_eq!(dec.next()?, Some(Item::Row(vec!["last".into()])));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// True once [`finish`](Self::finish) was called (or the decoder reads a slice).
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder};
    /// let mut dec = Decoder::new(DecodeOptions::default());
    /// assert!(!dec.is_finished());
    /// dec.finish();
    /// assert!(dec.is_finished());
    /// ```
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The header of the current section.
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder};
    /// let mut dec =
    ///     Decoder::from_slice(b"GCX1 tool=t fields=a total=3\n1\n", DecodeOptions::default());
    /// assert!(dec.header().is_none());
    /// dec.next()?;
    /// dec.next()?;
    /// assert_eq!(dec.header().unwrap().meta["total"], "3");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// Where the last item returned by [`next`](Self::next) came from: its 1-based line
    /// number, the byte offset of the line, and the line's bytes (without LF and CR), valid
    /// until the next [`push`](Self::push).
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder};
    /// let mut dec =
    ///     Decoder::from_slice(b"GCX1 tool=t fields=a\nx\\ty\n", DecodeOptions::default());
    /// dec.next()?;
    /// dec.next()?;
    /// assert_eq!(dec.last_line(), Some((2, 21, &b"x\\ty"[..])));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn last_line(&self) -> Option<(u64, u64, &[u8])> {
        let line = self.last?;
        let bytes = self.input.bytes().get(line.start..line.end)?;
        Some((line.number, line.offset, bytes))
    }

    /// The next item; `Ok(None)` when the input read so far holds no further complete item
    /// (after [`finish`](Self::finish): the end of the payload).
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder, Item};
    /// let mut dec = Decoder::from_slice(
    ///     b"GCX1 tool=t fields=a,b\n1\t2\t3\n4\n",
    ///     DecodeOptions::default(),
    /// );
    /// assert!(matches!(dec.next()?, Some(Item::Section(_))));
    /// // A bad row fails on its own; the next call goes on with the following line.
    /// assert_eq!(dec.next().unwrap_err().code(), "GCX_TOO_MANY_VALUES");
    /// assert_eq!(dec.next()?, Some(Item::Row(vec!["4".into(), "".into()])));
    /// assert_eq!(dec.next()?, None);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Item<'_>>> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let (line, kind) = loop {
            let Some(line) = self.next_line()? else {
                if self.finished && self.header.is_none() {
                    let at = self.here();
                    return Err(self.fail(Error::at(
                        ErrorKind::GcxEmptyInput,
                        "unexpected EOF",
                        at,
                    )));
                }
                return Ok(None);
            };
            let bytes = &self.input.bytes()[line.start..line.end];
            if let Some(kind) = LineKind::of(bytes, self.header.is_some(), self.options.comments) {
                break (line, kind);
            }
        };
        self.last = Some(line);
        if let LineKind::Header = kind {
            if let Err(e) = self.counts.section(&self.options, line) {
                return Err(self.fail(e));
            }
            let bytes = &self.input.bytes()[line.start..line.end];
            let parsed =
                line_text(bytes, line).and_then(|t| Header::parse(t, line.number, line.offset));
            return match parsed {
                Ok(header) => {
                    self.header = Some(header);
                    Ok(self.header.as_ref().map(Item::Section))
                }
                Err(e) => Err(self.fail(e)),
            };
        }
        let text = line_text(&self.input.bytes()[line.start..line.end], line)?;
        if let LineKind::Comment = kind {
            let text = &text[1..];
            return Ok(Some(Item::Comment(text.strip_prefix(' ').unwrap_or(text))));
        }
        let fields = self.header.as_ref().map_or(0, |h| h.fields.len());
        if let Err(e) = self.counts.check_row(&self.options, fields, line) {
            self.failed = Some(e.clone());
            return Err(e);
        }
        let mut values = Vec::with_capacity(fields);
        split_row(text, line, fields, &mut values)?;
        self.counts.add_row(fields);
        Ok(Some(Item::Row(values)))
    }

    /// The position of the next unread byte.
    fn here(&self) -> Position {
        Position::line_start(self.offset, self.line_number)
    }

    fn fail(&mut self, e: Error) -> Error {
        self.failed = Some(e.clone());
        e
    }

    /// The next complete line, or the final unterminated one once finished.
    fn next_line(&mut self) -> Result<Option<Line>> {
        let data = &self.input.bytes()[self.consumed..];
        let max = self.options.max_line_bytes;
        let newline = memchr::memchr(b'\n', &data[self.scanned..]).map(|i| i + self.scanned);
        let (content_len, consumed_len) = match newline {
            Some(n) => (n, n + 1),
            // Without LF, a line is complete only at the end of input; an over-long partial
            // line fails now, before its LF arrives (memory stays bounded).
            None if !data.is_empty() && (data.len() >= max || self.finished) => {
                (data.len(), data.len())
            }
            None => {
                self.scanned = data.len();
                return Ok(None);
            }
        };
        if content_len >= max {
            let at = self.here();
            return Err(self.fail(line_too_long(at)));
        }
        let start = self.consumed;
        let line = Line {
            start,
            end: start + without_cr(&data[..content_len]).len(),
            number: self.line_number,
            offset: self.offset,
        };
        self.consumed += consumed_len;
        self.offset += consumed_len as u64;
        self.line_number += 1;
        self.scanned = 0;
        Ok(Some(line))
    }
}

fn line_too_long(at: Position) -> Error {
    Error::at(
        ErrorKind::GcxLineTooLong,
        "bufio.Scanner: token too long",
        at,
    )
}

/// A line's content without the CR that may precede its LF.
fn without_cr(content: &[u8]) -> &[u8] {
    content.strip_suffix(b"\r").unwrap_or(content)
}

fn line_text(bytes: &[u8], line: Line) -> Result<&str> {
    core::str::from_utf8(bytes).map_err(|e| {
        Error::at(
            ErrorKind::InvalidUtf8,
            "invalid UTF-8 in GCX1 line",
            Position::in_line(bytes, line.number, line.offset, e.valid_up_to()),
        )
    })
}

/// Splits a row on TAB into `out`, one unescaped value per field (missing trailing values
/// are empty). On error `out` is left as it was.
fn split_row<'t>(
    text: &'t str,
    line: Line,
    fields: usize,
    out: &mut Vec<Cow<'t, str>>,
) -> Result<()> {
    let first = out.len();
    let mut rest = text;
    while let Some(tab) = memchr::memchr(b'\t', rest.as_bytes()) {
        if out.len() - first + 1 == fields {
            out.truncate(first);
            let count = 1 + memchr::memchr_iter(b'\t', text.as_bytes()).count();
            // Point at the first value that has no field.
            let excess_start = text.len() - rest.len() + tab + 1;
            return Err(Error::at(
                ErrorKind::GcxTooManyValues,
                alloc::format!("wire: row has {count} values but header declared {fields} fields"),
                Position::in_line(text.as_bytes(), line.number, line.offset, excess_start),
            ));
        }
        out.push(unescape(&rest[..tab]));
        rest = &rest[tab + 1..];
    }
    out.push(unescape(rest));
    let filled = out.len() - first;
    if filled < fields {
        out.resize(first + fields, Cow::Borrowed(""));
    }
    Ok(())
}

/// A decoded section with owned rows (values in field order).
///
/// ```
/// use agentwire::gcx::{self, DecodeOptions, Header, Section};
/// let sections = gcx::decode("GCX1 tool=t fields=a,b\n1\t2\n", &DecodeOptions::default())
///     .into_sections()?;
/// let expected = Section {
///     header: Header::new("t", ["a", "b"]),
///     rows: vec![vec!["1".into(), "2".into()]],
/// };
/// assert_eq!(sections, [expected]);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Section {
    /// The header.
    pub header: Header,
    /// One entry per row, one value per field.
    pub rows: Vec<Vec<String>>,
}

impl Section {
    /// Adds a streamed item to a list of sections: a header opens a section, a row joins the
    /// last one, comments are dropped.
    ///
    /// ```
    /// use agentwire::gcx::{DecodeOptions, Decoder, Section};
    /// let payload = b"GCX1 tool=a fields=x\n1\nGCX1 tool=b fields=y\n2\n3\n";
    /// let mut dec = Decoder::from_slice(payload, DecodeOptions::default());
    /// let mut sections = Vec::new();
    /// while let Some(item) = dec.next()? {
    ///     Section::collect(&mut sections, item);
    /// }
    /// assert_eq!(sections.len(), 2);
    /// assert_eq!(sections[1].rows, [["2"], ["3"]]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn collect(sections: &mut Vec<Section>, item: Item<'_>) {
        match item {
            Item::Section(header) => sections.push(Section {
                header: header.clone(),
                rows: Vec::new(),
            }),
            Item::Row(values) => {
                if let Some(section) = sections.last_mut() {
                    section
                        .rows
                        .push(values.into_iter().map(Cow::into_owned).collect());
                }
            }
            Item::Comment(_) => {}
        }
    }
}

/// A section of a complete payload decoded in place: its values borrow from the payload
/// unless unescaping changed them, and are stored row after row, one per header field.
///
/// ```
/// use agentwire::gcx::{self, DecodeOptions};
/// use std::borrow::Cow;
/// let payload = "GCX1 tool=t fields=a,b\nplain\tx\\ty\n";
/// let sections = gcx::decode(payload, &DecodeOptions::default()).into_borrowed()?;
/// let row = sections[0].rows().next().unwrap();
/// assert!(matches!(row[0], Cow::Borrowed("plain"))); // points into `payload`
/// assert_eq!(row[1], "x\ty"); // unescaped, so owned
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BorrowedSection<'a> {
    /// The header.
    pub header: Header,
    values: Vec<Cow<'a, str>>,
}

impl<'a> BorrowedSection<'a> {
    fn new(header: Header) -> BorrowedSection<'a> {
        BorrowedSection {
            header,
            values: Vec::new(),
        }
    }

    /// The rows, each one value per field in field order.
    ///
    /// ```
    /// use agentwire::gcx::{self, DecodeOptions};
    /// let payload = "GCX1 tool=t fields=k,v\na\t1\nb\t2\n";
    /// let sections = gcx::decode(payload, &DecodeOptions::default()).into_borrowed()?;
    /// let keys: Vec<&str> = sections[0].rows().map(|row| &*row[0]).collect();
    /// assert_eq!(keys, ["a", "b"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn rows(&self) -> core::slice::ChunksExact<'_, Cow<'a, str>> {
        // A parsed header has at least one field; `max` keeps an empty one from panicking.
        self.values.chunks_exact(self.header.fields.len().max(1))
    }

    /// How many rows the section has.
    ///
    /// ```
    /// use agentwire::gcx::{self, DecodeOptions};
    /// let payload = "GCX1 tool=t fields=a,b\n1\t2\n3\n\n4\n";
    /// let sections = gcx::decode(payload, &DecodeOptions::default()).into_borrowed()?;
    /// assert_eq!(sections[0].row_count(), 3); // the blank line is skipped
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn row_count(&self) -> usize {
        self.values.len() / self.header.fields.len().max(1)
    }

    /// The section with owned rows.
    ///
    /// ```
    /// use agentwire::gcx::{self, DecodeOptions, Section};
    /// let payload = String::from("GCX1 tool=t fields=a\nx\n");
    /// let owned: Section = gcx::decode(&payload, &DecodeOptions::default())
    ///     .into_borrowed()?
    ///     .remove(0)
    ///     .into_owned();
    /// drop(payload);
    /// assert_eq!(owned.rows, [["x"]]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn into_owned(self) -> Section {
        let rows = self
            .rows()
            .map(|row| row.iter().map(|v| String::from(&**v)).collect())
            .collect();
        Section {
            header: self.header,
            rows,
        }
    }
}

/// Decodes a complete payload as gcx-go's canonical procedure does (header, rows, next
/// section, …), stopping at the first error.
///
/// `payload` is text or bytes: invalid UTF-8 is an error only on a line that is read (a
/// skipped comment may hold any bytes), as in gcx-go. Values borrow from `payload` unless
/// unescaping changed them; [`Decoded`] gives them borrowed ([`Decoded::into_borrowed`], the
/// fast path), owned ([`Decoded::into_sections`]), or with what was read before an error
/// (its public fields).
///
/// ```
/// use agentwire::gcx::{self, DecodeOptions};
/// let payload = "GCX1 tool=search fields=id,line\na.go::Foo\t10\nb.go::Bar\t20\n";
/// let sections = gcx::decode(payload, &DecodeOptions::default()).into_sections()?;
/// assert_eq!(sections[0].header.tool, "search");
/// assert_eq!(sections[0].rows[1], ["b.go::Bar", "20"]);
///
/// // What was read before the first error stays available.
/// let decoded = gcx::decode("GCX1 tool=t fields=a\n1\n2\t3\n", &DecodeOptions::default());
/// assert_eq!(decoded.sections[0].row_count(), 1);
/// assert_eq!(decoded.error.unwrap().code(), "GCX_TOO_MANY_VALUES");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode<'a, P>(payload: &'a P, options: &DecodeOptions) -> Decoded<'a>
where
    P: AsRef<[u8]> + ?Sized,
{
    let payload = payload.as_ref();
    match core::str::from_utf8(payload) {
        Ok(text) => decode_str(text, options),
        Err(_) => {
            let (sections, error) = decode_with_decoder(payload, options);
            Decoded { sections, error }
        }
    }
}

/// [`decode`] of text that is already a `str`: the same result, without checking its UTF-8
/// again (a caller holding a `str` has had it checked once).
///
/// ```
/// use agentwire::gcx::{self, DecodeOptions};
/// let payload = "GCX1 tool=t fields=a,b\n1\t2\n";
/// let options = DecodeOptions::default();
/// assert_eq!(gcx::decode_str(payload, &options), gcx::decode(payload, &options));
/// ```
pub fn decode_str<'a>(text: &'a str, options: &DecodeOptions) -> Decoded<'a> {
    let (sections, error) = decode_text(text, options);
    Decoded { sections, error }
}

/// What [`decode`] read: the sections before the first error (the last one possibly
/// partial) and that error.
///
/// ```
/// use agentwire::gcx::{self, DecodeOptions};
/// let decoded =
///     gcx::decode("GCX1 tool=t fields=a\n1\nGCX1 fields=b\n", &DecodeOptions::default());
/// assert_eq!(decoded.sections.len(), 1);
/// let error = decoded.error.unwrap();
/// assert_eq!((error.code(), error.line()), ("GCX_MISSING_TOOL", Some(3)));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[must_use = "a decode error is only reported through `error` or `into_*`"]
pub struct Decoded<'a> {
    /// The sections read, values borrowed from the payload where they can be.
    pub sections: Vec<BorrowedSection<'a>>,
    /// The first error, if any; nothing after it was read.
    pub error: Option<Error>,
}

impl<'a> Decoded<'a> {
    /// The sections with borrowed values; the error, if any, fails the call.
    ///
    /// ```
    /// use agentwire::gcx::{self, DecodeOptions};
    /// let sections = gcx::decode("GCX1 tool=t fields=a\n1\n", &DecodeOptions::default())
    ///     .into_borrowed()?;
    /// assert_eq!(sections[0].header.tool, "t");
    /// let failed =
    ///     gcx::decode("GCX2 tool=t fields=a\n", &DecodeOptions::default()).into_borrowed();
    /// assert_eq!(failed.unwrap_err().code(), "GCX_BAD_PREFIX");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn into_borrowed(self) -> Result<Vec<BorrowedSection<'a>>> {
        match self.error {
            None => Ok(self.sections),
            Some(e) => Err(e),
        }
    }

    /// The sections with owned rows; the error, if any, fails the call.
    ///
    /// ```
    /// use agentwire::gcx::{self, DecodeOptions};
    /// let sections =
    ///     gcx::decode(b"GCX1 tool=t fields=a,b\n1\t2\n", &DecodeOptions::default())
    ///         .into_sections()?;
    /// assert_eq!(sections[0].rows, [["1", "2"]]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn into_sections(self) -> Result<Vec<Section>> {
        Ok(self
            .into_borrowed()?
            .into_iter()
            .map(BorrowedSection::into_owned)
            .collect())
    }

    /// The sections read (owned) and the error, if any: what a caller that reports partial
    /// results needs.
    ///
    /// ```
    /// use agentwire::gcx::{self, DecodeOptions};
    /// let options = DecodeOptions { max_rows: 2, ..DecodeOptions::default() };
    /// let (sections, error) =
    ///     gcx::decode("GCX1 tool=t fields=a\n1\n2\n3\n", &options).into_owned_parts();
    /// assert_eq!(sections[0].rows, [["1"], ["2"]]);
    /// assert_eq!(error.unwrap().code(), "GCX_TOO_MANY_ROWS");
    /// ```
    pub fn into_owned_parts(self) -> (Vec<Section>, Option<Error>) {
        let sections = self
            .sections
            .into_iter()
            .map(BorrowedSection::into_owned)
            .collect();
        (sections, self.error)
    }
}

/// [`decode`] over valid UTF-8: the [`Decoder`]'s rules in one pass over
/// the text (one SIMD scan finds every LF, TAB and backslash), without copying values.
fn decode_text<'a>(
    text: &'a str,
    options: &DecodeOptions,
) -> (Vec<BorrowedSection<'a>>, Option<Error>) {
    let bytes = text.as_bytes();
    let mut sections: Vec<BorrowedSection<'a>> = Vec::new();
    let mut events = memchr::memchr3_iter(b'\n', b'\t', b'\\', bytes);
    // The current line's cell ends (TAB positions) and whether each cell held a backslash;
    // at most one entry per field, so memory stays bounded by the header.
    let mut cells: Vec<(usize, bool)> = Vec::new();
    let mut line_start = 0;
    let mut number = 1;
    let mut counts = Counts::default();
    while line_start < bytes.len() {
        let fields = sections.last().map_or(0, |s| s.header.fields.len());
        cells.clear();
        let mut tabs = 0usize;
        let mut escaped = false;
        let line_end = loop {
            match events.next() {
                Some(at) => match bytes[at] {
                    b'\n' => break at,
                    b'\t' => {
                        if tabs < fields {
                            cells.push((at, escaped));
                        }
                        tabs += 1;
                        escaped = false;
                    }
                    _ => escaped = true,
                },
                None => break bytes.len(),
            }
        };
        let line = Line {
            start: line_start,
            end: line_start + without_cr(&bytes[line_start..line_end]).len(),
            number,
            offset: line_start as u64,
        };
        if line_end - line_start >= options.max_line_bytes {
            let at = Position::line_start(line.offset, number);
            return (sections, Some(line_too_long(at)));
        }
        line_start = line_end + 1;
        number += 1;
        // LF and CR are ASCII, so the line boundaries are character boundaries.
        let content = &text[line.start..line.end];
        match LineKind::of(content.as_bytes(), !sections.is_empty(), false) {
            None | Some(LineKind::Comment) => {}
            Some(LineKind::Header) => {
                if let Err(e) = counts.section(options, line) {
                    return (sections, Some(e));
                }
                match Header::parse(content, line.number, line.offset) {
                    Ok(header) => sections.push(BorrowedSection::new(header)),
                    Err(e) => return (sections, Some(e)),
                }
            }
            Some(LineKind::Row) => {
                let Some(section) = sections.last_mut() else {
                    continue;
                };
                if let Err(e) = counts.check_row(options, fields, line) {
                    return (sections, Some(e));
                }
                if tabs >= fields {
                    // More values than fields: the slow path builds the error.
                    let mut ignored = Vec::new();
                    let e = split_row(content, line, fields, &mut ignored).err();
                    return (sections, e);
                }
                let mut start = line.start;
                for &(end, escaped) in &cells {
                    section.values.push(cell(&text[start..end], escaped));
                    start = end + 1;
                }
                section.values.push(cell(&text[start..line.end], escaped));
                let filled = tabs + 1;
                if filled < fields {
                    let padded = section.values.len() + fields - filled;
                    section.values.resize(padded, Cow::Borrowed(""));
                }
                counts.add_row(fields);
            }
        }
    }
    if sections.is_empty() {
        let at = Position::line_start(bytes.len() as u64, number);
        let e = Error::at(ErrorKind::GcxEmptyInput, "unexpected EOF", at);
        return (sections, Some(e));
    }
    (sections, None)
}

/// A value: borrowed unless it held a backslash.
fn cell(text: &str, escaped: bool) -> Cow<'_, str> {
    if escaped {
        unescape(text)
    } else {
        Cow::Borrowed(text)
    }
}

fn decode_with_decoder<'a>(
    payload: &'a [u8],
    options: &DecodeOptions,
) -> (Vec<BorrowedSection<'a>>, Option<Error>) {
    let mut decoder = Decoder::from_slice(payload, options.clone());
    let mut sections: Vec<BorrowedSection<'a>> = Vec::new();
    loop {
        match decoder.next() {
            Ok(Some(Item::Section(header))) => sections.push(BorrowedSection::new(header.clone())),
            Ok(Some(Item::Row(values))) => {
                if let Some(section) = sections.last_mut() {
                    let owned = values.into_iter().map(|v| Cow::Owned(v.into_owned()));
                    section.values.extend(owned);
                }
            }
            Ok(Some(Item::Comment(_))) => {}
            Ok(None) => return (sections, None),
            Err(e) => return (sections, Some(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn rows_of(payload: &str) -> Vec<Vec<String>> {
        decode(payload, &DecodeOptions::default())
            .into_sections()
            .unwrap()
            .into_iter()
            .flat_map(|s| s.rows)
            .collect()
    }

    #[test]
    fn reads_rows_sections_and_line_endings() {
        assert_eq!(
            rows_of("GCX1 tool=x fields=a,b\r\n# c\n\nv1\tv2\r\nonly\nGCX1 tool=y fields=z\nq\r"),
            vec![vec!["v1", "v2"], vec!["only", ""], vec!["q"]]
        );
        assert_eq!(
            rows_of("GCX1 tool=x fields=a\nvalue\r\r\n"),
            vec![vec!["value\r"]]
        );
    }

    #[test]
    fn chunking_does_not_matter() {
        let payload =
            "GCX1 tool=x fields=a,b k=v\n# note\n1\t2\n\\t\\n\t\\\\\nGCX1 tool=y fields=c\nlast";
        let whole = decode(payload, &DecodeOptions::default())
            .into_sections()
            .unwrap();
        for size in 1..payload.len() {
            let mut dec = Decoder::new(DecodeOptions::default());
            let mut got: Vec<Section> = Vec::new();
            let drain = |dec: &mut Decoder<'_>, got: &mut Vec<Section>| {
                while let Some(item) = dec.next().unwrap() {
                    Section::collect(got, item);
                }
            };
            for chunk in payload.as_bytes().chunks(size) {
                dec.push(chunk);
                drain(&mut dec, &mut got);
            }
            dec.finish();
            drain(&mut dec, &mut got);
            assert_eq!(got, whole, "chunk size {size}");
        }
    }

    #[test]
    fn row_errors_are_not_sticky_header_errors_are() {
        let mut dec = Decoder::from_slice(
            b"GCX1 tool=x fields=a\n1\t2\n3\nGCX1 bad\n4\n",
            DecodeOptions::default(),
        );
        assert!(matches!(dec.next(), Ok(Some(Item::Section(_)))));
        let e = dec.next().unwrap_err();
        assert_eq!(e.code(), "GCX_TOO_MANY_VALUES");
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)));
        assert!(matches!(dec.next(), Ok(Some(Item::Row(r))) if r == ["3"]));
        let e = dec.next().unwrap_err();
        assert_eq!(e.code(), "GCX_MALFORMED_HEADER_TOKEN");
        assert_eq!(dec.next().unwrap_err(), e);
    }

    #[test]
    fn comments_when_asked() {
        let options = DecodeOptions {
            comments: true,
            ..DecodeOptions::default()
        };
        let mut dec = Decoder::from_slice(b"GCX1 tool=x fields=a\n# two words\n#bare\n", options);
        dec.next().unwrap();
        assert_eq!(dec.next().unwrap(), Some(Item::Comment("two words")));
        assert_eq!(dec.next().unwrap(), Some(Item::Comment("bare")));
    }

    #[test]
    fn line_limit_is_configurable_and_bounded() {
        let options = DecodeOptions {
            max_line_bytes: 24,
            ..DecodeOptions::default()
        };
        let mut dec = Decoder::new(options.clone());
        dec.push(b"GCX1 tool=x fields=a\n1234567\n123456789012345678901234");
        assert!(matches!(dec.next(), Ok(Some(Item::Section(_)))));
        assert!(matches!(dec.next(), Ok(Some(Item::Row(_)))));
        // The over-long line fails before its LF arrives.
        let e = dec.next().unwrap_err();
        assert_eq!((e.code(), e.line()), ("GCX_LINE_TOO_LONG", Some(3)));
        let decoded = decode(b"GCX1 tool=x fields=a\n12345678901234567890123", &options);
        assert!(decoded.error.is_none() && decoded.sections[0].row_count() == 1);
    }

    #[test]
    fn empty_input_and_invalid_utf8() {
        assert_eq!(
            decode("", &DecodeOptions::default())
                .into_sections()
                .unwrap_err()
                .code(),
            "GCX_EMPTY_INPUT"
        );
        let decoded = decode(b"GCX1 tool=x fields=a\n\xff\n", &DecodeOptions::default());
        assert_eq!(decoded.error.unwrap().code(), "INVALID_UTF8");
    }
}
