//! The encoder: one walk over the value, written straight into one `String`. Quoting is
//! decided by scanning bytes; nothing is allocated per value or cell (a table's field list and
//! its rows' object references are allocated once per table).

use alloc::string::String;
use alloc::vec::Vec;

use super::syntax::{
    is_canonical_decimal, is_identifier, is_numeric_like, is_unquoted_key, path_segments,
};
use super::{EncodeOptions, KeyFolding, check_indent};
use crate::Result;
use crate::json::{Map, Number, Value};
use crate::num::{write_i64, write_plain_f64, write_u64};

/// Encodes `value` as TOON text (no trailing newline; an empty object is the empty text).
///
/// Numbers are canonical (spec §2): integers as they are, doubles as the shortest decimal
/// that reads back the same, never with an exponent, `-0` as `0`, NaN and ±Infinity as
/// `null` (§3). A literal number ([`Number::from_literal`]) already in canonical decimal form
/// is copied digit for digit; another literal is written as its double. The only error is an
/// `indent` outside 1..=[`MAX_INDENT`](super::MAX_INDENT) (`INVALID_ARGUMENT`).
///
/// ```
/// use agentwire::{json, toon};
/// let value = json::parse(r#"{"items":[{"sku":"A1","qty":2,"price":9.99},{"sku":"B2","qty":1,"price":14.5}],"note":"a: b"}"#)?;
/// let text = toon::encode(&value, &toon::EncodeOptions::default())?;
/// assert_eq!(text, "items[2]{sku,qty,price}:\n  A1,2,9.99\n  B2,1,14.5\nnote: \"a: b\"");
/// assert_eq!(toon::encode(&json::parse("[1e21, -0.0, 1e-7]")?, &Default::default())?,
///            "[3]: 1000000000000000000000,0,0.0000001");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode(value: &Value, options: &EncodeOptions) -> Result<String> {
    let mut out = String::new();
    encode_to(&mut out, value, options)?;
    Ok(out)
}

/// Appends the TOON text of `value` to `out` (see [`encode`]). On an error nothing has been
/// appended.
///
/// ```
/// use agentwire::{json, toon};
/// let mut out = String::from("context:\n");
/// toon::encode_to(&mut out, &json::parse(r#"[1,"x",null]"#)?, &toon::EncodeOptions::default())?;
/// assert_eq!(out, "context:\n[3]: 1,x,null");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_to(out: &mut String, value: &Value, options: &EncodeOptions) -> Result<()> {
    check_indent(options.indent)?;
    let delimiter = options.delimiter.as_byte();
    let mut encoder = Encoder {
        out,
        indent: options.indent,
        delimiter,
        quote_mask: ALWAYS
            | match delimiter {
                b',' => COMMA,
                b'|' => PIPE,
                _ => 0,
            },
        fold: options.key_folding == KeyFolding::Safe,
        flatten_depth: options.flatten_depth,
        first_line: true,
    };
    encoder.root(value);
    Ok(())
}

/// Bytes that make a string need quotes: [`ALWAYS`] for controls (TAB included), `:`, `"`,
/// `\`, brackets and braces; [`COMMA`] and [`PIPE`] for the delimiters.
static QUOTE_BYTES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = ALWAYS;
        b += 1;
    }
    let always = *b":\"\\[]{}";
    let mut i = 0;
    while i < always.len() {
        table[always[i] as usize] = ALWAYS;
        i += 1;
    }
    table[b',' as usize] = COMMA;
    table[b'|' as usize] = PIPE;
    table
};
const ALWAYS: u8 = 1;
const COMMA: u8 = 2;
const PIPE: u8 = 4;

const SPACES: &str = "                                                                ";

/// How a line starts: indented to a depth, or a list item's `- ` at a depth.
#[derive(Clone, Copy)]
enum Lead {
    Indent(usize),
    Hyphen(usize),
}

/// A field's key as written: the key itself, or (key folding) the dotted chain of `segments`
/// single keys that starts at `first`, whose value is `value`.
struct Key<'a> {
    first: &'a str,
    value: &'a Value,
    segments: usize,
}

/// A table column (spec §9.3): a leaf field, or a nested field group with its sub-fields.
struct Field<'a> {
    name: &'a str,
    children: Vec<Field<'a>>,
}

struct Encoder<'o> {
    out: &'o mut String,
    indent: usize,
    delimiter: u8,
    quote_mask: u8,
    fold: bool,
    flatten_depth: usize,
    first_line: bool,
}

impl Encoder<'_> {
    fn root(&mut self, value: &Value) {
        match value {
            Value::Array(items) => self.array(None, items, 0, Lead::Indent(0)),
            Value::Object(map) => match keyed_fields(map) {
                Some(fields) => self.keyed(None, map, &fields, 0, Lead::Indent(0)),
                None => self.fields(map, 0, self.flatten_depth),
            },
            // A decoder drops a byte order mark at the start of the text.
            Value::String(s) if s.starts_with('\u{feff}') => {
                self.start(Lead::Indent(0));
                self.quoted(s);
            }
            _ => {
                self.start(Lead::Indent(0));
                self.primitive(value);
            }
        }
    }

    /// The members of `map` as fields at `depth`; `budget` is how many keys may still fold
    /// along this path.
    fn fields(&mut self, map: &Map, depth: usize, budget: usize) {
        let siblings = self.dotted_keys(map);
        for (name, value) in map.iter() {
            self.field(&siblings, name, value, depth, Lead::Indent(depth), budget);
        }
    }

    /// One field at `depth` (its line begins with `lead`; nested content at `depth + 1`).
    fn field(
        &mut self,
        siblings: &[&str],
        name: &str,
        value: &Value,
        depth: usize,
        lead: Lead,
        mut budget: usize,
    ) {
        let mut key = Key {
            first: name,
            value,
            segments: 1,
        };
        let mut leaf = value;
        if let Some((segments, end)) = self.fold_chain(name, value, budget, siblings) {
            key.segments = segments;
            leaf = end;
            budget -= segments;
        }
        match leaf {
            Value::Array(items) => self.array(Some(&key), items, depth, lead),
            Value::Object(map) => match keyed_fields(map) {
                Some(fields) => self.keyed(Some(&key), map, &fields, depth, lead),
                None => {
                    self.start(lead);
                    self.field_key(&key);
                    self.out.push(':');
                    self.fields(map, depth + 1, budget);
                }
            },
            _ => {
                self.start(lead);
                self.field_key(&key);
                self.out.push_str(": ");
                self.primitive(leaf);
            }
        }
    }

    /// Key folding: the number of keys of the single-key chain starting at `name` (at least
    /// 2, at most `budget`) and the value at its end; `None` when it does not fold (a key that
    /// is not an identifier, or a folded key equal to a sibling's).
    fn fold_chain<'v>(
        &self,
        name: &str,
        value: &'v Value,
        budget: usize,
        siblings: &[&str],
    ) -> Option<(usize, &'v Value)> {
        if !self.fold || budget < 2 || !is_identifier(name) {
            return None;
        }
        let mut segments = 1;
        let mut end = value;
        while segments < budget {
            let Some((key, next)) = single_member(end) else {
                break;
            };
            if !is_identifier(key) {
                return None;
            }
            segments += 1;
            end = next;
        }
        if segments < 2 {
            return None;
        }
        if !siblings.is_empty() {
            let mut folded = String::from(name);
            let mut at = value;
            for _ in 1..segments {
                let (key, next) = single_member(at)?;
                folded.push('.');
                folded.push_str(key);
                at = next;
            }
            if siblings.binary_search(&folded.as_str()).is_ok() {
                return None;
            }
        }
        Some((segments, end))
    }

    /// With key folding, the keys of `map` that hold a dot, sorted (what a folded key must
    /// not equal); otherwise nothing.
    fn dotted_keys<'m>(&self, map: &'m Map) -> Vec<&'m str> {
        if !self.fold {
            return Vec::new();
        }
        let mut keys: Vec<&str> = map.keys().filter(|k| k.contains('.')).collect();
        keys.sort_unstable();
        keys
    }

    fn array(&mut self, key: Option<&Key<'_>>, items: &[Value], depth: usize, lead: Lead) {
        self.start(lead);
        if items.is_empty() {
            match (key, lead) {
                (Some(key), _) => {
                    self.field_key(key);
                    self.out.push_str(": []");
                }
                // `- []` is for decoders only (spec §9.2).
                (None, Lead::Hyphen(_)) => self.header(None, 0, None, false),
                (None, Lead::Indent(_)) => self.out.push_str("[]"),
            }
            return;
        }
        if items.iter().all(is_primitive) {
            self.header(key, items.len(), None, false);
            self.out.push(' ');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    self.push_delimiter();
                }
                self.primitive(item);
            }
            return;
        }
        // A keyless table header stands only at the root (spec §9.4).
        let table_allowed = key.is_some() || matches!(lead, Lead::Indent(_));
        if table_allowed && items.iter().all(|v| matches!(v, Value::Object(_))) {
            let rows: Vec<&Map> = items.iter().filter_map(Value::as_object).collect();
            if let Some(fields) = table_fields(&rows) {
                self.header(key, items.len(), Some(&fields), false);
                for row in rows {
                    self.start(Lead::Indent(depth + 1));
                    self.cells(row, &fields, &mut true);
                }
                return;
            }
        }
        self.header(key, items.len(), None, false);
        for item in items {
            self.list_item(item, depth + 1);
        }
    }

    /// An object of uniform objects (spec §9.5): the keyed header, then one entry row each.
    fn keyed(
        &mut self,
        key: Option<&Key<'_>>,
        map: &Map,
        fields: &[Field<'_>],
        depth: usize,
        lead: Lead,
    ) {
        self.start(lead);
        self.header(key, map.len(), Some(fields), true);
        for (entry, value) in map.iter() {
            self.start(Lead::Indent(depth + 1));
            self.key(entry);
            self.out.push_str(": ");
            if let Value::Object(row) = value {
                self.cells(row, fields, &mut true);
            }
        }
    }

    /// An element of an expanded list (spec §9.4, §10) at `depth`.
    fn list_item(&mut self, value: &Value, depth: usize) {
        match value {
            Value::Array(items) => self.array(None, items, depth, Lead::Hyphen(depth)),
            Value::Object(map) => {
                let mut members = map.iter();
                let Some((name, first)) = members.next() else {
                    self.start(Lead::Indent(depth));
                    self.out.push('-');
                    return;
                };
                // The first field on the hyphen line, the others below it; key folding
                // starts again inside every element.
                let siblings = self.dotted_keys(map);
                let budget = self.flatten_depth;
                self.field(
                    &siblings,
                    name,
                    first,
                    depth + 1,
                    Lead::Hyphen(depth),
                    budget,
                );
                for (name, value) in members {
                    let lead = Lead::Indent(depth + 1);
                    self.field(&siblings, name, value, depth + 1, lead, budget);
                }
            }
            _ => {
                self.start(Lead::Hyphen(depth));
                self.primitive(value);
            }
        }
    }

    /// `key[N:<delim>]{fields}:` (each part as present).
    fn header(
        &mut self,
        key: Option<&Key<'_>>,
        len: usize,
        fields: Option<&[Field<'_>]>,
        keyed: bool,
    ) {
        if let Some(key) = key {
            self.field_key(key);
        }
        self.out.push('[');
        write_u64(self.out, len as u64);
        if keyed {
            self.out.push(':');
        }
        if self.delimiter != b',' {
            self.push_delimiter();
        }
        self.out.push(']');
        if let Some(fields) = fields {
            self.out.push('{');
            self.field_list(fields);
            self.out.push('}');
        }
        self.out.push(':');
    }

    fn field_list(&mut self, fields: &[Field<'_>]) {
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                self.push_delimiter();
            }
            self.key(field.name);
            if !field.children.is_empty() {
                self.out.push('{');
                self.field_list(&field.children);
                self.out.push('}');
            }
        }
    }

    /// The leaf cells of `row` in the depth-first order of `fields`, joined by the delimiter.
    fn cells(&mut self, row: &Map, fields: &[Field<'_>], first: &mut bool) {
        for (i, field) in fields.iter().enumerate() {
            let value = column(row, i, field.name).unwrap_or(&Value::Null);
            match value {
                Value::Object(inner) if !field.children.is_empty() => {
                    self.cells(inner, &field.children, first);
                }
                _ => {
                    if !*first {
                        self.push_delimiter();
                    }
                    *first = false;
                    self.primitive(value);
                }
            }
        }
    }

    fn start(&mut self, lead: Lead) {
        if self.first_line {
            self.first_line = false;
        } else {
            self.out.push('\n');
        }
        let (depth, hyphen) = match lead {
            Lead::Indent(depth) => (depth, false),
            Lead::Hyphen(depth) => (depth, true),
        };
        let mut spaces = depth * self.indent;
        while spaces > SPACES.len() {
            self.out.push_str(SPACES);
            spaces -= SPACES.len();
        }
        self.out.push_str(&SPACES[..spaces]);
        if hyphen {
            self.out.push_str("- ");
        }
    }

    fn push_delimiter(&mut self) {
        self.out.push(char::from(self.delimiter));
    }

    fn field_key(&mut self, key: &Key<'_>) {
        if key.segments == 1 {
            return self.key(key.first);
        }
        // Folded segments are identifiers: never quoted.
        self.out.push_str(key.first);
        let mut value = key.value;
        for _ in 1..key.segments {
            let Some((segment, next)) = single_member(value) else {
                break;
            };
            self.out.push('.');
            self.out.push_str(segment);
            value = next;
        }
    }

    /// A key, field name or entry key (spec §7.3). With key folding, a dotted key that path
    /// expansion would split is quoted too, so that it reads back as one key.
    fn key(&mut self, key: &str) {
        if is_unquoted_key(key) && !(self.fold && path_segments(key) > 0) {
            self.out.push_str(key);
        } else {
            self.quoted(key);
        }
    }

    fn primitive(&mut self, value: &Value) {
        match value {
            Value::Null => self.out.push_str("null"),
            Value::Bool(true) => self.out.push_str("true"),
            Value::Bool(false) => self.out.push_str("false"),
            Value::Number(n) => self.number(n),
            Value::String(s) => {
                if self.is_safe_unquoted(s) {
                    self.out.push_str(s);
                } else {
                    self.quoted(s);
                }
            }
            Value::Array(_) | Value::Object(_) => {}
        }
    }

    fn number(&mut self, n: &Number) {
        if let Some(v) = n.as_u64() {
            write_u64(self.out, v);
        } else if let Some(v) = n.as_i64() {
            write_i64(self.out, v);
        } else if let Some(text) = n.as_literal().filter(|t| is_canonical_decimal(t)) {
            self.out.push_str(text);
        } else {
            let v = n.as_f64();
            if v.is_finite() {
                write_plain_f64(self.out, v);
            } else {
                self.out.push_str("null");
            }
        }
    }

    /// Spec §7.2: whether `s` may stand without quotes where the delimiter is active.
    fn is_safe_unquoted(&self, s: &str) -> bool {
        let b = s.as_bytes();
        let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
            return false;
        };
        if matches!(first, b' ' | b'\t' | b'-' | b'#') || matches!(last, b' ' | b'\t') {
            return false;
        }
        if matches!(s, "true" | "false" | "null")
            || ((first.is_ascii_digit() || first == b'+') && is_numeric_like(b))
        {
            return false;
        }
        !b.iter()
            .any(|&c| QUOTE_BYTES[usize::from(c)] & self.quote_mask != 0)
    }

    /// `"…"` with the escapes of spec §7.1.
    fn quoted(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.out.push('"');
        let mut run = 0;
        for (i, &c) in s.as_bytes().iter().enumerate() {
            let escape = match c {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0..=0x1f => "",
                _ => continue,
            };
            self.out.push_str(&s[run..i]);
            if escape.is_empty() {
                self.out.push_str("\\u00");
                self.out.push(char::from(HEX[usize::from(c >> 4)]));
                self.out.push(char::from(HEX[usize::from(c & 15)]));
            } else {
                self.out.push_str(escape);
            }
            run = i + 1;
        }
        self.out.push_str(&s[run..]);
        self.out.push('"');
    }
}

fn is_primitive(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

/// The one member of a single-member object.
fn single_member(value: &Value) -> Option<(&str, &Value)> {
    match value {
        Value::Object(map) if map.len() == 1 => map.iter().next(),
        _ => None,
    }
}

/// The value of `name` in `row`, which is usually the `index`-th member (rows tend to list
/// their keys in the same order).
fn column<'m>(row: &'m Map, index: usize, name: &str) -> Option<&'m Value> {
    match row.entries().get(index) {
        Some((key, value)) if key == name => Some(value),
        _ => row.get(name),
    }
}

/// The field list of a table of `rows` (spec §9.3): every row has the first row's key set
/// (at least one key), and every column is all primitives or all non-empty objects that form
/// such a table themselves. `None` when the rows are not a table.
fn table_fields<'m>(rows: &[&'m Map]) -> Option<Vec<Field<'m>>> {
    let first = *rows.first()?;
    if first.is_empty() || rows.iter().any(|row| row.len() != first.len()) {
        return None;
    }
    let mut fields = Vec::with_capacity(first.len());
    for (i, (name, head)) in first.iter().enumerate() {
        if is_primitive(head) {
            for row in rows {
                if !is_primitive(column(row, i, name)?) {
                    return None;
                }
            }
            fields.push(Field {
                name,
                children: Vec::new(),
            });
        } else {
            let mut group = Vec::with_capacity(rows.len());
            for row in rows {
                match column(row, i, name)? {
                    Value::Object(inner) if !inner.is_empty() => group.push(inner),
                    _ => return None,
                }
            }
            fields.push(Field {
                name,
                children: table_fields(&group)?,
            });
        }
    }
    Some(fields)
}

/// The field list of an object whose values form a table (spec §9.5: at least two entries,
/// every value a non-empty object).
fn keyed_fields(map: &Map) -> Option<Vec<Field<'_>>> {
    let is_row = |v: &Value| matches!(v, Value::Object(inner) if !inner.is_empty());
    if map.len() < 2 || !map.iter().all(|(_, v)| is_row(v)) {
        return None;
    }
    let rows: Vec<&Map> = map.iter().filter_map(|(_, v)| v.as_object()).collect();
    table_fields(&rows)
}
