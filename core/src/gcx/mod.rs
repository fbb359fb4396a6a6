//! GCX1: the tab-delimited, line-oriented format for MCP tool responses.
//!
//! Byte-identical to the Go reference (gcx-go v0.1.0) by default, quirks included; the
//! [`EncodeOptions::lossless`] option writes what every decoder reads back, or fails.
//!
//! - [`Encoder`] writes sections of typed [`Cell`]s to any [`Sink`](crate::sink::Sink).
//! - [`decode`] reads a whole payload (borrowed or owned sections, or what was read before
//!   an error); [`Decoder`] reads pushed chunks (or a slice) one [`Item`] at a time.
//! - [`encode_generic`] is the fallback for any JSON value; [`encode_tool`] maps a tool
//!   response onto its [`layout`] (the spec's per-tool layouts) or falls back to it.
//! - [`scope`] holds the workspace shapes (`tool_definitions`, `tool_request`, `error`) and
//!   [`scope::check_request`].
//!
//! ```
//! use agentwire::gcx::{self, Cell, EncodeOptions, Encoder, Header};
//! let mut enc = Encoder::new(String::new(), EncodeOptions::default());
//! enc.begin_section(&Header::new("search_symbols", ["id", "line"]).with_meta("total", "1"))?;
//! enc.write_row(&[Cell::Str("a.go::Foo"), Cell::I64(10)])?;
//! let payload = enc.finish()?;
//! assert_eq!(payload, "GCX1 tool=search_symbols fields=id,line total=1\na.go::Foo\t10\n");
//! let sections = gcx::decode(&payload, &Default::default()).into_sections()?;
//! assert_eq!(sections[0].rows, [["a.go::Foo", "10"]]);
//! # Ok::<(), agentwire::Error>(())
//! ```

mod decode;
pub mod document;
mod encode;
pub mod escape;
mod generic;
mod header;
mod json_form;
pub mod layout;
mod plan;
pub mod scope;
mod tool;

pub use decode::{
    BorrowedSection, DEFAULT_MAX_CELLS, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_MAX_ROWS,
    DEFAULT_MAX_SECTIONS, DecodeOptions, Decoded, Decoder, Item, Section, decode, decode_str,
};
pub use encode::{Cell, Compat, EncodeOptions, Encoder};
pub use generic::{encode_generic, write_generic};
pub use header::{Header, TAG, VERSION};
pub use layout::{Layouts, ToolLayout};
pub use tool::{
    Strategy, ToolOptions, ToolOutput, ToolReport, encode_tool, encode_tool_checked,
    encode_tool_report,
};

/// The default [`DecodeOptions::max_line_bytes`], gcx-go's line limit: `bufio.Scanner` with a
/// 4 MiB buffer accepts a line of at most 4 MiB − 1 bytes plus its LF.
pub const DEFAULT_MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// The response format an MCP tool argument selects (gcx-go `ParseFormat`).
///
/// ```
/// use agentwire::gcx::{parse_format, ResponseFormat};
/// let format = parse_format("GCX");
/// assert_eq!(format, ResponseFormat::Gcx);
/// assert_eq!(format.as_str(), "gcx");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ResponseFormat {
    /// JSON, the MCP default (and the answer for anything unrecognised).
    Json,
    /// GCX1.
    Gcx,
    /// The legacy one-line-per-result text output (lossy).
    Text,
}

impl ResponseFormat {
    /// `json`, `gcx` or `text` (gcx-go `Format.String`).
    ///
    /// ```
    /// use agentwire::gcx::ResponseFormat;
    /// assert_eq!(ResponseFormat::Json.as_str(), "json");
    /// assert_eq!(ResponseFormat::Text.as_str(), "text");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ResponseFormat::Json => "json",
            ResponseFormat::Gcx => "gcx",
            ResponseFormat::Text => "text",
        }
    }
}

/// gcx-go `ParseFormat`: trimmed and lower-cased, `gcx`/`gcx1` select GCX1, `text`/`compact`
/// the text output, anything else (including `""` and `json`) JSON.
///
/// ```
/// use agentwire::gcx::{parse_format, ResponseFormat};
/// assert_eq!(parse_format(" gcx1 "), ResponseFormat::Gcx);
/// assert_eq!(parse_format("compact"), ResponseFormat::Text);
/// assert_eq!(parse_format("yaml"), ResponseFormat::Json);
/// ```
pub fn parse_format(text: &str) -> ResponseFormat {
    // ASCII case folding equals Go's `strings.ToLower` here: the only non-ASCII runes Go lowers
    // to ASCII are U+212A (k) and U+0130 (i), and no keyword has a k or an i.
    let text = text.trim();
    let is = |keyword: &str| text.eq_ignore_ascii_case(keyword);
    if is("gcx") || is("gcx1") {
        ResponseFormat::Gcx
    } else if is("text") || is("compact") {
        ResponseFormat::Text
    } else {
        ResponseFormat::Json
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_format_like_gcx_go() {
        assert_eq!(parse_format(" GCX1 "), ResponseFormat::Gcx);
        assert_eq!(parse_format("Compact"), ResponseFormat::Text);
        assert_eq!(parse_format(""), ResponseFormat::Json);
        assert_eq!(parse_format("yaml").as_str(), "json");
        // Kelvin sign: Go lowers it to ASCII k, which no keyword contains.
        assert_eq!(parse_format("\u{212A}"), ResponseFormat::Json);
        assert_eq!(parse_format("\u{2003}TEXT\n"), ResponseFormat::Text);
    }
}
