//! Compaction: the fewest-token lossless form of a JSON document (an MCP tool result), never
//! more tokens than the input.
//!
//! [`compact_json`] parses the input once, builds each candidate with the codecs (minified
//! JSON, GCX1 generic, the GCX1 layout of the tool, GCF v3 generic, TOON with commas and with
//! tabs), decodes each one back
//! as a reader that has only the text would, and keeps those that give back the input. The
//! input is counted first, then the lossless candidates from smallest to largest in bytes,
//! each with [`TokenCounter::count_tokens_within`] the best count so far. The winner replaces
//! the input only when it saves at least `min_savings` of the input's tokens.
//!
//! Numbers follow the JSON readers agents use (JavaScript, Python's `float`): when a numeral
//! the parser reads is not exactly a double, nothing replaces the input (string contents are
//! never taken for numerals: hashes and versions are text). The same holds for a repeated key
//! and a lone surrogate escape, which no other form carries. Whenever the input is kept,
//! [`Compacted::reason`] says why.
//!
//! ```
//! use agentwire::compact::{compact_json, Format, Options};
//! use agentwire::tokens::Tokenizer;
//! let rows: Vec<String> = (0..20)
//!     .map(|i| format!("{{\n  \"id\": {i},\n  \"name\": \"item{i}\",\n  \"ok\": true\n}}"))
//!     .collect();
//! let input = format!("[\n{}\n]", rows.join(",\n"));
//! let out = compact_json(&input, &Options::default(), &Tokenizer::cl100k_base())?;
//! assert_ne!(out.format, Format::Input);
//! assert!(out.tokens * 2 < out.input_tokens);
//! assert_eq!(agentwire::compact::decode(&out.text)?, Some(agentwire::json::parse(&input)?));
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::gcf::v3;
use crate::gcx::{self, Layouts};
use crate::json::{self, Value};
use crate::tokens::{SharedCounts, TokenCounter};
use crate::toon;
use crate::{Error, ErrorKind, Result};

mod exact;
mod read;
mod reason;
#[cfg(test)]
mod tests;

pub use read::{js_equal, stringify};
pub use reason::Reason;

/// What a compacted text is.
///
/// ```
/// use agentwire::compact::{compact_json, Format, Options};
/// let bytes = |text: &str| text.len();
/// let options = Options { min_savings: 0.0, ..Default::default() };
/// let out = compact_json("[\n  1,\n  2\n]", &options, &bytes)?;
/// assert_eq!((out.format, out.text.as_str()), (Format::JsonMin, "[1,2]"));
/// let out = compact_json("{\n  \"ok\": true\n}", &options, &bytes)?;
/// assert_eq!((out.format, out.text.as_str()), (Format::Toon, "ok: true"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The input, unchanged.
    Input,
    /// The input minified (`JSON.stringify` of its value).
    JsonMin,
    /// GCX1, the generic fallback.
    Gcx1Generic,
    /// GCX1 with the tool's layout.
    Gcx1Layout,
    /// GCF v3 generic profile (v3.6.0).
    GcfGeneric,
    /// TOON (spec 4.0) with its defaults: comma delimiter, 2-space indent, no key folding.
    Toon,
    /// TOON with the tab delimiter.
    ToonTab,
}

impl Format {
    /// The name in reports and in JS (`gcx1-layout`).
    ///
    /// ```
    /// assert_eq!(agentwire::compact::Format::GcfGeneric.as_str(), "gcf-generic");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Input => "input",
            Format::JsonMin => "json-min",
            Format::Gcx1Generic => "gcx1-generic",
            Format::Gcx1Layout => "gcx1-layout",
            Format::GcfGeneric => "gcf-generic",
            Format::Toon => "toon",
            Format::ToonTab => "toon-tab",
        }
    }
}

/// How [`compact_json`] chooses.
///
/// ```
/// let options = agentwire::compact::Options { tool: "read_graph", ..Default::default() };
/// assert_eq!((options.min_savings, options.exact_counts), (0.1, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options<'a> {
    /// The tool whose result it is: its GCX1 layout, and the GCX1 `tool=` name (`result`).
    pub tool: &'a str,
    /// The share of the input's tokens the winner must save (0.1); below it, the input is kept.
    pub min_savings: f64,
    /// Count every lossless candidate to the end (for a report that shows them all), instead of
    /// stopping once a candidate passes the best count so far.
    pub exact_counts: bool,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            tool: "result",
            min_savings: 0.1,
            exact_counts: false,
        }
    }
}

/// One candidate: its text, its tokens, and whether it decodes back to the input.
///
/// ```
/// use agentwire::compact::{compact_json, Format, Options};
/// let bytes = |text: &str| text.len();
/// let input = r#"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]"#;
/// let options = Options { exact_counts: true, ..Default::default() };
/// let out = compact_json(input, &options, &bytes)?;
/// let json = out.candidates.iter().find(|c| c.format == Format::JsonMin).unwrap();
/// assert!(json.lossless == Some(true) && json.tokens_exact);
/// assert_eq!(json.tokens, Some(input.len()));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Which form it is.
    pub format: Format,
    /// The text (empty when the encoder refused the value).
    pub text: String,
    /// Whether decoding it gives back the input. `None`: not read back, because it had more
    /// tokens than the best so far and so could not win (with
    /// [`exact_counts`](Options::exact_counts), every candidate is read back).
    pub lossless: Option<bool>,
    /// Its tokens, unless it is lossy. Exact unless [`tokens_exact`](Candidate::tokens_exact)
    /// is false: then counting stopped once it passed the best count so far, and this is a
    /// lower bound (more than the winner's).
    pub tokens: Option<usize>,
    /// Whether [`tokens`](Candidate::tokens) is the exact count.
    pub tokens_exact: bool,
    /// Why it is not lossless, when it is not.
    pub lossy_reason: Option<String>,
}

/// What [`compact_json`] chose, with every candidate it weighed, and why it kept the input
/// when it did.
///
/// ```
/// use agentwire::compact::{compact_json, Format, Options};
/// let bytes = |text: &str| text.len();
/// // Nothing saves 10 % of a short minified input: it is kept.
/// let out = compact_json("[1,2]", &Options::default(), &bytes)?;
/// assert_eq!((out.format, out.tokens, out.input_tokens), (Format::Input, 5, 5));
/// assert_eq!(out.reason.unwrap().code(), "BELOW_MIN_SAVINGS");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Compacted {
    /// The chosen form ([`Format::Input`] when nothing saved enough).
    pub format: Format,
    /// The chosen text.
    pub text: String,
    /// Its tokens (exact).
    pub tokens: usize,
    /// The input's tokens (exact).
    pub input_tokens: usize,
    /// The candidates, in the order of [`Format`] (a layout that fell back to generic is not
    /// one; a codec that refused the value is one, lossy, with the refusal as its reason).
    pub candidates: Vec<Candidate>,
    /// Why the input was kept (`None` when a candidate replaced it).
    pub reason: Option<Reason>,
}

/// The fewest-token lossless form of JSON text (see the module docs). Text that is not JSON,
/// or that holds what only JSON text carries (an inexact numeral, a repeated key, a lone
/// surrogate escape), is kept as it is, with the [`Reason`].
///
/// ```
/// use agentwire::compact::{compact_json, Format, Options};
/// let bytes = |text: &str| text.len(); // any counter: here, bytes
/// let kept = compact_json("not json", &Options::default(), &bytes)?;
/// assert_eq!((kept.format, kept.tokens), (Format::Input, 8));
/// assert_eq!(kept.reason.unwrap().code(), "NOT_JSON");
/// let out = compact_json("[ 1, 2 ]", &Options { min_savings: 0.0, ..Options::default() }, &bytes)?;
/// assert_eq!((out.format, out.text.as_str(), out.reason), (Format::JsonMin, "[1,2]", None));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn compact_json(
    input: &str,
    options: &Options<'_>,
    counter: &dyn TokenCounter,
) -> Result<Compacted> {
    check(options)?;
    let mut shared = None;
    let counter = sharing(counter, &mut shared);
    let input_tokens = counter.count_tokens(input);
    let value = match json::parse_refusing(input, &json::ParseOptions::default()) {
        Ok(value) => value,
        Err(refused) => {
            return Ok(keep(input, input_tokens, Vec::new(), refusal(refused)));
        }
    };
    Ok(choose(input, input_tokens, &value, options, counter))
}

/// [`compact_json`] of a value, measured against its minified JSON (`JSON.stringify`), which
/// is also the text kept when nothing saves enough.
///
/// ```
/// use agentwire::compact::{compact_value, Format, Options};
/// let rows: Vec<String> = (0..10).map(|i| format!(r#"{{"id":{i},"name":"n{i}"}}"#)).collect();
/// let value = agentwire::json::parse(&format!("[{}]", rows.join(",")))?;
/// let out = compact_value(&value, &Options::default(), &|t: &str| t.len())?;
/// assert_ne!(out.format, Format::Input); // a table: each key once, not once per row
/// assert!(out.tokens < out.input_tokens);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn compact_value(
    value: &Value,
    options: &Options<'_>,
    counter: &dyn TokenCounter,
) -> Result<Compacted> {
    check(options)?;
    let mut shared = None;
    let counter = sharing(counter, &mut shared);
    let input = stringify(value)?;
    let input_tokens = counter.count_tokens(&input);
    if let Some((path, numeral)) = exact::first_inexact_number(value) {
        let reason = Reason::InexactNumber {
            path,
            numeral,
            position: None,
        };
        return Ok(keep(&input, input_tokens, Vec::new(), reason));
    }
    Ok(choose(&input, input_tokens, value, options, counter))
}

/// The counter for the input and its candidates: a [`Tokenizer`](crate::tokens::Tokenizer)
/// shares its table of short pieces' counts between them (they share most of their words).
fn sharing<'a>(
    counter: &'a dyn TokenCounter,
    shared: &'a mut Option<SharedCounts<'a>>,
) -> &'a dyn TokenCounter {
    match counter.tokenizer() {
        Some(tokenizer) => shared.insert(tokenizer.shared_counts()),
        None => counter,
    }
}

/// The reason for what the parser refused.
fn refusal(refused: json::Refused) -> Reason {
    let json::Refused { error, inexact } = refused;
    let Some(json::Inexact { path, text }) = inexact else {
        return Reason::NotJson(error);
    };
    let position = error.position();
    match error.kind() {
        ErrorKind::JsonInexactNumber => Reason::InexactNumber {
            path,
            numeral: text,
            position,
        },
        ErrorKind::JsonDuplicateKey => Reason::DuplicateKey {
            path,
            key: text,
            position,
        },
        ErrorKind::JsonLoneSurrogate => Reason::LoneSurrogate {
            path,
            escape: text,
            position,
        },
        _ => Reason::NotJson(error),
    }
}

fn check(options: &Options<'_>) -> Result<()> {
    if options.min_savings >= 0.0 {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidArgument,
        alloc::format!(
            "min_savings: expected a number ≥ 0, got {}",
            options.min_savings
        ),
    ))
}

fn keep(input: &str, input_tokens: usize, candidates: Vec<Candidate>, reason: Reason) -> Compacted {
    Compacted {
        format: Format::Input,
        text: String::from(input),
        tokens: input_tokens,
        input_tokens,
        candidates,
        reason: Some(reason),
    }
}

fn choose(
    input: &str,
    input_tokens: usize,
    value: &Value,
    options: &Options<'_>,
    counter: &dyn TokenCounter,
) -> Compacted {
    let mut candidates = build_candidates(value, options.tool);
    // Smallest first. Each is counted only as far as it can still win, and read back (the
    // costly part) only when its count is at most the best so far: what cannot win is neither
    // counted to the end nor decoded.
    let mut order: Vec<usize> = (0..candidates.len())
        .filter(|&i| candidates[i].lossless != Some(false))
        .collect();
    order.sort_by_key(|&i| candidates[i].text.len());
    let mut best = input_tokens;
    for i in order {
        let candidate = &mut candidates[i];
        let count = if candidate.text == input {
            // Minified input is its own json-min: its count is the input's.
            (options.exact_counts || input_tokens <= best).then_some(input_tokens)
        } else if options.exact_counts {
            Some(counter.count_tokens(&candidate.text))
        } else {
            counter.count_tokens_within(&candidate.text, best)
        };
        if count.is_some() || options.exact_counts {
            candidate.lossy_reason = lossy_reason(candidate, value, options.tool);
            candidate.lossless = Some(candidate.lossy_reason.is_none());
        }
        match count {
            Some(_) if candidate.lossless == Some(false) => {}
            Some(count) => {
                best = best.min(count);
                candidate.tokens = Some(count);
                candidate.tokens_exact = true;
            }
            None => candidate.tokens = Some(best + 1),
        }
    }
    // The fewest tokens (exact, or a lower bound past the best); on a tie, the earlier
    // candidate. Only a lossless exact count can win.
    let winner = candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.lossless != Some(false))
        .min_by_key(|&(i, c)| (c.tokens, !c.tokens_exact, i))
        .map(|(i, c)| (i, c.tokens.unwrap_or(usize::MAX)));
    match winner {
        Some((i, tokens))
            if candidates[i].lossless == Some(true)
                && candidates[i].tokens_exact
                && saves_enough(input_tokens, tokens, options.min_savings) =>
        {
            Compacted {
                format: candidates[i].format,
                text: candidates[i].text.clone(),
                tokens,
                input_tokens,
                candidates,
                reason: None,
            }
        }
        Some((i, best_tokens)) => {
            let reason = Reason::BelowMinSavings {
                best: candidates[i].format,
                best_tokens,
                input_tokens,
                savings: savings(input_tokens, best_tokens),
                min_savings: options.min_savings,
            };
            keep(input, input_tokens, candidates, reason)
        }
        None => keep(input, input_tokens, candidates, Reason::NoLosslessCandidate),
    }
}

/// The share of the input's tokens a candidate saves (negative when it has more).
fn savings(input_tokens: usize, tokens: usize) -> f64 {
    if input_tokens == 0 {
        return 0.0;
    }
    (input_tokens as f64 - tokens as f64) / input_tokens as f64
}

fn saves_enough(input_tokens: usize, tokens: usize, min_savings: f64) -> bool {
    tokens < input_tokens && (input_tokens - tokens) as f64 >= min_savings * input_tokens as f64
}

/// Every candidate a codec writes for `value`, not yet read back; a codec that refuses the
/// value gives a lossy candidate with the refusal as its reason.
fn build_candidates(value: &Value, tool: &str) -> Vec<Candidate> {
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut consider = |format: Format, text: Result<String>| {
        let candidate = match text {
            Ok(text) if candidates.iter().any(|c| c.text == text) => {
                return; // a layout that fell back to generic
            }
            Ok(text) => Candidate {
                format,
                text,
                lossless: None,
                tokens: None,
                tokens_exact: false,
                lossy_reason: None,
            },
            // The codec refused this value (e.g. GCX_NOT_LOSSLESS): shown, never chosen.
            Err(refusal) => Candidate {
                format,
                text: String::new(),
                lossless: Some(false),
                tokens: None,
                tokens_exact: false,
                lossy_reason: Some(alloc::format!(
                    "the encoder refused the value: {} {}",
                    refusal.code(),
                    refusal.message()
                )),
            },
        };
        candidates.push(candidate);
    };
    consider(Format::JsonMin, stringify(value));
    if matches!(value, Value::Array(_) | Value::Object(_)) {
        let lossless = gcx::EncodeOptions {
            lossless: true,
            ..gcx::EncodeOptions::default()
        };
        consider(
            Format::Gcx1Generic,
            gcx::encode_generic(tool, value, &lossless),
        );
        // A tool without a layout would only write the generic form again.
        if Layouts::builtin().resolve(tool).is_some() {
            let tool_options = gcx::ToolOptions {
                encode: lossless,
                ..gcx::ToolOptions::default()
            };
            consider(
                Format::Gcx1Layout,
                gcx::encode_tool(tool, value, &tool_options),
            );
        }
        let gcf_options = v3::EncodeOptions {
            lossless: true,
            ..v3::EncodeOptions::default()
        };
        consider(
            Format::GcfGeneric,
            v3::encode_generic_with(value, &gcf_options),
        );
        // TOON as its users read it (the spec's defaults; key folding saved no token on TOON's
        // datasets or the real-world corpus, and needs a reader that expands paths). Not for `{}`,
        // whose TOON is the empty text: a reader would take it for no result at all.
        if !matches!(value, Value::Object(map) if map.is_empty()) {
            for (format, delimiter) in [
                (Format::Toon, toon::Delimiter::Comma),
                (Format::ToonTab, toon::Delimiter::Tab),
            ] {
                let options = toon::EncodeOptions {
                    delimiter,
                    ..toon::EncodeOptions::default()
                };
                consider(format, toon::encode(value, &options));
            }
        }
    }
    candidates
}

/// Why `candidate` does not read back as `value`, read as a reader that has only its text
/// would (GCX1 layouts also know the tool's input, to map renamed columns back); `None` when it
/// does. TOON goes through [`decode`], which tells the formats apart by the text alone.
fn lossy_reason(candidate: &Candidate, value: &Value, tool: &str) -> Option<String> {
    let text = candidate.text.as_str();
    let read = match candidate.format {
        // `stringify` of a value that holds only exact doubles, unique keys and whole code
        // points: JSON readers give that value back, so there is nothing to read.
        Format::Input | Format::JsonMin => return None,
        Format::Gcx1Generic => gcx_sections(text).map(|s| read::gcx_generic(&s)),
        Format::Gcx1Layout => {
            gcx_sections(text).map(|s| read::gcx_layout(&s, &Layouts::builtin(), tool, value))
        }
        Format::GcfGeneric => v3::decode_generic(text).map(Some),
        Format::Toon | Format::ToonTab => decode(text),
    };
    match read {
        Ok(Some(back)) if js_equal(&back, value) => None,
        Ok(Some(_)) => Some(String::from("it decodes to a different value")),
        Ok(None) => Some(String::from("a reader cannot tell the value from the text")),
        Err(e) => Some(alloc::format!("it does not decode: {e}")),
    }
}

fn gcx_sections(text: &str) -> Result<Vec<gcx::Section>> {
    gcx::decode_str(text, &gcx::DecodeOptions::default()).into_sections()
}

/// The JSON value of a text [`compact_json`] chose, read from the text alone: GCX1 generic,
/// GCF generic (by their first line), JSON, else TOON of an array or an object (compaction
/// writes TOON for nothing else; TOON reads almost any line as a string). `None` for GCX1 that
/// a reader cannot map back without the tool's input (a per-tool layout renames and nests
/// columns). Other text is the JSON parser's error. A TOON candidate is kept only when this
/// reads it back as its value, so text that JSON and TOON both read never stands for the other.
///
/// ```
/// use agentwire::compact::decode;
/// use agentwire::json::parse;
/// assert_eq!(decode("GCX1 tool=result fields=a rows=1\n1\n")?, Some(parse(r#"[{"a":1}]"#)?));
/// assert_eq!(decode(r#"{"a": [1]}"#)?, Some(parse(r#"{"a":[1]}"#)?));
/// assert_eq!(decode("a[2]: 1,2")?, Some(parse(r#"{"a":[1,2]}"#)?));
/// assert_eq!(decode("{").unwrap_err().code(), "JSON_SYNTAX"); // not a TOON container either
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode(text: &str) -> Result<Option<Value>> {
    if text.starts_with("GCX1") {
        return Ok(read::gcx_generic(&gcx_sections(text)?));
    }
    if text.starts_with("GCF") {
        return v3::decode_generic(text).map(Some);
    }
    match json::parse(text) {
        Ok(value) => Ok(Some(value)),
        Err(not_json) => match toon::decode(text, &toon::DecodeOptions::default()) {
            Ok(value @ (Value::Array(_) | Value::Object(_))) if !text.is_empty() => Ok(Some(value)),
            _ => Err(not_json),
        },
    }
}
