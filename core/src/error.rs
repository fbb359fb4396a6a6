//! The one error type of the crate: small (one pointer), with a stable code and a position.

use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;

/// `Result` with [`Error`] as the error type.
///
/// ```
/// fn first_line(text: &str) -> agentwire::Result<agentwire::json::Value> {
///     agentwire::json::parse(text.lines().next().unwrap_or(""))
/// }
/// assert_eq!(first_line("true\nfalse")?, agentwire::json::Value::Bool(true));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// An error from any agentwire format.
///
/// [`code`](Error::code) is stable across releases and identical in Rust, Node and the
/// browser; [`message`](Error::message) is for humans (for GCX1 it mirrors gcx-go's text).
///
/// ```
/// let err = agentwire::json::parse("[1,\n  x]").unwrap_err();
/// assert_eq!(err.code(), "JSON_SYNTAX");
/// assert_eq!(err.message(), "invalid character 'x' looking for beginning of value");
/// assert_eq!((err.line(), err.column(), err.offset()), (Some(2), Some(3), Some(6)));
/// assert_eq!(err.to_string(), "invalid character 'x' looking for beginning of value at line 2 column 3");
/// ```
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    kind: ErrorKind,
    message: String,
    position: Option<Position>,
}

/// Where in the input an error was found: always a byte offset, and for text input the line
/// and column too.
///
/// ```
/// use agentwire::Position;
/// let p = Position::in_text("ab\nc😀d".as_bytes(), 8);
/// assert_eq!(p.offset, 8);
/// let lc = p.line_column.unwrap();
/// assert_eq!((lc.line, lc.column, lc.column_utf16), (2, 3, 4));
/// assert_eq!(Position::at_byte(5).line_column, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Position {
    /// Byte offset from the start of the input (UTF-8 bytes for text).
    pub offset: u64,
    /// Line and column, for text input; `None` for binary input (GCB1).
    pub line_column: Option<LineColumn>,
}

/// A line and column of text input (JS: `line`, `column`, `columnUtf16`).
///
/// ```
/// use agentwire::{LineColumn, Position};
/// // "é" is one character but two UTF-8 bytes; "😀" one character but two UTF-16 units.
/// let p = Position::in_text("é😀x".as_bytes(), 6);
/// assert_eq!(p.line_column, Some(LineColumn { line: 1, column: 3, column_utf16: 4 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LineColumn {
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, counted in Unicode scalar values.
    pub column: u64,
    /// 1-based column, counted in UTF-16 code units (what JavaScript string indexes use).
    pub column_utf16: u64,
}

impl Position {
    /// A byte offset of binary input (no line or column).
    ///
    /// ```
    /// let p = agentwire::Position::at_byte(12);
    /// assert_eq!((p.offset, p.line_column), (12, None));
    /// ```
    pub fn at_byte(offset: u64) -> Position {
        Position {
            offset,
            line_column: None,
        }
    }

    /// The start (column 1) of line `line`, which starts at byte `offset`.
    ///
    /// ```
    /// let p = agentwire::Position::line_start(40, 3);
    /// let lc = p.line_column.unwrap();
    /// assert_eq!((p.offset, lc.line, lc.column, lc.column_utf16), (40, 3, 1, 1));
    /// ```
    pub fn line_start(offset: u64, line: u64) -> Position {
        Position {
            offset,
            line_column: Some(LineColumn {
                line,
                column: 1,
                column_utf16: 1,
            }),
        }
    }

    /// The position of byte `at` of `line_text`, a line that starts at byte `line_offset` of the
    /// input and has 1-based number `line`. `at` is clamped to the line. Columns count
    /// characters by their lead bytes, so a byte inside a character is in the column after the
    /// character's start, and invalid UTF-8 (whose first bad byte is often such a byte) keeps
    /// its exact offset.
    ///
    /// ```
    /// // Byte 4 of line 7, a line that starts at byte 120 of the input.
    /// let p = agentwire::Position::in_line(b"key\tvalue", 7, 120, 4);
    /// let lc = p.line_column.unwrap();
    /// assert_eq!((p.offset, lc.line, lc.column), (124, 7, 5));
    /// ```
    pub fn in_line(line_text: &[u8], line: u64, line_offset: u64, at: usize) -> Position {
        let at = at.min(line_text.len());
        let before = &line_text[..at];
        // Count scalar values by their leading bytes, so invalid UTF-8 cannot panic here.
        let mut column = 0u64;
        let mut column_utf16 = 0u64;
        for &b in before {
            if b & 0xC0 != 0x80 {
                column += 1;
                column_utf16 += if b >= 0xF0 { 2 } else { 1 };
            }
        }
        Position {
            offset: line_offset + at as u64,
            line_column: Some(LineColumn {
                line,
                column: column + 1,
                column_utf16: column_utf16 + 1,
            }),
        }
    }

    /// The position of byte `at` of a whole text (lines split on LF).
    ///
    /// ```
    /// let p = agentwire::Position::in_text(b"GCX1 tool=t\nrow", 13);
    /// let lc = p.line_column.unwrap();
    /// assert_eq!((p.offset, lc.line, lc.column), (13, 2, 2));
    /// ```
    pub fn in_text(text: &[u8], at: usize) -> Position {
        let at = at.min(text.len());
        let line_start = text[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = 1 + text[..line_start].iter().filter(|&&b| b == b'\n').count() as u64;
        Position::in_line(
            &text[line_start..],
            line,
            line_start as u64,
            at - line_start,
        )
    }
}

/// Which format or layer an error belongs to.
///
/// ```
/// use agentwire::Format;
/// let err = agentwire::gateway::parse_tool_id("no-separator").unwrap_err();
/// assert_eq!(err.format(), Format::Gateway);
/// assert_eq!(agentwire::json::parse("{").unwrap_err().format(), Format::Json);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Format {
    /// GCX1 text.
    Gcx1,
    /// GCF text.
    Gcf,
    /// GCB1 binary.
    Gcb,
    /// TOON text (Token-Oriented Object Notation).
    Toon,
    /// Gateway contracts (tool ids, cards, paths).
    Gateway,
    /// The Responses-API event protocol (tool specs, follow-ups).
    Events,
    /// JSON text or the JSON value model.
    Json,
    /// Arguments passed to an API (shape or type errors).
    Api,
}

impl Format {
    /// The lower-case name used in JS (`err.format`) and in the CLI.
    ///
    /// ```
    /// use agentwire::Format;
    /// assert_eq!(Format::Gcx1.as_str(), "gcx1");
    /// assert_eq!(Format::Api.as_str(), "api");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Gcx1 => "gcx1",
            Format::Gcf => "gcf",
            Format::Gcb => "gcb",
            Format::Toon => "toon",
            Format::Gateway => "gateway",
            Format::Events => "events",
            Format::Json => "json",
            Format::Api => "api",
        }
    }
}

macro_rules! error_kinds {
    ($( $(#[$doc:meta])* $variant:ident => $code:literal, $format:ident; )*) => {
        /// The category of an [`Error`]; each has a stable [`code`](ErrorKind::code) (serde:
        /// the code).
        ///
        /// ```
        /// use agentwire::{ErrorKind, Format};
        /// match agentwire::gateway::path::parse_path("/fs/") {
        ///     Err(e) if e.kind() == ErrorKind::PathTrailingSlash => {}
        ///     other => panic!("unexpected {other:?}"),
        /// }
        /// assert_eq!(ErrorKind::PathTrailingSlash.format(), Format::Gateway);
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[non_exhaustive]
        pub enum ErrorKind {
            $( $(#[$doc])* #[cfg_attr(feature = "serde", serde(rename = $code))] $variant, )*
        }

        impl ErrorKind {
            /// Every kind, in declaration order (for documentation and tests).
            ///
            /// ```
            /// use agentwire::ErrorKind;
            /// assert_eq!(ErrorKind::ALL[0], ErrorKind::GcxEmptyInput);
            /// assert!(ErrorKind::ALL.contains(&ErrorKind::Io));
            /// ```
            pub const ALL: &'static [ErrorKind] = &[$(ErrorKind::$variant),*];

            /// The stable code, e.g. `GCX_BAD_PREFIX`.
            ///
            /// ```
            /// use agentwire::ErrorKind;
            /// assert_eq!(ErrorKind::GcxBadPrefix.code(), "GCX_BAD_PREFIX");
            /// assert_eq!(ErrorKind::NonFiniteNumber.code(), "NON_FINITE_NUMBER");
            /// ```
            pub fn code(self) -> &'static str {
                match self { $(ErrorKind::$variant => $code,)* }
            }

            /// The format or layer the error belongs to.
            ///
            /// ```
            /// use agentwire::{ErrorKind, Format};
            /// assert_eq!(ErrorKind::GcbTruncated.format(), Format::Gcb);
            /// assert_eq!(ErrorKind::InvalidUtf8.format(), Format::Json);
            /// ```
            pub fn format(self) -> Format {
                match self { $(ErrorKind::$variant => Format::$format,)* }
            }
        }
    };
}

error_kinds! {
    /// GCX1: the payload is empty, so there is no header (gcx-go: `unexpected EOF`).
    GcxEmptyInput => "GCX_EMPTY_INPUT", Gcx1;
    /// GCX1: the first line of a section does not start with `GCX1`.
    GcxBadPrefix => "GCX_BAD_PREFIX", Gcx1;
    /// GCX1: a header token has no `=`.
    GcxMalformedHeaderToken => "GCX_MALFORMED_HEADER_TOKEN", Gcx1;
    /// GCX1: the header has no (or an empty) `tool=`.
    GcxMissingTool => "GCX_MISSING_TOOL", Gcx1;
    /// GCX1: the header has no `fields=`.
    GcxMissingFields => "GCX_MISSING_FIELDS", Gcx1;
    /// GCX1: a row has more values than the header declares fields (encode or decode).
    GcxTooManyValues => "GCX_TOO_MANY_VALUES", Gcx1;
    /// GCX1: a line reaches the decoder's line limit (`max_line_bytes`, 4 MiB by default: the
    /// longest accepted line is 4 MiB − 1 bytes).
    GcxLineTooLong => "GCX_LINE_TOO_LONG", Gcx1;
    /// GCX1: the payload has more sections than the decoder's `max_sections` limit.
    GcxTooManySections => "GCX_TOO_MANY_SECTIONS", Gcx1;
    /// GCX1: the payload has more rows (all sections together) than `max_rows`.
    GcxTooManyRows => "GCX_TOO_MANY_ROWS", Gcx1;
    /// GCX1: the payload has more values (rows × fields, padding included) than `max_cells`.
    GcxTooManyCells => "GCX_TOO_MANY_CELLS", Gcx1;
    /// GCX1: decoding to JSON would produce more than `max_output_bytes` of text.
    GcxOutputTooLarge => "GCX_OUTPUT_TOO_LARGE", Gcx1;
    /// GCX1 `lossless` encoding: the value cannot be written so that every decoder reads it back.
    GcxNotLossless => "GCX_NOT_LOSSLESS", Gcx1;
    /// GCX1 encoding (default `Checked` compat): the text would be rejected or misread by GCX1
    /// decoders (a space in a tool or field name, a first cell starting with `GCX1`, …).
    GcxUndecodable => "GCX_UNDECODABLE", Gcx1;
    /// GCX1 tool encoding with `strict`: the response does not fit the tool's layout.
    GcxLayoutMismatch => "GCX_LAYOUT_MISMATCH", Gcx1;
    /// A row was written before any section header.
    GcxNoSection => "GCX_NO_SECTION", Gcx1;
    /// A workspace-scope shape (`tool_definitions`, `tool_request`, `error`) breaks its schema.
    GcxSchema => "GCX_SCHEMA", Gcx1;
    /// GCF v1.1: the header has no (or an empty) `tool=`.
    GcfMissingTool => "GCF_MISSING_TOOL", Gcf;
    /// GCF v1.1: a header number (`budget=`, `tokens=`) is not an integer.
    GcfInvalidHeaderValue => "GCF_INVALID_HEADER_VALUE", Gcf;
    /// GCF v1.1 encoding: a symbol has a negative distance (no group can hold it).
    GcfNegativeDistance => "GCF_NEGATIVE_DISTANCE", Gcf;
    /// GCF: the decoded payload's text (names, edge endpoints) passes `max_payload_bytes`.
    GcfPayloadTooLarge => "GCF_PAYLOAD_TOO_LARGE", Gcf;
    /// GCF: the first line does not start with `GCF ` (also: empty input).
    GcfMissingHeader => "GCF_MISSING_HEADER", Gcf;
    /// GCF v3: the header has no `profile=` field first.
    GcfMissingProfile => "GCF_MISSING_PROFILE", Gcf;
    /// GCF v3: `profile` is neither `generic` nor `graph`.
    GcfUnknownProfile => "GCF_UNKNOWN_PROFILE", Gcf;
    /// GCF v3: a header token has no `=`.
    GcfMalformedHeaderField => "GCF_MALFORMED_HEADER_FIELD", Gcf;
    /// GCF v3: a header key appears twice.
    GcfDuplicateHeaderField => "GCF_DUPLICATE_HEADER_FIELD", Gcf;
    /// GCF v3: a quoted string has no closing `"`.
    GcfUnterminatedQuote => "GCF_UNTERMINATED_QUOTE", Gcf;
    /// GCF v3: an escape outside the JSON set, or a raw control character in a quoted string.
    GcfInvalidEscape => "GCF_INVALID_ESCAPE", Gcf;
    /// GCF v3: characters after the closing quote of a quoted scalar or key.
    GcfTrailingCharacters => "GCF_TRAILING_CHARACTERS", Gcf;
    /// GCF v3: `~` outside a tabular row cell.
    GcfInvalidMissing => "GCF_INVALID_MISSING", Gcf;
    /// GCF v3: `^` or `^{…}` outside a tabular row cell, or a malformed inline declaration.
    GcfInvalidAttachmentMarker => "GCF_INVALID_ATTACHMENT_MARKER", Gcf;
    /// GCF v3: an isolated or malformed `\u` surrogate escape.
    GcfInvalidSurrogate => "GCF_INVALID_SURROGATE", Gcf;
    /// GCF v3: the input is not valid UTF-8.
    GcfInvalidUtf8 => "GCF_INVALID_UTF8", Gcf;
    /// GCF v3: a key appears twice in one object, or a member key twice in one keyed map.
    GcfDuplicateKey => "GCF_DUPLICATE_KEY", Gcf;
    /// GCF v3: a field name appears twice in one field declaration.
    GcfDuplicateFieldName => "GCF_DUPLICATE_FIELD_NAME", Gcf;
    /// GCF v3: a row has a different number of cells than its header declares fields.
    GcfRowWidthMismatch => "GCF_ROW_WIDTH_MISMATCH", Gcf;
    /// GCF v3: a section has a different number of items than its `[count]` or the summary.
    GcfCountMismatch => "GCF_COUNT_MISMATCH", Gcf;
    /// GCF v3: a `[count]` is not `0`, a decimal without leading zeros, or `?` (or is a
    /// keyed map's `[0:]`).
    GcfInvalidCount => "GCF_INVALID_COUNT", Gcf;
    /// GCF v3: a tab in leading indentation.
    GcfTabIndentation => "GCF_TAB_INDENTATION", Gcf;
    /// GCF v3: indentation grows by more than one level, or is not a multiple of two spaces.
    GcfInvalidIndent => "GCF_INVALID_INDENT", Gcf;
    /// GCF v3: an `@N` item or row id differs from its zero-based index.
    GcfInvalidItemId => "GCF_INVALID_ITEM_ID", Gcf;
    /// GCF v3: a `.field` attachment without a matching `^` cell in its row.
    GcfOrphanAttachment => "GCF_ORPHAN_ATTACHMENT", Gcf;
    /// GCF v3: a positional inline body without an eligible `^` cell.
    GcfOrphanInlineAttachment => "GCF_ORPHAN_INLINE_ATTACHMENT", Gcf;
    /// GCF v3: a `^` cell without its attachment body.
    GcfMissingAttachment => "GCF_MISSING_ATTACHMENT", Gcf;
    /// GCF v3: two attachments for the same field of one row.
    GcfDuplicateAttachment => "GCF_DUPLICATE_ATTACHMENT", Gcf;
    /// GCF v3: a positional inline body has a different width than its inline schema.
    GcfInlineWidthMismatch => "GCF_INLINE_WIDTH_MISMATCH", Gcf;
    /// GCF v3: a line that no production of its context accepts (unknown line form, bad
    /// key, bad section header, keyed-map header with fewer than two fields).
    GcfInvalidLine => "GCF_INVALID_LINE", Gcf;
    /// GCF v3: an integer outside int64, or a number that is not finite (encode or decode).
    GcfOutOfRange => "GCF_OUT_OF_RANGE", Gcf;
    /// GCF graph: a symbol line with the wrong number of fields (v3: not exactly 5; v1.1:
    /// fewer than 5) or, in v1.1, not starting with `@`.
    GcfInvalidNodeLine => "GCF_INVALID_NODE_LINE", Gcf;
    /// GCF graph: a symbol id that is not a decimal integer.
    GcfInvalidSymbolId => "GCF_INVALID_SYMBOL_ID", Gcf;
    /// GCF graph: a score that is not a number (v3: not `[-]DIGITS.2DIGIT`).
    GcfInvalidScore => "GCF_INVALID_SCORE", Gcf;
    /// GCF graph: a malformed edge line (v3: no `<`; v1.1 also: missing type, bad ids).
    GcfInvalidEdgeSyntax => "GCF_INVALID_EDGE_SYNTAX", Gcf;
    /// GCF graph: an edge refers to a symbol id not declared before it.
    GcfUnknownEdgeReference => "GCF_UNKNOWN_EDGE_REFERENCE", Gcf;
    /// GCF v3 graph: a delta with an unknown section or a line form invalid for its section.
    GcfMalformedDelta => "GCF_MALFORMED_DELTA", Gcf;
    /// GCF v3 delta: the base holds a different root, or an operation contradicts the base
    /// (adding a symbol or row that exists, removing or changing one that does not).
    GcfDeltaConflict => "GCF_DELTA_CONFLICT", Gcf;
    /// GCF v3 delta: the pack root of the applied snapshot differs from `new_root`.
    GcfRootMismatch => "GCF_ROOT_MISMATCH", Gcf;
    /// GCF v3: nesting deeper than the decoder's or encoder's depth limit.
    GcfTooDeep => "GCF_TOO_DEEP", Gcf;
    /// GCF v3.6: a constant column or group subheader value that is not a scalar: empty, `~`,
    /// or an attachment marker (`^`, `^{…}`).
    GcfInvalidConstValue => "GCF_INVALID_CONST_VALUE", Gcf;
    /// GCF v3.6: a field declaration whose every column is constant (a row must carry a
    /// cell).
    GcfNoBareColumn => "GCF_NO_BARE_COLUMN", Gcf;
    /// GCF v3.6: a malformed grouped section: a bad `group=` clause, not exactly one `@` key
    /// column, a group column that is undeclared, the key or a constant, a subheader that is
    /// not `<group>=<value> [count]` for that column, or a grouped row with an attachment or
    /// without its key.
    GcfInvalidGroupHeader => "GCF_INVALID_GROUP_HEADER", Gcf;
    /// GCF v3.6: two subheaders of one grouped section for the same value.
    GcfDuplicateGroup => "GCF_DUPLICATE_GROUP", Gcf;
    /// GCB1: the input does not start with `GCB1`.
    GcbBadMagic => "GCB_BAD_MAGIC", Gcb;
    /// GCB1: a version byte other than 1.
    GcbUnsupportedVersion => "GCB_UNSUPPORTED_VERSION", Gcb;
    /// GCB1: the input ends before a field, or declares more than the bytes left can hold.
    GcbTruncated => "GCB_TRUNCATED", Gcb;
    /// GCB1: a varint is longer than 10 bytes or overflows 64 bits.
    GcbVarintOverflow => "GCB_VARINT_OVERFLOW", Gcb;
    /// GCB1: an edge refers to a symbol index past the symbol list.
    GcbEdgeIndex => "GCB_EDGE_INDEX", Gcb;
    /// GCB1: the decoded payload's text (names, signatures, edge endpoints) passes
    /// `max_payload_bytes`.
    GcbPayloadTooLarge => "GCB_PAYLOAD_TOO_LARGE", Gcb;
    /// TOON: a line or token that breaks the syntax: a missing colon, an invalid escape or an
    /// unterminated string, a malformed array header, a header out of its place, a bare
    /// token where a field or item belongs.
    ToonSyntax => "TOON_SYNTAX", Toon;
    /// TOON: indentation that breaks the rules: a tab in it, a width that is not a multiple
    /// of the indent (strict), a jump of more than one level (strict), a line deeper than
    /// its scope allows.
    ToonIndentation => "TOON_INDENTATION", Toon;
    /// TOON (strict): a blank line inside an array's items, rows or entries.
    ToonBlankLine => "TOON_BLANK_LINE", Toon;
    /// TOON (strict): an array or keyed object with more or fewer items, rows or entries than
    /// its header declares; (also non-strict) a row with more or fewer cells than its fields.
    ToonCountMismatch => "TOON_COUNT_MISMATCH", Toon;
    /// TOON (strict): a key twice among siblings (fields, field names, entry keys), or two
    /// keys that path expansion cannot merge.
    ToonDuplicateKey => "TOON_DUPLICATE_KEY", Toon;
    /// TOON: content after a complete root array or keyed root object.
    ToonTrailingContent => "TOON_TRAILING_CONTENT", Toon;
    /// TOON: nesting deeper than the decoder's depth limit.
    ToonDepth => "TOON_DEPTH", Toon;
    /// tool_id: the value is not a string.
    ToolIdNotAString => "TOOL_ID_NOT_A_STRING", Gateway;
    /// tool_id: longer than 240 code points.
    ToolIdTooLong => "TOOL_ID_TOO_LONG", Gateway;
    /// tool_id: no `:` between namespace and name.
    ToolIdMissingSeparator => "TOOL_ID_MISSING_SEPARATOR", Gateway;
    /// tool_id: the namespace breaks `[a-z][a-z0-9_-]{0,63}`.
    ToolIdNamespaceGrammar => "TOOL_ID_NAMESPACE_GRAMMAR", Gateway;
    /// tool_id: the name breaks `[A-Za-z_][A-Za-z0-9_.-]{0,127}`.
    ToolIdNameGrammar => "TOOL_ID_NAME_GRAMMAR", Gateway;
    /// tool_id: the version breaks `[A-Za-z0-9._-]{1,32}`.
    ToolIdVersionGrammar => "TOOL_ID_VERSION_GRAMMAR", Gateway;
    /// tool_id: the hash8 is not 8 lowercase hex digits.
    ToolIdHash8Grammar => "TOOL_ID_HASH8_GRAMMAR", Gateway;
    /// tool_id: neither a version nor a hash8.
    ToolIdHash8Required => "TOOL_ID_HASH8_REQUIRED", Gateway;
    /// An MCP tool definition lacks its name or description.
    McpMissingFields => "MCP_MISSING_FIELDS", Gateway;
    /// An MCP tool definition is malformed (a field of the wrong type).
    McpInvalidTool => "MCP_INVALID_TOOL", Gateway;
    /// Two tools of a catalog have the same canonical id.
    CatalogDuplicateId => "CATALOG_DUPLICATE_ID", Gateway;
    /// A ChoiceCard exceeds the hard token cap after description truncation.
    CardHardCap => "CARD_HARD_CAP", Gateway;
    /// A ChoiceCard field breaks its limits (kind, safety, name length, tags).
    CardInvalid => "CARD_INVALID", Gateway;
    /// Path: the value is not a string.
    PathNotAString => "PATH_NOT_A_STRING", Gateway;
    /// Path: empty.
    PathEmpty => "PATH_EMPTY", Gateway;
    /// Path: does not start with `/`.
    PathNoLeadingSlash => "PATH_NO_LEADING_SLASH", Gateway;
    /// Path: ends with `/`.
    PathTrailingSlash => "PATH_TRAILING_SLASH", Gateway;
    /// Path: an empty segment (`//`).
    PathEmptySegment => "PATH_EMPTY_SEGMENT", Gateway;
    /// Path: `*` before the last segment.
    PathWildcardNotFinal => "PATH_WILDCARD_NOT_FINAL", Gateway;
    /// Path: the first segment breaks `[a-z][a-z0-9_-]{0,63}`.
    PathRootSegmentGrammar => "PATH_ROOT_SEGMENT_GRAMMAR", Gateway;
    /// Path: a segment breaks `[a-z0-9][a-z0-9_-]{0,63}`.
    PathSegmentGrammar => "PATH_SEGMENT_GRAMMAR", Gateway;
    /// A tool's JSON Schema is itself invalid.
    SchemaInvalid => "SCHEMA_INVALID", Gateway;
    /// Events: a `--tool` value is neither `web_search` nor `name:json=path` (godex's message).
    EventsInvalidToolSpec => "EVENTS_INVALID_TOOL_SPEC", Events;
    /// Events: a tool schema text is not exactly one JSON value.
    EventsSchemaInvalidJson => "EVENTS_SCHEMA_INVALID_JSON", Events;
    /// Events: a tool schema is JSON but not an object.
    EventsSchemaNotObject => "EVENTS_SCHEMA_NOT_OBJECT", Events;
    /// Events: a follow-up has no output for one of its function calls.
    EventsMissingOutput => "EVENTS_MISSING_OUTPUT", Events;
    /// Tokens: vocabulary data is not exactly one of the vocabularies agentwire knows.
    TokensInvalidVocabulary => "TOKENS_INVALID_VOCABULARY", Api;
    /// Tokens: a token id to decode is not in the vocabulary.
    TokensUnknownId => "TOKENS_UNKNOWN_ID", Api;
    /// Input bytes are not valid UTF-8.
    InvalidUtf8 => "INVALID_UTF8", Json;
    /// JSON text is malformed.
    JsonSyntax => "JSON_SYNTAX", Json;
    /// JSON nesting is deeper than the configured limit.
    JsonDepth => "JSON_DEPTH", Json;
    /// JSON read for readers that hold doubles (`json::parse_exact`): a numeral that no double
    /// holds, so such a reader would change it.
    JsonInexactNumber => "JSON_INEXACT_NUMBER", Json;
    /// JSON read for readers that hold doubles (`json::parse_exact`): a key repeated in one
    /// object, whose earlier values such a reader drops.
    JsonDuplicateKey => "JSON_DUPLICATE_KEY", Json;
    /// JSON read for readers that hold doubles (`json::parse_exact`): a `\u` escape of a lone
    /// surrogate, which UTF-8 text cannot carry.
    JsonLoneSurrogate => "JSON_LONE_SURROGATE", Json;
    /// NaN or ±Infinity where a JSON number is required.
    NonFiniteNumber => "NON_FINITE_NUMBER", Json;
    /// An integer does not fit the 64-bit range of the typed number model.
    IntegerOutOfRange => "INTEGER_OUT_OF_RANGE", Api;
    /// An argument has the wrong shape or type.
    InvalidArgument => "INVALID_ARGUMENT", Api;
    /// Reading or writing a stream failed.
    Io => "IO", Api;
    /// A bug in agentwire (a caught panic); please report it.
    Internal => "INTERNAL", Api;
}

impl Error {
    /// A new error without a position.
    ///
    /// ```
    /// use agentwire::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::InvalidArgument, "limit must be positive");
    /// assert_eq!(err.code(), "INVALID_ARGUMENT");
    /// assert_eq!((err.position(), err.to_string().as_str()), (None, "limit must be positive"));
    /// ```
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error(Box::new(ErrorImpl {
            kind,
            message: message.into(),
            position: None,
        }))
    }

    /// A new error at a byte offset of binary input (no line or column).
    ///
    /// ```
    /// use agentwire::{Error, ErrorKind};
    /// let err = Error::at_offset(ErrorKind::GcbTruncated, "input ends in a varint", 9);
    /// assert_eq!((err.offset(), err.line()), (Some(9), None));
    /// assert_eq!(err.to_string(), "input ends in a varint at byte 9");
    /// ```
    pub fn at_offset(kind: ErrorKind, message: impl Into<String>, offset: u64) -> Error {
        Error::at(kind, message, Position::at_byte(offset))
    }

    /// A new error at `position`.
    ///
    /// ```
    /// use agentwire::{Error, ErrorKind, Position};
    /// let text = b"a\tb\nc\td";
    /// let err = Error::at(ErrorKind::GcxTooManyValues, "too many values", Position::in_text(text, 6));
    /// assert_eq!((err.line(), err.column()), (Some(2), Some(3)));
    /// assert_eq!(err.to_string(), "too many values at line 2 column 3");
    /// ```
    pub fn at(kind: ErrorKind, message: impl Into<String>, position: Position) -> Error {
        Error::new(kind, message).with_position(position)
    }

    /// Sets the position (replacing any earlier one).
    ///
    /// ```
    /// use agentwire::{Error, ErrorKind, Position};
    /// let err = Error::new(ErrorKind::JsonSyntax, "bad").with_position(Position::at_byte(3));
    /// assert_eq!(err.offset(), Some(3));
    /// let err = err.with_position(Position::line_start(10, 2));
    /// assert_eq!((err.offset(), err.line()), (Some(10), Some(2)));
    /// ```
    pub fn with_position(mut self, position: Position) -> Error {
        self.0.position = Some(position);
        self
    }

    /// Prefixes the message, keeping kind and position (e.g. `sections[2].rows[0]: `).
    ///
    /// ```
    /// use agentwire::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::InvalidArgument, "not a string").context("sections[2].rows[0]");
    /// assert_eq!(err.message(), "sections[2].rows[0]: not a string");
    /// assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    /// ```
    pub fn context(mut self, prefix: impl fmt::Display) -> Error {
        self.0.message = alloc::format!("{prefix}: {}", self.0.message);
        self
    }

    /// The category.
    ///
    /// ```
    /// use agentwire::ErrorKind;
    /// let err = agentwire::json::parse("[1, 2").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::JsonSyntax);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The stable code, e.g. `GCX_BAD_PREFIX` (every code: `docs/errors.md`).
    ///
    /// ```
    /// assert_eq!(agentwire::num::json_f64(f64::NAN).unwrap_err().code(), "NON_FINITE_NUMBER");
    /// ```
    pub fn code(&self) -> &'static str {
        self.0.kind.code()
    }

    /// The format or layer the error belongs to.
    ///
    /// ```
    /// use agentwire::Format;
    /// assert_eq!(agentwire::tokens::Encoding::parse("gpt2").unwrap_err().format(), Format::Api);
    /// ```
    pub fn format(&self) -> Format {
        self.0.kind.format()
    }

    /// The message without position (for GCX1 decode errors: gcx-go's exact text).
    ///
    /// ```
    /// let err = agentwire::json::parse("{\"a\":").unwrap_err();
    /// assert_eq!(err.message(), "unexpected end of JSON input");
    /// // Display adds the position.
    /// assert_eq!(err.to_string(), "unexpected end of JSON input at line 1 column 6");
    /// ```
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Where in the input the error was found, when known.
    ///
    /// ```
    /// use agentwire::{LineColumn, Position};
    /// let err = agentwire::json::parse("[1,\n  x]").unwrap_err();
    /// let expected = Position { offset: 6, line_column: Some(LineColumn { line: 2, column: 3, column_utf16: 3 }) };
    /// assert_eq!(err.position(), Some(expected));
    /// ```
    pub fn position(&self) -> Option<Position> {
        self.0.position
    }

    fn line_column(&self) -> Option<LineColumn> {
        self.0.position.and_then(|p| p.line_column)
    }

    /// 1-based line, when known (text input).
    ///
    /// ```
    /// let err = agentwire::json::parse("{\n\"a\": 1,\n}").unwrap_err();
    /// assert_eq!(err.line(), Some(3));
    /// ```
    pub fn line(&self) -> Option<u64> {
        self.line_column().map(|lc| lc.line)
    }

    /// 1-based column in characters, when known (text input).
    ///
    /// ```
    /// let err = agentwire::json::parse("[\"é\" x]").unwrap_err();
    /// // Characters, not bytes: the `x` is the 6th character (7th byte).
    /// assert_eq!((err.column(), err.offset()), (Some(6), Some(6)));
    /// ```
    pub fn column(&self) -> Option<u64> {
        self.line_column().map(|lc| lc.column)
    }

    /// 1-based column in UTF-16 code units, when known (text input).
    ///
    /// ```
    /// let err = agentwire::json::parse("[\"😀\" x]").unwrap_err();
    /// // JavaScript indexes: the emoji is two UTF-16 units.
    /// assert_eq!((err.column(), err.column_utf16()), (Some(6), Some(7)));
    /// ```
    pub fn column_utf16(&self) -> Option<u64> {
        self.line_column().map(|lc| lc.column_utf16)
    }

    /// Byte offset, when known.
    ///
    /// ```
    /// let err = agentwire::json::parse("[1, 2] x").unwrap_err();
    /// assert_eq!(err.offset(), Some(7));
    /// ```
    pub fn offset(&self) -> Option<u64> {
        self.0.position.map(|p| p.offset)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.code())
            .field("message", &self.0.message)
            .field("position", &self.0.position)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)?;
        match self.0.position {
            Some(Position {
                line_column: Some(lc),
                ..
            }) => write!(f, " at line {} column {}", lc.line, lc.column),
            Some(p) => write!(f, " at byte {}", p.offset),
            None => Ok(()),
        }
    }
}

impl core::error::Error for Error {}

impl Clone for Error {
    fn clone(&self) -> Error {
        Error(Box::new(ErrorImpl {
            kind: self.0.kind,
            message: self.0.message.clone(),
            position: self.0.position,
        }))
    }
}

impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        self.0.kind == other.0.kind
            && self.0.message == other.0.message
            && self.0.position == other.0.position
    }
}

/// Serialized as `{code, format, message, position}` (what JS error objects carry).
#[cfg(feature = "serde")]
impl serde::Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut error = serializer.serialize_struct("Error", 4)?;
        error.serialize_field("code", self.code())?;
        error.serialize_field("format", &self.format())?;
        error.serialize_field("message", self.message())?;
        error.serialize_field("position", &self.position())?;
        error.end()
    }
}

#[cfg(feature = "std")]
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::new(ErrorKind::Io, alloc::format!("{e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;
    use alloc::string::ToString;

    #[test]
    fn result_is_one_pointer() {
        assert_eq!(
            core::mem::size_of::<Result<(), Error>>(),
            core::mem::size_of::<usize>()
        );
    }

    #[test]
    fn codes_are_unique_and_upper_snake() {
        let mut seen = BTreeSet::new();
        for kind in ErrorKind::ALL {
            let code = kind.code();
            assert!(seen.insert(code), "duplicate code {code}");
            assert!(
                code.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            );
        }
    }

    #[test]
    fn position_counts_chars_and_utf16_units() {
        let line = "é😀x".as_bytes();
        let p = Position::in_line(line, 3, 100, line.len() - 1);
        assert_eq!(p.offset, 100 + 6);
        let lc = p.line_column.unwrap();
        assert_eq!((lc.line, lc.column, lc.column_utf16), (3, 3, 4));
        let e = Error::at(
            ErrorKind::JsonSyntax,
            "x",
            Position::in_text(b"ab\ncd\nef", 7),
        );
        assert_eq!(
            (e.line(), e.column(), e.offset()),
            (Some(3), Some(2), Some(7))
        );
        assert_eq!(e.to_string(), "x at line 3 column 2");
        let e = Error::at_offset(ErrorKind::GcbTruncated, "short", 9);
        assert_eq!((e.line(), e.offset()), (None, Some(9)));
        assert_eq!(e.to_string(), "short at byte 9");
    }
}
