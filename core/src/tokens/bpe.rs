//! Byte-pair merging of one piece that is not a token as a whole, as tiktoken does it:
//! repeatedly merge the adjacent pair whose merged bytes have the lowest rank, the leftmost
//! one on ties, until no adjacent pair is a token.
//!
//! Short pieces use tiktoken's own loop (a scan per merge, quadratic, fast when short). Long
//! pieces (a base64 blob, 64 KB of one letter) use a heap of candidate pairs ordered by
//! (rank, position), which picks the same pair at every step in O(n log n).

use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use core::cmp::Reverse;

use super::vocab::{NO_RANK, Vocab};

/// Longest piece merged with the scanning loop.
const SCAN_LIMIT: usize = 128;

/// Calls `part` with the byte range (from `start`) of each token of the piece `text[start..end]`
/// (at least two bytes, not a token itself), in order. The piece is read in place, so that a
/// short part's bytes are read as one word from the text.
pub(super) fn merge(
    vocab: &Vocab,
    text: &[u8],
    start: usize,
    end: usize,
    part: impl FnMut(usize, usize),
) {
    if end - start < 24 {
        merge_scanning::<24>(vocab, text, start, end, part);
    } else if end - start <= SCAN_LIMIT {
        merge_scanning::<{ SCAN_LIMIT + 1 }>(vocab, text, start, end, part);
    } else {
        merge_with_heap(vocab, &text[start..end], part);
    }
}

/// The number of tokens the piece `text[start..end]` merges into.
pub(super) fn merge_count(vocab: &Vocab, text: &[u8], start: usize, end: usize) -> usize {
    let mut count = 0;
    merge(vocab, text, start, end, |_, _| count += 1);
    count
}

/// The heap merge on any piece, for tests that compare it with the scanning loop (they need the
/// embedded vocabularies of the `tokens` feature).
#[cfg(all(test, feature = "tokens"))]
pub(super) fn merge_with_heap_for_tests(
    vocab: &Vocab,
    piece: &[u8],
    part: impl FnMut(usize, usize),
) {
    merge_with_heap(vocab, piece, part);
}

/// tiktoken's loop over a piece of at most `N - 1` bytes, in arrays on the stack.
fn merge_scanning<const N: usize>(
    vocab: &Vocab,
    text: &[u8],
    start: usize,
    end: usize,
    mut part: impl FnMut(usize, usize),
) {
    let piece = &text[start..end];
    // Part i starts at starts[i]; ranks[i] is the rank of parts i and i + 1 merged. Two
    // sentinels end both.
    let mut starts = [0u8; N];
    let mut ranks = [NO_RANK; N];
    let n = piece.len();
    let mut len = n + 1;
    let mut min = (NO_RANK, 0);
    for i in 0..n - 1 {
        let rank = vocab.pair_rank(piece[i], piece[i + 1]);
        if rank < min.0 {
            min = (rank, i);
        }
        starts[i] = i as u8;
        ranks[i] = rank;
    }
    starts[n - 1] = (n - 1) as u8;
    starts[n] = n as u8;
    // The rank of parts i and i + 1 merged, once part i + 1 has absorbed part i + 2.
    let rank_after = |starts: &[u8; N], len: usize, i: usize| {
        if i + 3 < len {
            vocab.rank_in(
                text,
                start + usize::from(starts[i]),
                start + usize::from(starts[i + 3]),
            )
        } else {
            NO_RANK
        }
    };
    while min.0 != NO_RANK {
        let i = min.1;
        if i > 0 {
            ranks[i - 1] = rank_after(&starts, len, i - 1);
        }
        ranks[i] = rank_after(&starts, len, i);
        for j in i + 1..len - 1 {
            starts[j] = starts[j + 1];
            ranks[j] = ranks[j + 1];
        }
        len -= 1;
        min = (NO_RANK, 0);
        for (j, &rank) in ranks[..len - 1].iter().enumerate() {
            if rank < min.0 {
                min = (rank, j);
            }
        }
    }
    for window in starts[..len].windows(2) {
        part(usize::from(window[0]), usize::from(window[1]));
    }
}

fn merge_with_heap(vocab: &Vocab, piece: &[u8], mut part: impl FnMut(usize, usize)) {
    let n = piece.len();
    // Parts as a linked list over their start offsets; `next[i] == n` ends it.
    let mut next: Vec<u32> = (1..=n as u32).collect();
    let mut prev: Vec<u32> = (0..n as u32).map(|i| i.wrapping_sub(1)).collect();
    // The rank of each live part merged with its successor; NO_RANK once merged away.
    let mut pair_rank: Vec<u32> = Vec::with_capacity(n);
    let mut heap = BinaryHeap::with_capacity(n);
    for i in 0..n {
        let rank = if i + 1 < n {
            vocab.pair_rank(piece[i], piece[i + 1])
        } else {
            NO_RANK
        };
        pair_rank.push(rank);
        if rank != NO_RANK {
            heap.push(Reverse((rank, i as u32)));
        }
    }
    let end_of = |next: &[u32], i: usize| next[i] as usize;
    while let Some(Reverse((rank, i))) = heap.pop() {
        let i = i as usize;
        if pair_rank[i] != rank {
            continue; // stale: part i was merged away or its pair changed since
        }
        // Part i absorbs its successor j.
        let j = next[i] as usize;
        let after = next[j];
        next[i] = after;
        if (after as usize) < n {
            prev[after as usize] = i as u32;
        }
        pair_rank[j] = NO_RANK;
        let merged_rank = |next: &[u32], k: usize| {
            let successor = next[k] as usize;
            if successor < n {
                vocab.rank(&piece[k..end_of(next, successor)])
            } else {
                NO_RANK
            }
        };
        pair_rank[i] = merged_rank(&next, i);
        if pair_rank[i] != NO_RANK {
            heap.push(Reverse((pair_rank[i], i as u32)));
        }
        if i > 0 {
            let p = prev[i] as usize;
            pair_rank[p] = merged_rank(&next, p);
            if pair_rank[p] != NO_RANK {
                heap.push(Reverse((pair_rank[p], p as u32)));
            }
        }
    }
    let mut i = 0;
    while i < n {
        let end = next[i] as usize;
        part(i, end);
        i = end;
    }
}
