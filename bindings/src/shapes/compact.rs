//! `compact.json`: its options and its report (`{format, text, tokens, inputTokens,
//! candidates, reason}`).

use agentwire::compact::{Compacted, Options, Reason};
use agentwire::json::{Map, Number, Value};
use agentwire::{Position, Result};

use super::{option_bool, option_f64, option_str};

/// What `compact.json`'s options ask for, besides the counter.
#[derive(Debug)]
pub struct CompactOptions {
    /// `tool` (`result`).
    pub tool: String,
    /// `minSavings` (0.1).
    pub min_savings: f64,
    /// `exactCounts`: count every lossless candidate to the end.
    pub exact_counts: bool,
    /// `candidateTexts`: put each candidate's text in the report.
    pub candidate_texts: bool,
}

impl CompactOptions {
    /// Reads `{tool, minSavings, exactCounts, candidateTexts}`.
    pub fn from_value(options: &Value) -> Result<CompactOptions> {
        let defaults = Options::default();
        Ok(CompactOptions {
            tool: option_str(options, "tool")?.unwrap_or(defaults.tool).into(),
            min_savings: option_f64(options, "minSavings", defaults.min_savings)?,
            exact_counts: option_bool(options, "exactCounts", false)?,
            candidate_texts: option_bool(options, "candidateTexts", false)?,
        })
    }

    /// The core's options.
    pub fn core(&self) -> Options<'_> {
        Options {
            tool: &self.tool,
            min_savings: self.min_savings,
            exact_counts: self.exact_counts,
        }
    }
}

fn count(n: usize) -> Value {
    Value::Number(Number::from_u64(n as u64))
}

/// The report JS gets: every candidate's format, bytes, whether it is lossless (with the reason
/// when not; `null` when it was not read back, having more tokens than the best so far), its
/// tokens (`null` when lossy; a lower bound when `tokensExact` is false), and its text when
/// asked.
pub fn report(out: Compacted, candidate_texts: bool) -> Value {
    let candidates = out
        .candidates
        .into_iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert("format".into(), Value::from(c.format.as_str()));
            m.insert("bytes".into(), count(c.text.len()));
            m.insert(
                "lossless".into(),
                c.lossless.map_or(Value::Null, Value::Bool),
            );
            m.insert("tokens".into(), c.tokens.map_or(Value::Null, count));
            m.insert("tokensExact".into(), Value::Bool(c.tokens_exact));
            if let Some(reason) = c.lossy_reason {
                m.insert("reason".into(), Value::String(reason));
            }
            if candidate_texts {
                m.insert("text".into(), Value::String(c.text));
            }
            Value::Object(m)
        })
        .collect();
    let mut m = Map::new();
    m.insert("format".into(), Value::from(out.format.as_str()));
    m.insert("text".into(), Value::String(out.text));
    m.insert("tokens".into(), count(out.tokens));
    m.insert("inputTokens".into(), count(out.input_tokens));
    m.insert("candidates".into(), Value::Array(candidates));
    m.insert(
        "reason".into(),
        out.reason.as_ref().map_or(Value::Null, reason),
    );
    Value::Object(m)
}

/// `reason`: `{code, message}` and what the code has: the parser's `errorCode` with `line`,
/// `column`, `offset` (`NOT_JSON`); `path` with the `numeral`, `key` or `escape` and where it
/// is; `best`, `bestTokens`, `savings`, `minSavings` (`BELOW_MIN_SAVINGS`).
fn reason(reason: &Reason) -> Value {
    let mut m = Map::new();
    m.insert("code".into(), Value::from(reason.code()));
    m.insert("message".into(), Value::String(reason.to_string()));
    match reason {
        Reason::NotJson(error) => {
            m.insert("errorCode".into(), Value::from(error.code()));
        }
        Reason::InexactNumber { path, numeral, .. } => {
            m.insert("path".into(), Value::from(path.as_str()));
            m.insert("numeral".into(), Value::from(numeral.as_str()));
        }
        Reason::DuplicateKey { path, key, .. } => {
            m.insert("path".into(), Value::from(path.as_str()));
            m.insert("key".into(), Value::from(key.as_str()));
        }
        Reason::LoneSurrogate { path, escape, .. } => {
            m.insert("path".into(), Value::from(path.as_str()));
            m.insert("escape".into(), Value::from(escape.as_str()));
        }
        Reason::NoLosslessCandidate => {}
        Reason::BelowMinSavings {
            best,
            best_tokens,
            savings,
            min_savings,
            ..
        } => {
            m.insert("best".into(), Value::from(best.as_str()));
            m.insert("bestTokens".into(), count(*best_tokens));
            m.insert("savings".into(), Value::Number(Number::from_f64(*savings)));
            m.insert(
                "minSavings".into(),
                Value::Number(Number::from_f64(*min_savings)),
            );
        }
        _ => {}
    }
    if let Some(Position {
        offset,
        line_column,
    }) = reason.position()
    {
        if let Some(at) = line_column {
            m.insert("line".into(), count(at.line as usize));
            m.insert("column".into(), count(at.column as usize));
        }
        m.insert("offset".into(), count(offset as usize));
    }
    Value::Object(m)
}
