//! Compaction (`compact.json`, `compact.decode`): one core call each. The counter is the
//! caller's function, `tokenizer: 'bytes'` (UTF-8 bytes), or an exact encoding, counted in
//! this module when its vocabulary is loaded here (the native addon; the wasm tokens module).

use agentwire::Result;
use agentwire::compact;
use agentwire::json::{self, Value};
use agentwire::tokens::{Encoding, TokenCounter};

use crate::call::{Call, JsCounter, Main, Tape};
use crate::shapes::compact::{CompactOptions, report};

/// UTF-8 bytes as the count (`tokenizer: 'bytes'`).
fn utf8_bytes(text: &str) -> usize {
    text.len()
}

/// `compact.json(input, options)`: JSON text (a string, or UTF-8 bytes) as the main input, or a
/// value argument (measured as its `JSON.stringify`); then the options `{tool, tokenizer, minSavings, exactCounts,
/// candidateTexts}`.
pub fn json(call: &mut Call<'_>) -> Result<Tape> {
    let text = match call.main() {
        Main::None => None,
        _ => Some(json::utf8(call.bytes("input")?)?),
    };
    let value = if text.is_none() {
        Some(call.value()?)
    } else {
        None
    };
    let options = call.value()?;
    let settings = CompactOptions::from_value(&options)?;
    let tokenizer = crate::shapes::option_str(&options, "tokenizer")?.unwrap_or("cl100k_base");
    let hook;
    let counter: &dyn TokenCounter = match call.hooks() {
        Some(hooks) if hooks.has_counter() => {
            hook = JsCounter(hooks);
            &hook
        }
        _ if tokenizer == "bytes" => &utf8_bytes,
        #[cfg(feature = "tokens")]
        _ => crate::js::tokens::tokenizer(Encoding::parse(tokenizer)?)?,
        #[cfg(not(feature = "tokens"))]
        _ => {
            Encoding::parse(tokenizer)?;
            return Err(crate::call::invalid(format!(
                "this module counts no {tokenizer} tokens: exact counts run in the tokens module (agentwire-tokens)"
            )));
        }
    };
    let out = match (text, &value) {
        (Some(text), _) => compact::compact_json(text, &settings.core(), counter)?,
        (None, Some(value)) => compact::compact_value(value, &settings.core(), counter)?,
        (None, None) => unreachable!("a value was read"),
    };
    Ok(call.tape(&report(out, settings.candidate_texts)))
}

/// `compact.decode(text)`: `[value]`, or `[]` for a per-tool GCX1 layout (which needs the
/// tool's input to map its columns back).
pub fn decode(call: &mut Call<'_>) -> Result<Tape> {
    let value = compact::decode(call.text("text")?)?;
    Ok(call.tape(&Value::Array(value.into_iter().collect())))
}
