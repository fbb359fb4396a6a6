//! Object shapes (key lists) shared across calls: a result tape defines a shape once per JS
//! boundary, and later results refer to it by id, so a small result sends no keys at all and
//! JS builds its objects with constructors it made before.
//!
//! Each boundary (a JS `makeBoundary`) has a token and says how many shapes it knows; the
//! registry of that token (kept per thread, as every JS realm runs on its own thread) assigns
//! ids in the same order JS learns them. A registry that does not match what JS knows (a tape
//! JS never read, an evicted registry) starts over, and the tape tells JS to start over too.
//! Token 0 is a call that keeps no shapes (a call made inside another: its ids are its own).
//! The wasm modules keep registries too (a wasm instance runs on one thread): a 1 KB result
//! then sends no keys, as from the addon.

use std::cell::RefCell;

/// The most shapes one registry keeps: past it, the next call starts over.
const MAX_SHAPES: usize = 4096;
/// The most registries one thread keeps (the least recently used goes first).
const MAX_REGISTRIES: usize = 8;

/// The shapes one JS boundary knows, in id order.
#[derive(Debug, Default)]
pub struct ShapeRegistry {
    keys: Vec<Box<[Box<str>]>>,
    /// (hash of the key list, id), sorted: several ids may share a hash.
    index: Vec<(u64, u32)>,
    /// The most recently used ids, checked first (results repeat a few shapes).
    recent: [u32; 4],
}

fn hash<K: AsRef<str>>(keys: &[K]) -> u64 {
    // FNV-1a over each key and its length; a collision only costs a comparison.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for k in keys {
        for &b in k
            .as_ref()
            .as_bytes()
            .iter()
            .chain(&(k.as_ref().len() as u32).to_le_bytes())
        {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

impl ShapeRegistry {
    /// How many shapes it holds (the id the next new shape takes).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn same<K: AsRef<str>>(&self, id: u32, keys: &[K]) -> bool {
        self.keys.get(id as usize).is_some_and(|known| {
            known.len() == keys.len() && known.iter().zip(keys).all(|(a, b)| **a == *b.as_ref())
        })
    }

    /// The id of `keys`, and whether it was added now.
    pub fn find_or_add<K: AsRef<str>>(&mut self, keys: &[K]) -> (u32, bool) {
        if let Some(&id) = self.recent.iter().find(|&&id| self.same(id, keys)) {
            return (id, false);
        }
        let h = hash(keys);
        let start = self.index.partition_point(|&(k, _)| k < h);
        let found = self.index[start..]
            .iter()
            .take_while(|&&(k, _)| k == h)
            .map(|&(_, id)| id)
            .find(|&id| self.same(id, keys));
        let (id, added) = match found {
            Some(id) => (id, false),
            None => {
                let id = self.keys.len() as u32;
                self.keys
                    .push(keys.iter().map(|k| Box::from(k.as_ref())).collect());
                self.index.insert(start, (h, id));
                (id, true)
            }
        };
        self.recent.rotate_right(1);
        self.recent[0] = id;
        (id, added)
    }

    fn clear(&mut self) {
        self.keys.clear();
        self.index.clear();
        self.recent = [u32::MAX; 4];
    }
}

std::thread_local! {
    static REGISTRIES: RefCell<Vec<(u32, ShapeRegistry)>> = const { RefCell::new(Vec::new()) };
}

/// The registry of `token` for a call by a boundary that knows `known` shapes, taken out for the
/// call (a nested call cannot reach it), and whether JS must forget what it knows first.
pub fn take(token: u32, known: u32) -> (ShapeRegistry, bool) {
    let fresh = || {
        let mut registry = ShapeRegistry::default();
        registry.clear();
        registry
    };
    if token == 0 {
        return (fresh(), false);
    }
    let found = REGISTRIES.with(|r| {
        let mut r = r.borrow_mut();
        r.iter()
            .position(|(t, _)| *t == token)
            .map(|i| r.remove(i).1)
    });
    match found {
        Some(registry) if registry.len() == known as usize && registry.len() < MAX_SHAPES => {
            (registry, false)
        }
        Some(mut registry) => {
            registry.clear();
            (registry, true)
        }
        None => (fresh(), known != 0),
    }
}

/// Puts the registry of `token` back, most recently used first.
pub fn put_back(token: u32, registry: ShapeRegistry) {
    if token == 0 {
        return;
    }
    REGISTRIES.with(|r| {
        let mut r = r.borrow_mut();
        r.insert(0, (token, registry));
        r.truncate(MAX_REGISTRIES);
    });
}
