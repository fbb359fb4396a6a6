//! Exact token counts and ids. The tokenizers live here, one per encoding, for the life of the
//! module: built in when the crate is built with `tokens-builtin` (its tests), else loaded
//! once from vocabulary data (`tokens.load`: the npm package agentwire-tokens ships the files,
//! which both the native addon and the wasm tokens module read).

use std::sync::OnceLock;

use agentwire::Result;
use agentwire::json::{Number, Value};
use agentwire::tokens::{Encoding, Tokenizer};

use crate::call::{Bytes, Call, Tape, invalid};

static CL100K: OnceLock<Tokenizer> = OnceLock::new();
static O200K: OnceLock<Tokenizer> = OnceLock::new();

fn slot(encoding: Encoding) -> &'static OnceLock<Tokenizer> {
    match encoding {
        Encoding::Cl100kBase => &CL100K,
        Encoding::O200kBase => &O200K,
    }
}

/// The tokenizer of `encoding`: loaded before, or built in.
pub fn tokenizer(encoding: Encoding) -> Result<&'static Tokenizer> {
    let slot = slot(encoding);
    if let Some(tokenizer) = slot.get() {
        return Ok(tokenizer);
    }
    if cfg!(feature = "tokens-builtin") {
        let built_in = Tokenizer::new(encoding)?;
        return Ok(slot.get_or_init(|| built_in));
    }
    Err(invalid(format!(
        "the {} vocabulary is not loaded (tokens.load reads it from agentwire-tokens)",
        encoding.name()
    )))
}

/// `tokens.load(vocabulary)`: the bytes of `cl100k_base.bin` or `o200k_base.bin` as the main
/// input; returns the encoding's name. Loading one that is loaded already is a no-op.
pub fn load(call: &mut Call<'_>) -> Result<String> {
    let data = call.bytes("vocabulary")?;
    let tokenizer = Tokenizer::from_vocabulary(data)?;
    let encoding = tokenizer.encoding();
    slot(encoding).get_or_init(|| tokenizer);
    Ok(encoding.name().into())
}

/// `tokens.loaded()`: the names of the encodings that can count now.
pub fn loaded(call: &mut Call<'_>) -> Result<Tape> {
    let names = Encoding::ALL
        .iter()
        .filter(|&&e| slot(e).get().is_some() || cfg!(feature = "tokens-builtin"))
        .map(|e| Value::from(e.name()))
        .collect();
    Ok(call.tape(&Value::Array(names)))
}

fn encoding_arg(call: &mut Call<'_>) -> Result<&'static Tokenizer> {
    tokenizer(Encoding::parse(&call.string("encoding")?)?)
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `tokens.count(text, encoding)`: the text (a string or UTF-8 bytes) is the main input.
pub fn count(call: &mut Call<'_>) -> Result<u32> {
    let tokenizer = encoding_arg(call)?;
    Ok(count_u32(tokenizer.count_utf8(call.bytes("text")?)?))
}

/// `tokens.countWithin(text, limit, encoding)`: the count, or `null` once it passes `limit`
/// (counting stops there).
pub fn count_within(call: &mut Call<'_>) -> Result<Tape> {
    let limit = match call.value()? {
        Value::Number(n) => n
            .as_u64()
            .ok_or_else(|| invalid("limit must be a non-negative integer"))?,
        other => {
            return Err(invalid(format!(
                "limit must be a non-negative integer, got {}",
                other.type_name()
            )));
        }
    };
    let tokenizer = encoding_arg(call)?;
    let text = call.text("text")?;
    let result = match tokenizer.count_within(text, usize::try_from(limit).unwrap_or(usize::MAX)) {
        Some(n) => Value::Number(Number::from_u64(n as u64)),
        None => Value::Null,
    };
    Ok(call.tape(&result))
}

/// `tokens.encode(text, encoding)`: the ids as little-endian u32 bytes (a `Uint32Array` in JS).
pub fn encode(call: &mut Call<'_>) -> Result<Bytes> {
    let tokenizer = encoding_arg(call)?;
    let ids = tokenizer.encode(call.text("text")?);
    Ok(Bytes(ids.iter().flat_map(|id| id.to_le_bytes()).collect()))
}

/// `tokens.decodeBytes(ids, encoding)`: the ids as the main input (the bytes of a
/// `Uint32Array`); returns the tokens' bytes (`TOKENS_UNKNOWN_ID` past the vocabulary).
pub fn decode(call: &mut Call<'_>) -> Result<Bytes> {
    let tokenizer = encoding_arg(call)?;
    let raw = call.bytes("ids")?;
    if raw.len() % 4 != 0 {
        return Err(invalid("ids must be the bytes of a Uint32Array"));
    }
    let ids: Vec<u32> = raw
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    Ok(Bytes(tokenizer.decode(&ids)?))
}
