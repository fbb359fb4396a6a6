//! The section header line: `GCX1 tool=… fields=a,b,… k=v …`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::encode::{Mode, refusal};
use super::escape::{escape_into, unescape};
use crate::text::{go_quote, split_ascii};
use crate::{Error, ErrorKind, Position, Result};

/// The tag every header starts with.
pub const TAG: &str = "GCX1";

/// The protocol version a decoded header reports (always 1).
pub const VERSION: u32 = 1;

/// A section header: tool name, the ordered field list, and metadata.
///
/// `meta` is a `BTreeMap`, whose order is byte order: exactly the order gcx-go writes.
///
/// ```
/// use agentwire::gcx::Header;
/// let header = Header::new("search", ["id", "line"])
///     .with_meta("total", "2")
///     .with_meta("page", "1");
/// let mut line = String::new();
/// header.write(&mut line, false)?;
/// assert_eq!(line, "GCX1 tool=search fields=id,line page=1 total=2\n");
/// assert_eq!(Header::parse(line.trim_end(), 1, 0)?, header);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Header {
    /// The MCP tool (or sub-section, e.g. `get_callers.edges`) that produced the rows.
    pub tool: String,
    /// Column names, in row order.
    pub fields: Vec<String>,
    /// Extra `k=v` pairs (`total`, `truncated`, `rows`, …).
    pub meta: BTreeMap<String, String>,
}

impl Header {
    /// A header with no metadata.
    ///
    /// ```
    /// use agentwire::gcx::Header;
    /// let header = Header::new("t", vec![String::from("a"), String::from("b")]);
    /// assert_eq!((header.tool.as_str(), header.fields.len()), ("t", 2));
    /// assert!(header.meta.is_empty());
    /// ```
    pub fn new<F: Into<String>>(
        tool: impl Into<String>,
        fields: impl IntoIterator<Item = F>,
    ) -> Header {
        Header {
            tool: tool.into(),
            fields: fields.into_iter().map(Into::into).collect(),
            meta: BTreeMap::new(),
        }
    }

    /// Adds a metadata pair (builder style).
    ///
    /// ```
    /// use agentwire::gcx::Header;
    /// let header = Header::new("t", ["a"]).with_meta("truncated", "true");
    /// assert_eq!(header.meta.get("truncated").map(String::as_str), Some("true"));
    /// ```
    pub fn with_meta(mut self, key: impl Into<String>, value: impl Into<String>) -> Header {
        self.meta.insert(key.into(), value.into());
        self
    }

    /// Appends the header line (with its LF) exactly as gcx-go writes it.
    ///
    /// With `lossless`, field names are escaped twice (decoders unescape them twice) and text
    /// that no decoder can read back is refused (see [`check_lossless`](Header::check_lossless)).
    ///
    /// ```
    /// use agentwire::gcx::Header;
    /// let header = Header::new("t", ["a\tb"]);
    /// let (mut plain, mut lossless) = (String::new(), String::new());
    /// header.write(&mut plain, false)?;
    /// header.write(&mut lossless, true)?;
    /// assert_eq!(plain, "GCX1 tool=t fields=a\\tb\n");
    /// assert_eq!(lossless, "GCX1 tool=t fields=a\\\\tb\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn write(&self, out: &mut String, lossless: bool) -> Result<()> {
        HeaderParts::of(self).write(out, lossless)
    }

    /// Refuses what a GCX1 decoder would not read back unchanged: CR anywhere (the escaper
    /// drops it), a space in any name or value (spaces separate tokens), an empty tool, no
    /// fields, a comma in a field name, duplicate field names, `=` in a meta key, a meta key
    /// named `tool` or `fields`, and trailing Unicode whitespace at the end of the line.
    ///
    /// ```
    /// use agentwire::gcx::Header;
    /// assert!(Header::new("t", ["a", "b"]).check_lossless().is_ok());
    /// let err = Header::new("t", ["a", "a"]).check_lossless().unwrap_err();
    /// assert_eq!(err.code(), "GCX_NOT_LOSSLESS");
    /// ```
    pub fn check_lossless(&self) -> Result<()> {
        HeaderParts::of(self).check_lossless()
    }

    /// Parses a header line (its LF and one CR already removed) as gcx-go's `parseHeader`.
    /// `line_no` and `offset` place errors.
    ///
    /// ```
    /// use agentwire::gcx::Header;
    /// let header = Header::parse("GCX1 tool=t fields=a,b rows=2", 1, 0)?;
    /// assert_eq!(header, Header::new("t", ["a", "b"]).with_meta("rows", "2"));
    /// let err = Header::parse("GCX1 tool=t", 4, 120).unwrap_err();
    /// assert_eq!(
    ///     (err.code(), err.line(), err.offset()),
    ///     ("GCX_MISSING_FIELDS", Some(4), Some(120))
    /// );
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parse(line: &str, line_no: u64, offset: u64) -> Result<Header> {
        let bytes = line.as_bytes();
        let at = |i: usize| Position::in_line(bytes, line_no, offset, i);
        if !line.starts_with(TAG) {
            return Err(Error::at(
                ErrorKind::GcxBadPrefix,
                alloc::format!(
                    "wire: expected header prefix \"GCX1\", got {}",
                    go_quote(bytes, 10)
                ),
                at(0),
            ));
        }
        let rest = line[TAG.len()..].trim();
        let rest_start = rest.as_ptr() as usize - line.as_ptr() as usize;
        let mut tool = String::new();
        let mut fields: Option<Vec<String>> = None;
        let mut meta = BTreeMap::new();
        let mut token_start = rest_start;
        for token in split_ascii(rest, b' ') {
            let start = token_start;
            token_start += token.len() + 1;
            if token.is_empty() {
                continue;
            }
            let Some(eq) = token.bytes().position(|b| b == b'=') else {
                return Err(Error::at(
                    ErrorKind::GcxMalformedHeaderToken,
                    alloc::format!(
                        "wire: malformed header token {} (want key=value)",
                        go_quote(token.as_bytes(), usize::MAX)
                    ),
                    at(start),
                ));
            };
            let key = unescape(&token[..eq]);
            let value = unescape(&token[eq + 1..]);
            match &*key {
                "tool" => tool = value.into_owned(),
                "fields" => {
                    fields = Some(
                        split_ascii(&value, b',')
                            .map(|f| unescape(f).into_owned())
                            .collect(),
                    );
                }
                _ => {
                    meta.insert(key.into_owned(), value.into_owned());
                }
            }
        }
        if tool.is_empty() {
            return Err(Error::at(
                ErrorKind::GcxMissingTool,
                "wire: header missing tool= key",
                at(0),
            ));
        }
        let Some(fields) = fields else {
            return Err(Error::at(
                ErrorKind::GcxMissingFields,
                "wire: header missing fields= key",
                at(0),
            ));
        };
        Ok(Header { tool, fields, meta })
    }
}

/// A field name escaped twice (decoders unescape field names twice).
#[inline(never)]
fn escape_twice(out: &mut String, field: &str) {
    let mut once = String::new();
    escape_into(&mut once, field);
    escape_into(out, &once);
}

/// A header as borrowed parts: what [`Header::write`] writes, for encoders that plan sections
/// without owning their names. `meta` is in key byte order with unique keys.
pub(crate) struct HeaderParts<'h, F, M> {
    pub tool: &'h str,
    pub fields: &'h [F],
    pub meta: M,
}

impl<'h> HeaderParts<'h, String, alloc::collections::btree_map::Iter<'h, String, String>> {
    pub(crate) fn of(header: &'h Header) -> Self {
        HeaderParts {
            tool: &header.tool,
            fields: &header.fields,
            meta: header.meta.iter(),
        }
    }
}

impl<'h, F, M, K, V> HeaderParts<'h, F, M>
where
    F: AsRef<str>,
    M: Iterator<Item = (K, V)> + Clone,
    K: AsRef<str>,
    V: AsRef<str>,
{
    /// See [`Header::write`].
    pub fn write(&self, out: &mut String, lossless: bool) -> Result<()> {
        self.write_mode(
            out,
            if lossless {
                Mode::Lossless
            } else {
                Mode::GcxGo
            },
        )
    }

    /// Writes the header line as `mode` says: checked, a line that does not parse back (or
    /// parses to fewer fields, which makes rows fail) is refused and `out` is left as it was.
    pub(crate) fn write_mode(&self, out: &mut String, mode: Mode) -> Result<()> {
        let lossless = mode.lossless();
        if lossless {
            self.check_lossless()?;
        }
        let start = out.len();
        out.push_str(TAG);
        out.push_str(" tool=");
        escape_into(out, self.tool);
        out.push_str(" fields=");
        for (i, field) in self.fields.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if lossless {
                escape_twice(out, field.as_ref());
            } else {
                escape_into(out, field.as_ref());
            }
        }
        for (key, value) in self.meta.clone() {
            out.push(' ');
            escape_into(out, key.as_ref());
            out.push('=');
            escape_into(out, value.as_ref());
        }
        if mode.checked()
            && !self.parses_back()
            && let Err(e) = self.check_parses(&out[start..])
        {
            out.truncate(start);
            return Err(e);
        }
        out.push('\n');
        Ok(())
    }

    /// Whether the written line surely parses back to as many fields, decided from the parts
    /// without parsing: with no space (the token separator) and no CR (escaping drops it) in
    /// any part, the tokens are exactly the ones written; a meta key without `=` that is not
    /// `tool` or `fields` then overrides neither. `false` means "parse it and see".
    fn parses_back(&self) -> bool {
        let plain = |text: &str| !text.bytes().any(|b| b == b' ' || b == b'\r');
        !self.tool.is_empty()
            && plain(self.tool)
            && self.fields.iter().all(|field| plain(field.as_ref()))
            && self.meta.clone().all(|(key, value)| {
                let key = key.as_ref();
                plain(key)
                    && plain(value.as_ref())
                    && !key.contains('=')
                    && key != "tool"
                    && key != "fields"
            })
    }

    /// The checked mode's test: the written line (without LF) parses, to as many fields.
    #[inline(never)]
    fn check_parses(&self, line: &str) -> Result<()> {
        let what = match Header::parse(line, 1, 0) {
            Ok(parsed) if parsed.fields.len() >= self.fields.len() => return Ok(()),
            Ok(_) => alloc::format!(
                "header of {} loses fields to a meta key named fields",
                go_quote(self.tool.as_bytes(), 40)
            ),
            Err(e) => alloc::format!(
                "header of {}: {}",
                go_quote(self.tool.as_bytes(), 40),
                e.message()
            ),
        };
        Err(refusal(Mode::Checked, &what))
    }

    /// See [`Header::check_lossless`].
    #[inline(never)]
    pub fn check_lossless(&self) -> Result<()> {
        let refuse = |what: &str, text: &str| {
            Err(Error::new(
                ErrorKind::GcxNotLossless,
                alloc::format!(
                    "lossless: {what} {} cannot be read back",
                    go_quote(text.as_bytes(), 40)
                ),
            ))
        };
        let plain = |text: &str| !text.contains([' ', '\r']);
        if self.tool.is_empty() {
            return refuse("an empty tool name", "");
        }
        if !plain(self.tool) {
            return refuse("tool name", self.tool);
        }
        if self.fields.is_empty() {
            return refuse("an empty field list", "");
        }
        for (i, field) in self.fields.iter().enumerate() {
            let field = field.as_ref();
            if !plain(field) || field.contains(',') {
                return refuse("field name", field);
            }
            if self.fields[..i].iter().any(|f| f.as_ref() == field) {
                return refuse("duplicate field name", field);
            }
        }
        for (key, value) in self.meta.clone() {
            let (key, value) = (key.as_ref(), value.as_ref());
            if !plain(key) || key.contains('=') || key == "tool" || key == "fields" {
                return refuse("meta key", key);
            }
            if !plain(value) {
                return refuse("meta value", value);
            }
        }
        let last_meta = self.meta.clone().last();
        let last = match &last_meta {
            Some((_, value)) => value.as_ref(),
            None => self.fields.last().map_or("", AsRef::as_ref),
        };
        if last.chars().next_back().is_some_and(char::is_whitespace) {
            return refuse("text ending in whitespace", last);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Parts made of the characters and words that decide how a header line splits.
    fn part() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            4 => "[a-z]{1,3}",
            2 => "[a ,=\\\\\t\r\n\u{a0}]",
            1 => Just(String::from("tool")),
            1 => Just(String::from("fields")),
        ];
        proptest::collection::vec(atom, 0..4).prop_map(|atoms| atoms.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// The shortcut is exact where it says yes: the written line then parses back to as
        /// many fields; and it says yes for plain headers.
        #[test]
        fn parses_back_only_what_parses(
            tool in part(),
            fields in proptest::collection::vec(part(), 0..4),
            meta in proptest::collection::btree_map(part(), part(), 0..3),
        ) {
            let parts = HeaderParts { tool: &tool, fields: &fields, meta: meta.iter() };
            let mut out = String::new();
            parts.write_mode(&mut out, Mode::GcxGo).unwrap();
            let line = out.trim_end_matches('\n');
            if parts.parses_back() {
                prop_assert!(parts.check_parses(line).is_ok(), "{line:?}");
            }
            let plain = |t: &str| t.bytes().all(|b| b.is_ascii_lowercase());
            if !tool.is_empty()
                && plain(&tool)
                && fields.iter().all(|f| plain(f))
                && meta.iter().all(|(k, v)| plain(k) && plain(v) && k != "tool" && k != "fields")
            {
                prop_assert!(parts.parses_back());
            }
        }
    }

    #[test]
    fn writes_like_gcx_go() {
        let h = Header::new("search_symbols", ["id", "line"])
            .with_meta("truncated", "false")
            .with_meta("total", "2");
        let mut out = String::new();
        h.write(&mut out, false).unwrap();
        assert_eq!(
            out,
            "GCX1 tool=search_symbols fields=id,line total=2 truncated=false\n"
        );
    }

    #[test]
    fn parses_and_places_errors() {
        let h = Header::parse("GCX1 t\\ool=a\\tb fields=f note=x\\ny\\\\z", 1, 0).unwrap();
        assert_eq!(h.tool, "a\tb");
        assert_eq!(h.meta["note"], "x\ny\\z");
        let e = Header::parse("GCX1 tool=é fields=a oops", 3, 40).unwrap_err();
        assert_eq!(e.code(), "GCX_MALFORMED_HEADER_TOKEN");
        assert_eq!(
            (e.line(), e.column(), e.offset()),
            (Some(3), Some(22), Some(62))
        );
    }

    #[test]
    fn lossless_refusals() {
        let mut out = String::new();
        for bad in [
            Header::new("x", ["a b"]),
            Header::new("x", ["a,b"]),
            Header::new("x", ["a", "a"]),
            Header::new("", ["a"]),
            Header::new("x", Vec::<String>::new()),
            Header::new("x", ["a"]).with_meta("tool", "y"),
            Header::new("x", ["a"]).with_meta("k", "v\u{a0}"),
            Header::new("x", ["a"]).with_meta("k=1", "v"),
            Header::new("x\r", ["a"]),
        ] {
            let e = bad.write(&mut out, true).unwrap_err();
            assert_eq!(e.code(), "GCX_NOT_LOSSLESS", "{bad:?}");
        }
        let mut out = String::new();
        Header::new("x", ["a\\b"]).write(&mut out, true).unwrap();
        assert_eq!(out, "GCX1 tool=x fields=a\\\\\\\\b\n");
        let back = Header::parse(out.trim_end(), 1, 0).unwrap();
        assert_eq!(back.fields, ["a\\b"]);
    }
}
