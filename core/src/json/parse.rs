use alloc::string::String;
use alloc::vec::Vec;

use super::value::duplicate_key;
use super::{Map, Number, Value};
use crate::text::{go_quote_char, has_byte, has_byte_below, skip_words};
use crate::{Error, ErrorKind, Position, Result};

/// Limits for [`parse_with`].
///
/// ```
/// use agentwire::json::{self, ParseOptions};
/// let options = ParseOptions { max_depth: 2, ..ParseOptions::default() };
/// assert!(json::parse_with("[[1]]", &options).is_ok());
/// assert_eq!(json::parse_with("[[[1]]]", &options).unwrap_err().code(), "JSON_DEPTH");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    /// Deepest allowed nesting of arrays and objects (default [`DEFAULT_MAX_DEPTH`], 512):
    /// deeper input is [`ErrorKind::JsonDepth`] at the bracket that crossed it. See
    /// [`MAX_DEPTH_CEILING`] before raising it.
    pub max_depth: usize,
    /// Keep every number as its source text (Go `json.Number`, serde_json
    /// `arbitrary_precision`) instead of the typed model. The GCX1 upstream benchmark
    /// measured with this mode.
    pub literal_numbers: bool,
}

/// The default nesting limit of JSON input.
///
/// ```
/// use agentwire::json::{ParseOptions, DEFAULT_MAX_DEPTH};
/// assert_eq!(ParseOptions::default().max_depth, DEFAULT_MAX_DEPTH);
/// let deep = "[".repeat(DEFAULT_MAX_DEPTH + 1) + &"]".repeat(DEFAULT_MAX_DEPTH + 1);
/// assert_eq!(agentwire::json::parse(&deep).unwrap_err().code(), "JSON_DEPTH");
/// ```
pub const DEFAULT_MAX_DEPTH: usize = 512;

/// The highest nesting limit the JSON options (`maxDepth`) accept. The parser itself is not
/// recursive, but writers, encoders and `Drop` walk values recursively: 1024 levels stay far
/// inside a 1 MiB stack (wasm's default) in optimized builds and a 2 MiB one (Rust test
/// threads) in debug builds. A Rust caller may set [`ParseOptions::max_depth`] higher at its
/// own risk.
///
/// ```
/// use agentwire::json::{self, ParseOptions, MAX_DEPTH_CEILING};
/// let options = ParseOptions { max_depth: MAX_DEPTH_CEILING, ..ParseOptions::default() };
/// let deep = "[".repeat(600) + &"]".repeat(600);
/// assert!(json::parse(&deep).is_err());
/// assert!(json::parse_with(&deep, &options).is_ok());
/// ```
pub const MAX_DEPTH_CEILING: usize = 1024;

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            literal_numbers: false,
        }
    }
}

/// Parses JSON text with the default limits (see [`parse_with`]).
///
/// ```
/// use agentwire::json::{self, Value};
/// let value = json::parse(r#"{"name": "fs", "tools": 3}"#)?;
/// assert_eq!(value.get("name").and_then(Value::as_str), Some("fs"));
/// assert_eq!(json::parse("[1,]").unwrap_err().code(), "JSON_SYNTAX");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parse(text: &str) -> Result<Value> {
    parse_with(text, &ParseOptions::default())
}

/// Parses JSON bytes: invalid UTF-8 is an [`ErrorKind::InvalidUtf8`] error at its position.
///
/// ```
/// use agentwire::json::{self, ParseOptions, Value};
/// assert_eq!(json::parse_bytes(b"\"ok\"", &ParseOptions::default())?, Value::from("ok"));
/// let err = json::parse_bytes(b"[\"a\xff\"]", &ParseOptions::default()).unwrap_err();
/// assert_eq!((err.code(), err.offset()), ("INVALID_UTF8", Some(3)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parse_bytes(bytes: &[u8], options: &ParseOptions) -> Result<Value> {
    parse_with(utf8(bytes)?, options)
}

/// JSON bytes as text: invalid UTF-8 is an [`ErrorKind::InvalidUtf8`] error at the first bad
/// byte.
///
/// ```
/// let err = agentwire::json::utf8(b"{\n \"a\xff\": 1}").unwrap_err();
/// assert_eq!(err.to_string(), "invalid UTF-8 in JSON input at line 2 column 4");
/// ```
pub fn utf8(bytes: &[u8]) -> Result<&str> {
    core::str::from_utf8(bytes).map_err(|e| {
        Error::at(
            ErrorKind::InvalidUtf8,
            "invalid UTF-8 in JSON input",
            Position::in_text(bytes, e.valid_up_to()),
        )
    })
}

/// Parses strict JSON (RFC 8259) into the typed model.
///
/// Integers without fraction or exponent that fit `i64` (negative) or `u64` stay integers;
/// every other number, `-0` included, is the correctly rounded `f64` (out of range: ±Infinity,
/// which encoders then reject as Go does). Duplicate keys: the last value wins. Lone surrogate
/// escapes become U+FFFD, as in Go's `encoding/json`.
///
/// ```
/// use agentwire::json::{self, ParseOptions, Value};
/// let typed = json::parse_with("[7, 1.50, -0]", &ParseOptions::default())?;
/// let n: Vec<_> = typed.as_array().unwrap().iter().map(|v| match v { Value::Number(n) => n.clone(), _ => unreachable!() }).collect();
/// assert_eq!((n[0].as_u64(), n[1].as_f64(), n[2].is_integer()), (Some(7), 1.5, false));
/// // Literal numbers keep their source text.
/// let options = ParseOptions { literal_numbers: true, ..ParseOptions::default() };
/// let literal = json::parse_with("1.50", &options)?;
/// assert_eq!(json::to_string(&literal, json::WriteOptions::PLAIN)?, "1.50");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parse_with(text: &str, options: &ParseOptions) -> Result<Value> {
    Parser::<false>::new(text, options)
        .parse_document()
        .map_err(|refused| refused.error)
}

/// [`parse_with`], refusing what a reader that holds numbers as doubles (JavaScript's
/// `JSON.parse`, Python's `float`) would not give back unchanged, with the JSON path in the
/// message: a numeral no double holds ([`ErrorKind::JsonInexactNumber`], see
/// [`crate::num::double_holds`]), a repeated key ([`ErrorKind::JsonDuplicateKey`]) and a lone
/// surrogate escape ([`ErrorKind::JsonLoneSurrogate`]). Only what the parser reads counts:
/// string contents are never taken for numerals. Compaction parses this way.
///
/// ```
/// use agentwire::json::{self, ParseOptions};
/// let options = ParseOptions::default();
/// let text = r#"{"v": "3b814327e-20221014", "ids": [1, 9007199254740993]}"#;
/// assert!(json::parse_with(text, &options).is_ok());
/// let err = json::parse_exact(text, &options).unwrap_err();
/// assert_eq!((err.code(), err.column()), ("JSON_INEXACT_NUMBER", Some(40)));
/// assert!(err.message().ends_with("gives back 9007199254740992 at $.ids[1]"));
/// ```
pub fn parse_exact(text: &str, options: &ParseOptions) -> Result<Value> {
    parse_refusing(text, options).map_err(|refused| refused.error)
}

/// What [`parse_refusing`] refused: the error, and for the refusals of [`parse_exact`] where
/// they are.
#[derive(Debug)]
pub(crate) struct Refused {
    pub error: Error,
    pub inexact: Option<Inexact>,
}

/// Where and what a reader holding doubles would change.
#[derive(Debug)]
pub(crate) struct Inexact {
    /// JSONPath of the value (`$.items[3].id`); for a duplicate key, of its object.
    pub path: String,
    /// The numeral, the repeated key, or the lone surrogate escape (`\ud800`).
    pub text: String,
}

/// [`parse_exact`], keeping the path and text of a refusal apart.
pub(crate) fn parse_refusing(
    text: &str,
    options: &ParseOptions,
) -> core::result::Result<Value, Refused> {
    Parser::<true>::new(text, options).parse_document()
}

enum Frame {
    Array(Vec<Value>),
    Object(Vec<(String, Value)>, String),
}

/// The parser; `EXACT` refuses what a reader holding doubles would change ([`parse_exact`]),
/// compiled only where it is used (the default wasm module has no compaction).
struct Parser<'a, const EXACT: bool> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    max_depth: usize,
    literal_numbers: bool,
    /// While reading an object key: how many frames lead to its object (where a lone
    /// surrogate in the key is).
    key_depth: Option<usize>,
    /// A refusal of `EXACT`: its text, and how many frames lead to where it is.
    refused: Option<(String, usize)>,
}

impl<'a, const EXACT: bool> Parser<'a, EXACT> {
    fn new(text: &'a str, options: &ParseOptions) -> Parser<'a, EXACT> {
        Parser {
            bytes: text.as_bytes(),
            text,
            pos: 0,
            max_depth: options.max_depth,
            literal_numbers: options.literal_numbers,
            key_depth: None,
            refused: None,
        }
    }

    fn parse_document(&mut self) -> core::result::Result<Value, Refused> {
        let mut stack: Vec<Frame> = Vec::new();
        if !EXACT {
            return self.parse_values(&mut stack).map_err(|error| Refused {
                error,
                inexact: None,
            });
        }
        self.parse_values(&mut stack).map_err(|error| {
            let inexact = self.refused.take().map(|(text, depth)| Inexact {
                path: json_path(&stack[..depth.min(stack.len())]),
                text,
            });
            let error = match &inexact {
                Some(at) => Error::at(
                    error.kind(),
                    alloc::format!("{} at {}", error.message(), at.path),
                    error.position().unwrap_or(self.position(self.pos)),
                ),
                None => error,
            };
            Refused { error, inexact }
        })
    }

    fn parse_values(&mut self, stack: &mut Vec<Frame>) -> Result<Value> {
        'value: loop {
            self.skip_whitespace();
            let mut value = match self.peek() {
                None => return Err(self.eof()),
                Some(b'{') => {
                    self.enter(stack.len())?;
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Map::new())
                    } else {
                        self.key_depth = Some(stack.len());
                        let key = self.object_key("looking for beginning of object key string")?;
                        stack.push(Frame::Object(Vec::new(), key));
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.enter(stack.len())?;
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => {
                    let start = self.pos;
                    let number = self.number()?;
                    if EXACT && !self.held(&number, start) {
                        return Err(self.inexact_number(start));
                    }
                    Value::Number(number)
                }
                Some(_) => return Err(self.unexpected("looking for beginning of value")),
            };
            // Attach the finished value to its parents, closing every container that ends here.
            loop {
                let open = stack.len();
                match stack.last_mut() {
                    None => {
                        self.skip_whitespace();
                        if self.pos != self.bytes.len() {
                            return Err(self.unexpected("after top-level value"));
                        }
                        return Ok(value);
                    }
                    Some(Frame::Array(items)) => {
                        items.push(value);
                        self.skip_whitespace();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                let Some(Frame::Array(items)) = stack.pop() else {
                                    unreachable!("top frame is an array")
                                };
                                value = Value::Array(items);
                            }
                            None => return Err(self.eof()),
                            Some(_) => return Err(self.unexpected("after array element")),
                        }
                    }
                    Some(Frame::Object(members, key)) => {
                        members.push((core::mem::take(key), value));
                        self.skip_whitespace();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_whitespace();
                                self.key_depth = Some(open - 1);
                                *key =
                                    self.object_key("looking for beginning of object key string")?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                if EXACT && let Some(key) = duplicate_key(members) {
                                    let key = String::from(key);
                                    return Err(self.duplicate(key, open - 1));
                                }
                                self.pos += 1;
                                let Some(Frame::Object(members, _)) = stack.pop() else {
                                    unreachable!("top frame is an object")
                                };
                                value = Value::Object(Map::from_members(members));
                            }
                            None => return Err(self.eof()),
                            Some(_) => return Err(self.unexpected("after object key:value pair")),
                        }
                    }
                }
            }
        }
    }

    fn enter(&self, depth: usize) -> Result<()> {
        if depth >= self.max_depth {
            return Err(Error::at(
                ErrorKind::JsonDepth,
                alloc::format!("JSON nesting exceeds the limit of {}", self.max_depth),
                self.position(self.pos),
            ));
        }
        Ok(())
    }

    /// Whether a reader holding doubles gives the numeral at `start` back unchanged. The usual
    /// numerals are decided without printing: integers within ±2^53, and decimals of at most
    /// 15 significant digits without an exponent (each is the shortest form of its double).
    fn held(&self, number: &Number, start: usize) -> bool {
        const EXACT: u64 = 1 << 53;
        let text = &self.text[start..self.pos];
        let exact_integer = match (number.as_u64(), number.as_i64()) {
            (Some(v), _) => v <= EXACT,
            (None, Some(v)) => v.unsigned_abs() <= EXACT,
            _ => false,
        };
        let short_decimal = text.len() <= 17
            && text.bytes().filter(u8::is_ascii_digit).count() <= 15
            && !text.bytes().any(|b| matches!(b, b'e' | b'E'))
            && !(text.starts_with('-') && number.as_f64() == 0.0);
        exact_integer || short_decimal || crate::num::numeral_held(text)
    }

    fn inexact_number(&mut self, start: usize) -> Error {
        let text = &self.text[start..self.pos];
        let read = match text.parse::<f64>() {
            Ok(v) if v.is_finite() => {
                let mut printed = String::new();
                // -0 prints as 0, as JSON.stringify does.
                let _ = crate::num::write_json_f64(&mut printed, if v == 0.0 { 0.0 } else { v });
                printed
            }
            Ok(v) if v > 0.0 => String::from("Infinity"),
            _ => String::from("-Infinity"),
        };
        let message = alloc::format!(
            "the numeral {text} is not exactly a double: a reader that holds doubles gives back {read}"
        );
        self.refused = Some((String::from(text), usize::MAX));
        Error::at(ErrorKind::JsonInexactNumber, message, self.position(start))
    }

    fn duplicate(&mut self, key: String, depth: usize) -> Error {
        let message = alloc::format!(
            "the key {} is repeated in this object: a reader keeps only its last value",
            quoted(&key)
        );
        self.refused = Some((key, depth));
        Error::at(
            ErrorKind::JsonDuplicateKey,
            message,
            self.position(self.pos),
        )
    }

    /// Reads `"key"` and the `:` after it.
    fn object_key(&mut self, context: &str) -> Result<String> {
        match self.peek() {
            Some(b'"') => {}
            None => return Err(self.eof()),
            Some(_) => return Err(self.unexpected(context)),
        }
        let key = self.string()?;
        self.key_depth = None;
        self.skip_whitespace();
        match self.peek() {
            Some(b':') => self.pos += 1,
            None => return Err(self.eof()),
            Some(_) => return Err(self.unexpected("after object key")),
        }
        Ok(key)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn position(&self, at: usize) -> Position {
        Position::in_text(self.bytes, at)
    }

    fn eof(&self) -> Error {
        Error::at(
            ErrorKind::JsonSyntax,
            "unexpected end of JSON input",
            self.position(self.bytes.len()),
        )
    }

    /// `invalid character 'x' <context>` at the current position.
    fn unexpected(&self, context: &str) -> Error {
        let c = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
        Error::at(
            ErrorKind::JsonSyntax,
            alloc::format!("invalid character {} {context}", go_quote_char(c)),
            self.position(self.pos),
        )
    }

    fn literal(&mut self, word: &'static str, value: Value) -> Result<Value> {
        for expected in word.bytes() {
            match self.peek() {
                Some(b) if b == expected => self.pos += 1,
                None => return Err(self.eof()),
                Some(_) => {
                    let context = alloc::format!(
                        "in literal {word} (expecting {})",
                        go_quote_char(expected as char)
                    );
                    return Err(self.unexpected(&context));
                }
            }
        }
        Ok(value)
    }

    fn number(&mut self) -> Result<Number> {
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            None => return Err(self.eof()),
            Some(_) => return Err(self.unexpected("in numeric literal")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.pos += 1;
            match self.peek() {
                Some(b'0'..=b'9') => self.digits(),
                None => return Err(self.eof()),
                Some(_) => return Err(self.unexpected("after decimal point in numeric literal")),
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            match self.peek() {
                Some(b'0'..=b'9') => self.digits(),
                None => return Err(self.eof()),
                Some(_) => return Err(self.unexpected("in exponent of numeric literal")),
            }
        }
        let text = &self.text[start..self.pos];
        if self.literal_numbers
            && let Some(n) = Number::from_literal(text)
        {
            return Ok(n);
        }
        if integer {
            if negative {
                // "-0" is a double (-0.0), as in serde_json's typed model.
                if let Ok(v) = text.parse::<i64>()
                    && v != 0
                {
                    return Ok(Number::from_i64(v));
                }
            } else if let Ok(v) = text.parse::<u64>() {
                return Ok(Number::from_u64(v));
            }
        }
        // The grammar was checked above, so the standard (correctly rounding) parser accepts
        // it; overflow gives ±Infinity.
        Ok(Number::from_f64(text.parse::<f64>().unwrap_or(f64::NAN)))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn string(&mut self) -> Result<String> {
        self.pos += 1; // opening quote
        let start = self.pos;
        // Fast path: no escapes. Runs without `"`, `\\` or controls are skipped 8 bytes at a time.
        loop {
            self.pos = skip_words(self.bytes, self.pos, |w| {
                has_byte(w, b'"') || has_byte(w, b'\\') || has_byte_below(w, 0x20)
            });
            match self.peek() {
                None => return Err(self.eof()),
                Some(b'"') => {
                    let s = String::from(&self.text[start..self.pos]);
                    self.pos += 1;
                    return Ok(s);
                }
                Some(b'\\') => break,
                Some(b) if b < 0x20 => return Err(self.unexpected("in string literal")),
                Some(_) => self.pos += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.pos]);
        loop {
            match self.peek() {
                None => return Err(self.eof()),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escaped = match self.peek() {
                        None => return Err(self.eof()),
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            out.push(self.unicode_escape()?);
                            continue;
                        }
                        Some(_) => return Err(self.unexpected("in string escape code")),
                    };
                    self.pos += 1;
                    out.push(escaped);
                }
                Some(b) if b < 0x20 => return Err(self.unexpected("in string literal")),
                Some(_) => {
                    let run_start = self.pos;
                    while let Some(b) = self.peek() {
                        if b == b'"' || b == b'\\' || b < 0x20 {
                            break;
                        }
                        self.pos += 1;
                    }
                    out.push_str(&self.text[run_start..self.pos]);
                }
            }
        }
    }

    /// After `\u`: four hex digits, combining a surrogate pair; a lone surrogate is U+FFFD
    /// (refused when `EXACT`: text cannot carry it, so it would not read back).
    fn unicode_escape(&mut self) -> Result<char> {
        let start = self.pos - 2;
        let first = self.hex4()?;
        if !(0xD800..0xE000).contains(&first) {
            return Ok(char::from_u32(first).unwrap_or('\u{fffd}'));
        }
        if first < 0xDC00 && self.bytes[self.pos..].starts_with(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            let second = self.hex4()?;
            if (0xDC00..0xE000).contains(&second) {
                let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
            }
            // Not a low surrogate: the first is lone, the second is read on its own.
            self.pos = save;
        }
        if EXACT {
            let escape = String::from(&self.text[start..start + 6]);
            let message = alloc::format!(
                "the escape {escape} is a lone surrogate, which UTF-8 text cannot carry"
            );
            self.refused = Some((escape, self.key_depth.unwrap_or(usize::MAX)));
            return Err(Error::at(
                ErrorKind::JsonLoneSurrogate,
                message,
                self.position(start),
            ));
        }
        Ok('\u{fffd}')
    }

    fn hex4(&mut self) -> Result<u32> {
        let mut v = 0u32;
        for _ in 0..4 {
            let digit = match self.peek() {
                None => return Err(self.eof()),
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                Some(_) => return Err(self.unexpected("in \\u hexadecimal character escape")),
            };
            v = v * 16 + u32::from(digit);
            self.pos += 1;
        }
        Ok(v)
    }
}

/// The JSONPath of the value the frames lead to: `$`, then `.key` or `["key"]`, `[index]`.
fn json_path(frames: &[Frame]) -> String {
    let mut path = String::from("$");
    for frame in frames {
        match frame {
            Frame::Array(items) => {
                path.push('[');
                crate::num::write_u64(&mut path, items.len() as u64);
                path.push(']');
            }
            Frame::Object(_, key) => push_path_key(&mut path, key),
        }
    }
    path
}

/// Appends a member step to a JSONPath: `.key` for an identifier, else `["key"]`.
pub(crate) fn push_path_key(path: &mut String, key: &str) {
    let identifier = key
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if identifier {
        path.push('.');
        path.push_str(key);
    } else {
        path.push('[');
        super::write_string(path, key, false);
        path.push(']');
    }
}

/// A key in a message, as JSON.
fn quoted(key: &str) -> String {
    let mut out = String::new();
    super::write_string(&mut out, key, false);
    out
}

/// True when `text` is exactly one JSON number (RFC 8259 grammar).
pub(crate) fn is_json_number(text: &str) -> bool {
    let mut parser = Parser::<false>::new(text, &ParseOptions::default());
    matches!(parser.peek(), Some(b'-' | b'0'..=b'9'))
        && parser.number().is_ok()
        && parser.pos == text.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn num(text: &str) -> Number {
        match parse(text).unwrap() {
            Value::Number(n) => n,
            other => panic!("not a number: {other:?}"),
        }
    }

    #[test]
    fn word_at_a_time_string_scan_sees_every_position() {
        for len in 0..20 {
            for at in 0..len {
                let text = |special: &str| -> String {
                    let body: String = (0..len)
                        .map(|i| {
                            if i == at {
                                special.into()
                            } else {
                                String::from("a")
                            }
                        })
                        .collect();
                    alloc::format!("\"{body}\"")
                };
                let expect = |c: &str| -> String {
                    (0..len).map(|i| if i == at { c } else { "a" }).collect()
                };
                assert_eq!(parse(&text("\\\"")).unwrap(), Value::String(expect("\"")));
                assert_eq!(parse(&text("\\n")).unwrap(), Value::String(expect("\n")));
                assert_eq!(parse(&text("é")).unwrap(), Value::String(expect("é")));
                let e = parse(&text("\u{1}")).unwrap_err();
                assert_eq!((e.code(), e.offset()), ("JSON_SYNTAX", Some(at as u64 + 1)));
                // A quote inside ends the string early: the rest is trailing garbage.
                assert!(parse(&text("\"")).is_err());
            }
        }
    }

    #[test]
    fn typed_numbers() {
        assert_eq!(num("18446744073709551615").as_u64(), Some(u64::MAX));
        assert_eq!(num("-9223372036854775808").as_i64(), Some(i64::MIN));
        assert!(!num("-0").is_integer());
        assert!(num("-0").as_f64().is_sign_negative());
        assert!(!num("1.0").is_integer());
        assert!(!num("18446744073709551616").is_integer());
        assert_eq!(num("1e400").as_f64(), f64::INFINITY);
        assert_eq!(num("0.1").as_f64(), 0.1);
    }

    #[test]
    fn structures_and_duplicates() {
        let v = parse(r#" {"a":1,"b":[true,null,"x"],"a":2} "#).unwrap();
        let m = v.as_object().unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), vec!["a", "b"]);
        assert_eq!(m.get("a"), Some(&Value::Number(Number::from_u64(2))));
    }

    #[test]
    fn strings_and_surrogates() {
        let v = parse(r#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x\udc00""#).unwrap();
        assert_eq!(
            v.as_str(),
            Some("a\"\\/\u{8}\u{c}\n\r\té😀\u{fffd}x\u{fffd}")
        );
    }

    #[test]
    fn errors_have_positions() {
        let e = parse("{\"a\":\n  tru }").unwrap_err();
        assert_eq!(e.code(), "JSON_SYNTAX");
        assert_eq!(
            e.message(),
            "invalid character ' ' in literal true (expecting 'e')"
        );
        assert_eq!((e.line(), e.column()), (Some(2), Some(6)));
        assert_eq!(
            parse("[1,]").unwrap_err().message(),
            "invalid character ']' looking for beginning of value"
        );
        assert_eq!(
            parse("").unwrap_err().message(),
            "unexpected end of JSON input"
        );
        assert_eq!(
            parse("1 2").unwrap_err().message(),
            "invalid character '2' after top-level value"
        );
        assert_eq!(
            parse("\"a\tb\"").unwrap_err().message(),
            "invalid character '\\t' in string literal"
        );
        assert_eq!(parse("01").unwrap_err().code(), "JSON_SYNTAX");
        assert_eq!(
            parse_bytes(b"[\"\xff\"]", &ParseOptions::default())
                .unwrap_err()
                .code(),
            "INVALID_UTF8"
        );
    }

    #[test]
    fn literal_numbers_keep_their_text() {
        let options = ParseOptions {
            literal_numbers: true,
            ..ParseOptions::default()
        };
        let v = parse_with("[1.0, 1e400, -0, 0.10]", &options).unwrap();
        let texts: Vec<_> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|n| match n {
                Value::Number(n) => n.as_literal().unwrap(),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(texts, ["1.0", "1e400", "-0", "0.10"]);
        assert!(Number::from_literal("01").is_none());
        assert!(Number::from_literal("1.5e-3").is_some());
    }

    #[test]
    fn parse_exact_refuses_what_readers_change_with_its_path() {
        let exact = ParseOptions::default();
        // String contents are text, whatever they look like.
        let fine = r#"{"v": "327e-20221014", "h": "90359e986641506914", "n": [1.5, 2e3, -7]}"#;
        assert_eq!(parse_exact(fine, &exact).unwrap(), parse(fine).unwrap());
        let cases = [
            (
                r#"{"a b": [0, {"é": 9007199254740993}]}"#,
                "JSON_INEXACT_NUMBER",
                r#"$["a b"][1].é"#,
                "9007199254740993",
            ),
            (r#"[{"x": 1, "x": 2}]"#, "JSON_DUPLICATE_KEY", "$[0]", "x"),
            (
                r#"{"k": "\ud800"}"#,
                "JSON_LONE_SURROGATE",
                "$.k",
                r"\ud800",
            ),
            (
                r#"{"": {"\udfff": 1}}"#,
                "JSON_LONE_SURROGATE",
                r#"$[""]"#,
                r"\udfff",
            ),
            (
                r#"{"a": 1, "\udfff": 1}"#,
                "JSON_LONE_SURROGATE",
                "$",
                r"\udfff",
            ),
        ];
        for (text, code, path, what) in cases {
            let refused = parse_refusing(text, &exact).unwrap_err();
            assert_eq!(refused.error.code(), code, "{text}");
            assert!(
                refused
                    .error
                    .message()
                    .ends_with(&alloc::format!(" at {path}")),
                "{}",
                refused.error.message()
            );
            let inexact = refused.inexact.unwrap();
            assert_eq!(
                (inexact.path.as_str(), inexact.text.as_str()),
                (path, what),
                "{text}"
            );
            // Without the option the same text parses.
            assert!(parse(text).is_ok());
        }
        // A syntax error is not a refusal of exactness.
        let refused = parse_refusing("[1, 9007199254740993", &exact).unwrap_err();
        assert_eq!(refused.error.code(), "JSON_INEXACT_NUMBER");
        let refused = parse_refusing("[1,", &exact).unwrap_err();
        assert!(refused.inexact.is_none());
    }

    #[test]
    fn depth_limit() {
        let options = ParseOptions {
            max_depth: 3,
            ..ParseOptions::default()
        };
        assert!(parse_with("[[[1]]]", &options).is_ok());
        let e = parse_with("[[[[1]]]]", &options).unwrap_err();
        assert_eq!(e.code(), "JSON_DEPTH");
        assert_eq!(e.offset(), Some(3));
        let deep = "[".repeat(100_000);
        assert_eq!(parse(&deep).unwrap_err().code(), "JSON_DEPTH");
    }
}
