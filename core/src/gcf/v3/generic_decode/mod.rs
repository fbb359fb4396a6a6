//! The strict generic-profile decoder (SPEC §7, §8.6, §11, §13, §16.4, §16.5).
//!
//! The body is read once. Blank and comment lines are dropped, every other line keeps its
//! indentation level (two spaces per level, SPEC §4.1), and a recursive-descent parser reads
//! each construct at the level the grammar puts it:
//!
//! | construct at level L | its own lines | nested content |
//! |---|---|---|
//! | `## key` section | | members at L+1 |
//! | `## key [N]…` block | rows or `@i` items at L | item contents at L+1 |
//! | `@i {}` / `@i [N]…` item | | members, rows or items at L+1 |
//! | tabular row | `.field` headers and positional bodies at L or L+1 | attachment bodies at L+2 |
//!
//! A dedent ends every container deeper than the new level; any other indentation increase is
//! [`ErrorKind::GcfInvalidIndent`]. Declared counts are checked where each container ends,
//! deferred `[?]` counts against the `##! summary` trailer once the body is read (SPEC §8.6).
//! Nothing is allocated by a declared count, nesting is bounded by
//! [`DecodeOptions::max_depth`], and the work is linear in the input (wide objects and
//! attachment lookups use sorted indexes, positional matching a forward cursor).

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::json::{Map, Value};
use crate::{Error, ErrorKind, Result};

use super::scalar::{self, FieldDecl};
use super::{Header, Line, SpecVersion, body_lines, is_comment};

mod grouped;
mod table;

use table::{Block, Schema, SharedSchema};
#[cfg(test)]
mod tests;

/// Limits of the v3 decoders.
///
/// ```
/// use agentwire::gcf::v3::{self, DecodeOptions};
/// let shallow = DecodeOptions { max_depth: 2, ..DecodeOptions::default() };
/// let text = b"GCF profile=generic\n## a\n  ## b\n    c=1\n";
/// assert!(v3::decode(text, &DecodeOptions::default()).is_ok());
/// assert_eq!(v3::decode(text, &shallow).unwrap_err().code(), "GCF_TOO_DEEP");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DecodeOptions {
    /// Deepest nesting of containers (objects and arrays; a root container is depth 1, and a
    /// flattened `a>b>c` column nests its objects too). Deeper input is
    /// [`ErrorKind::GcfTooDeep`]. Default 256; SPEC §12 requires at least 32. The generic
    /// decoder recurses once per level, taking up to about 4 KiB of stack per level in
    /// unoptimized builds and 1.5 KiB in optimized ones: the default stays within a 2 MiB
    /// stack (Rust test threads) in debug builds and a 1 MiB one (wasm) in release builds.
    /// Raise it only on a thread with a matching stack.
    pub max_depth: usize,
    /// Most bytes that v3.6.0 constant columns and group values (SPEC §7.4.7, §7.4.8) may add
    /// to the decoded value: each is declared once but copied into every row, so a short
    /// payload could otherwise stand for gigabytes. Each copy counts its written size, at
    /// least 8 bytes; past the limit decoding fails with [`ErrorKind::GcfPayloadTooLarge`]
    /// at the row that crossed it. Default 64 MiB.
    pub max_constant_bytes: usize,
}

/// The default [`DecodeOptions::max_depth`].
const DEFAULT_MAX_DEPTH: usize = 256;

/// The default [`DecodeOptions::max_constant_bytes`].
const DEFAULT_MAX_CONSTANT_BYTES: usize = 64 << 20;

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_constant_bytes: DEFAULT_MAX_CONSTANT_BYTES,
        }
    }
}

/// Decodes the body of a generic payload whose header is `header`. Returns the value and the
/// lowest spec version whose forms it uses: 3.6.0 when a table has a constant column or is
/// grouped, 3.5.3 otherwise.
pub(crate) fn decode(
    text: &str,
    header: &Header<'_>,
    options: &DecodeOptions,
) -> Result<(Value, SpecVersion)> {
    let body = read_body(text, header)?;
    let mut parser = Parser {
        lines: body.lines,
        pos: 0,
        max_depth: options.max_depth,
        identity: header.get("key").map(ToString::to_string),
        deferred: Vec::new(),
        version: SpecVersion::V3_5_3,
        constant_bytes_left: options.max_constant_bytes,
    };
    let value = parser.root()?;
    if let Some(summary) = body.summary {
        parser.check_summary(&summary)?;
    }
    Ok((value, parser.version))
}

/// One content line: not blank, not a comment.
#[derive(Clone, Copy, Debug)]
struct Src<'a> {
    line: Line<'a>,
    /// Indentation level (two spaces each).
    level: usize,
    /// The line after its indentation, trailing spaces and tabs removed.
    text: &'a str,
}

impl<'a> Src<'a> {
    /// Byte offset in the line of `sub`, a slice of this line (0 for anything else).
    fn at(&self, sub: &str) -> usize {
        let base = self.line.text.as_ptr() as usize;
        (sub.as_ptr() as usize)
            .checked_sub(base)
            .filter(|&at| at <= self.line.text.len())
            .unwrap_or(0)
    }

    /// A new error at `sub` (a slice of this line).
    fn error(&self, sub: &str, kind: ErrorKind, message: impl Into<String>) -> Error {
        self.line.place(Error::new(kind, message), self.at(sub))
    }

    /// `error` (from a scalar or key reader) positioned at `sub`.
    fn place(&self, sub: &str, error: Error) -> Error {
        self.line.place(error, self.at(sub))
    }

    fn invalid_line(&self, sub: &str, what: &str) -> Error {
        self.error(
            sub,
            ErrorKind::GcfInvalidLine,
            format!(
                "invalid_line: {what}: {:?}",
                scalar::truncate(self.text, 60)
            ),
        )
    }
}

/// The `##! summary` trailer: its line and its `counts=` entries.
struct Summary<'a> {
    src: Src<'a>,
    counts: Option<Vec<usize>>,
}

struct Body<'a> {
    lines: Vec<Src<'a>>,
    summary: Option<Summary<'a>>,
}

/// Splits the body into content lines (SPEC §4.1, §4.2, §11) and finds the trailer (§8.4).
fn read_body<'a>(text: &'a str, header: &Header<'_>) -> Result<Body<'a>> {
    let mut lines = Vec::new();
    let mut summary: Option<Summary<'a>> = None;
    for line in body_lines(text, header) {
        let spaces = line.text.bytes().take_while(|&b| b == b' ').count();
        let rest = &line.text[spaces..];
        if rest.is_empty() {
            continue;
        }
        if rest.starts_with('\t') {
            return Err(line.place(
                Error::new(
                    ErrorKind::GcfTabIndentation,
                    "tab_indentation: indentation must be spaces, not tabs",
                ),
                spaces,
            ));
        }
        let content = rest.trim_end_matches([' ', '\t']);
        if is_comment(content) {
            continue;
        }
        if spaces % 2 != 0 {
            return Err(line.place(
                Error::new(
                    ErrorKind::GcfInvalidIndent,
                    format!(
                        "invalid_indent: {spaces} spaces is not a whole number of two-space levels"
                    ),
                ),
                spaces,
            ));
        }
        let src = Src {
            line,
            level: spaces / 2,
            text: content,
        };
        if summary.is_some() {
            return Err(src.invalid_line(content, "content after the `##! summary` trailer"));
        }
        if spaces == 0 && content.starts_with("##!") {
            summary = Some(read_summary(src)?);
            continue;
        }
        lines.push(src);
    }
    Ok(Body { lines, summary })
}

/// Reads `##! summary key=value…`; `counts` must be positional counts (SPEC §8.4, §8.4.1).
fn read_summary(src: Src<'_>) -> Result<Summary<'_>> {
    let Some(pairs) = src
        .text
        .strip_prefix("##! summary")
        .filter(|rest| rest.is_empty() || rest.starts_with(' '))
    else {
        return Err(src.invalid_line(src.text, "a `##!` line must be `##! summary …`"));
    };
    let mut keys: Vec<&str> = Vec::new();
    let mut counts = None;
    for pair in pairs.split(' ').filter(|p| !p.is_empty()) {
        let Some((key, value)) = pair.split_once('=').filter(|(k, _)| !k.is_empty()) else {
            return Err(src.error(
                pair,
                ErrorKind::GcfMalformedHeaderField,
                format!("malformed_header_field: summary field {pair:?} is not `key=value`"),
            ));
        };
        if keys.contains(&key) {
            return Err(src.error(
                pair,
                ErrorKind::GcfDuplicateHeaderField,
                format!("duplicate_header_field: summary field {key:?} appears twice"),
            ));
        }
        keys.push(key);
        if key == "counts" {
            let mut entries = Vec::new();
            for entry in value.split(',') {
                match count_value(entry) {
                    Some(n) => entries.push(n),
                    None => {
                        return Err(src.error(
                            entry,
                            ErrorKind::GcfInvalidCount,
                            format!(
                                "invalid_count: summary count {entry:?} is not a decimal count \
                                 (generic trailers use positional counts)"
                            ),
                        ));
                    }
                }
            }
            counts = Some(entries);
        }
    }
    Ok(Summary { src, counts })
}

/// `0` or a decimal without leading zeros.
fn count_value(text: &str) -> Option<usize> {
    let canonical = text == "0"
        || (!text.starts_with('0') && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()));
    canonical.then(|| scalar::count_from_u64(text)).flatten()
}

/// What may follow a block at its own level once its declared rows are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Follow {
    /// Members of the enclosing object (`## key [N]…` blocks).
    Members,
    /// Nothing: the root array, or a block beneath an item or a row.
    Nothing,
}

/// An array header after its name: `[N]`, `[N]{fields}`, `[N]: values`, `[N:]{key,fields}`,
/// `[N]{@key,fields} group=field`.
struct ArraySpec<'a> {
    /// The declared count; `None` for `?`.
    count: Option<usize>,
    keyed: bool,
    fields: Option<FieldDecl<'a>>,
    /// The values of the constant columns (SPEC §7.4.7), by field.
    constants: Vec<(usize, Value)>,
    /// What copying the constants into one row costs (see [`constant_cost`]).
    constant_cost: usize,
    /// The column after `group=` (SPEC §7.4.8), as written.
    group: Option<&'a str>,
    /// The text after `:` of an inline array.
    inline: Option<&'a str>,
    /// The bracket, for count errors.
    bracket: &'a str,
}

/// A line read up to the body of its value.
enum Head<'a> {
    /// `key=scalar`, `@i =scalar`, `."a>b" =scalar`: the value itself.
    Scalar(Value),
    /// `## key`, `@i {}`, `.field {}`: an object whose members follow.
    Object,
    /// An array header; rows, items or nothing follow.
    Array(ArraySpec<'a>),
}

/// Builds an error out of line. The recursive parsing functions call this instead of
/// formatting in place, so that their stack frames (one per nesting level, up to
/// `max_depth`) stay small in unoptimized builds too.
#[cold]
#[inline(never)]
fn fail<T>(make: impl FnOnce() -> Error) -> Result<T> {
    Err(make())
}

/// A deferred `[?]` container and how many items it had.
struct Deferred<'a> {
    src: Src<'a>,
    bracket: &'a str,
    actual: usize,
}

/// Object members in input order, with a duplicate check that switches to a sorted index
/// once the object is wide.
#[derive(Default)]
struct Members {
    entries: Vec<(String, Value)>,
    index: Option<BTreeSet<String>>,
}

/// Objects up to this many members are checked by a linear scan.
const LINEAR_KEYS: usize = 16;

impl Members {
    fn contains(&self, key: &str) -> bool {
        match &self.index {
            Some(index) => index.contains(key),
            None => self.entries.iter().any(|(k, _)| k == key),
        }
    }

    fn push(&mut self, key: String, value: Value) {
        if let Some(index) = &mut self.index {
            index.insert(key.clone());
        } else if self.entries.len() >= LINEAR_KEYS {
            let mut index: BTreeSet<String> = self.entries.iter().map(|(k, _)| k.clone()).collect();
            index.insert(key.clone());
            self.index = Some(index);
        }
        self.entries.push((key, value));
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn into_map(self) -> Map {
        Map::from_members(self.entries)
    }
}

struct Parser<'a> {
    lines: Vec<Src<'a>>,
    pos: usize,
    max_depth: usize,
    /// The header's `key=` (the `@field` identity column of SPEC §10a.1).
    identity: Option<String>,
    deferred: Vec<Deferred<'a>>,
    /// 3.6.0 once a constant column or a grouped section is read.
    version: SpecVersion,
    /// What is left of [`DecodeOptions::max_constant_bytes`].
    constant_bytes_left: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<Src<'a>> {
        self.lines.get(self.pos).copied()
    }

    /// Fails with [`ErrorKind::GcfTooDeep`] when a container at `depth` is too deep.
    fn enter(&self, head: Src<'a>, depth: usize) -> Result<()> {
        if depth > self.max_depth {
            return fail(|| {
                head.error(
                    head.text,
                    ErrorKind::GcfTooDeep,
                    format!(
                        "too_deep: containers nest deeper than the limit of {}",
                        self.max_depth
                    ),
                )
            });
        }
        Ok(())
    }

    /// The root value (SPEC §7.1): `=scalar`, an anonymous `## [N]…` array or keyed map, or
    /// the members of the root object.
    fn root(&mut self) -> Result<Value> {
        let Some(first) = self.peek() else {
            return Ok(Value::Object(Map::new()));
        };
        if first.level != 0 {
            return Err(unexpected_indent(first));
        }
        if let Some(token) = first.text.strip_prefix('=') {
            let value = scalar::parse_value_scalar(token).map_err(|e| first.place(token, e))?;
            self.pos += 1;
            if let Some(next) = self.peek() {
                return Err(next.invalid_line(next.text, "content after the root scalar"));
            }
            return Ok(value);
        }
        if let Some(bracket) = first
            .text
            .strip_prefix("## ")
            .filter(|rest| rest.starts_with('['))
        {
            let spec = self.array_header(first, bracket)?;
            self.pos += 1;
            let value = self.array(first, spec, 0, 1, Follow::Nothing, None)?;
            if let Some(next) = self.peek() {
                return Err(next.invalid_line(next.text, "content after the root array"));
            }
            return Ok(value);
        }
        Ok(Value::Object(self.object(first, 0, 1)?))
    }

    /// The members of an object at `level` (SPEC §7.2): until a line at a lesser level.
    fn object(&mut self, head: Src<'a>, level: usize, depth: usize) -> Result<Map> {
        self.enter(head, depth)?;
        let mut members = Members::default();
        while let Some(src) = self.peek() {
            if src.level < level {
                break;
            }
            if src.level > level {
                return Err(unexpected_indent(src));
            }
            self.member(src, level, depth, &mut members)?;
        }
        Ok(members.into_map())
    }

    /// One object member: `key=scalar`, `key[N]: values`, `## key`, `## key [N]…`.
    fn member(
        &mut self,
        src: Src<'a>,
        level: usize,
        depth: usize,
        members: &mut Members,
    ) -> Result<()> {
        let (name, head) = self.member_head(src, members)?;
        self.pos += 1;
        let value = match head {
            Head::Scalar(value) => value,
            Head::Object => Value::Object(self.object(src, level + 1, depth + 1)?),
            Head::Array(spec) => self.array(src, spec, level, depth + 1, Follow::Members, None)?,
        };
        members.push(name, value);
        Ok(())
    }

    /// Reads a member line up to its value's body.
    fn member_head(&self, src: Src<'a>, members: &Members) -> Result<(String, Head<'a>)> {
        let text = src.text;
        if let Some(rest) = text.strip_prefix("## ") {
            if rest.starts_with('[') {
                return Err(src.invalid_line(
                    rest,
                    "an anonymous `## [N]` array is only valid as the root value",
                ));
            }
            let (name, used) = self.key(src, rest)?;
            check_new_key(src, rest, members, &name)?;
            let after = &rest[used..];
            if after.is_empty() {
                return Ok((name, Head::Object));
            }
            if let Some(bracket) = after.strip_prefix(' ').filter(|b| b.starts_with('[')) {
                return Ok((name, Head::Array(self.array_header(src, bracket)?)));
            }
            return Err(src.invalid_line(after, "a section header is `## key` or `## key [N]…`"));
        }
        if text.starts_with('#') {
            return Err(src.invalid_line(
                text,
                "`#` starts a comment only when a space follows; sections are `## key`",
            ));
        }
        let (name, used) = self.key(src, text)?;
        check_new_key(src, text, members, &name)?;
        let after = &text[used..];
        if let Some(token) = after.strip_prefix('=') {
            let value = scalar::parse_value_scalar(token).map_err(|e| src.place(token, e))?;
            return Ok((name, Head::Scalar(value)));
        }
        if after.starts_with('[') {
            let spec = self.array_header(src, after)?;
            if spec.inline.is_some() {
                return Ok((name, Head::Array(spec)));
            }
            return Err(src.invalid_line(
                after,
                "`key[N]` must be followed by `:` and its values (a block array is `## key [N]`)",
            ));
        }
        Err(src.invalid_line(
            after,
            "expected `key=value`, `key[N]: values` or a `## key` section",
        ))
    }

    /// Reads the marker of an expanded item or attachment: `=scalar`, `{}` or an array header.
    fn marker(&self, src: Src<'a>, marker: &'a str, what: &str) -> Result<Head<'a>> {
        if let Some(token) = marker.strip_prefix('=') {
            let value = scalar::parse_value_scalar(token).map_err(|e| src.place(token, e))?;
            return Ok(Head::Scalar(value));
        }
        if marker == "{}" {
            return Ok(Head::Object);
        }
        if marker.starts_with('[') {
            return Ok(Head::Array(self.array_header(src, marker)?));
        }
        Err(src.invalid_line(marker, what))
    }

    /// Reads the key at the start of `s` (a slice of `src`).
    fn key(&self, src: Src<'a>, s: &'a str) -> Result<(String, usize)> {
        match scalar::parse_key(s) {
            Ok((key, used)) => Ok((key.into_owned(), used)),
            Err(e) if e.kind() == ErrorKind::GcfInvalidLine => Err(src.invalid_line(
                s,
                "expected a key (bare `[A-Za-z_][A-Za-z0-9_]*` or a quoted string)",
            )),
            Err(e) => Err(src.place(s, e)),
        }
    }

    /// Reads an array header from its `[` (SPEC §4, §7.2a.2, §7.3).
    fn array_header(&self, src: Src<'a>, bracket: &'a str) -> Result<ArraySpec<'a>> {
        let (count, used) = scalar::parse_count(bracket).map_err(|e| src.place(bracket, e))?;
        let mut rest = &bracket[used..];
        let mut fields = None;
        let mut constants = Vec::new();
        let mut cost = 0;
        let mut group = None;
        if rest.starts_with('{') {
            let (decl, used) = scalar::parse_field_decl(rest).map_err(|e| {
                let e = match e.kind() {
                    ErrorKind::GcfInvalidLine => Error::new(
                        ErrorKind::GcfInvalidLine,
                        format!("invalid_line: {}", e.message()),
                    ),
                    _ => e,
                };
                src.place(rest, e)
            })?;
            let decl_text = &rest[..used];
            rest = &rest[used..];
            group = rest.strip_prefix(" group=");
            if group.is_some() {
                rest = "";
                if count.keyed {
                    return Err(src.error(
                        bracket,
                        ErrorKind::GcfInvalidGroupHeader,
                        "invalid_group_header: a keyed map `[N:]` cannot be grouped",
                    ));
                }
            }
            if let (Some(i), None) = (decl.identity, group)
                && self.identity.as_deref() != Some(decl.names[i].as_str())
            {
                return Err(src.invalid_line(
                    decl_text,
                    "an `@field` identity column needs `key=<field>` naming it in the header \
                         (or a `group=` clause)",
                ));
            }
            for &(field, token) in &decl.constants {
                let value = scalar::parse_constant(token).map_err(|e| src.place(token, e))?;
                cost = constant_cost(token).saturating_add(cost);
                constants.push((field, value));
            }
            check_constant_columns(src, decl_text, &decl, count.keyed, group.is_some())?;
            fields = Some(decl);
        }
        let inline = match rest.strip_prefix(':') {
            Some(values) => Some(values),
            None if rest.is_empty() => None,
            None => {
                return Err(src.invalid_line(rest, "unexpected characters after the array header"));
            }
        };
        if inline.is_some() && fields.is_some() {
            return Err(src.invalid_line(
                rest,
                "an inline `[N]: values` array has no field declaration",
            ));
        }
        if count.keyed {
            if count.count == Some(0) {
                return Err(src.error(
                    bracket,
                    ErrorKind::GcfInvalidCount,
                    "invalid_count: zero count `[0:]`: a keyed map has at least one member \
                     (an empty object is an empty `## key` section)",
                ));
            }
            if inline.is_some() || fields.as_ref().is_none_or(|f| f.names.len() < 2) {
                return Err(src.error(
                    bracket,
                    ErrorKind::GcfInvalidLine,
                    "invalid_line: a keyed map `[N:]` header must declare at least two fields \
                     (the key column and a value field)",
                ));
            }
        }
        Ok(ArraySpec {
            count: count.count,
            keyed: count.keyed,
            fields,
            constants,
            constant_cost: cost,
            group,
            inline,
            bracket,
        })
    }

    /// Reads the body of the array whose header `head` was just consumed; its rows or items
    /// sit at `level`. `shared` is the shared array schema slot of the `^` column a
    /// `.field [N]` attachment fills (SPEC §7.4.5.3). Every `[?]` bracket, inline arrays included, takes the next
    /// `counts=` entry of the trailer in document order (SPEC §8.4).
    fn array(
        &mut self,
        head: Src<'a>,
        spec: ArraySpec<'a>,
        level: usize,
        depth: usize,
        follow: Follow,
        shared: Option<&mut SharedSchema>,
    ) -> Result<Value> {
        self.enter(head, depth)?;
        if !spec.constants.is_empty() || spec.group.is_some() {
            self.version = SpecVersion::V3_6_0;
        }
        let deferred = spec.count.is_none().then(|| {
            self.deferred.push(Deferred {
                src: head,
                bracket: spec.bracket,
                actual: 0,
            });
            self.deferred.len() - 1
        });
        let block = Block {
            head,
            count: spec.count,
            bracket: spec.bracket,
            level,
            depth,
            follow,
        };
        let (value, actual) = match (spec.inline, spec.fields, spec.group) {
            (Some(values), _, _) => inline_array(&block, values)?,
            (None, Some(decl), Some(group)) => {
                self.grouped(block, decl, spec.constants, spec.constant_cost, group)?
            }
            (None, Some(decl), None) => {
                let schema = Schema::new(
                    decl,
                    spec.constants,
                    spec.constant_cost,
                    spec.keyed,
                    depth + 1,
                    self.max_depth,
                )
                .map_err(|e| head.place(spec.bracket, e))?;
                match shared {
                    Some(slot) if !spec.keyed => {
                        // The first declaration of a column establishes its shared schema.
                        let schema = Rc::new(schema);
                        if slot.is_none() {
                            *slot = Some(Rc::clone(&schema));
                        }
                        self.table(block, &schema)?
                    }
                    _ => self.table(block, &schema)?,
                }
            }
            (None, None, _) => match shared
                .and_then(|slot| slot.clone())
                .filter(|_| !self.next_is_item(level))
            {
                Some(schema) => self.table(block, &schema)?,
                None => self.expanded(block)?,
            },
        };
        if let Some(i) = deferred
            && let Some(entry) = self.deferred.get_mut(i)
        {
            entry.actual = actual;
        }
        Ok(value)
    }

    /// Takes `cost` bytes of constant copies for the row `src` from the budget.
    fn charge(&mut self, src: Src<'a>, cost: usize) -> Result<()> {
        match self.constant_bytes_left.checked_sub(cost) {
            Some(left) => {
                self.constant_bytes_left = left;
                Ok(())
            }
            None => fail(|| {
                src.error(
                    src.text,
                    ErrorKind::GcfPayloadTooLarge,
                    "payload_too_large: the constant columns copied into the rows pass \
                     max_constant_bytes",
                )
            }),
        }
    }

    /// True when the next line, at `level`, is an expanded item (`@i =…`, `@i {}`, `@i […`):
    /// a `.field [N]` with a shared schema still holds an expanded array when the encoder
    /// wrote one (the ordinary syntax of a non-tabular array is the same header).
    fn next_is_item(&self, level: usize) -> bool {
        let Some(src) = self.peek().filter(|s| s.level == level) else {
            return false;
        };
        let Some(rest) = src.text.strip_prefix('@') else {
            return false;
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let Some(marker) = rest.get(digits..).and_then(|m| m.strip_prefix(' ')) else {
            return false;
        };
        digits > 0 && (marker.starts_with('=') || marker.starts_with('[') || marker == "{}")
    }

    /// An expanded body (SPEC §7.6): `@i =scalar`, `@i {}`, `@i [N]…` items.
    fn expanded(&mut self, block: Block<'a>) -> Result<(Value, usize)> {
        let level = block.level;
        let mut items = Vec::new();
        loop {
            if block.count == Some(items.len()) {
                break;
            }
            let Some(src) = self.peek() else { break };
            if src.level < level {
                break;
            }
            if src.level > level {
                return Err(unexpected_indent(src));
            }
            let Some(rest) = src.text.strip_prefix('@') else {
                break;
            };
            let marker = item_id(src, rest, items.len())?;
            let head = self.marker(
                src,
                marker,
                "an expanded item is `@i =value`, `@i {}` or `@i [N]…`",
            )?;
            self.pos += 1;
            let value = match head {
                Head::Scalar(value) => value,
                Head::Object => Value::Object(self.object(src, level + 1, block.depth + 1)?),
                Head::Array(spec) => {
                    self.array(src, spec, level + 1, block.depth + 1, Follow::Nothing, None)?
                }
            };
            items.push(value);
        }
        let actual = items.len();
        check_count(&block, actual, "items")?;
        if block.count.is_some()
            && let Some(next) = self
                .peek()
                .filter(|s| s.level == level && s.text.starts_with('@'))
        {
            return fail(|| {
                next.error(
                    next.text,
                    ErrorKind::GcfCountMismatch,
                    format!(
                        "count_mismatch: more items than the {actual} declared on line {}",
                        block.head.line.number
                    ),
                )
            });
        }
        Ok((Value::Array(items), actual))
    }

    /// Checks the deferred counts against the trailer (SPEC §8.4, §8.6, §13.2).
    fn check_summary(&self, summary: &Summary<'a>) -> Result<()> {
        if self.deferred.is_empty() {
            // Buffered mode: `[N]` is authoritative and the trailer informational (SPEC §8.5).
            return Ok(());
        }
        let counts = summary.counts.as_deref().unwrap_or(&[]);
        if counts.len() != self.deferred.len() {
            return Err(summary.src.error(
                summary.src.text,
                ErrorKind::GcfCountMismatch,
                format!(
                    "count_mismatch: the summary has {} counts entries but the payload has {} \
                     deferred `[?]` sections",
                    counts.len(),
                    self.deferred.len()
                ),
            ));
        }
        for (deferred, &declared) in self.deferred.iter().zip(counts) {
            if deferred.actual != declared {
                return Err(deferred.src.error(
                    deferred.bracket,
                    ErrorKind::GcfCountMismatch,
                    format!(
                        "count_mismatch: this `[?]` section has {} items but the summary on \
                         line {} says {declared}",
                        deferred.actual, summary.src.line.number
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Reads an `@i ` prefix (after the `@`) and checks `i` against `index`; returns the rest.
fn item_id<'a>(src: Src<'a>, rest: &'a str, index: usize) -> Result<&'a str> {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after = rest.get(digits..).and_then(|r| r.strip_prefix(' '));
    let (Some(after), true) = (after, digits > 0) else {
        return Err(src.error(
            rest,
            ErrorKind::GcfInvalidItemId,
            "invalid_item_id: `@` must be followed by a decimal index and a space",
        ));
    };
    if rest[..digits].parse::<usize>().ok() != Some(index) {
        return Err(src.error(
            rest,
            ErrorKind::GcfInvalidItemId,
            format!(
                "invalid_item_id: `@{}` where the zero-based index is {index}",
                &rest[..digits]
            ),
        ));
    }
    Ok(after)
}

/// An inline array from the text after its `:` (SPEC §7.5, §13.3).
fn inline_array<'a>(block: &Block<'a>, text: &'a str) -> Result<(Value, usize)> {
    let src = block.head;
    let mut items = Vec::new();
    if !scalar::trim_token(text).is_empty() {
        for token in scalar::split_outside_quotes(text, b',') {
            items.push(scalar::parse_value_scalar(token).map_err(|e| src.place(token, e))?);
        }
    }
    let actual = items.len();
    check_count(block, actual, "values")?;
    Ok((Value::Array(items), actual))
}

/// What copying one constant (or group value) written as `token` into a row costs: its
/// written size, at least 8 bytes.
fn constant_cost(token: &str) -> usize {
    token.len().max(8)
}

/// A declaration with constant columns (SPEC §7.4.7) must leave a column with cells, and a
/// keyed map's key column is never constant (it holds each member's key).
fn check_constant_columns(
    src: Src<'_>,
    decl_text: &str,
    decl: &FieldDecl<'_>,
    keyed: bool,
    grouped: bool,
) -> Result<()> {
    let Some(&(first, token)) = decl.constants.first() else {
        return Ok(());
    };
    if keyed && first == 0 {
        return Err(src.error(
            token,
            ErrorKind::GcfInvalidConstValue,
            "invalid_const_value: a keyed map's key column cannot be a constant",
        ));
    }
    if !grouped && decl.constants.len() == decl.names.len() {
        return Err(src.error(
            decl_text,
            ErrorKind::GcfNoBareColumn,
            "no_bare_column: every column is a constant; a row must carry at least one cell",
        ));
    }
    Ok(())
}

/// `[N]` against the number of items read (deferred counts are checked later).
fn check_count(block: &Block<'_>, actual: usize, what: &str) -> Result<()> {
    match block.count {
        Some(declared) if declared != actual => Err(block.head.error(
            block.bracket,
            ErrorKind::GcfCountMismatch,
            format!("count_mismatch: {actual} {what} but [{declared}] declared"),
        )),
        _ => Ok(()),
    }
}

fn check_new_key(src: Src<'_>, at: &str, members: &Members, key: &str) -> Result<()> {
    if members.contains(key) {
        return Err(src.error(
            at,
            ErrorKind::GcfDuplicateKey,
            format!(
                "duplicate_key: {:?} appears twice in the same object",
                scalar::truncate(key, 60)
            ),
        ));
    }
    Ok(())
}

fn unexpected_indent(src: Src<'_>) -> Error {
    src.error(
        src.text,
        ErrorKind::GcfInvalidIndent,
        "invalid_indent: indentation increases here without an enclosing container \
         (one two-space level at a time)",
    )
}

/// True when `text` starts an object member: a `## ` section, `key=…` or `key[…`.
fn is_member_start(text: &str) -> bool {
    text.starts_with("## ")
        || scalar::parse_key(text)
            .is_ok_and(|(_, used)| matches!(text.as_bytes().get(used), Some(b'=' | b'[')))
}
