//! Name → index lookups for the graph encoders, which resolve every edge's two symbol names.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use crate::text::same_text;

/// Longest probe run the hash table accepts; past it (colliding names, possibly crafted) the
/// index falls back to a B-tree, so lookups never degrade to linear scans.
const MAX_PROBE: usize = 32;

/// An empty slot of the hash table.
const EMPTY: u32 = u32::MAX;

/// Each name mapped to the position of its last occurrence (a later duplicate overwrites, as a
/// Go map does).
#[derive(Debug)]
pub(crate) enum NameIndex<'a> {
    /// Open addressing with linear probing. A slot holds the high half of the name's hash
    /// (compared before the name) and the position, [`EMPTY`] when free.
    Hashed {
        names: Vec<&'a str>,
        slots: Vec<(u32, u32)>,
        mask: usize,
        duplicates: bool,
    },
    Ordered {
        map: BTreeMap<&'a str, usize>,
        duplicates: bool,
    },
}

impl<'a> NameIndex<'a> {
    pub(crate) fn new(names: impl ExactSizeIterator<Item = &'a str>) -> NameIndex<'a> {
        let names: Vec<&'a str> = names.collect();
        if u32::try_from(names.len()).map_or(true, |n| n == EMPTY) {
            return NameIndex::ordered(names);
        }
        let capacity = (names.len() * 2).next_power_of_two().max(8);
        let mask = capacity - 1;
        let mut slots: Vec<(u32, u32)> = vec![(0, EMPTY); capacity];
        let mut duplicates = false;
        for (position, name) in names.iter().enumerate() {
            let h = hash(name);
            let mut at = h as usize & mask;
            let mut probe = 0;
            loop {
                let (stored_hash, stored) = slots[at];
                if stored == EMPTY {
                    slots[at] = (tag(h), position as u32);
                    break;
                }
                if stored_hash == tag(h) && same_text(names[stored as usize], name) {
                    slots[at].1 = position as u32;
                    duplicates = true;
                    break;
                }
                if probe == MAX_PROBE {
                    return NameIndex::ordered(names);
                }
                at = (at + 1) & mask;
                probe += 1;
            }
        }
        NameIndex::Hashed {
            names,
            slots,
            mask,
            duplicates,
        }
    }

    fn ordered(names: Vec<&'a str>) -> NameIndex<'a> {
        // Inserted one by one: collecting into a B-tree sorts first, and that sort would be one
        // more copy of the standard sort in the wasm modules. A repeated name keeps its last index.
        let mut map: BTreeMap<&'a str, usize> = BTreeMap::new();
        for (i, name) in names.iter().enumerate() {
            map.insert(*name, i);
        }
        NameIndex::Ordered {
            duplicates: map.len() < names.len(),
            map,
        }
    }

    /// Whether a name occurs more than once (else every name's position is its index).
    pub(crate) fn has_duplicates(&self) -> bool {
        match self {
            NameIndex::Hashed { duplicates, .. } | NameIndex::Ordered { duplicates, .. } => {
                *duplicates
            }
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<usize> {
        match self {
            NameIndex::Hashed {
                names, slots, mask, ..
            } => {
                let h = hash(name);
                let mut at = h as usize & mask;
                // Every stored name sits within MAX_PROBE slots of its home slot.
                for _ in 0..=MAX_PROBE {
                    let (stored_hash, stored) = slots[at];
                    if stored == EMPTY {
                        return None;
                    }
                    if stored_hash == tag(h) && same_text(names[stored as usize], name) {
                        return Some(stored as usize);
                    }
                    at = (at + 1) & mask;
                }
                None
            }
            NameIndex::Ordered { map, .. } => map.get(name).copied(),
        }
    }
}

/// The part of a hash a slot keeps (the bits the mask does not use).
fn tag(h: u64) -> u32 {
    (h >> 32) as u32
}

/// FxHash over 8-byte words (fast, not keyed: collisions are bounded by MAX_PROBE instead).
fn hash(name: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = name.len() as u64;
    let mut chunks = name.as_bytes().chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    // The tail as a little-endian word, built without a variable-length copy (which would
    // call memcpy and stall the load that follows).
    let tail = chunks
        .remainder()
        .iter()
        .rev()
        .fold(0u64, |w, &b| w << 8 | u64::from(b));
    h = (h.rotate_left(5) ^ tail).wrapping_mul(K);
    // The top bits are the best mixed; fold them into the low bits the mask keeps.
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    #[test]
    fn last_occurrence_wins_and_misses_are_none() {
        let names = ["a", "b", "a", "a long name past eight bytes"];
        let index = NameIndex::new(names.iter().copied());
        assert!(matches!(index, NameIndex::Hashed { .. }));
        assert!(index.has_duplicates());
        assert!(!NameIndex::new(names[1..].iter().copied()).has_duplicates());
        assert_eq!(index.get("a"), Some(2));
        assert_eq!(index.get("b"), Some(1));
        assert_eq!(index.get(names[3]), Some(3));
        assert_eq!(index.get("c"), None);
        assert_eq!(index.get(""), None);
    }

    #[test]
    fn agrees_with_a_btree_on_many_names() {
        let names: Vec<String> = (0..5000)
            .map(|i| format!("pkg{}.Symbol{i}", i % 7))
            .collect();
        let index = NameIndex::new(names.iter().map(String::as_str));
        for (i, name) in names.iter().enumerate() {
            assert_eq!(index.get(name), Some(i));
            assert_eq!(index.get(&format!("{name}x")), None);
        }
    }

    #[test]
    fn long_collision_runs_fall_back_to_the_btree() {
        // 40 names sharing one home slot of the 128-slot table that 40 names get.
        let home = hash("seed") as usize & 127;
        let colliding: Vec<String> = (0..)
            .map(|i| format!("name{i}"))
            .filter(|n| hash(n) as usize & 127 == home)
            .take(40)
            .collect();
        let index = NameIndex::new(colliding.iter().map(String::as_str));
        assert!(matches!(index, NameIndex::Ordered { .. }));
        assert!(!index.has_duplicates());
        for (i, name) in colliding.iter().enumerate() {
            assert_eq!(index.get(name), Some(i));
        }
        assert_eq!(index.get("seed"), None);
    }
}
