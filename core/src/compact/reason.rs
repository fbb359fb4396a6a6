//! Why compaction kept its input: a stable code, a message, and where.

use alloc::string::String;
use core::fmt;

use super::Format;
use crate::{Error, Position};

/// Why [`compact_json`](super::compact_json) kept the input (`Compacted::reason`).
///
/// ```
/// use agentwire::compact::{compact_json, Options, Reason};
/// let bytes = |text: &str| text.len();
/// let out = compact_json(r#"{"id": 9007199254740993}"#, &Options::default(), &bytes)?;
/// let Some(Reason::InexactNumber { path, numeral, .. }) = &out.reason else { unreachable!() };
/// assert_eq!((path.as_str(), numeral.as_str()), ("$.id", "9007199254740993"));
/// assert_eq!(out.reason.as_ref().unwrap().code(), "INEXACT_NUMBER");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Reason {
    /// The input is not JSON, or nests deeper than the parser's limit: the parser's error,
    /// with its code (`JSON_SYNTAX`, `JSON_DEPTH`, `INVALID_UTF8`) and position.
    NotJson(Error),
    /// A numeral outside strings that no double holds: a reader holding doubles would
    /// change it, so no other form can carry it.
    InexactNumber {
        /// JSONPath of the number (`$.items[3].id`).
        path: String,
        /// The numeral as the input has it.
        numeral: String,
        /// Where it starts.
        position: Option<Position>,
    },
    /// A key repeated in one object: every other form keeps one value per key.
    DuplicateKey {
        /// JSONPath of the object.
        path: String,
        /// The repeated key.
        key: String,
        /// Where the object ends.
        position: Option<Position>,
    },
    /// A `\u` escape of a lone surrogate, which the UTF-8 text of every other form cannot
    /// carry.
    LoneSurrogate {
        /// JSONPath of the string (of the object, for a key).
        path: String,
        /// The escape (`\ud800`).
        escape: String,
        /// Where it starts.
        position: Option<Position>,
    },
    /// No candidate decodes back to the input: each candidate's `lossy_reason` says why.
    NoLosslessCandidate,
    /// The fewest-token candidate saves less than `min_savings` of the input's tokens.
    BelowMinSavings {
        /// The fewest-token lossless candidate.
        best: Format,
        /// Its tokens.
        best_tokens: usize,
        /// The input's tokens.
        input_tokens: usize,
        /// The share it saves (negative when it is larger than the input).
        savings: f64,
        /// The share asked for.
        min_savings: f64,
    },
}

impl Reason {
    /// The stable code: `NOT_JSON`, `INEXACT_NUMBER`, `DUPLICATE_KEY`, `LONE_SURROGATE`,
    /// `NO_LOSSLESS_CANDIDATE` or `BELOW_MIN_SAVINGS`.
    ///
    /// ```
    /// assert_eq!(agentwire::compact::Reason::NoLosslessCandidate.code(), "NO_LOSSLESS_CANDIDATE");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Reason::NotJson(_) => "NOT_JSON",
            Reason::InexactNumber { .. } => "INEXACT_NUMBER",
            Reason::DuplicateKey { .. } => "DUPLICATE_KEY",
            Reason::LoneSurrogate { .. } => "LONE_SURROGATE",
            Reason::NoLosslessCandidate => "NO_LOSSLESS_CANDIDATE",
            Reason::BelowMinSavings { .. } => "BELOW_MIN_SAVINGS",
        }
    }

    /// Where in the input, when the reason is at one place.
    ///
    /// ```
    /// use agentwire::compact::{compact_json, Options};
    /// let out = compact_json("[1,\n 2,]", &Options::default(), &|t: &str| t.len())?;
    /// let at = out.reason.unwrap().position().unwrap().line_column.unwrap();
    /// assert_eq!((at.line, at.column), (2, 4));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn position(&self) -> Option<Position> {
        match self {
            Reason::NotJson(error) => error.position(),
            Reason::InexactNumber { position, .. }
            | Reason::DuplicateKey { position, .. }
            | Reason::LoneSurrogate { position, .. } => *position,
            Reason::NoLosslessCandidate | Reason::BelowMinSavings { .. } => None,
        }
    }

    /// The reason for an input that could not be read, from the error that says so (what
    /// [`compact_json`](super::compact_json) keeps for text that is not JSON; a caller that
    /// reads bytes reports invalid UTF-8 the same way).
    ///
    /// ```
    /// use agentwire::compact::Reason;
    /// use agentwire::json::{parse_bytes, ParseOptions};
    /// let err = parse_bytes(b"[\"\xff\"]", &ParseOptions::default()).unwrap_err();
    /// let reason = Reason::unreadable(err);
    /// assert_eq!(reason.code(), "NOT_JSON");
    /// assert_eq!(reason.to_string(), "not JSON: invalid UTF-8 in JSON input at line 1 column 3");
    /// ```
    pub fn unreadable(error: Error) -> Reason {
        Reason::NotJson(error)
    }
}

/// Percent with one decimal.
struct Percent(f64);

impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1} %", self.0 * 100.0)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotJson(error) => write!(f, "not JSON: {error}"),
            Reason::InexactNumber { path, numeral, .. } => write!(
                f,
                "the numeral {numeral} at {path} is not exactly a double: a reader that holds doubles would change it"
            ),
            Reason::DuplicateKey { path, key, .. } => write!(
                f,
                "the object at {path} repeats the key {key:?}: a reader keeps only its last value"
            ),
            Reason::LoneSurrogate { path, escape, .. } => write!(
                f,
                "the string at {path} holds the lone surrogate escape {escape}, which UTF-8 text cannot carry"
            ),
            Reason::NoLosslessCandidate => {
                f.write_str("no candidate decodes back to the input (see each candidate's reason)")
            }
            Reason::BelowMinSavings {
                best,
                best_tokens,
                input_tokens,
                savings,
                min_savings,
            } => {
                if best_tokens >= input_tokens {
                    write!(
                        f,
                        "no candidate has fewer tokens than the input's {input_tokens} (the fewest: {} with {best_tokens})",
                        best.as_str()
                    )
                } else {
                    write!(
                        f,
                        "the best candidate, {} with {best_tokens} tokens, saves {} of the input's {input_tokens}: less than minSavings {}",
                        best.as_str(),
                        Percent(*savings),
                        Percent(*min_savings)
                    )
                }
            }
        }
    }
}
