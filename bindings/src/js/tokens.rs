//! Exact token counts. The native addon counts every encoding; a wasm tokens module carries
//! one vocabulary (feature `tokens-cl100k` or `tokens-o200k`), so a page downloads only the
//! one it uses.

use agentwire::Result;
use agentwire::tokens::Encoding;

use crate::call::Call;

/// `tokens.count(text, encoding)`: the text is the main input.
pub fn count(call: &mut Call<'_>) -> Result<u32> {
    let encoding = Encoding::parse(&call.string("encoding")?)?;
    let text = call.text("text")?;
    let n = count_in(text, encoding)?;
    Ok(u32::try_from(n).unwrap_or(u32::MAX))
}

#[cfg(feature = "tokens")]
fn count_in(text: &str, encoding: Encoding) -> Result<usize> {
    Ok(agentwire::tokens::count(text, encoding))
}

#[cfg(not(feature = "tokens"))]
fn count_in(text: &str, encoding: Encoding) -> Result<usize> {
    match encoding {
        #[cfg(feature = "tokens-cl100k")]
        Encoding::Cl100kBase => Ok(agentwire::tokens::cl100k_token_ids(text).len()),
        #[cfg(feature = "tokens-o200k")]
        Encoding::O200kBase => Ok(agentwire::tokens::o200k_token_ids(text).len()),
        #[allow(unreachable_patterns)]
        other => Err(crate::call::invalid(format!(
            "this module does not count {} tokens; load that encoding's module",
            other.name()
        ))),
    }
}
