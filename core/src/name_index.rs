//! Name → index lookups for the graph encoders, which resolve every edge's two symbol names.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

/// Longest probe run the hash table accepts; past it (colliding names, possibly crafted) the
/// index falls back to a B-tree, so lookups never degrade to linear scans.
const MAX_PROBE: usize = 32;

/// Each name mapped to the position of its last occurrence (a later duplicate overwrites, as a
/// Go map does).
#[derive(Debug)]
pub(crate) enum NameIndex<'a> {
    /// Open addressing with linear probing; `None` is an empty slot.
    Hashed {
        slots: Vec<Option<(&'a str, usize)>>,
        mask: usize,
    },
    Ordered(BTreeMap<&'a str, usize>),
}

impl<'a> NameIndex<'a> {
    pub(crate) fn new(names: impl ExactSizeIterator<Item = &'a str> + Clone) -> NameIndex<'a> {
        let capacity = (names.len() * 2).next_power_of_two().max(8);
        let mask = capacity - 1;
        let mut slots: Vec<Option<(&'a str, usize)>> = vec![None; capacity];
        for (position, name) in names.clone().enumerate() {
            let mut at = hash(name) as usize & mask;
            let mut probe = 0;
            loop {
                match &mut slots[at] {
                    Some((stored, index)) if *stored == name => {
                        *index = position;
                        break;
                    }
                    Some(_) if probe < MAX_PROBE => {
                        at = (at + 1) & mask;
                        probe += 1;
                    }
                    Some(_) => {
                        let ordered = names.enumerate().map(|(i, n)| (n, i)).collect();
                        return NameIndex::Ordered(ordered);
                    }
                    None => {
                        slots[at] = Some((name, position));
                        break;
                    }
                }
            }
        }
        NameIndex::Hashed { slots, mask }
    }

    pub(crate) fn get(&self, name: &str) -> Option<usize> {
        match self {
            NameIndex::Hashed { slots, mask } => {
                let mut at = hash(name) as usize & mask;
                // Every stored name sits within MAX_PROBE slots of its home slot.
                for _ in 0..=MAX_PROBE {
                    match slots[at] {
                        Some((stored, index)) if stored == name => return Some(index),
                        Some(_) => at = (at + 1) & mask,
                        None => return None,
                    }
                }
                None
            }
            NameIndex::Ordered(map) => map.get(name).copied(),
        }
    }
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
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
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
        assert!(matches!(index, NameIndex::Ordered(_)));
        for (i, name) in colliding.iter().enumerate() {
            assert_eq!(index.get(name), Some(i));
        }
        assert_eq!(index.get("seed"), None);
    }
}
