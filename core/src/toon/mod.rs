//! TOON, Token-Oriented Object Notation (spec 4.0): the JSON data model as indented lines,
//! with arrays of uniform objects (and objects of uniform objects) as tables.
//!
//! [`encode`] writes the spec's canonical form, byte for byte what `@toon-format/toon` 4.4.0
//! writes on every spec fixture; [`decode`] reads it back, strict (every error of spec §14, the
//! default) or lenient. Two options of the TypeScript library's earlier versions are here
//! too: key folding ([`KeyFolding::Safe`], `a.b.c: 1` for single-key chains) and its inverse,
//! path expansion ([`ExpandPaths::Safe`]). Where the spec and the reference library differ, the
//! spec decides (`docs/toon.md`).
//!
//! ```
//! use agentwire::{json, toon};
//! let value = json::parse(r#"{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}],"ok":true}"#)?;
//! let text = toon::encode(&value, &toon::EncodeOptions::default())?;
//! assert_eq!(text, "users[2]{id,name}:\n  1,Ada\n  2,Bob\nok: true");
//! assert_eq!(toon::decode(&text, &toon::DecodeOptions::default())?, value);
//! # Ok::<(), agentwire::Error>(())
//! ```
//!
//! Decoded numbers: a numeral without fraction or exponent that fits 64 bits is an exact
//! integer, any other numeral a double (`-0` is `0`); tokens outside the spec's number grammar
//! (`05`, `+1`, `.5`, `1e999`) are strings. Every decode error has a `TOON_` code
//! ([`ErrorKind::ToonSyntax`] and its neighbours) and the line
//! and column where it was found.

mod decode;
mod encode;
mod expand;
mod header;
mod syntax;
#[cfg(test)]
mod tests;

pub use decode::decode;
pub use encode::{encode, encode_to};

use crate::{Error, ErrorKind, Result};

/// The default [`DecodeOptions::max_depth`]: as deep as JSON input may nest by default
/// ([`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH)).
///
/// ```
/// use agentwire::toon::{self, DecodeOptions, DEFAULT_MAX_DEPTH};
/// assert_eq!(DecodeOptions::default().max_depth, DEFAULT_MAX_DEPTH);
/// let deep: String = (0..DEFAULT_MAX_DEPTH + 1).map(|d| format!("{}k:\n", "  ".repeat(d))).collect();
/// assert_eq!(toon::decode(&deep, &DecodeOptions::default()).unwrap_err().code(), "TOON_DEPTH");
/// ```
pub const DEFAULT_MAX_DEPTH: usize = crate::json::DEFAULT_MAX_DEPTH;

/// The widest indentation unit the options accept (spaces per level).
///
/// ```
/// use agentwire::toon::{self, EncodeOptions, MAX_INDENT};
/// let wide = EncodeOptions { indent: MAX_INDENT + 1, ..EncodeOptions::default() };
/// let err = toon::encode(&agentwire::json::Value::Null, &wide).unwrap_err();
/// assert_eq!(err.code(), "INVALID_ARGUMENT");
/// ```
pub const MAX_INDENT: usize = 64;

/// The delimiter of inline arrays, table rows and field lists (spec §11).
///
/// ```
/// use agentwire::toon::Delimiter;
/// assert_eq!(Delimiter::from_name("tab"), Some(Delimiter::Tab));
/// assert_eq!(Delimiter::from_name("|"), Some(Delimiter::Pipe));
/// assert_eq!(Delimiter::default().as_char(), ',');
/// assert_eq!(Delimiter::Tab.as_str(), "tab");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Delimiter {
    /// `,` (the default; a header declares it by naming none).
    #[default]
    Comma,
    /// TAB (U+0009).
    Tab,
    /// `|`.
    Pipe,
}

impl Delimiter {
    /// The character: `,`, TAB or `|`.
    ///
    /// ```
    /// use agentwire::toon::Delimiter;
    /// assert_eq!(Delimiter::Pipe.as_char(), '|');
    /// assert_eq!(Delimiter::Tab.as_char(), '\t');
    /// ```
    pub fn as_char(self) -> char {
        char::from(self.as_byte())
    }

    pub(crate) fn as_byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Tab => b'\t',
            Delimiter::Pipe => b'|',
        }
    }

    /// The name: `comma`, `tab` or `pipe`.
    ///
    /// ```
    /// use agentwire::toon::Delimiter;
    /// assert_eq!(Delimiter::Comma.as_str(), "comma");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Delimiter::Comma => "comma",
            Delimiter::Tab => "tab",
            Delimiter::Pipe => "pipe",
        }
    }

    /// The delimiter named `comma`, `tab` or `pipe`, or written as itself (`,`, TAB, `|`, as
    /// the TypeScript library's `delimiter` option takes it); `None` for anything else.
    ///
    /// ```
    /// use agentwire::toon::Delimiter;
    /// assert_eq!(Delimiter::from_name("\t"), Some(Delimiter::Tab));
    /// assert_eq!(Delimiter::from_name("comma"), Some(Delimiter::Comma));
    /// assert_eq!(Delimiter::from_name(";"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Delimiter> {
        match name {
            "comma" | "," => Some(Delimiter::Comma),
            "tab" | "\t" => Some(Delimiter::Tab),
            "pipe" | "|" => Some(Delimiter::Pipe),
            _ => None,
        }
    }
}

/// Key folding (the TypeScript library's `keyFolding`): whether the encoder writes a chain of
/// single-key objects as one dotted key.
///
/// ```
/// use agentwire::toon::{self, EncodeOptions, KeyFolding};
/// let value = agentwire::json::parse(r#"{"data":{"meta":{"count":2}}}"#)?;
/// let folded = EncodeOptions { key_folding: KeyFolding::Safe, ..EncodeOptions::default() };
/// assert_eq!(toon::encode(&value, &folded)?, "data.meta.count: 2");
/// assert_eq!(KeyFolding::from_name("safe"), Some(KeyFolding::Safe));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum KeyFolding {
    /// No folding (the default): the spec's canonical form.
    #[default]
    Off,
    /// Fold chains of single-key objects whose keys are identifiers (`[A-Za-z_][A-Za-z0-9_]*`)
    /// into `a.b.c`, unless the folded key equals a sibling key. Literal keys that path
    /// expansion would split (`a.b` as one key) are then quoted, so that decoding with
    /// [`ExpandPaths::Safe`] gives the value back.
    Safe,
}

impl KeyFolding {
    /// `off` or `safe`.
    ///
    /// ```
    /// assert_eq!(agentwire::toon::KeyFolding::Safe.as_str(), "safe");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            KeyFolding::Off => "off",
            KeyFolding::Safe => "safe",
        }
    }

    /// The mode named `off` or `safe`.
    ///
    /// ```
    /// use agentwire::toon::KeyFolding;
    /// assert_eq!(KeyFolding::from_name("off"), Some(KeyFolding::Off));
    /// assert_eq!(KeyFolding::from_name("on"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<KeyFolding> {
        match name {
            "off" => Some(KeyFolding::Off),
            "safe" => Some(KeyFolding::Safe),
            _ => None,
        }
    }
}

/// Path expansion (the TypeScript library's `expandPaths`): whether the decoder splits
/// unquoted dotted keys into nested objects.
///
/// ```
/// use agentwire::toon::{self, DecodeOptions, ExpandPaths};
/// let expand = DecodeOptions { expand_paths: ExpandPaths::Safe, ..DecodeOptions::default() };
/// let value = toon::decode("a.b: 1\na.c: 2\n\"x.y\": 3", &expand)?;
/// assert_eq!(value, agentwire::json::parse(r#"{"a":{"b":1,"c":2},"x.y":3}"#)?);
/// assert_eq!(ExpandPaths::from_name("safe"), Some(ExpandPaths::Safe));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ExpandPaths {
    /// Dotted keys stay as they are (the default).
    #[default]
    Off,
    /// Split every unquoted key whose dot-separated segments are all identifiers
    /// (`[A-Za-z_][A-Za-z0-9_]*`) into nested objects, merging objects that meet at the same
    /// path. Two values that cannot merge are an error in strict mode
    /// ([`ErrorKind::ToonDuplicateKey`]); otherwise the
    /// later one wins. Quoted keys are never split.
    Safe,
}

impl ExpandPaths {
    /// `off` or `safe`.
    ///
    /// ```
    /// assert_eq!(agentwire::toon::ExpandPaths::Off.as_str(), "off");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ExpandPaths::Off => "off",
            ExpandPaths::Safe => "safe",
        }
    }

    /// The mode named `off` or `safe`.
    ///
    /// ```
    /// use agentwire::toon::ExpandPaths;
    /// assert_eq!(ExpandPaths::from_name("safe"), Some(ExpandPaths::Safe));
    /// assert_eq!(ExpandPaths::from_name("all"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ExpandPaths> {
        match name {
            "off" => Some(ExpandPaths::Off),
            "safe" => Some(ExpandPaths::Safe),
            _ => None,
        }
    }
}

/// How [`encode`] writes a value.
///
/// ```
/// use agentwire::toon::{self, Delimiter, EncodeOptions};
/// let value = agentwire::json::parse(r#"{"tags":["a","b,c"],"user":{"id":1}}"#)?;
/// let options = EncodeOptions { indent: 4, delimiter: Delimiter::Pipe, ..EncodeOptions::default() };
/// assert_eq!(toon::encode(&value, &options)?, "tags[2|]: a|b,c\nuser:\n    id: 1");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct EncodeOptions {
    /// Spaces per indentation level (`indentSize`): 1 to [`MAX_INDENT`], default 2.
    pub indent: usize,
    /// The document delimiter (`delimiter`), declared by every array header. Default comma.
    pub delimiter: Delimiter,
    /// Key folding (`keyFolding`). Default off.
    pub key_folding: KeyFolding,
    /// With key folding, the most keys folded along one path of nested objects
    /// (`flattenDepth`); below 2 nothing folds. The count starts again inside every array
    /// element. Default `usize::MAX`: no limit.
    pub flatten_depth: usize,
}

impl Default for EncodeOptions {
    fn default() -> EncodeOptions {
        EncodeOptions {
            indent: 2,
            delimiter: Delimiter::Comma,
            key_folding: KeyFolding::Off,
            flatten_depth: usize::MAX,
        }
    }
}

/// How [`decode`] reads text.
///
/// ```
/// use agentwire::toon::{self, DecodeOptions};
/// let text = "tags[3]: a,b";
/// assert_eq!(toon::decode(text, &DecodeOptions::default()).unwrap_err().code(), "TOON_COUNT_MISMATCH");
/// let lenient = DecodeOptions { strict: false, ..DecodeOptions::default() };
/// assert_eq!(toon::decode(text, &lenient)?, agentwire::json::parse(r#"{"tags":["a","b"]}"#)?);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct DecodeOptions {
    /// Spaces per indentation level (`indentSize`): 1 to [`MAX_INDENT`], default 2.
    pub indent: usize,
    /// Enforce every rule of spec §14 (`strict`, default true): counts, widths, indentation,
    /// blank lines inside arrays, duplicate keys, malformed headers. Lenient decoding takes
    /// the last of duplicate keys, floors indentation to whole levels (a tab counts as one
    /// level), skips blank lines, reads malformed headers as plain keys, and still fails on
    /// what it cannot read.
    pub strict: bool,
    /// Path expansion (`expandPaths`). Default off.
    pub expand_paths: ExpandPaths,
    /// Deepest nesting of arrays and objects in the decoded value (a root container is depth
    /// 1; expanded paths count their objects), default [`DEFAULT_MAX_DEPTH`]. Deeper input is
    /// [`ErrorKind::ToonDepth`] at the line that crossed it. The
    /// decoder recurses once per level: raise it only on a thread with a matching stack.
    pub max_depth: usize,
}

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            indent: 2,
            strict: true,
            expand_paths: ExpandPaths::Off,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// An indent outside 1..=[`MAX_INDENT`] is an argument error.
fn check_indent(indent: usize) -> Result<()> {
    if (1..=MAX_INDENT).contains(&indent) {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::InvalidArgument,
            alloc::format!("indent must be 1 to {MAX_INDENT} spaces, not {indent}"),
        ))
    }
}
