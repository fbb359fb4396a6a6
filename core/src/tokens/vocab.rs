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
    mask: usize,
}

impl core::fmt::Debug for Vocab {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Vocab")
            .field("tokens", &(self.starts.len() - 1))
            .finish()
    }
}

/// The first (up to) eight bytes, little-endian, zero-padded.
#[inline(always)]
fn head(bytes: &[u8]) -> u64 {
    if bytes.len() >= 8 {
        return u64::from_le_bytes([
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        ]);
    }
    let mut buf = [0u8; 8];
    buf[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(buf)
}

#[inline(always)]
fn slot_hash(key: u64, len: usize, rest: &[u8]) -> u64 {
    let mut h = (key ^ ((len as u64) << 56)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for chunk in rest.chunks(8) {
        h = (h.rotate_left(29) ^ head(chunk)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
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
            mask: capacity - 1,
        };
        for rank in 0..count as u32 {
            vocab.insert(rank);
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
        let mut i = slot_hash(key, token.len(), rest) as usize & self.mask;
        while self.slots[i].len != 0 {
            i = (i + 1) & self.mask;
        }
        self.slots[i] = Slot {
            key,
            rank,
            len: token.len() as u32,
        };
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

    /// The rank of `piece`, or [`NO_RANK`].
    #[inline(always)]
    pub(super) fn rank(&self, piece: &[u8]) -> u32 {
        let key = head(piece);
        let len = piece.len();
        let rest = if len > 8 { &piece[8..] } else { &[][..] };
        let mut i = slot_hash(key, len, rest) as usize & self.mask;
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
