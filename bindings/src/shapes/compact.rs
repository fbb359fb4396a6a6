//! `compact.json`: its options and its report (`{format, text, tokens, inputTokens,
//! candidates}`).

use agentwire::Result;
use agentwire::compact::{Compacted, Options};
use agentwire::json::{Map, Number, Value};

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
/// when not), its tokens (`null` when lossy; a lower bound when `tokensExact` is false), and
/// its text when asked.
pub fn report(out: Compacted, candidate_texts: bool) -> Value {
    let candidates = out
        .candidates
        .into_iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert("format".into(), Value::from(c.format.as_str()));
            m.insert("bytes".into(), count(c.text.len()));
            m.insert("lossless".into(), Value::Bool(c.lossless));
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
    Value::Object(m)
}
