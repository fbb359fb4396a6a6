//! A vocabulary: the bytes of every token by rank, and a hash table from bytes to rank.
//!
//! The binary form (written by core/tools/tokens_tables.py from the `.tiktoken` files), all
//! integers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `AWVOCAB1` |
//! | 16 | encoding name, NUL-padded (`cl100k_base`) |
//! | 4 | token count N (ranks 0..N) |
//! | 4 | total token bytes D |
//! | 32 | SHA-256 of the `.tiktoken` file it was made from |
//! | N | each rank's token length (0: no token has that rank) |
//! | D | the tokens' bytes, by rank |
//! | 32 | SHA-256 of everything before it |

use alloc::borrow::Cow;
use alloc::vec;
use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use super::Encoding;
use crate::{Error, ErrorKind, Result};

const MAGIC: &[u8; 8] = b"AWVOCAB1";
const HEADER_LEN: usize = 8 + 16 + 4 + 4 + 32;
const DIGEST_LEN: usize = 32;

/// A rank that is no token (pairs that never merge).
pub(super) const NO_RANK: u32 = u32::MAX;

/// One hash-table slot. Tokens of up to eight bytes are identified by `key` (their bytes) and
/// `len`; longer ones also compare the rest of their bytes.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    rank: u32,
    /// 0: empty.
    len: u32,
}

pub(super) struct Vocab {
    /// The tokens' bytes, by rank.
    bytes: Cow<'static, [u8]>,
    /// Where each rank's bytes start in `bytes` (N + 1 entries).
    starts: Vec<u32>,
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`: a hash's high bits pick its slot.
    shift: u32,
    mask: usize,
    /// The rank of every two-byte token, by its bytes (`NO_RANK` for the rest): the first
    /// lookups of every merge, and two-byte pieces.
    pair_ranks: Vec<u32>,
    /// The rank of each byte (every byte is a token).
    byte_ranks: [u32; 256],
}

impl core::fmt::Debug for Vocab {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Vocab")
            .field("tokens", &(self.starts.len() - 1))
            .finish()
    }
}

/// The first (up to) eight bytes, little-endian, zero-padded. Short keys are read as two
/// overlapping words instead of a variable-length copy (no call to memcpy).
#[inline(always)]
fn head(b: &[u8]) -> u64 {
    let word4 = |at: usize| u64::from(u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]));
    match b.len() {
        0 => 0,
        1 => u64::from(b[0]),
        2 => u64::from(u16::from_le_bytes([b[0], b[1]])),
        3 => u64::from(u16::from_le_bytes([b[0], b[1]])) | u64::from(b[2]) << 16,
        4 => word4(0),
        // Bytes in both words land on the same bits, so OR-ing them is exact.
        n @ 5..=7 => word4(0) | word4(n - 4) << (8 * (n - 4)),
        _ => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
    }
}

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// The hash of a token (its head, length and any bytes past the head); the table takes the
/// high bits, which depend on every bit of the key.
#[inline(always)]
fn slot_hash(key: u64, len: usize, rest: &[u8]) -> u64 {
    let mut h = (key ^ ((len as u64) << 59)).wrapping_mul(MULTIPLIER);
    for chunk in rest.chunks(8) {
        h = (h.rotate_left(29) ^ head(chunk)).wrapping_mul(MULTIPLIER);
    }
    h
}

fn vocabulary_error(message: &str) -> Error {
    Error::new(
        ErrorKind::TokensInvalidVocabulary,
        alloc::format!("not a token vocabulary: {message}"),
    )
}

impl Vocab {
    /// Reads the binary form: checks its structure, its digest and that it is the vocabulary of
    /// a known encoding, byte for byte.
    pub(super) fn parse(data: Cow<'static, [u8]>, check_digest: bool) -> Result<(Encoding, Vocab)> {
        let bytes: &[u8] = &data;
        if bytes.len() < HEADER_LEN + DIGEST_LEN || &bytes[..8] != MAGIC {
            return Err(vocabulary_error("the data does not start with AWVOCAB1"));
        }
        let name = &bytes[8..24];
        let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(16)];
        let encoding = core::str::from_utf8(name)
            .ok()
            .and_then(|name| Encoding::parse(name).ok())
            .ok_or_else(|| vocabulary_error("unknown encoding name"))?;
        let count = u32::from_le_bytes([bytes[24], bytes[25], bytes[26], bytes[27]]) as usize;
        let total = u32::from_le_bytes([bytes[28], bytes[29], bytes[30], bytes[31]]) as usize;
        if bytes.len() != HEADER_LEN + count + total + DIGEST_LEN {
            return Err(vocabulary_error("its length does not match its header"));
        }
        let body_len = bytes.len() - DIGEST_LEN;
        let digest = &bytes[body_len..];
        if digest != encoding.vocabulary_digest() {
            return Err(vocabulary_error(&alloc::format!(
                "it is not the {} vocabulary agentwire knows",
                encoding.name()
            )));
        }
        if check_digest && Sha256::digest(&bytes[..body_len]).as_slice() != digest {
            return Err(vocabulary_error(
                "its SHA-256 digest does not match its content",
            ));
        }
        let lengths = &bytes[HEADER_LEN..HEADER_LEN + count];
        let mut starts = Vec::with_capacity(count + 1);
        let mut offset = 0u32;
        for &len in lengths {
            starts.push(offset);
            offset += u32::from(len);
        }
        starts.push(offset);
        let capacity = (count * 2).next_power_of_two().max(16);
        let mut vocab = Vocab {
            bytes: match data {
                Cow::Borrowed(all) => Cow::Borrowed(&all[HEADER_LEN + count..body_len]),
                Cow::Owned(all) => Cow::Owned(all[HEADER_LEN + count..body_len].to_vec()),
            },
            starts,
            slots: vec![Slot::default(); capacity],
            shift: 64 - capacity.trailing_zeros(),
            mask: capacity - 1,
            pair_ranks: vec![NO_RANK; 1 << 16],
            byte_ranks: [NO_RANK; 256],
        };
        for rank in 0..count as u32 {
            vocab.insert(rank);
            match *vocab.token(rank) {
                [a] => vocab.byte_ranks[usize::from(a)] = rank,
                [a, b] => vocab.pair_ranks[usize::from(a) << 8 | usize::from(b)] = rank,
                _ => {}
            }
        }
        if vocab.byte_ranks.contains(&NO_RANK) {
            // Merging relies on it; the digest check makes it true of every accepted file.
            return Err(vocabulary_error("not every byte is a token"));
        }
        Ok((encoding, vocab))
    }

    fn insert(&mut self, rank: u32) {
        let token = self.token(rank);
        if token.is_empty() {
            return;
        }
        let key = head(token);
        let rest = if token.len() > 8 {
            &token[8..]
        } else {
            &[][..]
        };
        let mut i = (slot_hash(key, token.len(), rest) >> self.shift) as usize;
        while self.slots[i].len != 0 {
            i = (i + 1) & self.mask;
        }
        self.slots[i] = Slot {
            key,
            rank,
            len: token.len() as u32,
        };
    }

    /// The rank of the two bytes `a`, `b`, or [`NO_RANK`].
    #[inline(always)]
    pub(super) fn pair_rank(&self, a: u8, b: u8) -> u32 {
        self.pair_ranks[usize::from(a) << 8 | usize::from(b)]
    }

    /// The number of ranks (token ids are below it).
    pub(super) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The bytes of a rank (empty for a rank without a token).
    #[inline(always)]
    pub(super) fn token(&self, rank: u32) -> &[u8] {
        let rank = rank as usize;
        &self.bytes[self.starts[rank] as usize..self.starts[rank + 1] as usize]
    }

    /// The rank of `piece`, or [`NO_RANK`]. One and two bytes are read from tables; longer
    /// pieces from the hash table.
    #[inline(always)]
    pub(super) fn rank(&self, piece: &[u8]) -> u32 {
        match *piece {
            [a] => self.byte_ranks[usize::from(a)],
            [a, b] => self.pair_rank(a, b),
            _ => self.rank_hashed(piece),
        }
    }

    /// [`rank`](Vocab::rank) of `text[start..end]`, reading a short piece's head as one word
    /// when the text has eight bytes from `start`.
    #[inline(always)]
    pub(super) fn rank_in(&self, text: &[u8], start: usize, end: usize) -> u32 {
        let len = end - start;
        if (3..=8).contains(&len)
            && let Some(word) = text.get(start..start + 8)
        {
            let word = u64::from_le_bytes([
                word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
            ]);
            return self.probe(word & (u64::MAX >> (64 - 8 * len)), len, &[]);
        }
        self.rank(&text[start..end])
    }

    /// The rank of the piece of `len` bytes (at most eight) whose bytes are `key` (zero-padded)
    /// and whose hash is [`short_hash`]`(key, len)`.
    #[inline(always)]
    pub(super) fn rank_of_short(&self, key: u64, len: usize, hash: u64) -> u32 {
        self.probe_from(hash, key, len, &[])
    }

    /// The rank of `piece`, whose [`piece_hash`] is `hash`, from the hash table (any length).
    #[inline(always)]
    pub(super) fn rank_of_hashed(&self, piece: &[u8], hash: u64) -> u32 {
        let rest = if piece.len() > 8 {
            &piece[8..]
        } else {
            &[][..]
        };
        self.probe_from(hash, head(piece), piece.len(), rest)
    }

    #[inline(always)]
    fn rank_hashed(&self, piece: &[u8]) -> u32 {
        let rest = if piece.len() > 8 {
            &piece[8..]
        } else {
            &[][..]
        };
        self.probe(head(piece), piece.len(), rest)
    }

    /// The rank of the token with this head, length and rest (past the head).
    #[inline(always)]
    fn probe(&self, key: u64, len: usize, rest: &[u8]) -> u32 {
        self.probe_from(slot_hash(key, len, rest), key, len, rest)
    }

    #[inline(always)]
    fn probe_from(&self, hash: u64, key: u64, len: usize, rest: &[u8]) -> u32 {
        let mut i = (hash >> self.shift) as usize;
        loop {
            let slot = self.slots[i];
            if slot.len == 0 {
                return NO_RANK;
            }
            if slot.key == key
                && slot.len as usize == len
                && (len <= 8 || self.token(slot.rank)[8..] == *rest)
            {
                return slot.rank;
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// The eight bytes of `text` from `i`, as a little-endian word, if it has eight.
#[inline(always)]
pub(super) fn word_at(text: &[u8], i: usize) -> Option<u64> {
    let word: [u8; 8] = text.get(i..i + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(word))
}

/// The hash of a piece of at most eight bytes, from its bytes zero-padded to a word (the same
/// hash the rank table uses).
#[inline(always)]
pub(super) fn short_hash(key: u64, len: usize) -> u64 {
    slot_hash(key, len, &[])
}

/// Whether `text[a..a + len]` and `text[b..b + len]` are the same bytes, compared a word at a
/// time (no call to memcmp for the short pieces the caches compare).
#[inline(always)]
fn same_bytes(text: &[u8], a: usize, b: usize, len: usize) -> bool {
    let mut i = 0;
    while i + 8 <= len {
        if word_at(text, a + i) != word_at(text, b + i) {
            return false;
        }
        i += 8;
    }
    if i == len {
        return true;
    }
    match (word_at(text, a + i), word_at(text, b + i)) {
        (Some(x), Some(y)) => (x ^ y) & (u64::MAX >> (64 - 8 * (len - i))) == 0,
        _ => text[a + i..a + len] == text[b + i..b + len],
    }
}

/// The counts of short pieces (two to eight bytes) already counted in this text: text repeats
/// its pieces, and this small table stays in the processor's caches where the rank table, megabytes
/// in size, does not. Direct-mapped; an entry holds the piece's bytes, so a hit is exact.
pub(super) struct ShortCounts {
    /// (bytes zero-padded, length << 32 | count); length 0 is an empty entry.
    entries: Vec<(u64, u64)>,
    /// log2 of the number of entries.
    bits: u32,
}

impl ShortCounts {
    /// A table for a text of `text_len` bytes: 1 entry per 16 bytes, 64 to 16384 entries (16
    /// bytes each).
    pub(super) fn new(text_len: usize) -> ShortCounts {
        let bits = (text_len / 16)
            .clamp(64, 16384)
            .next_power_of_two()
            .trailing_zeros();
        ShortCounts {
            entries: vec![(0, 0); 1 << bits],
            bits,
        }
    }

    /// The count stored for the piece `key` of `len` bytes with [`short_hash`] `hash`.
    #[inline(always)]
    pub(super) fn get(&self, key: u64, len: usize, hash: u64) -> Option<usize> {
        let (k, value) = self.entries[(hash >> (64 - self.bits)) as usize];
        (k == key && (value >> 32) as usize == len).then_some(value as u32 as usize)
    }

    #[inline(always)]
    pub(super) fn put(&mut self, key: u64, len: usize, hash: u64, count: usize) {
        self.entries[(hash >> (64 - self.bits)) as usize] =
            (key, (len as u64) << 32 | count as u32 as u64);
    }
}

/// A hash of a piece's bytes (for [`MergeCache`]).
#[inline(always)]
pub(super) fn piece_hash(piece: &[u8]) -> u64 {
    let rest = if piece.len() > 8 {
        &piece[8..]
    } else {
        &[][..]
    };
    slot_hash(head(piece), piece.len(), rest)
}

/// Pieces already merged in this text, with what they merged into: text repeats its
/// identifiers (a camelCase key is one piece but several cl100k tokens), and a hit saves the
/// whole merge. Direct-mapped; an entry names its piece by where it first occurred in the
/// text, so a hit is checked against those bytes and nothing is copied.
pub(super) struct MergeCache {
    /// (hash, start, len, value); allocated on the first merge.
    entries: Vec<(u64, u32, u32, u64)>,
    /// log2 of the number of entries.
    bits: u32,
}

impl MergeCache {
    /// A cache for a text of `text_len` bytes: 1 entry per 32 bytes, 16 to 16384 entries (24
    /// bytes each), so that a short text pays little and a long one keeps its identifiers.
    pub(super) fn new(text_len: usize) -> MergeCache {
        MergeCache {
            entries: Vec::new(),
            bits: (text_len / 32)
                .clamp(16, 16384)
                .next_power_of_two()
                .trailing_zeros(),
        }
    }

    /// The value stored for the piece at `start..end` of `text` with `hash`.
    #[inline(always)]
    pub(super) fn get(&self, text: &[u8], start: usize, end: usize, hash: u64) -> Option<u64> {
        let &(h, at, len, value) = self.entries.get((hash >> (64 - self.bits)) as usize)?;
        let (at, len) = (at as usize, len as usize);
        (h == hash && len == end - start && same_bytes(text, at, start, len)).then_some(value)
    }

    pub(super) fn put(&mut self, start: usize, end: usize, hash: u64, value: u64) {
        if self.entries.is_empty() {
            self.entries = vec![(0, 0, 0, 0); 1 << self.bits];
        }
        if let (Ok(start), Ok(len)) = (u32::try_from(start), u32::try_from(end - start)) {
            self.entries[(hash >> (64 - self.bits)) as usize] = (hash, start, len, value);
        }
    }
}
