//! Array and keyed headers (spec §6): `key[N<delim?>]{fields}:` and `key[N:<delim?>]{fields}:`.

use alloc::string::String;
use alloc::vec::Vec;

use super::syntax::{
    closing_quote, find_unquoted, find_unquoted2, path_segments, skip_quoted, trim_spaces,
};
use crate::text::{indices, same_text, sort_by_text};

/// A parsed header line. Offsets are byte offsets of the whole input.
#[derive(Debug)]
pub(super) struct Header {
    /// The key before the bracket, if any.
    pub key: Option<HeaderKey>,
    /// The declared length or entry count (saturating: a length too large for `u64` is
    /// `u64::MAX`, which no input can match). 64 bits on every target, so errors name the
    /// same number in native code and in wasm.
    pub length: u64,
    /// The active delimiter.
    pub delimiter: u8,
    /// `[N:]`: a keyed tabular object (spec §9.5).
    pub keyed: bool,
    /// The field list, if any (never empty).
    pub fields: Option<Vec<FieldSpec>>,
    /// The leaf fields: cells per row.
    pub leaves: usize,
    /// How much deeper than a row object its nested field groups (and, with path expansion,
    /// dotted field names) reach.
    pub height: usize,
    /// Rows can be built as they are: no field name twice in one group, and no field name
    /// that path expansion splits.
    pub plain_rows: bool,
    /// The first field name that repeats one of its group, with its offset (an error in strict
    /// mode).
    pub duplicate: Option<(String, usize)>,
    /// The inline values after the colon (trimmed, not empty), as a byte range.
    pub inline: Option<(usize, usize)>,
}

/// A header's key.
#[derive(Debug)]
pub(super) struct HeaderKey {
    pub name: String,
    pub quoted: bool,
    pub at: usize,
}

/// One entry of a field list: a leaf, or a nested field group.
#[derive(Debug)]
pub(super) struct FieldSpec {
    pub name: String,
    pub quoted: bool,
    pub at: usize,
    pub children: Vec<FieldSpec>,
}

/// What a line holds where a header may stand.
#[derive(Debug)]
pub(super) enum Parsed {
    /// Not a header: no bracket before the first colon.
    NotHeader,
    /// A malformed header (strict mode: an error; lenient: a key-value line with a literal
    /// key), with the offset of the problem.
    Invalid(&'static str, usize),
    Header(Header),
}

/// A problem the caller must report whatever the mode.
#[derive(Debug)]
pub(super) enum Fatal {
    /// A quoted key with an invalid escape: message, offset.
    Escape(&'static str, usize),
    /// Field groups nested deeper than the depth limit, at this offset.
    Depth(usize),
}

/// Parses `content` (which starts at byte `base` of the input) as a header. `expand`: path
/// expansion is on (it changes which rows are plain and how deep they reach).
pub(super) fn parse(
    content: &str,
    base: usize,
    expand: bool,
    max_depth: usize,
) -> Result<Parsed, Fatal> {
    let b = content.as_bytes();
    let invalid = |reason, at: usize| Ok(Parsed::Invalid(reason, base + at));
    // The key: a quoted key right before the bracket, or anything before the first bracket
    // (but never past the first colon).
    let bracket = if b.first() == Some(&b'"') {
        match closing_quote(b, 0) {
            Some(close) if b.get(close + 1) == Some(&b'[') => close + 1,
            _ => return Ok(Parsed::NotHeader),
        }
    } else {
        match find_unquoted2(b, 0, b'[', b':') {
            Some(i) if b[i] == b'[' => i,
            _ => return Ok(Parsed::NotHeader),
        }
    };
    if find_unquoted(b, bracket, b':').is_none() {
        return Ok(Parsed::NotHeader);
    }
    let Some(bracket_end) = find_unquoted(b, bracket, b']') else {
        return invalid("unterminated bracket segment", bracket);
    };
    // The fields segment, when a brace comes before the colon that follows the bracket.
    let mut fields_range = None;
    let mut after = bracket_end + 1;
    let colon_after_bracket = find_unquoted(b, bracket_end, b':');
    if let Some(brace) = find_unquoted(b, bracket_end, b'{')
        && colon_after_bracket.is_some_and(|colon| brace < colon)
    {
        if brace != bracket_end + 1 {
            return invalid(
                "content between the bracket segment and the field list",
                after,
            );
        }
        if let Some(close) = matching_brace(b, brace) {
            fields_range = Some((brace + 1, close));
            after = close + 1;
        }
    }
    let Some(colon) = find_unquoted(b, after, b':') else {
        return invalid("missing colon after the array header", after);
    };
    if colon != after {
        return invalid("content between the array header and its colon", after);
    }

    let key = if bracket > 0 {
        let raw = &content[..bracket];
        if raw.ends_with([' ', '\t']) {
            return invalid(
                "whitespace between the key and the bracket segment",
                bracket - 1,
            );
        }
        Some(if raw.starts_with('"') {
            let name = unescape(&raw[1..raw.len() - 1])
                .map_err(|(message, at)| Fatal::Escape(message, base + 1 + at))?;
            HeaderKey {
                name,
                quoted: true,
                at: base,
            }
        } else {
            HeaderKey {
                name: String::from(raw),
                quoted: false,
                at: base,
            }
        })
    } else {
        None
    };

    // `[N]`, `[N<TAB>]`, `[N|]`, `[N:]`, `[N:<TAB>]`, `[N:|]`.
    let mut segment = &b[bracket + 1..bracket_end];
    let mut delimiter = b',';
    if let Some(&last @ (b'\t' | b'|')) = segment.last() {
        delimiter = last;
        segment = &segment[..segment.len() - 1];
    }
    let keyed = segment.last() == Some(&b':');
    if keyed {
        segment = &segment[..segment.len() - 1];
    }
    let valid_length = match segment {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    if !valid_length {
        return invalid(
            "invalid array length (a non-negative integer without leading zeros)",
            bracket + 1,
        );
    }
    let length = segment.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });

    let mut header = Header {
        key,
        length,
        delimiter,
        keyed,
        fields: None,
        leaves: 0,
        height: 0,
        plain_rows: true,
        duplicate: None,
        inline: None,
    };
    if let Some((start, end)) = fields_range {
        let inner = &b[start..end];
        for other in [b',', b'\t', b'|'] {
            if other != delimiter && find_unquoted(inner, 0, other).is_some() {
                return invalid(
                    "header delimiter mismatch: the field list uses another delimiter than the bracket",
                    start,
                );
            }
        }
        let fields = match parse_fields(content, start, end, delimiter, base, max_depth)? {
            Ok(fields) => fields,
            Err((reason, at)) => return Ok(Parsed::Invalid(reason, at)),
        };
        header.leaves = leaves(&fields);
        header.height = height(&fields, expand);
        header.duplicate = duplicate(&fields);
        header.plain_rows = header.duplicate.is_none() && !(expand && splits(&fields));
        header.fields = Some(fields);
    }
    if header.keyed && header.fields.is_none() {
        return invalid("a keyed header needs a field list", bracket_end + 1);
    }
    let (inline, offset) = trim_spaces(&content[colon + 1..]);
    if !inline.is_empty() {
        if header.fields.is_some() {
            return invalid(
                "content after the colon of a header with a field list",
                colon + 1 + offset,
            );
        }
        let start = base + colon + 1 + offset;
        header.inline = Some((start, start + inline.len()));
    }
    Ok(Parsed::Header(header))
}

/// The `}` that closes the `{` at `open`, ignoring braces inside quoted names.
fn matching_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_quoted(b, i)?;
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

type FieldsResult = Result<Result<Vec<FieldSpec>, (&'static str, usize)>, Fatal>;

/// A field group being read.
struct Group {
    fields: Vec<FieldSpec>,
    opener: Option<FieldSpec>,
}

/// The field list in `content[start..end]`, in one pass with a stack of open groups (a deeply
/// nested list costs its length, not its length times its depth). The inner error is a
/// malformed list (message, input offset).
fn parse_fields(
    content: &str,
    start: usize,
    end: usize,
    delimiter: u8,
    base: usize,
    max_depth: usize,
) -> FieldsResult {
    let b = content.as_bytes();
    // Open groups: the fields read so far, and the field that opened the group (the outer
    // list has none).
    let mut stack = alloc::vec![Group {
        fields: Vec::new(),
        opener: None,
    }];
    let mut i = start;
    loop {
        // One entry: a name, then maybe a nested group.
        while i < end && b[i] == b' ' {
            i += 1;
        }
        let name_at = i;
        let (name, quoted) = if i < end && b[i] == b'"' {
            let Some(close) = closing_quote(&b[..end], i) else {
                return Ok(Err(("unterminated quoted field name", base + i)));
            };
            let name = match unescape(&content[i + 1..close]) {
                Ok(name) => name,
                Err((reason, at)) => return Ok(Err((reason, base + i + 1 + at))),
            };
            i = close + 1;
            (name, true)
        } else {
            let stop = find_any_unquoted(&b[..end], i, delimiter).unwrap_or(end);
            let (name, _) = trim_spaces(&content[i..stop]);
            if name.is_empty() {
                return Ok(Err(("empty field name", base + i)));
            }
            i = stop;
            (String::from(name), false)
        };
        if i < end && b[i] == b'{' {
            if content[name_at..i].ends_with(' ') {
                return Ok(Err((
                    "whitespace before a nested field group",
                    base + i - 1,
                )));
            }
            if stack.len() >= max_depth {
                return Err(Fatal::Depth(base + i));
            }
            stack.push(Group {
                fields: Vec::new(),
                opener: Some(FieldSpec {
                    name,
                    quoted,
                    at: base + name_at,
                    children: Vec::new(),
                }),
            });
            i += 1;
            continue;
        }
        let fields = &mut stack.last_mut().expect("the outer list").fields;
        fields.push(FieldSpec {
            name,
            quoted,
            at: base + name_at,
            children: Vec::new(),
        });
        // After an entry (or a closed group): the delimiter, a `}` or the end.
        loop {
            while i < end && b[i] == b' ' {
                i += 1;
            }
            if i == end {
                if stack.len() > 1 {
                    return Ok(Err(("unmatched brace in the field list", base + end)));
                }
                let outer = stack.pop().expect("the outer list");
                return Ok(Ok(outer.fields));
            }
            match b[i] {
                c if c == delimiter => {
                    i += 1;
                    break;
                }
                b'}' if stack.len() > 1 => {
                    let group = stack.pop().expect("an open group");
                    let mut field = group.opener.expect("a nested group has a name");
                    field.children = group.fields;
                    stack.last_mut().expect("the outer list").fields.push(field);
                    i += 1;
                }
                _ => {
                    return Ok(Err(("unexpected characters in the field list", base + i)));
                }
            }
        }
    }
}

/// The first delimiter, `{` or `}` at or after `from`, outside quoted sections.
fn find_any_unquoted(b: &[u8], from: usize, delimiter: u8) -> Option<usize> {
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_quoted(b, i)?,
            b'{' | b'}' => return Some(i),
            c if c == delimiter => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn leaves(fields: &[FieldSpec]) -> usize {
    fields
        .iter()
        .map(|f| {
            if f.children.is_empty() {
                1
            } else {
                leaves(&f.children)
            }
        })
        .sum()
}

/// How many levels below a row object its deepest container sits: a nested group is one
/// level, and with path expansion a dotted name adds its extra segments.
fn height(fields: &[FieldSpec], expand: bool) -> usize {
    fields
        .iter()
        .map(|f| {
            let segments = if expand && !f.quoted {
                path_segments(&f.name).max(1)
            } else {
                1
            };
            if f.children.is_empty() {
                segments - 1
            } else {
                segments + height(&f.children, expand)
            }
        })
        .max()
        .unwrap_or(0)
}

/// Whether path expansion would split a field name somewhere in the list.
fn splits(fields: &[FieldSpec]) -> bool {
    fields
        .iter()
        .any(|f| (!f.quoted && path_segments(&f.name) > 0) || splits(&f.children))
}

/// The first name that repeats another of its group, at any level.
fn duplicate(fields: &[FieldSpec]) -> Option<(String, usize)> {
    if let Some(i) = first_duplicate(fields.len(), &|i| &fields[i].name) {
        return Some((fields[i].name.clone(), fields[i].at));
    }
    fields.iter().find_map(|f| duplicate(&f.children))
}

/// The index of the first key (in order) equal to an earlier one.
pub(super) fn first_duplicate<'k>(n: usize, key: &dyn Fn(usize) -> &'k str) -> Option<usize> {
    if n <= 16 {
        return (1..n).find(|&j| (0..j).any(|i| same_text(key(i), key(j))));
    }
    let mut order = indices(n);
    sort_by_text(&mut order, key);
    order
        .windows(2)
        .filter(|w| key(w[0] as usize) == key(w[1] as usize))
        .map(|w| w[1] as usize)
        .min()
}

/// Spec §7.1: the text between the quotes of a quoted string or key, unescaped. The error is
/// a message and the offset of the bad escape in `raw`.
pub(super) fn unescape(raw: &str) -> Result<String, (&'static str, usize)> {
    let b = raw.as_bytes();
    let Some(first) = memchr::memchr(b'\\', b) else {
        return Ok(String::from(raw));
    };
    let mut out = String::with_capacity(raw.len());
    out.push_str(&raw[..first]);
    let mut i = first;
    while i < b.len() {
        if b[i] != b'\\' {
            let next = memchr::memchr(b'\\', &b[i..]).map_or(b.len(), |j| i + j);
            out.push_str(&raw[i..next]);
            i = next;
            continue;
        }
        let c = match b.get(i + 1) {
            Some(b'\\') => '\\',
            Some(b'"') => '"',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let Some(hex) = b.get(i + 2..i + 6) else {
                    return Err(("truncated \\u escape (four hex digits needed)", i));
                };
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return Err(("\\u must be followed by four hex digits", i));
                }
                let unit = hex.iter().fold(0u32, |v, &h| {
                    v * 16 + char::from(h).to_digit(16).unwrap_or(0)
                });
                let Some(c) = char::from_u32(unit) else {
                    return Err((
                        "\\u escape of a lone surrogate (supplementary characters are written as UTF-8)",
                        i,
                    ));
                };
                out.push(c);
                i += 6;
                continue;
            }
            None => return Err(("backslash at the end of a string", i)),
            Some(_) => return Err(("invalid escape sequence", i)),
        };
        out.push(c);
        i += 2;
    }
    Ok(out)
}
