//! Token counts over text.

use agentwire::Result;

/// Tokens: the number of `encoding` tokens (`cl100k_base`, `o200k_base`) in `text`.
pub fn tokens_count(text: &str, encoding: &str) -> Result<usize> {
    Ok(crate::js::tokens::tokenizer(agentwire::tokens::Encoding::parse(encoding)?)?.count(text))
}
