//! Token counting: the [`TokenCounter`] trait (always available) and exact tiktoken
//! encodings behind the `tokens` feature (`cl100k_base`, `o200k_base`, via tiktoken-rs).
//!
//! Counts use ordinary encoding: special-token text such as `<|endoftext|>` is plain text, as
//! the gateway reference counts it.
//!
//! ```
//! use agentwire::tokens::TokenCounter;
//! // Any `Fn(&str) -> usize` counts: here, whitespace-separated words.
//! let words = |text: &str| text.split_whitespace().count();
//! assert_eq!(words.count_tokens("two words"), 2);
//! ```

use crate::{Error, ErrorKind, Result};

/// Anything that counts the tokens of a text. Closures `Fn(&str) -> usize` are counters too.
///
/// ```
/// use agentwire::tokens::TokenCounter;
/// // The usual rough estimate: one token per four bytes, rounded up.
/// struct QuarterBytes;
/// impl TokenCounter for QuarterBytes {
///     fn count_tokens(&self, text: &str) -> usize {
///         text.len().div_ceil(4)
///     }
/// }
/// assert_eq!(QuarterBytes.count_tokens("GCX1 tool=t"), 3);
/// ```
pub trait TokenCounter {
    /// The number of tokens in `text`.
    ///
    /// ```
    /// use agentwire::tokens::TokenCounter;
    /// let chars = |text: &str| text.chars().count();
    /// assert_eq!(chars.count_tokens("naïve"), 5);
    /// ```
    fn count_tokens(&self, text: &str) -> usize;
}

impl<F: Fn(&str) -> usize> TokenCounter for F {
    fn count_tokens(&self, text: &str) -> usize {
        self(text)
    }
}

/// A tiktoken encoding.
///
/// ```
/// use agentwire::tokens::Encoding;
/// let encoding = Encoding::parse("o200k")?;
/// assert_eq!(encoding, Encoding::O200kBase);
/// assert_eq!(encoding.name(), "o200k_base");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `cl100k_base` (GPT-4, GPT-3.5; the GCX1 benchmark's tokenizer).
    Cl100kBase,
    /// `o200k_base` (GPT-4o and later).
    O200kBase,
}

impl Encoding {
    /// Every encoding, in documentation order.
    ///
    /// ```
    /// use agentwire::tokens::Encoding;
    /// let names: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
    /// assert_eq!(names, ["cl100k_base", "o200k_base"]);
    /// ```
    pub const ALL: [Encoding; 2] = [Encoding::Cl100kBase, Encoding::O200kBase];

    /// The tiktoken name (`cl100k_base`).
    ///
    /// ```
    /// use agentwire::tokens::Encoding;
    /// assert_eq!(Encoding::Cl100kBase.name(), "cl100k_base");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Cl100kBase => "cl100k_base",
            Encoding::O200kBase => "o200k_base",
        }
    }

    /// Reads `cl100k_base` / `cl100k` / `o200k_base` / `o200k`.
    ///
    /// ```
    /// use agentwire::tokens::Encoding;
    /// assert_eq!(Encoding::parse("cl100k_base")?, Encoding::Cl100kBase);
    /// assert_eq!(Encoding::parse("cl100k")?, Encoding::Cl100kBase);
    /// assert_eq!(Encoding::parse("gpt2").unwrap_err().code(), "INVALID_ARGUMENT");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parse(name: &str) -> Result<Encoding> {
        match name {
            "cl100k_base" | "cl100k" => Ok(Encoding::Cl100kBase),
            "o200k_base" | "o200k" => Ok(Encoding::O200kBase),
            _ => Err(Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!(
                    "unknown token encoding {name:?} (expected cl100k_base or o200k_base)"
                ),
            )),
        }
    }
}

/// The exact tiktoken counter of an encoding (the vocabulary loads on first use).
///
/// ```
/// use agentwire::tokens::{Encoding, Tiktoken, TokenCounter};
/// let counter = Tiktoken(Encoding::Cl100kBase);
/// assert_eq!(counter.count_tokens("hello world"), 2);
/// ```
#[cfg(feature = "tokens")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiktoken(pub Encoding);

#[cfg(feature = "tokens")]
impl Tiktoken {
    /// The token ids of `text` (ordinary encoding).
    ///
    /// ```
    /// use agentwire::tokens::{Encoding, Tiktoken};
    /// assert_eq!(Tiktoken(Encoding::Cl100kBase).token_ids("hello world"), [15339, 1917]);
    /// ```
    pub fn token_ids(&self, text: &str) -> alloc::vec::Vec<u32> {
        match self.0 {
            Encoding::Cl100kBase => cl100k_token_ids(text),
            Encoding::O200kBase => o200k_token_ids(text),
        }
    }
}

/// `cl100k_base` token ids of `text`. Calling only this links only this vocabulary (the
/// per-encoding wasm modules rely on it).
///
/// ```
/// assert_eq!(agentwire::tokens::cl100k_token_ids("hello world"), [15339, 1917]);
/// ```
#[cfg(feature = "tokens")]
pub fn cl100k_token_ids(text: &str) -> alloc::vec::Vec<u32> {
    tiktoken_rs::cl100k_base_singleton().encode_ordinary(text)
}

/// `o200k_base` token ids of `text` (links only this vocabulary).
///
/// ```
/// assert_eq!(agentwire::tokens::o200k_token_ids("hello world"), [24912, 2375]);
/// ```
#[cfg(feature = "tokens")]
pub fn o200k_token_ids(text: &str) -> alloc::vec::Vec<u32> {
    tiktoken_rs::o200k_base_singleton().encode_ordinary(text)
}

#[cfg(feature = "tokens")]
impl TokenCounter for Tiktoken {
    fn count_tokens(&self, text: &str) -> usize {
        self.token_ids(text).len()
    }
}

/// The number of `encoding` tokens in `text`.
///
/// ```
/// use agentwire::tokens::{count, Encoding};
/// assert_eq!(count("hello world", Encoding::Cl100kBase), 2);
/// assert_eq!(count("", Encoding::O200kBase), 0);
/// ```
#[cfg(feature = "tokens")]
pub fn count(text: &str, encoding: Encoding) -> usize {
    Tiktoken(encoding).count_tokens(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_parse() {
        assert_eq!(Encoding::parse("cl100k").unwrap(), Encoding::Cl100kBase);
        assert_eq!(Encoding::parse("o200k_base").unwrap().name(), "o200k_base");
        assert_eq!(
            Encoding::parse("gpt2").unwrap_err().code(),
            "INVALID_ARGUMENT"
        );
        let by_length = |t: &str| t.len();
        assert_eq!(by_length.count_tokens("abc"), 3);
    }

    #[cfg(feature = "tokens")]
    #[test]
    fn counts_exactly() {
        assert_eq!(count("hello world", Encoding::Cl100kBase), 2);
    }
}
