//! GCF v3 (`GCF profile=…`): the generic profile (any JSON value, lossless) and the graph
//! profile (symbols and edges, sessions, deltas, pack roots, streaming).
//!
//! Two spec versions ([`SpecVersion`]): v3.6.0, the default, adds constant-column factoring
//! and value grouping to the generic profile, byte-identical to the gcf crate 3.1.0; v3.5.3
//! (pinned with [`EncodeOptions`]) is byte-identical to its 281 conformance fixtures. The graph
//! profile is the same in both.
//!
//! [`decode`] reads either profile and both versions and says which profile it read
//! ([`decode_versioned`] also the version). The decoder is strict (SPEC §16.5): every
//! malformed input is an [`Error`] whose [`code`](Error::code) is `GCF_` + the upper-case
//! SPEC category (`GCF_COUNT_MISMATCH` for `count_mismatch`; the v3.6.0 ones are the gcf
//! crate's), with a position.
//!
//! ```
//! use agentwire::gcf::v3;
//! use agentwire::json;
//! let value = json::parse(r#"{"rows":[{"id":1,"name":"Ada"},{"id":2,"name":"Bo"}]}"#)?;
//! let text = v3::encode_generic(&value)?;
//! assert_eq!(text, "GCF profile=generic\n## rows [2]{id,name}\n1|Ada\n2|Bo\n");
//! assert_eq!(v3::decode_generic(&text)?, value);
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::vec::Vec;

use crate::json::Value;
use crate::{Error, ErrorKind, Position, Result};

use super::Payload;

mod generic_decode;
mod generic_encode;
pub mod graph;
pub mod keyed;
pub(crate) mod scalar;

pub use generic_decode::DecodeOptions;
pub use generic_encode::{
    EncodeOptions, GenericStreamEncoder, encode_generic, encode_generic_grouped,
    encode_generic_with,
};
pub use graph::{GraphDelta, GraphSession, StreamOptions};
pub use keyed::GenericDelta;

/// The v3 spec versions an encoder can write. They differ only in the generic profile:
/// v3.6.0 adds constant-column factoring (SPEC §7.4.7, mandatory in the default encode path),
/// value grouping (§7.4.8, [`encode_generic_grouped`]) and leaves a `^{`-prefixed string
/// without its closing `}` bare. Decoders read both.
///
/// ```
/// use agentwire::gcf::v3::{self, EncodeOptions, SpecVersion};
/// use agentwire::json;
/// let value = json::parse(r#"[{"id":1,"type":"entity"},{"id":2,"type":"entity"}]"#)?;
/// assert_eq!(v3::encode_generic(&value)?, "GCF profile=generic\n## [2]{id,type=entity}\n1\n2\n");
/// let pinned = EncodeOptions { version: SpecVersion::V3_5_3, ..EncodeOptions::default() };
/// assert_eq!(
///     v3::encode_generic_with(&value, &pinned)?,
///     "GCF profile=generic\n## [2]{id,type}\n1|entity\n2|entity\n"
/// );
/// assert_eq!(SpecVersion::from_name("3.5.3"), Some(SpecVersion::V3_5_3));
/// assert_eq!(SpecVersion::default().as_str(), "3.6.0");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SpecVersion {
    /// SPEC v3.5.3: byte-identical to the 281 upstream conformance fixtures.
    V3_5_3,
    /// SPEC v3.6.0 (the default): byte-identical to the gcf crate 3.1.0.
    #[default]
    V3_6_0,
}

impl SpecVersion {
    /// `3.5.3` or `3.6.0`.
    ///
    /// ```
    /// use agentwire::gcf::v3::SpecVersion;
    /// assert_eq!(SpecVersion::default().as_str(), "3.6.0");
    /// assert_eq!(SpecVersion::V3_5_3.as_str(), "3.5.3");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            SpecVersion::V3_5_3 => "3.5.3",
            SpecVersion::V3_6_0 => "3.6.0",
        }
    }

    /// The version named `3.5.3` or `3.6.0`; `None` for anything else.
    ///
    /// ```
    /// use agentwire::gcf::v3::SpecVersion;
    /// assert_eq!(SpecVersion::from_name("3.6.0"), Some(SpecVersion::V3_6_0));
    /// assert_eq!(SpecVersion::from_name("3.6"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<SpecVersion> {
        match name {
            "3.5.3" => Some(SpecVersion::V3_5_3),
            "3.6.0" => Some(SpecVersion::V3_6_0),
            _ => None,
        }
    }
}

/// The two v3 profiles.
///
/// ```
/// use agentwire::gcf::v3::{self, Profile};
/// let document = v3::decode(b"GCF profile=generic\n## [1]{a}\n1\n", &Default::default())?;
/// assert_eq!(document.profile(), Profile::Generic);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Profile {
    /// `profile=generic`: any JSON value (SPEC §7).
    Generic,
    /// `profile=graph`: symbols and edges (SPEC §4–6).
    Graph,
}

impl Profile {
    /// `generic` or `graph`.
    ///
    /// ```
    /// use agentwire::gcf::v3::Profile;
    /// assert_eq!((Profile::Generic.as_str(), Profile::Graph.as_str()), ("generic", "graph"));
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Generic => "generic",
            Profile::Graph => "graph",
        }
    }
}

/// What a v3 payload decoded to.
///
/// ```
/// use agentwire::gcf::v3::{self, Document};
/// use agentwire::json;
/// let text = "GCF profile=generic\n## [2]{id,name}\n1|Ada\n2|Bo\n";
/// let Document::Generic(value) = v3::decode(text.as_bytes(), &Default::default())? else {
///     unreachable!("a generic payload")
/// };
/// assert_eq!(value, json::parse(r#"[{"id":1,"name":"Ada"},{"id":2,"name":"Bo"}]"#)?);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Document {
    /// A generic payload: the JSON value.
    Generic(Value),
    /// A generic delta payload (`delta=true`, SPEC §10a).
    GenericDelta(GenericDelta),
    /// A graph payload.
    Graph(Payload),
    /// A graph delta payload (`delta=true`, SPEC §10).
    GraphDelta(GraphDelta),
}

impl Document {
    /// The profile of the payload.
    ///
    /// ```
    /// use agentwire::gcf::v3::{self, Profile};
    /// let text = "GCF profile=graph tool=t symbols=1\n## targets\n@0 fn a 0.50 lsp\n";
    /// let document = v3::decode(text.as_bytes(), &Default::default())?;
    /// assert_eq!(document.profile(), Profile::Graph);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn profile(&self) -> Profile {
        match self {
            Document::Generic(_) | Document::GenericDelta(_) => Profile::Generic,
            Document::Graph(_) | Document::GraphDelta(_) => Profile::Graph,
        }
    }
}

/// Decodes a v3 payload of either profile and both spec versions, within `options`' limits.
/// Invalid UTF-8 is [`ErrorKind::GcfInvalidUtf8`].
///
/// ```
/// use agentwire::gcf::v3::{self, DecodeOptions, Document};
/// use agentwire::json;
/// let text = b"GCF profile=generic\n## [2]{id,type=entity}\n1\n2\n";
/// let document = v3::decode(text, &DecodeOptions::default())?;
/// let rows = json::parse(r#"[{"id":1,"type":"entity"},{"id":2,"type":"entity"}]"#)?;
/// assert_eq!(document, Document::Generic(rows));
/// let e = v3::decode(b"GCF profile=generic\n## [3]{a}\n1\n", &DecodeOptions::default()).unwrap_err();
/// assert_eq!((e.code(), e.line()), ("GCF_COUNT_MISMATCH", Some(2)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode(input: &[u8], options: &DecodeOptions) -> Result<Document> {
    decode_versioned(input, options).map(|(_, document)| document)
}

/// Decodes a v3 payload of either profile and reports the lowest spec version whose forms
/// it uses: [`SpecVersion::V3_6_0`] when a table has a constant column or is grouped (SPEC
/// §7.4.7, §7.4.8), [`SpecVersion::V3_5_3`] for everything else (graph payloads and deltas
/// included), which a 3.5.3 decoder reads as well.
///
/// ```
/// use agentwire::gcf::v3::{self, SpecVersion};
/// let (version, _) = v3::decode_versioned(b"GCF profile=generic\n## [2]{id,kind=x}\n1\n2\n", &Default::default())?;
/// assert_eq!(version, SpecVersion::V3_6_0);
/// let (version, _) = v3::decode_versioned(b"GCF profile=generic\n## [2]{id,kind}\n1|x\n2|x\n", &Default::default())?;
/// assert_eq!(version, SpecVersion::V3_5_3);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_versioned(input: &[u8], options: &DecodeOptions) -> Result<(SpecVersion, Document)> {
    let text = utf8(input)?;
    let header = Header::parse(text)?;
    let delta = header.get("delta") == Some("true");
    let older = SpecVersion::V3_5_3;
    Ok(match (header.profile, delta) {
        (Profile::Generic, false) => {
            let (value, version) = generic_decode::decode(text, &header, options)?;
            (version, Document::Generic(value))
        }
        (Profile::Generic, true) => (
            older,
            Document::GenericDelta(keyed::decode_delta(text, &header)?),
        ),
        (Profile::Graph, false) => (
            older,
            Document::Graph(graph::decode(text, &header, options)?),
        ),
        (Profile::Graph, true) => (
            older,
            Document::GraphDelta(graph::decode_delta(text, &header)?),
        ),
    })
}

/// `input` as text for the GCF decoders; invalid UTF-8 is [`ErrorKind::GcfInvalidUtf8`] at the first bad byte.
///
/// ```
/// use agentwire::gcf::v3;
/// assert_eq!(v3::utf8(b"GCF profile=generic")?, "GCF profile=generic");
/// let e = v3::utf8(b"GCF\n\xff").unwrap_err();
/// assert_eq!((e.code(), e.offset(), e.line()), ("GCF_INVALID_UTF8", Some(4), Some(2)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn utf8(input: &[u8]) -> Result<&str> {
    core::str::from_utf8(input).map_err(|e| {
        Error::at(
            ErrorKind::GcfInvalidUtf8,
            "invalid_utf8: the payload is not valid UTF-8",
            Position::in_text(input, e.valid_up_to()),
        )
    })
}

/// Decodes a generic-profile payload to its JSON value (a graph payload is
/// [`ErrorKind::GcfUnknownProfile`]).
///
/// ```
/// use agentwire::gcf::v3;
/// use agentwire::json;
/// let value = v3::decode_generic("GCF profile=generic\nname=Ada\nage=36\n")?;
/// assert_eq!(value, json::parse(r#"{"name":"Ada","age":36}"#)?);
/// let graph = "GCF profile=graph tool=t symbols=0\n";
/// assert_eq!(v3::decode_generic(graph).unwrap_err().code(), "GCF_UNKNOWN_PROFILE");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_generic(text: &str) -> Result<Value> {
    match decode(text.as_bytes(), &DecodeOptions::default())? {
        Document::Generic(value) => Ok(value),
        other => Err(wrong_profile(other.profile(), "a generic (non-delta)")),
    }
}

/// Decodes a graph-profile payload (not a delta).
///
/// ```
/// use agentwire::gcf::v3;
/// let text = "GCF profile=graph tool=t symbols=2\n## targets\n@0 fn a 0.90 lsp\n@1 fn b 0.50 lsp\n## edges [1]\n@0<@1 calls\n";
/// let payload = v3::decode_graph(text)?;
/// assert_eq!((payload.tool.as_str(), payload.symbols.len()), ("t", 2));
/// assert_eq!((payload.edges[0].source.as_str(), payload.edges[0].target.as_str()), ("b", "a"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_graph(text: &str) -> Result<Payload> {
    match decode(text.as_bytes(), &DecodeOptions::default())? {
        Document::Graph(payload) => Ok(payload),
        other => Err(wrong_profile(other.profile(), "a graph (non-delta)")),
    }
}

fn wrong_profile(found: Profile, wanted: &str) -> Error {
    Error::new(
        ErrorKind::GcfUnknownProfile,
        alloc::format!(
            "unknown_profile: expected {wanted} payload, found profile={}",
            found.as_str()
        ),
    )
}

/// True when `decoded` is what the generic round trip must give back for `original`: the same
/// JSON value, numbers by value (`5.0` is `5`, `-0.0` is `0`) and object members in the same
/// order, except inside table rows. SPEC §7.3 makes every all-object array, and §7.2a every
/// object of two or more objects, a table, and a row decodes in its header's order with
/// `>`-named fields (always attachments) last; there only membership counts.
///
/// ```
/// use agentwire::gcf::v3;
/// use agentwire::json;
/// let original = json::parse(r#"{"n":5.0,"rows":[{"b":1,"a":2}]}"#)?;
/// let decoded = v3::decode_generic(&v3::encode_generic(&original)?)?;
/// assert!(v3::round_trip_equal(&original, &decoded));
/// // Member order counts outside table rows.
/// let swapped = json::parse(r#"{"rows":[{"b":1,"a":2}],"n":5}"#)?;
/// assert!(!v3::round_trip_equal(&original, &swapped));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn round_trip_equal(original: &Value, decoded: &Value) -> bool {
    same_at(original, decoded, false)
}

fn holds_rows(value: &Value) -> bool {
    match value {
        Value::Array(items) => {
            !items.is_empty() && items.iter().all(|i| matches!(i, Value::Object(_)))
        }
        Value::Object(map) => {
            map.len() >= 2 && map.iter().all(|(_, v)| matches!(v, Value::Object(_)))
        }
        _ => false,
    }
}

fn same_at(a: &Value, b: &Value, row: bool) -> bool {
    let child_row = holds_rows(a);
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_at(a, b, child_row))
        }
        (Value::Object(x), Value::Object(y)) if row => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_at(v, w, child_row)))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same_at(va, vb, child_row))
        }
        _ => a == b,
    }
}

/// The header line: `GCF profile=<p>` then unique `key=value` pairs (SPEC §3).
#[derive(Clone, Debug)]
pub(crate) struct Header<'a> {
    /// The profile.
    pub profile: Profile,
    /// Every `key=value` pair after `profile`, in order.
    pub fields: Vec<(&'a str, &'a str)>,
    /// Byte offset of the first body line.
    pub body_offset: usize,
}

impl<'a> Header<'a> {
    /// Reads the header of `text`.
    pub fn parse(text: &'a str) -> Result<Header<'a>> {
        let end = text.find('\n').unwrap_or(text.len());
        let line = text[..end].strip_suffix('\r').unwrap_or(&text[..end]);
        let body_offset = (end + 1).min(text.len());
        let at = |i: usize| Position::in_line(line.as_bytes(), 1, 0, i);
        let Some(rest) = line.strip_prefix("GCF") else {
            return Err(Error::at(
                ErrorKind::GcfMissingHeader,
                "missing_header: the first line must start with `GCF profile=`",
                at(0),
            ));
        };
        if !(rest.is_empty() || rest.starts_with(' ')) {
            return Err(Error::at(
                ErrorKind::GcfMissingHeader,
                "missing_header: the first line must start with `GCF profile=` (unknown format version)",
                at(3),
            ));
        }
        let mut profile = None;
        let mut fields: Vec<(&'a str, &'a str)> = Vec::new();
        // Keys seen, for the duplicate check (a header may hold thousands of fields).
        let mut seen: alloc::collections::BTreeSet<&'a str> = alloc::collections::BTreeSet::new();
        let mut offset = 3;
        for token in rest.split(' ') {
            let token_at = offset + 1;
            offset += 1 + token.len();
            if token.is_empty() {
                continue;
            }
            let Some((key, value)) = token.split_once('=') else {
                return Err(Error::at(
                    ErrorKind::GcfMalformedHeaderField,
                    alloc::format!("malformed_header_field: {token:?} has no `=`"),
                    at(token_at),
                ));
            };
            if !scalar::is_bare_key(key) {
                return Err(Error::at(
                    ErrorKind::GcfMalformedHeaderField,
                    alloc::format!("malformed_header_field: {key:?} is not a header key"),
                    at(token_at),
                ));
            }
            // header-value = 1*( %x21-7E ): an encoder could not write anything else back.
            if value.is_empty() || !value.bytes().all(|b| (0x21..=0x7E).contains(&b)) {
                return Err(Error::at(
                    ErrorKind::GcfMalformedHeaderField,
                    alloc::format!(
                        "malformed_header_field: the value of {key:?} must be printable ASCII without spaces"
                    ),
                    at(token_at + key.len() + 1),
                ));
            }
            if profile.is_none() {
                if key != "profile" {
                    return Err(Error::at(
                        ErrorKind::GcfMissingProfile,
                        "missing_profile: `profile=` must be the first header field",
                        at(token_at),
                    ));
                }
                profile = Some(match value {
                    "generic" => Profile::Generic,
                    "graph" => Profile::Graph,
                    other => {
                        return Err(Error::at(
                            ErrorKind::GcfUnknownProfile,
                            alloc::format!(
                                "unknown_profile: {other:?} is neither generic nor graph"
                            ),
                            at(token_at + 8),
                        ));
                    }
                });
                continue;
            }
            if key == "profile" || !seen.insert(key) {
                return Err(Error::at(
                    ErrorKind::GcfDuplicateHeaderField,
                    alloc::format!("duplicate_header_field: {key:?} appears twice"),
                    at(token_at),
                ));
            }
            fields.push((key, value));
        }
        let Some(profile) = profile else {
            return Err(Error::at(
                ErrorKind::GcfMissingProfile,
                "missing_profile: the header has no `profile=` field",
                at(line.len()),
            ));
        };
        Ok(Header {
            profile,
            fields,
            body_offset,
        })
    }

    /// The value of header field `key`.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }
}

/// One body line: its 1-based number, byte offset, and text without the line break.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    /// 1-based line number in the payload.
    pub number: u64,
    /// Byte offset of the line's first byte in the payload.
    pub offset: usize,
    /// The line without `\n` and one trailing `\r`.
    pub text: &'a str,
}

impl Line<'_> {
    /// The position of byte `at` of this line.
    pub fn position(&self, at: usize) -> Position {
        Position::in_line(self.text.as_bytes(), self.number, self.offset as u64, at)
    }

    /// `error` placed at byte `at` of this line (keeps a position it already has).
    pub fn place(&self, error: Error, at: usize) -> Error {
        if error.position().is_some() {
            error
        } else {
            error.with_position(self.position(at))
        }
    }
}

/// The body lines of `text` after the header, blank lines included (callers skip them).
pub(crate) fn body_lines<'a>(
    text: &'a str,
    header: &Header<'_>,
) -> impl Iterator<Item = Line<'a>> + use<'a> {
    let mut offset = header.body_offset;
    let mut number = 1u64;
    core::iter::from_fn(move || {
        if offset >= text.len() {
            return None;
        }
        number += 1;
        let rest = &text[offset..];
        let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
        let raw = &rest[..end];
        let line = Line {
            number,
            offset,
            text: raw.strip_suffix('\r').unwrap_or(raw),
        };
        offset += end + 1;
        Some(line)
    })
}

/// True for a comment line (`# …` after indentation, SPEC §11).
pub(crate) fn is_comment(trimmed: &str) -> bool {
    trimmed == "#" || trimmed.starts_with("# ")
}
