//! The decoder: a recursive descent over the lines of the text, read one at a time with one
//! line of lookahead. Nothing is allocated per line; what is allocated is the returned value
//! (and a few buffers reused across lines).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::expand::{self, KeyMeta};
use super::header::{self, Fatal, FieldSpec, Header, Parsed, first_duplicate, unescape};
use super::syntax::{
    Numeral, closing_quote, find_unquoted, find_unquoted2, numeral, path_segments, trim_spaces,
};
use super::{DecodeOptions, ExpandPaths, check_indent};
use crate::json::{Map, Number, Value};
use crate::{Error, ErrorKind, Position, Result};

/// Decodes TOON text into a JSON value (spec §4–§14).
///
/// The root is an array when the first line is a root header (`[N]: …`, `[N]{…}:`) or `[]`,
/// a keyed object when it is `[N:]{…}:`, a primitive when the text is one line without a key,
/// an object otherwise (an empty text is `{}`). Comment lines (`#` after spaces) and a byte
/// order mark at the start are skipped; CRLF reads as LF. Numbers: see the
/// [module docs](super). Errors: a `TOON_` code with the line and column, or
/// `INVALID_ARGUMENT` for an `indent` outside 1..=[`MAX_INDENT`](super::MAX_INDENT).
///
/// ```
/// use agentwire::{json, toon};
/// let text = "servers[2:]{host,port}:\n  alpha: a.example.com,8080\n  beta: b.example.com,9090";
/// let value = toon::decode(text, &toon::DecodeOptions::default())?;
/// assert_eq!(json::to_string(&value, json::WriteOptions::PLAIN)?,
///            r#"{"servers":{"alpha":{"host":"a.example.com","port":8080},"beta":{"host":"b.example.com","port":9090}}}"#);
///
/// let err = toon::decode("items[2]{id,name}:\n  1,Ada\n  2", &Default::default()).unwrap_err();
/// assert_eq!((err.code(), err.line(), err.column()), ("TOON_COUNT_MISMATCH", Some(3), Some(3)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode(text: &str, options: &DecodeOptions) -> Result<Value> {
    check_indent(options.indent)?;
    let mut decoder = Decoder {
        text,
        bytes: text.as_bytes(),
        pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
        done: false,
        peeked: None,
        pending_blank: None,
        indent: options.indent,
        strict: options.strict,
        expand: options.expand_paths == ExpandPaths::Safe,
        max_depth: options.max_depth,
        span: 0,
        metas: Vec::new(),
        cells: Vec::new(),
    };
    decoder.document()
}

/// A line with content (not blank, not a comment).
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Offset of the content (after the indentation).
    start: usize,
    /// Offset after the content (trailing spaces and a CR dropped).
    end: usize,
    depth: usize,
    /// The first blank line between this line and the previous content line.
    blank_before: Option<usize>,
}

struct Decoder<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// Where the next unread line starts.
    pos: usize,
    done: bool,
    peeked: Option<Line>,
    pending_blank: Option<usize>,
    indent: usize,
    strict: bool,
    expand: bool,
    max_depth: usize,
    /// How many arrays' item spans the next line lies in (spec §12: no blank line inside).
    span: usize,
    /// Where each member of the objects being built stands (a stack shared by all of them).
    metas: Vec<KeyMeta>,
    /// The cells of the current row.
    cells: Vec<(usize, usize)>,
}

impl<'a> Decoder<'a> {
    // ---- lines ------------------------------------------------------------------------------

    fn peek(&mut self) -> Result<Option<Line>> {
        if self.peeked.is_none() {
            self.peeked = self.scan()?;
        }
        Ok(self.peeked)
    }

    /// Consumes the peeked line `line`.
    fn consume(&mut self, line: &Line) -> Result<()> {
        self.peeked = None;
        match line.blank_before {
            Some(blank) if self.strict && self.span > 0 => Err(self.error(
                ErrorKind::ToonBlankLine,
                "blank line inside an array (strict mode)",
                blank,
            )),
            _ => Ok(()),
        }
    }

    /// The next line with content; comment lines are dropped and blank lines noted.
    fn scan(&mut self) -> Result<Option<Line>> {
        let b = self.bytes;
        loop {
            if self.done {
                return Ok(None);
            }
            let line_start = self.pos;
            let mut end = match memchr::memchr(b'\n', &b[line_start..]) {
                Some(i) => {
                    self.pos = line_start + i + 1;
                    line_start + i
                }
                None => {
                    self.done = true;
                    b.len()
                }
            };
            if end > line_start && b[end - 1] == b'\r' {
                end -= 1;
            }
            let mut i = line_start;
            let mut tabs = 0;
            let mut first_tab = None;
            while i < end {
                match b[i] {
                    b' ' => {}
                    b'\t' => {
                        tabs += 1;
                        first_tab.get_or_insert(i);
                    }
                    _ => break,
                }
                i += 1;
            }
            let indentation_end = i;
            // Strict: the content starts at a tab, so a tab-indented line is never blank.
            let start = match first_tab {
                Some(tab) if self.strict => tab,
                _ => indentation_end,
            };
            let mut content_end = end;
            while content_end > start && b[content_end - 1] == b' ' {
                content_end -= 1;
            }
            if first_tab.is_none() && start < content_end && b[start] == b'#' {
                continue;
            }
            if start == content_end {
                self.pending_blank.get_or_insert(line_start);
                continue;
            }
            let depth = match first_tab {
                Some(tab) if self.strict => {
                    return Err(self.error(
                        ErrorKind::ToonIndentation,
                        "tabs are not allowed in indentation (strict mode)",
                        tab,
                    ));
                }
                // Lenient: a tab is one level.
                Some(_) => (indentation_end - line_start - tabs) / self.indent + tabs,
                None => {
                    let spaces = indentation_end - line_start;
                    if self.strict && !spaces.is_multiple_of(self.indent) {
                        return Err(self.error(
                            ErrorKind::ToonIndentation,
                            format!(
                                "indentation of {spaces} spaces is not a multiple of {} (strict mode)",
                                self.indent
                            ),
                            start,
                        ));
                    }
                    spaces / self.indent
                }
            };
            return Ok(Some(Line {
                start,
                end: content_end,
                depth,
                blank_before: self.pending_blank.take(),
            }));
        }
    }

    fn content(&self, line: &Line) -> &'a str {
        &self.text[line.start..line.end]
    }

    /// Bytes not read yet: a bound on how many lines can still come.
    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    // ---- errors -----------------------------------------------------------------------------

    fn error(&self, kind: ErrorKind, message: impl Into<String>, at: usize) -> Error {
        Error::at(kind, message, Position::in_text(self.bytes, at))
    }

    fn syntax(&self, message: impl Into<String>, at: usize) -> Error {
        self.error(ErrorKind::ToonSyntax, message, at)
    }

    fn over_indented(&self, line: &Line, expected: usize) -> Error {
        self.error(
            ErrorKind::ToonIndentation,
            format!(
                "line at depth {} where depth {expected} was expected (no enclosing scope takes it)",
                line.depth
            ),
            line.start,
        )
    }

    fn count_mismatch(&self, what: &str, declared: u64, found: usize, at: usize) -> Error {
        self.error(
            ErrorKind::ToonCountMismatch,
            format!("expected {declared} {what}, found {found}"),
            at,
        )
    }

    /// A container at nesting `depth` must be within the limit.
    fn nest(&self, depth: usize, at: usize) -> Result<()> {
        if depth > self.max_depth {
            return Err(self.error(
                ErrorKind::ToonDepth,
                format!("nesting deeper than {} levels", self.max_depth),
                at,
            ));
        }
        Ok(())
    }

    fn header(&self, content: &str, base: usize) -> Result<Parsed> {
        let parsed =
            header::parse(content, base, self.expand, self.max_depth).map_err(|e| match e {
                Fatal::Escape(message, at) => self.syntax(message, at),
                Fatal::Depth(at) => self.error(
                    ErrorKind::ToonDepth,
                    format!("field groups nested deeper than {} levels", self.max_depth),
                    at,
                ),
            })?;
        if let Parsed::Header(Header {
            duplicate: Some((name, at)),
            ..
        }) = &parsed
            && self.strict
        {
            return Err(self.error(
                ErrorKind::ToonDuplicateKey,
                format!("field name {name:?} appears twice in one field list (strict mode)"),
                *at,
            ));
        }
        Ok(parsed)
    }

    /// Key segments path expansion makes of `key` (1 when it stays one key).
    fn segments(&self, key: &str, quoted: bool) -> usize {
        if self.expand && !quoted {
            path_segments(key).max(1)
        } else {
            1
        }
    }

    // ---- document ---------------------------------------------------------------------------

    fn document(&mut self) -> Result<Value> {
        let Some(first) = self.peek()? else {
            return Ok(Value::Object(Map::new()));
        };
        if first.depth != 0 {
            return Err(self.over_indented(&first, 0));
        }
        let content = self.content(&first);
        if content == "[]" {
            self.consume(&first)?;
            self.nest(1, first.start)?;
            self.end_of_root()?;
            return Ok(Value::Array(Vec::new()));
        }
        if content.starts_with('[') {
            match self.header(content, first.start)? {
                Parsed::Header(header) if header.key.is_none() => {
                    self.consume(&first)?;
                    let value = self.array(header, &first, 0, 1)?;
                    self.end_of_root()?;
                    return Ok(value);
                }
                Parsed::Invalid(message, at) if self.strict => {
                    return Err(self.syntax(message, at));
                }
                _ => {}
            }
        }
        self.consume(&first)?;
        if find_unquoted(content.as_bytes(), 0, b':').is_none() {
            return match self.peek()? {
                None => self.primitive(content, first.start),
                Some(next) if next.depth == 0 => Err(self.syntax(
                    "a document holds one root value: a line without a key is a root primitive only when it is the only line",
                    first.start,
                )),
                Some(_) => Err(self.syntax("missing colon after key", first.start)),
            };
        }
        self.nest(1, first.start)?;
        let meta_start = self.metas.len();
        let mut entries = Vec::new();
        self.member(&first, first.start, 0, 1, &mut entries)?;
        while let Some(line) = self.peek()? {
            if line.depth != 0 {
                return Err(self.over_indented(&line, 0));
            }
            self.consume(&line)?;
            self.member(&line, line.start, 0, 1, &mut entries)?;
        }
        Ok(Value::Object(self.finish_object(entries, meta_start)?))
    }

    /// Nothing may follow a root array or keyed root object (spec §5).
    fn end_of_root(&mut self) -> Result<()> {
        match self.peek()? {
            Some(line) => Err(self.error(
                ErrorKind::ToonTrailingContent,
                "content after the end of the root array or keyed object",
                line.start,
            )),
            None => Ok(()),
        }
    }

    // ---- objects ----------------------------------------------------------------------------

    /// The fields of a nested object: the lines from here at a depth of at least `min_depth`
    /// (all at the depth of the first). `depth`: the object's nesting.
    fn object(&mut self, min_depth: usize, depth: usize) -> Result<Map> {
        let meta_start = self.metas.len();
        let mut entries = Vec::new();
        let mut level = None;
        while let Some(line) = self.peek()? {
            if line.depth < min_depth {
                break;
            }
            let level = *level.get_or_insert(line.depth);
            if line.depth != level {
                return Err(self.over_indented(&line, level));
            }
            self.consume(&line)?;
            self.member(&line, line.start, level, depth, &mut entries)?;
        }
        self.finish_object(entries, meta_start)
    }

    /// One field from the line `line` (already consumed), whose field text starts at `start`
    /// (after a list item's hyphen), standing at `depth`, into an object at nesting
    /// `container`.
    fn member(
        &mut self,
        line: &Line,
        start: usize,
        depth: usize,
        container: usize,
        entries: &mut Vec<(String, Value)>,
    ) -> Result<()> {
        let content = &self.text[start..line.end];
        // Lenient mode reads a header where it may not stand, or a malformed one, as a
        // key-value line whose key is the text before the first unquoted colon, taken
        // literally (spec §5.2, §6).
        let literal = match self.header(content, start)? {
            Parsed::Header(mut header) => match header.key.take() {
                Some(key) => {
                    let segments = self.segments(&key.name, key.quoted);
                    let value = self.array(header, line, depth, container + segments)?;
                    entries.push((key.name, value));
                    self.metas.push(KeyMeta {
                        at: key.at,
                        split: segments > 1,
                    });
                    return Ok(());
                }
                None if self.strict => {
                    let message = if header.keyed || header.fields.is_some() {
                        "a keyless header with a field list stands only at the document root"
                    } else {
                        "a keyless array header stands only at the document root or after a list item's hyphen"
                    };
                    return Err(self.syntax(message, start));
                }
                None => true,
            },
            Parsed::Invalid(message, at) if self.strict => {
                return Err(self.syntax(message, at));
            }
            Parsed::Invalid(..) => true,
            Parsed::NotHeader => false,
        };
        let (key, quoted, after) = if literal {
            let colon = find_unquoted(content.as_bytes(), 0, b':').unwrap_or(content.len());
            let (key, _) = trim_spaces(&content[..colon]);
            (String::from(key), true, (colon + 1).min(content.len()))
        } else {
            self.key_token(content, start)?
        };
        let segments = self.segments(&key, quoted);
        if segments > 1 {
            self.nest(container + segments - 1, start)?;
        }
        let (rest, offset) = trim_spaces(&content[after..]);
        let value = self.field_value(
            rest,
            start + after + offset,
            line,
            depth,
            container + segments,
        )?;
        entries.push((key, value));
        self.metas.push(KeyMeta {
            at: start,
            split: segments > 1,
        });
        Ok(())
    }

    /// The value after a key's colon: `rest` (trimmed, at `at`), or when empty the object of
    /// the lines below. `depth`: the key's depth; `child`: the value's nesting.
    fn field_value(
        &mut self,
        rest: &str,
        at: usize,
        line: &Line,
        depth: usize,
        child: usize,
    ) -> Result<Value> {
        if rest.is_empty() {
            self.nest(child, line.start)?;
            if let Some(next) = self.peek()?
                && next.depth > depth
            {
                if self.strict && next.depth > depth + 1 {
                    return Err(self.depth_jump(&next, depth));
                }
                return Ok(Value::Object(self.object(depth + 1, child)?));
            }
            return Ok(Value::Object(Map::new()));
        }
        if rest == "[]" {
            self.nest(child, at)?;
            return Ok(Value::Array(Vec::new()));
        }
        self.primitive(rest, at)
    }

    fn depth_jump(&self, line: &Line, parent: usize) -> Error {
        self.error(
            ErrorKind::ToonIndentation,
            format!(
                "indentation jumps from depth {parent} to {} (strict mode: one level at a time)",
                line.depth
            ),
            line.start,
        )
    }

    /// The key of a key-value line: its text, whether it was quoted, and the index after the
    /// colon.
    fn key_token(&self, content: &str, base: usize) -> Result<(String, bool, usize)> {
        let b = content.as_bytes();
        if b.first() == Some(&b'"') {
            let close =
                closing_quote(b, 0).ok_or_else(|| self.syntax("unterminated quoted key", base))?;
            let key = unescape(&content[1..close])
                .map_err(|(message, at)| self.syntax(message, base + 1 + at))?;
            let mut i = close + 1;
            while b.get(i) == Some(&b' ') {
                i += 1;
            }
            if b.get(i) != Some(&b':') {
                return Err(self.syntax("missing colon after key", base + i));
            }
            return Ok((key, true, i + 1));
        }
        let colon = find_unquoted(b, 0, b':')
            .ok_or_else(|| self.syntax("missing colon after key", base))?;
        let (key, _) = trim_spaces(&content[..colon]);
        Ok((String::from(key), false, colon + 1))
    }

    /// The object of `entries`: strict mode refuses a key written twice, lenient mode keeps
    /// the last value in the first place; then path expansion, when a key asks for it.
    fn finish_object(&mut self, entries: Vec<(String, Value)>, meta_start: usize) -> Result<Map> {
        let object = self.make_object(entries, &self.metas[meta_start..]);
        self.metas.truncate(meta_start);
        object
    }

    fn make_object(&self, entries: Vec<(String, Value)>, metas: &[KeyMeta]) -> Result<Map> {
        if self.strict
            && let Some(i) = first_duplicate(entries.len(), &|i| &entries[i].0)
        {
            return Err(self.error(
                ErrorKind::ToonDuplicateKey,
                format!(
                    "key {:?} appears twice in one object (strict mode)",
                    entries[i].0
                ),
                metas[i].at,
            ));
        }
        if metas.iter().any(|m| m.split) {
            return expand::expand(entries, metas, self.strict).map_err(|c| {
                self.error(
                    ErrorKind::ToonDuplicateKey,
                    format!(
                        "path expansion cannot merge two values at key {:?} (strict mode)",
                        c.key
                    ),
                    c.at,
                )
            });
        }
        Ok(if self.strict {
            Map::from_unique(entries)
        } else {
            Map::from_members(entries)
        })
    }

    // ---- arrays -----------------------------------------------------------------------------

    /// The array (or keyed object) of `header` on `line`, whose header stands at depth `base`;
    /// `depth`: the array's nesting.
    fn array(&mut self, header: Header, line: &Line, base: usize, depth: usize) -> Result<Value> {
        self.nest(depth, line.start)?;
        if header.keyed {
            return Ok(Value::Object(self.keyed(&header, line, base, depth)?));
        }
        if let Some((start, end)) = header.inline {
            return self.inline(&header, start, end);
        }
        match &header.fields {
            Some(fields) => self.table(&header, fields, line, base, depth),
            None => self.list(&header, line, base, depth),
        }
    }

    /// Where the items of a scope opened at depth `base` stand.
    fn scope_depth(&mut self, base: usize) -> Result<usize> {
        match self.peek()? {
            Some(first) if first.depth > base + 1 => {
                if self.strict {
                    Err(self.depth_jump(&first, base))
                } else {
                    Ok(first.depth)
                }
            }
            _ => Ok(base + 1),
        }
    }

    /// A capacity for `declared` items that the rest of the input can hold (a declared length
    /// is never trusted).
    fn capacity(&self, declared: u64) -> usize {
        usize::try_from(declared)
            .unwrap_or(usize::MAX)
            .min(self.remaining() / 2 + 1)
    }

    fn inline(&mut self, header: &Header, start: usize, end: usize) -> Result<Value> {
        let mut cells = core::mem::take(&mut self.cells);
        cells.clear();
        split_cells(self.bytes, start, end, header.delimiter, &mut cells);
        if self.strict && cells.len() as u64 != header.length {
            let error = self.count_mismatch("inline values", header.length, cells.len(), start);
            self.cells = cells;
            return Err(error);
        }
        let items: Result<Vec<Value>> = cells
            .iter()
            .map(|&(s, e)| self.primitive(&self.text[s..e], s))
            .collect();
        self.cells = cells;
        Ok(Value::Array(items?))
    }

    fn table(
        &mut self,
        header: &Header,
        fields: &[FieldSpec],
        line: &Line,
        base: usize,
        depth: usize,
    ) -> Result<Value> {
        self.nest(depth + 1 + header.height, line.start)?;
        let row_depth = self.scope_depth(base)?;
        let mut rows = Vec::with_capacity(self.capacity(header.length));
        let mut in_span = false;
        while !self.strict || (rows.len() as u64) < header.length {
            let Some(next) = self.peek()? else {
                break;
            };
            if next.depth <= base {
                break;
            }
            if next.depth != row_depth {
                return Err(self.over_indented(&next, row_depth));
            }
            if !is_row(self.content(&next).as_bytes(), header.delimiter) {
                break;
            }
            self.consume(&next)?;
            if !in_span {
                in_span = true;
                self.span += 1;
            }
            rows.push(Value::Object(
                self.row(next.start, next.end, header, fields)?,
            ));
        }
        if in_span {
            self.span -= 1;
        }
        if self.strict {
            if rows.len() as u64 != header.length {
                return Err(self.count_mismatch("rows", header.length, rows.len(), line.start));
            }
            if let Some(next) = self.peek()?
                && next.depth == row_depth
                && !is_list_item(self.content(&next))
                && is_row(self.content(&next).as_bytes(), header.delimiter)
            {
                return Err(self.error(
                    ErrorKind::ToonCountMismatch,
                    format!("more than the {} rows the header declares", header.length),
                    next.start,
                ));
            }
        }
        Ok(Value::Array(rows))
    }

    /// A table row: the cells of `start..end`, by the header's fields.
    fn row(
        &mut self,
        start: usize,
        end: usize,
        header: &Header,
        fields: &[FieldSpec],
    ) -> Result<Map> {
        let mut cells = core::mem::take(&mut self.cells);
        cells.clear();
        if start < end {
            split_cells(self.bytes, start, end, header.delimiter, &mut cells);
        }
        let row = if cells.len() != header.leaves {
            Err(self.count_mismatch(
                "values in the row",
                header.leaves as u64,
                cells.len(),
                start,
            ))
        } else {
            self.row_object(fields, &cells, &mut 0, header.plain_rows, start)
        };
        self.cells = cells;
        row
    }

    /// The object of one field group of a row, taking cells from `next` on.
    fn row_object(
        &self,
        fields: &[FieldSpec],
        cells: &[(usize, usize)],
        next: &mut usize,
        plain: bool,
        at: usize,
    ) -> Result<Map> {
        let mut entries = Vec::with_capacity(fields.len());
        for field in fields {
            let value = if field.children.is_empty() {
                let (s, e) = cells[*next];
                *next += 1;
                self.primitive(&self.text[s..e], s)?
            } else {
                Value::Object(self.row_object(&field.children, cells, next, plain, at)?)
            };
            entries.push((field.name.clone(), value));
        }
        if plain {
            return Ok(Map::from_unique(entries));
        }
        let metas: Vec<KeyMeta> = fields
            .iter()
            .map(|f| KeyMeta {
                at,
                split: self.segments(&f.name, f.quoted) > 1,
            })
            .collect();
        self.make_object(entries, &metas)
    }

    fn keyed(&mut self, header: &Header, line: &Line, base: usize, depth: usize) -> Result<Map> {
        let fields = header.fields.as_deref().unwrap_or(&[]);
        self.nest(depth + 1 + header.height, line.start)?;
        let entry_depth = self.scope_depth(base)?;
        let meta_start = self.metas.len();
        let mut entries = Vec::new();
        let mut in_span = false;
        while let Some(next) = self.peek()? {
            if next.depth <= base {
                break;
            }
            if next.depth != entry_depth {
                return Err(self.over_indented(&next, entry_depth));
            }
            let content = self.content(&next);
            if find_unquoted(content.as_bytes(), 0, b':').is_none() {
                return Err(self.syntax(
                    "expected an entry row (`key: cells`) in a keyed object",
                    next.start,
                ));
            }
            self.consume(&next)?;
            if !in_span {
                in_span = true;
                self.span += 1;
            }
            let (key, quoted, after) = self.key_token(content, next.start)?;
            let segments = self.segments(&key, quoted);
            if segments > 1 {
                self.nest(depth + segments + header.height, next.start)?;
            }
            let (cells_text, offset) = trim_spaces(&content[after..]);
            let cells_start = next.start + after + offset;
            let row = self.row(cells_start, cells_start + cells_text.len(), header, fields)?;
            entries.push((key, Value::Object(row)));
            self.metas.push(KeyMeta {
                at: next.start,
                split: segments > 1,
            });
        }
        if in_span {
            self.span -= 1;
        }
        if self.strict && entries.len() as u64 != header.length {
            self.metas.truncate(meta_start);
            return Err(self.count_mismatch("entries", header.length, entries.len(), line.start));
        }
        self.finish_object(entries, meta_start)
    }

    fn list(&mut self, header: &Header, line: &Line, base: usize, depth: usize) -> Result<Value> {
        let item_depth = self.scope_depth(base)?;
        let mut items = Vec::with_capacity(self.capacity(header.length));
        let mut in_span = false;
        while !self.strict || (items.len() as u64) < header.length {
            let Some(next) = self.peek()? else {
                break;
            };
            if next.depth <= base {
                break;
            }
            if next.depth != item_depth {
                return Err(self.over_indented(&next, item_depth));
            }
            if !is_list_item(self.content(&next)) {
                break;
            }
            self.consume(&next)?;
            if !in_span {
                in_span = true;
                self.span += 1;
            }
            items.push(self.list_item(&next, item_depth, depth + 1)?);
        }
        if in_span {
            self.span -= 1;
        }
        if self.strict {
            if items.len() as u64 != header.length {
                return Err(self.count_mismatch(
                    "list items",
                    header.length,
                    items.len(),
                    line.start,
                ));
            }
            if let Some(next) = self.peek()?
                && next.depth == item_depth
                && is_list_item(self.content(&next))
            {
                return Err(self.error(
                    ErrorKind::ToonCountMismatch,
                    format!(
                        "more than the {} list items the header declares",
                        header.length
                    ),
                    next.start,
                ));
            }
        }
        Ok(Value::Array(items))
    }

    /// A list item (spec §9.4, §10) on `line` (consumed) at `item_depth`; `depth`: its nesting
    /// if it is a container.
    fn list_item(&mut self, line: &Line, item_depth: usize, depth: usize) -> Result<Value> {
        let content = self.content(line);
        let b = content.as_bytes();
        let mut i = 1;
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        let start = line.start + i;
        let rest = &content[i..];
        if rest.is_empty() {
            self.nest(depth, line.start)?;
            return Ok(Value::Object(Map::new()));
        }
        if rest == "[]" {
            self.nest(depth, start)?;
            return Ok(Value::Array(Vec::new()));
        }
        if rest.starts_with('[') {
            match self.header(rest, start)? {
                Parsed::Header(header)
                    if header.key.is_none() && !header.keyed && header.fields.is_none() =>
                {
                    return self.array(header, line, item_depth, depth);
                }
                Parsed::Header(header) if header.key.is_none() && self.strict => {
                    return Err(self.syntax(
                        "a keyless header with a field list stands only at the document root",
                        start,
                    ));
                }
                Parsed::Invalid(message, at) if self.strict => {
                    return Err(self.syntax(message, at));
                }
                _ => {}
            }
        }
        if find_unquoted(rest.as_bytes(), 0, b':').is_none() {
            return self.primitive(rest, start);
        }
        // An object: its first field on the hyphen line, the others one level deeper.
        self.nest(depth, start)?;
        let fields_depth = item_depth + 1;
        let meta_start = self.metas.len();
        let mut entries = Vec::new();
        self.member(line, start, fields_depth, depth, &mut entries)?;
        while let Some(next) = self.peek()? {
            if next.depth < fields_depth {
                break;
            }
            if next.depth != fields_depth {
                return Err(self.over_indented(&next, fields_depth));
            }
            self.consume(&next)?;
            self.member(&next, next.start, fields_depth, depth, &mut entries)?;
        }
        Ok(Value::Object(self.finish_object(entries, meta_start)?))
    }

    // ---- primitives -------------------------------------------------------------------------

    /// A value token (trimmed) at offset `at` (spec §4).
    fn primitive(&self, token: &str, at: usize) -> Result<Value> {
        let b = token.as_bytes();
        match b.first() {
            None => return Ok(Value::String(String::new())),
            Some(b'"') => {
                let close =
                    closing_quote(b, 0).ok_or_else(|| self.syntax("unterminated string", at))?;
                if close + 1 != b.len() {
                    return Err(self.syntax("characters after the closing quote", at + close + 1));
                }
                let text = unescape(&token[1..close])
                    .map_err(|(message, offset)| self.syntax(message, at + 1 + offset))?;
                return Ok(Value::String(text));
            }
            Some(b't') if token == "true" => return Ok(Value::Bool(true)),
            Some(b'f') if token == "false" => return Ok(Value::Bool(false)),
            Some(b'n') if token == "null" => return Ok(Value::Null),
            Some(b'-' | b'0'..=b'9') => {
                if let Some(number) = numeral(b).and_then(|shape| number(token, shape)) {
                    return Ok(Value::Number(number));
                }
            }
            _ => {}
        }
        Ok(Value::String(String::from(token)))
    }
}

/// A numeral of the spec's grammar as a typed number: an exact integer when it has no
/// fraction or exponent and fits 64 bits, else a double (`None` when it overflows to
/// infinity, which makes the token a string). `-0` is `0`.
fn number(token: &str, shape: Numeral) -> Option<Number> {
    if shape == Numeral::Integer {
        let (negative, digits) = match token.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, token),
        };
        let magnitude = digits.bytes().try_fold(0u64, |v, d| {
            v.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        });
        match magnitude {
            Some(v) if !negative || v == 0 => return Some(Number::from_u64(v)),
            Some(v) if v <= 1 << 63 => return Some(Number::from_i64(0i64.wrapping_sub(v as i64))),
            _ => {}
        }
    }
    let v: f64 = token.parse().ok()?;
    if !v.is_finite() {
        return None;
    }
    Some(Number::from_f64(if v == 0.0 { 0.0 } else { v }))
}

fn is_list_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// Spec §9.3: a line at row depth is a row unless an unquoted colon comes before the first
/// unquoted delimiter (then it is a key-value line that ends the rows).
fn is_row(b: &[u8], delimiter: u8) -> bool {
    match find_unquoted2(b, 0, b':', delimiter) {
        None => true,
        Some(i) => b[i] == delimiter,
    }
}

/// The cells of `bytes[start..end]` split at unquoted delimiters, each trimmed of spaces, as
/// byte ranges.
fn split_cells(
    bytes: &[u8],
    start: usize,
    end: usize,
    delimiter: u8,
    out: &mut Vec<(usize, usize)>,
) {
    let text = &bytes[..end];
    let mut cell = start;
    loop {
        let stop = find_unquoted(text, cell, delimiter).unwrap_or(end);
        let (mut s, mut e) = (cell, stop);
        while s < e && text[s] == b' ' {
            s += 1;
        }
        while e > s && text[e - 1] == b' ' {
            e -= 1;
        }
        out.push((s, e));
        if stop == end {
            return;
        }
        cell = stop + 1;
    }
}
