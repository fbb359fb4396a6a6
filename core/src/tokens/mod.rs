//! Exact token counts and ids for OpenAI's `cl100k_base` and `o200k_base` encodings, equal to
//! OpenAI's tiktoken, and the [`TokenCounter`] trait every token budget takes.
//!
//! [`Tokenizer`] is agentwire's own counter: hand-written pre-tokenizers for both encodings
//! (no regular expression engine; Unicode classes from UCD 16.0.0), a rank table with a
//! whole-piece fast path, and a byte-pair merge that counts without building ids. It uses
//! ordinary encoding: special-token text such as `<|endoftext|>` is plain text. Its design, the
//! rules it matches and how that is tested: docs/tokens.md.
//!
//! Each vocabulary is data: built in with the `tokens-cl100k` / `tokens-o200k` features
//! (`tokens` is both), or read at run time from the same bytes with
//! [`Tokenizer::from_vocabulary`], which is how the npm packages load it.
//!
//! ```
//! use agentwire::tokens::{Tokenizer, TokenCounter};
//! let cl100k = Tokenizer::cl100k_base();
//! assert_eq!(cl100k.count("hello world"), 2);
//! assert_eq!(cl100k.encode("hello world"), [15339, 1917]);
//! assert_eq!(cl100k.count_within("hello world", 1), None);
//!
//! // Any `Fn(&str) -> usize` counts too: here, whitespace-separated words.
//! let words = |text: &str| text.split_whitespace().count();
//! assert_eq!(words.count_tokens("two words"), 2);
//! ```

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::cell::RefCell;

use crate::{Error, ErrorKind, Position, Result};

mod ascii;
mod bpe;
mod classes;
mod pretokenize;
mod stream;
#[rustfmt::skip]
mod unicode_classes;
mod vocab;
#[rustfmt::skip]
mod vocabulary_digests;

pub use stream::CountStream;
pub use unicode_classes::UNICODE_VERSION;

use pretokenize::{Text, Whole, cl100k_piece, o200k_piece};
use vocab::{MergeCache, NO_RANK, ShortCounts, Vocab, piece_hash, short_hash, word_at};

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
/// assert_eq!(QuarterBytes.count_tokens_within("GCX1 tool=t", 2), None);
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

    /// The number of tokens in `text` if it is at most `limit`, else `None`. Counters that can
    /// stop early (as [`Tokenizer`] does) override it; the default counts everything.
    ///
    /// ```
    /// use agentwire::tokens::TokenCounter;
    /// let chars = |text: &str| text.chars().count();
    /// assert_eq!(chars.count_tokens_within("abc", 3), Some(3));
    /// assert_eq!(chars.count_tokens_within("abcd", 3), None);
    /// ```
    fn count_tokens_within(&self, text: &str, limit: usize) -> Option<usize> {
        let count = self.count_tokens(text);
        (count <= limit).then_some(count)
    }

    /// The [`Tokenizer`] this counter is, if it is one: a caller that counts several texts
    /// (compaction: the input and each candidate) then shares what counting one text learns
    /// with the next ([`Tokenizer::shared_counts`]). Other counters keep the default, `None`.
    ///
    /// ```
    /// use agentwire::tokens::{TokenCounter, Tokenizer};
    /// let bytes = |text: &str| text.len();
    /// assert!(bytes.tokenizer().is_none());
    /// let cl100k = Tokenizer::cl100k_base();
    /// assert!(cl100k.tokenizer().is_some());
    /// ```
    fn tokenizer(&self) -> Option<&Tokenizer> {
        None
    }
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

    /// The SHA-256 digest the vocabulary data of this encoding ends with.
    fn vocabulary_digest(self) -> &'static [u8; 32] {
        match self {
            Encoding::Cl100kBase => &vocabulary_digests::CL100K_BASE,
            Encoding::O200kBase => &vocabulary_digests::O200K_BASE,
        }
    }

    /// The built-in vocabulary data, when its feature is on.
    fn built_in_vocabulary(self) -> Option<&'static [u8]> {
        match self {
            #[cfg(feature = "tokens-cl100k")]
            Encoding::Cl100kBase => Some(include_bytes!("data/cl100k_base.bin")),
            #[cfg(feature = "tokens-o200k")]
            Encoding::O200kBase => Some(include_bytes!("data/o200k_base.bin")),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }
}

/// An exact counter and encoder of one encoding. Building one takes a few milliseconds (the
/// rank table); hold it and share it (`&Tokenizer` is `Send + Sync`).
///
/// ```
/// use agentwire::tokens::{Encoding, Tokenizer};
/// let o200k = Tokenizer::new(Encoding::O200kBase)?;
/// let ids = o200k.encode("camelCase HTTPResponse");
/// assert_eq!(o200k.decode(&ids)?, b"camelCase HTTPResponse");
/// assert_eq!(o200k.count("camelCase HTTPResponse"), ids.len());
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct Tokenizer {
    encoding: Encoding,
    vocab: Vocab,
}

impl Tokenizer {
    /// The tokenizer of a built-in vocabulary (`INVALID_ARGUMENT` when its feature, `tokens-cl100k`
    /// or `tokens-o200k`, is off; [`from_vocabulary`](Tokenizer::from_vocabulary) reads one at
    /// run time).
    ///
    /// ```
    /// use agentwire::tokens::{Encoding, Tokenizer};
    /// assert_eq!(Tokenizer::new(Encoding::Cl100kBase)?.count("hello world"), 2);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn new(encoding: Encoding) -> Result<Tokenizer> {
        let data = encoding.built_in_vocabulary().ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!(
                    "the {} vocabulary is not built in (feature tokens-{}); read it with Tokenizer::from_vocabulary",
                    encoding.name(),
                    encoding.name().trim_end_matches("_base")
                ),
            )
        })?;
        // Built-in data was checked when it was generated (and by the tests): no digest pass.
        let (_, vocab) = Vocab::parse(Cow::Borrowed(data), false)?;
        Ok(Tokenizer { encoding, vocab })
    }

    /// The built-in `cl100k_base` tokenizer.
    ///
    /// ```
    /// assert_eq!(agentwire::tokens::Tokenizer::cl100k_base().count("hello world"), 2);
    /// ```
    #[cfg(feature = "tokens-cl100k")]
    pub fn cl100k_base() -> Tokenizer {
        Tokenizer::new(Encoding::Cl100kBase).expect("the built-in cl100k_base vocabulary reads")
    }

    /// The built-in `o200k_base` tokenizer.
    ///
    /// ```
    /// assert_eq!(agentwire::tokens::Tokenizer::o200k_base().encode("hello world"), [24912, 2375]);
    /// ```
    #[cfg(feature = "tokens-o200k")]
    pub fn o200k_base() -> Tokenizer {
        Tokenizer::new(Encoding::O200kBase).expect("the built-in o200k_base vocabulary reads")
    }

    /// A tokenizer from vocabulary data: the bytes of `data/cl100k_base.bin` or
    /// `data/o200k_base.bin` (the npm package `agentwire-tokens` ships the same files). The
    /// data must be exactly one of those: anything else is `TOKENS_INVALID_VOCABULARY`.
    ///
    /// ```
    /// use agentwire::tokens::{Encoding, Tokenizer};
    /// # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tokens/data/o200k_base.bin");
    /// let data = std::fs::read(path).expect("a vocabulary file, e.g. from agentwire-tokens");
    /// let data = data.as_slice();
    /// let o200k = Tokenizer::from_vocabulary(data)?;
    /// assert_eq!(o200k.encoding(), Encoding::O200kBase);
    /// let broken = Tokenizer::from_vocabulary(&data[..1000]).unwrap_err();
    /// assert_eq!(broken.code(), "TOKENS_INVALID_VOCABULARY");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_vocabulary(data: &[u8]) -> Result<Tokenizer> {
        let (encoding, vocab) = Vocab::parse(Cow::Owned(data.to_vec()), true)?;
        Ok(Tokenizer { encoding, vocab })
    }

    /// The encoding.
    ///
    /// ```
    /// use agentwire::tokens::{Encoding, Tokenizer};
    /// assert_eq!(Tokenizer::cl100k_base().encoding(), Encoding::Cl100kBase);
    /// ```
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The number of token ids (ids are below it; every id below it is a token).
    ///
    /// ```
    /// assert_eq!(agentwire::tokens::Tokenizer::cl100k_base().vocabulary_size(), 100_256);
    /// ```
    pub fn vocabulary_size(&self) -> usize {
        self.vocab.len()
    }

    /// Calls `each` with every piece of `text` until it returns `false`. The loop is written
    /// once per encoding so that each scanner inlines.
    #[inline(always)]
    fn for_each_piece<T: Text>(
        &self,
        text: &T,
        mut i: usize,
        mut each: impl FnMut(usize, usize) -> bool,
    ) -> usize {
        let bytes = text.bytes();
        let len = bytes.len();
        match self.encoding {
            Encoding::Cl100kBase => {
                while i < len {
                    let end =
                        ascii::cl100k_piece(bytes, i).unwrap_or_else(|| cl100k_piece(text, i));
                    if !each(i, end) {
                        break;
                    }
                    i = end;
                }
            }
            Encoding::O200kBase => {
                while i < len {
                    let end = ascii::o200k_piece(bytes, i).unwrap_or_else(|| o200k_piece(text, i));
                    if !each(i, end) {
                        break;
                    }
                    i = end;
                }
            }
        }
        i
    }

    /// The number of tokens of the piece at `start..end` of `text`.
    #[inline(always)]
    fn piece_count(
        &self,
        text: &[u8],
        start: usize,
        end: usize,
        short: &mut ShortCounts,
        cache: &mut MergeCache,
    ) -> usize {
        let len = end - start;
        if len == 1 {
            return 1; // every byte is a token (`Vocab::parse` checks it)
        }
        if len <= 8
            && let Some(word) = word_at(text, start)
        {
            let key = word & (u64::MAX >> (64 - 8 * len));
            let hash = short_hash(key, len);
            if let Some(count) = short.get(key, len, hash) {
                return count;
            }
            let count = if self.vocab.rank_of_short(key, len, hash) != NO_RANK {
                1
            } else {
                self.merged_count(text, start, end, cache)
            };
            short.put(key, len, hash, count);
            return count;
        }
        self.long_piece_count(text, start, end, cache)
    }

    /// The number of tokens of a piece of more than eight bytes (or at the text's last eight).
    /// Text repeats its long pieces too (words, identifiers, indentation): the merge cache
    /// holds their counts, tokens or not, and a hit compares the piece with its first
    /// occurrence in the text, where the rank table would read a slot and the token's bytes,
    /// megabytes apart.
    #[inline(never)]
    fn long_piece_count(
        &self,
        text: &[u8],
        start: usize,
        end: usize,
        cache: &mut MergeCache,
    ) -> usize {
        let piece = &text[start..end];
        let hash = piece_hash(piece);
        if let Some(count) = cache.get(text, start, end, hash) {
            return count as usize;
        }
        let count = if self.vocab.rank_of_hashed(piece, hash) != NO_RANK {
            1
        } else {
            bpe::merge_count(&self.vocab, text, start, end)
        };
        cache.put(start, end, hash, count as u64);
        count
    }

    /// The number of tokens of a piece that is not one token (kept out of the hot loop).
    #[inline(never)]
    fn merged_count(&self, text: &[u8], start: usize, end: usize, cache: &mut MergeCache) -> usize {
        let piece = &text[start..end];
        let hash = piece_hash(piece);
        if let Some(count) = cache.get(text, start, end, hash) {
            return count as usize;
        }
        let count = bpe::merge_count(&self.vocab, text, start, end);
        cache.put(start, end, hash, count as u64);
        count
    }

    /// The exact number of tokens in `text`.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// assert_eq!(cl100k.count(r#"{"name": "Alice", "age": 30}"#), 12);
    /// assert_eq!(cl100k.count(""), 0);
    /// ```
    pub fn count(&self, text: &str) -> usize {
        // No count reaches usize::MAX: a text has fewer tokens than bytes.
        self.count_within(text, usize::MAX).unwrap_or(usize::MAX)
    }

    /// The number of tokens in `text` if it is at most `limit`, else `None`, stopping as soon as
    /// the count passes `limit`. Exact: pieces are counted whole, and a sum of pieces only
    /// grows.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// assert_eq!(cl100k.count_within("hello world", 2), Some(2));
    /// assert_eq!(cl100k.count_within("hello world", 1), None);
    /// ```
    pub fn count_within(&self, text: &str, limit: usize) -> Option<usize> {
        self.count_within_using(text, limit, &mut ShortCounts::new(text.len()))
    }

    /// [`count_within`](Tokenizer::count_within) with a table of short pieces' counts that
    /// may hold other texts' pieces (a piece's tokens depend on its bytes alone).
    fn count_within_using(
        &self,
        text: &str,
        limit: usize,
        short: &mut ShortCounts,
    ) -> Option<usize> {
        let mut count = 0;
        let bytes = text.as_bytes();
        let mut cache = MergeCache::new(bytes.len());
        self.for_each_piece(
            &Whole(bytes),
            0,
            #[inline(always)]
            |start, end| {
                count += self.piece_count(bytes, start, end, short, &mut cache);
                count <= limit
            },
        );
        (count <= limit).then_some(count)
    }

    /// A counter for several texts in a row that keeps the counts of the short pieces it has
    /// seen (keys, numbers, punctuation) from one text to the next, instead of learning them
    /// again for each text. Its counts are [`count`](Tokenizer::count)'s. Compaction counts an
    /// input and its candidates, which share most of their words, with one.
    ///
    /// ```
    /// use agentwire::tokens::{TokenCounter, Tokenizer};
    /// let cl100k = Tokenizer::cl100k_base();
    /// let shared = cl100k.shared_counts();
    /// let (json, toon) = (r#"[{"id":1,"name":"a"}]"#, "[1]{id,name}:\n  1,a");
    /// assert_eq!(shared.count_tokens(json), cl100k.count(json));
    /// assert_eq!(shared.count_tokens(toon), cl100k.count(toon));
    /// assert_eq!(shared.count_tokens_within(toon, 3), None);
    /// ```
    pub fn shared_counts(&self) -> SharedCounts<'_> {
        SharedCounts {
            tokenizer: self,
            short: RefCell::new(None),
        }
    }

    /// The exact number of tokens in UTF-8 bytes. Bytes that are not UTF-8 are refused
    /// (`INVALID_UTF8`, with the offset of the first bad byte): tiktoken encodes text, not
    /// bytes.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// assert_eq!(cl100k.count_utf8(b"hello world")?, 2);
    /// let err = cl100k.count_utf8(b"hello \xff").unwrap_err();
    /// assert_eq!((err.code(), err.offset()), ("INVALID_UTF8", Some(6)));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn count_utf8(&self, bytes: &[u8]) -> Result<usize> {
        let text = core::str::from_utf8(bytes).map_err(|e| {
            Error::at(
                ErrorKind::InvalidUtf8,
                "the text is not UTF-8",
                Position::in_text(bytes, e.valid_up_to()),
            )
        })?;
        Ok(self.count(text))
    }

    /// The token ids of `text`.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// assert_eq!(cl100k.encode("hello world"), [15339, 1917]);
    /// ```
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::with_capacity(text.len() / 3);
        let bytes = text.as_bytes();
        // A merged piece's cached value: where its ids start in `ids` (high half), and how
        // many there are.
        let mut cache = MergeCache::new(bytes.len());
        self.for_each_piece(
            &Whole(bytes),
            0,
            #[inline(always)]
            |start, end| {
                let piece = &bytes[start..end];
                let rank = self.vocab.rank(piece);
                let hash = if rank == NO_RANK {
                    piece_hash(piece)
                } else {
                    0
                };
                if rank != NO_RANK {
                    ids.push(rank);
                } else if let Some(found) = cache.get(bytes, start, end, hash) {
                    let at = (found >> 32) as usize;
                    ids.extend_from_within(at..at + (found & 0xFFFF_FFFF) as usize);
                } else {
                    let at = ids.len();
                    bpe::merge(&self.vocab, bytes, start, end, |a, b| {
                        ids.push(self.vocab.rank(&piece[a..b]))
                    });
                    cache.put(
                        start,
                        end,
                        hash,
                        (at as u64) << 32 | (ids.len() - at) as u64,
                    );
                }
                true
            },
        );
        ids
    }

    /// The bytes of token ids, concatenated (`TOKENS_UNKNOWN_ID` for an id past the vocabulary).
    /// The bytes of a slice of ids need not be UTF-8: a character can span tokens.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// assert_eq!(cl100k.decode(&[15339, 1917])?, b"hello world");
    /// assert_eq!(cl100k.decode(&[100_256]).unwrap_err().code(), "TOKENS_UNKNOWN_ID");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn decode(&self, ids: &[u32]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(ids.len() * 4);
        for (i, &id) in ids.iter().enumerate() {
            out.extend_from_slice(self.token_bytes(id).ok_or_else(|| self.unknown_id(i, id))?);
        }
        Ok(out)
    }

    /// The bytes of one token id, or `None` past the vocabulary.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// assert_eq!(cl100k.token_bytes(1917), Some(&b" world"[..]));
    /// assert_eq!(cl100k.token_bytes(u32::MAX), None);
    /// ```
    pub fn token_bytes(&self, id: u32) -> Option<&[u8]> {
        ((id as usize) < self.vocab.len())
            .then(|| self.vocab.token(id))
            .filter(|t| !t.is_empty())
    }

    fn unknown_id(&self, index: usize, id: u32) -> Error {
        Error::new(
            ErrorKind::TokensUnknownId,
            alloc::format!(
                "token id {id} at index {index} is not in {} (ids are below {})",
                self.encoding.name(),
                self.vocab.len()
            ),
        )
    }

    /// A counter for text that arrives in chunks (a file, a stream): the same count as
    /// [`count`](Tokenizer::count) on the whole text, with only the unfinished last pieces held.
    ///
    /// ```
    /// let cl100k = agentwire::tokens::Tokenizer::cl100k_base();
    /// let mut stream = cl100k.count_stream();
    /// stream.push(b"hello wo")?;
    /// stream.push(b"rld")?;
    /// assert_eq!(stream.finish()?, 2);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn count_stream(&self) -> CountStream<'_> {
        CountStream::new(self)
    }
}

impl TokenCounter for Tokenizer {
    fn count_tokens(&self, text: &str) -> usize {
        self.count(text)
    }

    fn count_tokens_within(&self, text: &str, limit: usize) -> Option<usize> {
        self.count_within(text, limit)
    }

    fn tokenizer(&self) -> Option<&Tokenizer> {
        Some(self)
    }
}

/// A [`Tokenizer`] counting several texts in a row, with one table of short pieces' counts
/// for all of them ([`Tokenizer::shared_counts`]).
///
/// ```
/// use agentwire::tokens::{TokenCounter, Tokenizer};
/// let o200k = Tokenizer::o200k_base();
/// let shared = o200k.shared_counts();
/// for text in ["id: 1", "id: 2", "id\tname"] {
///     assert_eq!(shared.count_tokens(text), o200k.count(text));
/// }
/// ```
pub struct SharedCounts<'a> {
    tokenizer: &'a Tokenizer,
    /// Sized by the first text counted (compaction counts its largest text, the input, first).
    short: RefCell<Option<ShortCounts>>,
}

impl core::fmt::Debug for SharedCounts<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SharedCounts")
            .field("encoding", &self.tokenizer.encoding)
            .finish_non_exhaustive()
    }
}

impl TokenCounter for SharedCounts<'_> {
    fn count_tokens(&self, text: &str) -> usize {
        // No count reaches usize::MAX: a text has fewer tokens than bytes.
        self.count_tokens_within(text, usize::MAX)
            .unwrap_or(usize::MAX)
    }

    fn count_tokens_within(&self, text: &str, limit: usize) -> Option<usize> {
        let mut short = self.short.borrow_mut();
        let short = short.get_or_insert_with(|| ShortCounts::new(text.len()));
        self.tokenizer.count_within_using(text, limit, short)
    }

    fn tokenizer(&self) -> Option<&Tokenizer> {
        Some(self.tokenizer)
    }
}

#[cfg(all(test, feature = "tokens"))]
mod tests;
