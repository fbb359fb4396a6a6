//! Exact token counts. The tokenizers live here, one per encoding, for the life of the
//! module: built in when the crate is built with `tokens` (the CLI's and the tests' build),
//! else loaded once from vocabulary data (`tokensLoad`: agentwire-tokens ships the files).

use std::sync::OnceLock;

use agentwire::tokens::{Encoding, Tokenizer};
use agentwire::Result;

use crate::call::Call;

static CL100K: OnceLock<Tokenizer> = OnceLock::new();
static O200K: OnceLock<Tokenizer> = OnceLock::new();

fn slot(encoding: Encoding) -> &'static OnceLock<Tokenizer> {
    match encoding {
        Encoding::Cl100kBase => &CL100K,
        Encoding::O200kBase => &O200K,
    }
}

/// The tokenizer of `encoding`: built in, or loaded before.
pub fn tokenizer(encoding: Encoding) -> Result<&'static Tokenizer> {
    let slot = slot(encoding);
    if let Some(tokenizer) = slot.get() {
        return Ok(tokenizer);
    }
    if cfg!(feature = "tokens") {
        let built_in = Tokenizer::new(encoding)?;
        return Ok(slot.get_or_init(|| built_in));
    }
    Err(crate::call::invalid(format!(
        "the {} vocabulary is not loaded (tokens.load reads it from agentwire-tokens)",
        encoding.name()
    )))
}

/// `tokens.count(text, encoding)`: the text is the main input.
pub fn count(call: &mut Call<'_>) -> Result<u32> {
    let encoding = Encoding::parse(&call.string("encoding")?)?;
    let text = call.text("text")?;
    let n = tokenizer(encoding)?.count(text);
    Ok(u32::try_from(n).unwrap_or(u32::MAX))
}
