//! The streaming GCX1 encoder (gcx-go `encoder.go`).

use alloc::string::String;

use super::DEFAULT_MAX_LINE_BYTES;
use super::escape::escape_into;
use super::header::{Header, HeaderParts, TAG};
use crate::json::{self, DEFAULT_MAX_DEPTH, ParseOptions, Value, WriteOptions};
use crate::num::{write_go_g_f32, write_go_g_f64, write_i64, write_u64};
use crate::sink::Sink;
use crate::text::go_quote;
use crate::{Error, ErrorKind, Result};

/// What the encoders do with text that GCX1 decoders cannot read (see [`EncodeOptions::compat`]).
///
/// ```
/// use agentwire::gcx::{Cell, Compat, EncodeOptions, Encoder, Header};
/// let header = Header::new("t", ["a"]);
/// let mut checked = Encoder::new(String::new(), EncodeOptions::default());
/// checked.begin_section(&header)?;
/// assert_eq!(
///     checked.write_row(&[Cell::Str("GCX1 x")]).unwrap_err().code(),
///     "GCX_UNDECODABLE"
/// );
/// let options = EncodeOptions { compat: Compat::GcxGo, ..EncodeOptions::default() };
/// let mut go = Encoder::new(String::new(), options);
/// go.begin_section(&header)?;
/// go.write_row(&[Cell::Str("GCX1 x")])?;
/// assert_eq!(go.finish()?, "GCX1 tool=t fields=a\nGCX1 x\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Compat {
    /// The default: gcx-go's bytes for everything a decoder reads, and a
    /// [`GcxUndecodable`](ErrorKind::GcxUndecodable) error instead of text it would reject or
    /// misread as another section: a header that does not parse back (a space in the tool or a
    /// field name, an empty tool, a meta key `fields` that shortens the field list, …), a first
    /// cell starting with `GCX1`, a line of 4 MiB or more. Never changes a byte.
    #[default]
    Checked,
    /// Byte parity with gcx-go for every input, even text decoders reject (the conformance
    /// suite's mode).
    GcxGo,
}

impl Compat {
    /// `checked` or `gcx-go`.
    ///
    /// ```
    /// use agentwire::gcx::Compat;
    /// assert_eq!(Compat::Checked.name(), "checked");
    /// assert_eq!(Compat::GcxGo.name(), "gcx-go");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Compat::Checked => "checked",
            Compat::GcxGo => "gcx-go",
        }
    }

    /// Reads `checked` or `gcx-go`.
    ///
    /// ```
    /// use agentwire::gcx::Compat;
    /// assert_eq!(Compat::parse("gcx-go")?, Compat::GcxGo);
    /// assert_eq!(Compat::parse(Compat::Checked.name())?, Compat::Checked);
    /// assert_eq!(Compat::parse("go").unwrap_err().code(), "INVALID_ARGUMENT");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parse(name: &str) -> Result<Compat> {
        match name {
            "checked" => Ok(Compat::Checked),
            "gcx-go" => Ok(Compat::GcxGo),
            _ => Err(Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!(
                    "unknown compat {} (expected checked or gcx-go)",
                    crate::text::quote(name)
                ),
            )),
        }
    }
}

/// How an encoder writes: the resolved [`EncodeOptions::lossless`] and [`Compat`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// gcx-go's bytes, unchecked.
    GcxGo,
    /// gcx-go's bytes, refusing what decoders reject.
    Checked,
    /// Decoders read back exactly what was written, or encoding fails.
    Lossless,
}

impl Mode {
    pub(crate) fn lossless(self) -> bool {
        self == Mode::Lossless
    }

    pub(crate) fn checked(self) -> bool {
        self == Mode::Checked
    }
}

/// Options for every GCX1 encoder.
///
/// ```
/// use agentwire::gcx::{Cell, EncodeOptions, Encoder, Header};
/// let options = EncodeOptions { lossless: true, ..EncodeOptions::default() };
/// let mut enc = Encoder::new(String::new(), options);
/// enc.begin_section(&Header::new("t", ["a"]))?;
/// enc.write_row(&[Cell::Str("# not a comment")])?;
/// assert_eq!(enc.finish()?, "GCX1 tool=t fields=a\n\\# not a comment\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EncodeOptions {
    /// Off (the default): gcx-go's bytes, checked as [`compat`](Self::compat) says. On: protect a first cell
    /// that starts with `#` or `GCX1` (written `\#…`, `\GCX1…`, which every decoder reads
    /// back), escape field names twice, and refuse with [`ErrorKind::GcxNotLossless`] what no
    /// decoder can read back (CR, spaces or commas in header text, a one-field row whose cell
    /// is empty, a line of 4 MiB or more). Then `decode(encode(x)) == x` or encode fails.
    pub lossless: bool,
    /// Without `lossless`: [`Compat::Checked`] (the default) refuses text decoders reject,
    /// [`Compat::GcxGo`] writes gcx-go's bytes whatever they are.
    pub compat: Compat,
    /// When the input is JSON text, keep every number's source text (Go `json.Number`), as
    /// the upstream GCX1 benchmark did: `1.0` stays `1.0`. Off: typed numbers (`1.0` → `1`).
    pub literal_numbers: bool,
    /// Deepest nesting of arrays and objects accepted in JSON input text (documents, tool
    /// responses, generic values, rows), else [`ErrorKind::JsonDepth`] at the bracket that
    /// crossed it. Default [`DEFAULT_MAX_DEPTH`] (512); the JSON options (`maxDepth`) accept
    /// 1 to [`MAX_DEPTH_CEILING`](crate::json::MAX_DEPTH_CEILING) (1024), since values are walked recursively afterwards.
    pub max_depth: usize,
}

impl Default for EncodeOptions {
    fn default() -> EncodeOptions {
        EncodeOptions {
            lossless: false,
            compat: Compat::Checked,
            literal_numbers: false,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

impl EncodeOptions {
    /// Byte parity with gcx-go for every input ([`Compat::GcxGo`]).
    ///
    /// ```
    /// use agentwire::gcx::{Compat, EncodeOptions};
    /// let options = EncodeOptions::gcx_go();
    /// assert_eq!(options.compat, Compat::GcxGo);
    /// assert!(!options.lossless);
    /// ```
    pub fn gcx_go() -> EncodeOptions {
        EncodeOptions {
            compat: Compat::GcxGo,
            ..EncodeOptions::default()
        }
    }

    pub(crate) fn mode(&self) -> Mode {
        match (self.lossless, self.compat) {
            (true, _) => Mode::Lossless,
            (false, Compat::Checked) => Mode::Checked,
            (false, Compat::GcxGo) => Mode::GcxGo,
        }
    }

    /// The JSON parse options for input text under these options.
    ///
    /// ```
    /// use agentwire::{gcx::EncodeOptions, json};
    /// let options = EncodeOptions { literal_numbers: true, ..EncodeOptions::default() };
    /// let value = json::parse_with("[1.0]", &options.parse_options())?;
    /// let payload = agentwire::gcx::encode_generic("t", &value, &options)?;
    /// assert_eq!(payload, "GCX1 tool=t fields=value rows=1\n1.0\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parse_options(&self) -> ParseOptions {
        ParseOptions {
            max_depth: self.max_depth,
            literal_numbers: self.literal_numbers,
        }
    }
}

/// One typed row value, stringified the way gcx-go's `stringify` does.
///
/// ```
/// use agentwire::gcx::{Cell, EncodeOptions, Encoder, Header};
/// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
/// enc.begin_section(&Header::new("t", ["s", "n", "f", "b", "none"]))?;
/// enc.write_row(&[
///     Cell::Str("a\tb"),
///     Cell::I64(-3),
///     Cell::F64(1e6),
///     Cell::Bool(true),
///     Cell::Null,
/// ])?;
/// assert_eq!(
///     enc.finish()?,
///     "GCX1 tool=t fields=s,n,f,b,none\na\\tb\t-3\t1e+06\ttrue\t\n"
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    /// Go `nil`: an empty cell.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// Decimal.
    I64(i64),
    /// Decimal.
    U64(u64),
    /// Go `%g` shortest (`1e+06`, `0.1`, `NaN`, `+Inf`).
    F64(f64),
    /// Go `%g` shortest at 32-bit precision.
    F32(f32),
    /// A number kept as its literal text (Go `json.Number`), printed verbatim.
    Number(&'a str),
    /// Text.
    Str(&'a str),
    /// Raw bytes printed as text; they must be UTF-8.
    Bytes(&'a [u8]),
}

impl Cell<'_> {
    /// Appends the unescaped text of the cell.
    ///
    /// ```
    /// use agentwire::gcx::Cell;
    /// let mut out = String::new();
    /// Cell::F64(0.5).write_text(&mut out)?;
    /// out.push(' ');
    /// Cell::U64(u64::MAX).write_text(&mut out)?;
    /// assert_eq!(out, "0.5 18446744073709551615");
    /// assert_eq!(
    ///     Cell::Bytes(b"\xff").write_text(&mut out).unwrap_err().code(),
    ///     "INVALID_UTF8"
    /// );
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn write_text(&self, out: &mut String) -> Result<()> {
        match *self {
            Cell::Null => {}
            Cell::Bool(b) => out.push_str(if b { "true" } else { "false" }),
            Cell::I64(v) => write_i64(out, v),
            Cell::U64(v) => write_u64(out, v),
            Cell::F64(v) => write_go_g_f64(out, v),
            Cell::F32(v) => write_go_g_f32(out, v),
            Cell::Number(text) | Cell::Str(text) => out.push_str(text),
            Cell::Bytes(bytes) => match core::str::from_utf8(bytes) {
                Ok(text) => out.push_str(text),
                Err(e) => {
                    return Err(Error::new(
                        ErrorKind::InvalidUtf8,
                        alloc::format!(
                            "bytes cell is not UTF-8 (invalid byte at index {})",
                            e.valid_up_to()
                        ),
                    ));
                }
            },
        }
        Ok(())
    }
}

/// Writes GCX1 sections to a [`Sink`], one whole line at a time.
///
/// Like gcx-go, an error is sticky: after the first failure nothing more is written and every
/// later call returns that error.
///
/// ```
/// use agentwire::gcx::{Cell, EncodeOptions, Encoder, Header};
/// let mut enc = Encoder::new(Vec::<u8>::new(), EncodeOptions::default());
/// enc.begin_section(&Header::new("t", ["a", "b"]))?;
/// enc.write_row(&[Cell::Str("x")])?; // fewer cells: trailing columns empty
/// assert_eq!(enc.write_row(&[Cell::Null; 3]).unwrap_err().code(), "GCX_TOO_MANY_VALUES");
/// assert!(enc.write_row(&[]).is_err()); // the first error is sticky
/// assert_eq!(enc.sink(), b"GCX1 tool=t fields=a,b\nx\t\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct Encoder<S: Sink = String> {
    sink: S,
    options: EncodeOptions,
    field_count: Option<usize>,
    failed: Option<Error>,
    line: String,
    text: String,
}

impl<S: Sink> Encoder<S> {
    /// An encoder writing to `sink`. Start each section with [`begin_section`](Self::begin_section).
    ///
    /// ```
    /// use agentwire::gcx::{Cell, EncodeOptions, Encoder, Header};
    /// let mut out = String::new();
    /// let mut enc = Encoder::new(&mut out, EncodeOptions::default()); // any Sink, here borrowed
    /// enc.begin_section(&Header::new("t", ["n"]))?;
    /// enc.write_row(&[Cell::I64(1)])?;
    /// enc.finish()?;
    /// assert_eq!(out, "GCX1 tool=t fields=n\n1\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn new(sink: S, options: EncodeOptions) -> Encoder<S> {
        Encoder {
            sink,
            options,
            field_count: None,
            failed: None,
            // Most lines fit: one allocation instead of a run of doublings.
            line: String::with_capacity(256),
            text: String::new(),
        }
    }

    /// Writes the header line of a new section (multi-section payloads are simply
    /// consecutive sections).
    ///
    /// ```
    /// use agentwire::gcx::{Cell, EncodeOptions, Encoder, Header};
    /// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
    /// enc.begin_section(&Header::new("a", ["x"]))?;
    /// enc.write_row(&[Cell::I64(1)])?;
    /// enc.begin_section(&Header::new("b", ["y"]).with_meta("rows", "1"))?;
    /// enc.write_row(&[Cell::I64(2)])?;
    /// assert_eq!(enc.finish()?, "GCX1 tool=a fields=x\n1\nGCX1 tool=b fields=y rows=1\n2\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn begin_section(&mut self, header: &Header) -> Result<()> {
        self.begin_section_parts(&HeaderParts::of(header))
    }

    /// [`begin_section`](Self::begin_section) from borrowed parts.
    pub(crate) fn begin_section_parts<F, M, K, V>(
        &mut self,
        header: &HeaderParts<'_, F, M>,
    ) -> Result<()>
    where
        F: AsRef<str>,
        M: Iterator<Item = (K, V)> + Clone,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        self.check_failed()?;
        self.line.clear();
        let result = header
            .write_mode(&mut self.line, self.options.mode())
            .and_then(|()| self.check_line_length());
        self.emit(result)?;
        self.field_count = Some(header.fields.len());
        Ok(())
    }

    /// Writes one row. Fewer cells than fields leave the trailing columns empty; more is an
    /// error.
    ///
    /// ```
    /// use agentwire::gcx::{Cell, EncodeOptions, Encoder, Header};
    /// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
    /// enc.begin_section(&Header::new("t", ["name", "size"]))?;
    /// enc.write_row(&[Cell::Str("line\nbreak"), Cell::U64(42)])?;
    /// assert_eq!(enc.finish()?, "GCX1 tool=t fields=name,size\nline\\nbreak\t42\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn write_row(&mut self, cells: &[Cell<'_>]) -> Result<()> {
        self.check_failed()?;
        let result = self.render_row(cells);
        self.emit(result)
    }

    /// Writes `# text` (LF in `text` becomes a space; nothing else is escaped).
    ///
    /// ```
    /// use agentwire::gcx::{EncodeOptions, Encoder, Header};
    /// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
    /// enc.begin_section(&Header::new("t", ["a"]))?;
    /// enc.write_comment("two\nlines")?;
    /// assert_eq!(enc.finish()?, "GCX1 tool=t fields=a\n# two lines\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn write_comment(&mut self, text: &str) -> Result<()> {
        self.check_failed()?;
        if self.field_count.is_none() {
            return self.emit(Err(no_section()));
        }
        self.line.clear();
        self.line.push_str("# ");
        for piece in text.split('\n').enumerate() {
            if piece.0 > 0 {
                self.line.push(' ');
            }
            self.line.push_str(piece.1);
        }
        self.line.push('\n');
        self.emit(Ok(()))
    }

    /// The sticky error, if any call failed.
    ///
    /// ```
    /// use agentwire::gcx::{Cell, EncodeOptions, Encoder};
    /// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
    /// assert!(enc.error().is_none());
    /// assert!(enc.write_row(&[Cell::Null]).is_err()); // no section begun
    /// assert_eq!(enc.error().map(|e| e.code()), Some("GCX_NO_SECTION"));
    /// ```
    pub fn error(&self) -> Option<&Error> {
        self.failed.as_ref()
    }

    /// The sink (e.g. to read what a `String` sink holds so far).
    ///
    /// ```
    /// use agentwire::gcx::{EncodeOptions, Encoder, Header};
    /// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
    /// enc.begin_section(&Header::new("t", ["a"]))?;
    /// assert_eq!(enc.sink(), "GCX1 tool=t fields=a\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The sink, mutably (e.g. to drain a `String` sink while streaming).
    ///
    /// ```
    /// use agentwire::gcx::{Cell, EncodeOptions, Encoder, Header};
    /// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
    /// enc.begin_section(&Header::new("t", ["a"]))?;
    /// let header = std::mem::take(enc.sink_mut()); // send what is ready, keep streaming
    /// enc.write_row(&[Cell::I64(7)])?;
    /// assert_eq!(header, "GCX1 tool=t fields=a\n");
    /// assert_eq!(enc.finish()?, "7\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn sink_mut(&mut self) -> &mut S {
        &mut self.sink
    }

    /// Ends encoding: the sink, or the sticky error.
    ///
    /// ```
    /// use agentwire::gcx::{Cell, EncodeOptions, Encoder, Header};
    /// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
    /// enc.begin_section(&Header::new("t", ["a"]))?;
    /// enc.write_row(&[Cell::Bool(false)])?;
    /// assert_eq!(enc.finish()?, "GCX1 tool=t fields=a\nfalse\n");
    /// let mut failed = Encoder::new(String::new(), EncodeOptions::default());
    /// let _ = failed.write_comment("before any section");
    /// assert_eq!(failed.finish().unwrap_err().code(), "GCX_NO_SECTION");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn finish(self) -> Result<S> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.sink),
        }
    }

    fn check_failed(&self) -> Result<()> {
        match &self.failed {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Writes the prepared line if `result` is Ok; otherwise records the sticky error.
    fn emit(&mut self, result: Result<()>) -> Result<()> {
        let result = result.and_then(|()| self.sink.write_str(&self.line));
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    fn render_row(&mut self, cells: &[Cell<'_>]) -> Result<()> {
        let field_count = self.begin_row(cells.len())?;
        let mode = self.options.mode();
        for i in 0..field_count {
            if i > 0 {
                self.line.push('\t');
            }
            let Some(cell) = cells.get(i) else { continue };
            // Text cells are escaped straight from the caller's string.
            let text = match *cell {
                Cell::Str(text) | Cell::Number(text) => text,
                _ => {
                    self.text.clear();
                    cell.write_text(&mut self.text)?;
                    &self.text
                }
            };
            push_cell(&mut self.line, i, text, mode)?;
        }
        self.end_row(field_count)
    }

    /// Writes one row of JSON values as the generic fallback and the tool layouts render
    /// them: absent or null is empty, strings raw, numbers and booleans JSON, arrays joined
    /// with the column's separator when it has one, other containers Go-compact JSON; every
    /// cell row-escaped, with the same lossless checks as [`write_row`](Self::write_row).
    pub(crate) fn write_values(
        &mut self,
        values: &[Option<&Value>],
        joins: &[Option<&str>],
    ) -> Result<()> {
        self.check_failed()?;
        let result = self.render_values(values, joins);
        self.emit(result)
    }

    fn render_values(&mut self, values: &[Option<&Value>], joins: &[Option<&str>]) -> Result<()> {
        let field_count = self.field_count.ok_or_else(no_section)?;
        self.line.clear();
        push_value_row(
            &mut self.line,
            &mut self.text,
            field_count,
            values,
            joins,
            self.options.mode(),
        )
    }

    /// Checks a row's value count against the section and clears the line buffer.
    fn begin_row(&mut self, values: usize) -> Result<usize> {
        let field_count = self.field_count.ok_or_else(no_section)?;
        if values > field_count {
            return Err(Error::new(
                ErrorKind::GcxTooManyValues,
                alloc::format!(
                    "wire: row has {values} values but header declared {field_count} fields"
                ),
            ));
        }
        self.line.clear();
        // Missing trailing values still get their separators.
        Ok(field_count)
    }

    /// Checks and ends the row line.
    fn end_row(&mut self, field_count: usize) -> Result<()> {
        end_row(&mut self.line, 0, field_count, self.options.mode())
    }

    /// Unless in gcx-go mode, refuses a line the default decoder would reject as too long.
    fn check_line_length(&self) -> Result<()> {
        let content = self.line.strip_suffix('\n').unwrap_or(&self.line).len();
        check_line_length(content, self.options.mode())
    }
}

/// Unless in gcx-go mode, refuses a line the default decoder would reject as too long.
fn check_line_length(content: usize, mode: Mode) -> Result<()> {
    if mode != Mode::GcxGo && content >= DEFAULT_MAX_LINE_BYTES {
        return Err(refusal(
            mode,
            &alloc::format!(
                "a {content}-byte line exceeds the decoders' {DEFAULT_MAX_LINE_BYTES}-byte line limit"
            ),
        ));
    }
    Ok(())
}

/// The error of a lossless or checked encoder refusing `what`.
#[cold]
#[inline(never)]
pub(crate) fn refusal(mode: Mode, what: &str) -> Error {
    if mode.lossless() {
        return Error::new(
            ErrorKind::GcxNotLossless,
            alloc::format!("lossless: {what}"),
        );
    }
    Error::new(
        ErrorKind::GcxUndecodable,
        alloc::format!("undecodable: {what} (compat gcx-go writes it anyway)"),
    )
}

/// Ends the row that starts at byte `start` of `out`: the lossless checks, then its LF.
fn end_row(out: &mut String, start: usize, field_count: usize, mode: Mode) -> Result<()> {
    let content = out.len() - start;
    if mode.lossless() && content == 0 && field_count == 1 {
        return Err(Error::new(
            ErrorKind::GcxNotLossless,
            "lossless: a one-field row with an empty cell is a blank line, which decoders skip",
        ));
    }
    check_line_length(content, mode)?;
    out.push('\n');
    Ok(())
}

/// Appends a section's header line to `out` as [`Encoder::begin_section`] writes it; returns
/// its field count.
pub(crate) fn push_header<F, M, K, V>(
    out: &mut String,
    header: &HeaderParts<'_, F, M>,
    mode: Mode,
) -> Result<usize>
where
    F: AsRef<str>,
    M: Iterator<Item = (K, V)> + Clone,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let start = out.len();
    header.write_mode(out, mode)?;
    check_line_length(out.len() - start - 1, mode)?;
    Ok(header.fields.len())
}

/// Appends one row of JSON values and its LF to `out`, as [`Encoder::write_values`] writes
/// it (`scratch` holds rendered containers). On error `out` may hold part of the row.
pub(crate) fn push_value_row(
    out: &mut String,
    scratch: &mut String,
    field_count: usize,
    values: &[Option<&Value>],
    joins: &[Option<&str>],
    mode: Mode,
) -> Result<()> {
    if values.len() > field_count {
        return Err(too_many_values(values.len(), field_count));
    }
    let start = out.len();
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.push('\t');
        }
        let join = match joins.get(i) {
            Some(join) => *join,
            None => None,
        };
        let text = match (value, join) {
            (None | Some(Value::Null), _) => "",
            (Some(Value::String(s)), _) => s.as_str(),
            (Some(Value::Array(items)), Some(separator)) => {
                join_into(scratch, items, separator)?;
                scratch.as_str()
            }
            (Some(Value::Bool(b)), _) => {
                if *b {
                    "true"
                } else {
                    "false"
                }
            }
            // Number text needs no escaping and is never a comment, a header or CR.
            (Some(Value::Number(n)), _) => {
                n.write_json(out)?;
                continue;
            }
            // Go-compact JSON starts with `[` or `{` (not a comment or a header) and holds no
            // TAB, LF or CR (they are escaped): row-escaping it only doubles its backslashes,
            // which the writer does as it goes.
            (Some(other), _) => {
                json::write_row_escaped(out, other)?;
                continue;
            }
        };
        push_cell(out, i, text, mode)?;
    }
    // Missing trailing values still get their separators.
    for _ in values.len().max(1)..field_count {
        out.push('\t');
    }
    end_row(out, start, field_count, mode)
}

/// `items` joined with `separator` into `scratch` (strings raw, others JSON).
#[inline(never)]
fn join_into(scratch: &mut String, items: &[Value], separator: &str) -> Result<()> {
    scratch.clear();
    scratch.reserve(64);
    for (j, item) in items.iter().enumerate() {
        if j > 0 {
            scratch.push_str(separator);
        }
        match item {
            Value::String(s) => scratch.push_str(s),
            Value::Null => {}
            other => json::write(scratch, other, WriteOptions::GO)?,
        }
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn too_many_values(values: usize, field_count: usize) -> Error {
    Error::new(
        ErrorKind::GcxTooManyValues,
        alloc::format!("wire: row has {values} values but header declared {field_count} fields"),
    )
}

/// Appends cell `i`'s text, escaped; in lossless mode refuses CR and protects a first cell
/// that would read as a comment or a header; checked, refuses a first cell read as a header.
#[inline]
fn push_cell(line: &mut String, i: usize, text: &str, mode: Mode) -> Result<()> {
    match mode {
        Mode::Lossless => lossless_cell(line, i, text)?,
        Mode::Checked if i == 0 && text.starts_with(TAG) => {
            return Err(refusal(
                mode,
                &alloc::format!(
                    "the first cell {} starts a row that decoders read as a section header",
                    go_quote(text.as_bytes(), 40)
                ),
            ));
        }
        _ => {}
    }
    escape_into(line, text);
    Ok(())
}

/// The lossless checks of a cell (kept out of the common path).
#[inline(never)]
fn lossless_cell(line: &mut String, i: usize, text: &str) -> Result<()> {
    if text.contains('\r') {
        return Err(Error::new(
            ErrorKind::GcxNotLossless,
            alloc::format!(
                "lossless: cell {} contains CR, which GCX1 cannot carry",
                go_quote(text.as_bytes(), 40)
            ),
        ));
    }
    // A first cell read as a comment or a header is protected by a backslash.
    if i == 0 && (text.starts_with('#') || text.starts_with(TAG)) {
        line.push('\\');
    }
    Ok(())
}

fn no_section() -> Error {
    Error::new(
        ErrorKind::GcxNoSection,
        "no section: begin a section before writing rows or comments",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_comments_and_sticky_errors() {
        let mut enc = Encoder::new(String::new(), EncodeOptions::default());
        enc.begin_section(&Header::new("x", ["a", "b", "c"]))
            .unwrap();
        enc.write_comment("two\nlines").unwrap();
        enc.write_row(&[Cell::Str("only-a")]).unwrap();
        enc.write_row(&[Cell::F64(1e6), Cell::I64(-3), Cell::Bool(true)])
            .unwrap();
        let err = enc
            .write_row(&[Cell::Null, Cell::Null, Cell::Null, Cell::Null])
            .unwrap_err();
        assert_eq!(
            err.message(),
            "wire: row has 4 values but header declared 3 fields"
        );
        assert_eq!(enc.write_comment("later").unwrap_err(), err);
        assert_eq!(
            enc.sink(),
            "GCX1 tool=x fields=a,b,c\n# two lines\nonly-a\t\t\n1e+06\t-3\ttrue\n"
        );
        assert!(enc.finish().is_err());
    }

    #[test]
    fn checked_refuses_what_decoders_reject_and_changes_no_byte() {
        let write = |options: EncodeOptions, header: Header, row: &[Cell<'_>]| {
            let mut enc = Encoder::new(String::new(), options);
            enc.begin_section(&header)
                .and_then(|()| enc.write_row(row))
                .map(|()| enc.finish().unwrap())
        };
        let undecodable = [
            (Header::new("a b", ["x"]), "GCX1 tool=a b fields=x\n1\n"),
            (Header::new("t", ["x y"]), "GCX1 tool=t fields=x y\n1\n"),
            (Header::new("", ["x"]), "GCX1 tool= fields=x\n1\n"),
            (
                Header::new("t", ["x", "y"]).with_meta("fields", "z"),
                "GCX1 tool=t fields=x,y fields=z\n1\t\n",
            ),
        ];
        for (header, parity) in undecodable {
            let err = write(EncodeOptions::default(), header.clone(), &[Cell::I64(1)]).unwrap_err();
            assert_eq!(err.code(), "GCX_UNDECODABLE", "{header:?}");
            assert!(
                err.message().starts_with("undecodable: header of "),
                "{}",
                err.message()
            );
            let bytes = write(EncodeOptions::gcx_go(), header, &[Cell::I64(1)]).unwrap();
            assert_eq!(bytes, parity);
        }
        let err = write(
            EncodeOptions::default(),
            Header::new("t", ["x"]),
            &[Cell::Str("GCX1 x")],
        )
        .unwrap_err();
        assert_eq!(err.code(), "GCX_UNDECODABLE");
        // What decoders read (even lossily) keeps gcx-go's bytes.
        for (header, cell) in [
            (
                Header::new("t", ["a\\b", "c,d"]).with_meta("k", "v w=x"),
                "#x",
            ),
            (Header::new("t", ["a"]), ""),
        ] {
            assert_eq!(
                write(EncodeOptions::default(), header.clone(), &[Cell::Str(cell)]).unwrap(),
                write(EncodeOptions::gcx_go(), header, &[Cell::Str(cell)]).unwrap()
            );
        }
    }

    #[test]
    fn lossless_protects_first_cells() {
        let mut enc = Encoder::new(
            String::new(),
            EncodeOptions {
                lossless: true,
                ..EncodeOptions::default()
            },
        );
        enc.begin_section(&Header::new("x", ["a", "b"])).unwrap();
        enc.write_row(&[Cell::Str("#tag"), Cell::Str("1")]).unwrap();
        enc.write_row(&[Cell::Str("GCX1 x")]).unwrap();
        enc.begin_section(&Header::new("y", ["v"])).unwrap();
        let err = enc.write_row(&[Cell::Str("")]).unwrap_err();
        assert_eq!(err.code(), "GCX_NOT_LOSSLESS");
        assert_eq!(
            enc.sink(),
            "GCX1 tool=x fields=a,b\n\\#tag\t1\n\\GCX1 x\t\nGCX1 tool=y fields=v\n"
        );
    }
}
