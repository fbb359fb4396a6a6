//! Path expansion (`ExpandPaths::Safe`): unquoted dotted keys become nested objects, objects
//! that meet at one path merge, and two values that cannot merge conflict (strict: an error;
//! lenient: the later one wins, in the place of the earlier).
//!
//! Keys are grouped by their first segment (a sort, not a scan per key), so an object of many
//! dotted keys costs `n log n` per level.

use alloc::string::String;
use alloc::vec::Vec;

use super::header::first_duplicate;
use crate::json::{Map, Value};
use crate::text::{indices, sort_by_text};

/// What the decoder knows of a member's key: where it is, and whether expansion splits it.
#[derive(Clone, Copy, Debug)]
pub(super) struct KeyMeta {
    pub at: usize,
    pub split: bool,
}

/// Two values met at one path and could not merge (strict mode): the key, its offset.
#[derive(Debug)]
pub(super) struct Conflict {
    pub key: String,
    pub at: usize,
}

/// A member on its way into an object: its key from byte `from` on is the path still to place
/// (split at dots when `split`).
struct Part {
    key: String,
    from: usize,
    split: bool,
    value: Value,
    at: usize,
}

impl Part {
    /// The first segment of the path left, and whether more follow.
    fn head(&self) -> (usize, usize, bool) {
        if !self.split {
            return (self.from, self.key.len(), false);
        }
        match memchr::memchr(b'.', &self.key.as_bytes()[self.from..]) {
            Some(i) => (self.from, self.from + i, true),
            None => (self.from, self.key.len(), false),
        }
    }
}

/// The object of `entries` (keys as written, with their `metas`), dotted keys expanded. In
/// lenient mode a key written twice keeps its first place and its last value first (as
/// without expansion); strict mode has already refused such keys.
pub(super) fn expand(
    entries: Vec<(String, Value)>,
    metas: &[KeyMeta],
    strict: bool,
) -> Result<Map, Conflict> {
    let mut parts: Vec<Part> = entries
        .into_iter()
        .zip(metas)
        .map(|((key, value), meta)| Part {
            key,
            from: 0,
            split: meta.split,
            value,
            at: meta.at,
        })
        .collect();
    if !strict {
        parts = last_wins(parts);
    }
    build(parts, strict)
}

/// Literal duplicates resolved: the first place, the last value.
fn last_wins(parts: Vec<Part>) -> Vec<Part> {
    if first_duplicate(parts.len(), &|i| &parts[i].key).is_none() {
        return parts;
    }
    let mut order = indices(parts.len());
    sort_by_text(&mut order, &|i| &parts[i].key);
    let mut slots: Vec<Option<Part>> = parts.into_iter().map(Some).collect();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len()
            && slots[order[end] as usize].as_ref().map(|p| &p.key)
                == slots[order[start] as usize].as_ref().map(|p| &p.key)
        {
            end += 1;
        }
        if end - start > 1 {
            let first = order[start] as usize;
            let last = order[end - 1] as usize;
            let winner = slots[last].take();
            for &i in &order[start..end] {
                slots[i as usize] = None;
            }
            slots[first] = winner;
        }
        start = end;
    }
    slots.into_iter().flatten().collect()
}

/// The value a group of parts with the same head builds.
enum State {
    Empty,
    Whole(Value),
    Object(Vec<Part>),
}

fn members(map: Map, at: usize) -> impl Iterator<Item = Part> {
    map.into_iter().map(move |(key, value)| Part {
        key,
        from: 0,
        split: false,
        value,
        at,
    })
}

fn build(parts: Vec<Part>, strict: bool) -> Result<Map, Conflict> {
    let heads: Vec<(usize, usize, bool)> = parts.iter().map(Part::head).collect();
    let head = |i: usize| &parts[i].key[heads[i].0..heads[i].1];
    let mut order = indices(parts.len());
    sort_by_text(&mut order, &|i| head(i));
    // Runs of one head in `order` (indices ascending inside a run), placed by their first part.
    let mut groups: Vec<(u32, usize, usize)> = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && head(order[end] as usize) == head(order[start] as usize) {
            end += 1;
        }
        groups.push((order[start], start, end));
        start = end;
    }
    groups.sort_unstable_by_key(|g| g.0);
    let keys: Vec<String> = groups
        .iter()
        .map(|&(first, _, _)| String::from(head(first as usize)))
        .collect();

    let mut slots: Vec<Option<Part>> = parts.into_iter().map(Some).collect();
    let mut entries = Vec::with_capacity(groups.len());
    for ((_, start, end), key) in groups.into_iter().zip(keys) {
        let mut state = State::Empty;
        for &i in &order[start..end] {
            let Some(part) = slots[i as usize].take() else {
                continue;
            };
            let (_, head_end, more) = heads[i as usize];
            state = if more {
                let child = Part {
                    from: head_end + 1,
                    ..part
                };
                match state {
                    State::Empty => State::Object(alloc::vec![child]),
                    State::Object(mut children) => {
                        children.push(child);
                        State::Object(children)
                    }
                    State::Whole(Value::Object(map)) => {
                        let mut children: Vec<Part> = members(map, child.at).collect();
                        children.push(child);
                        State::Object(children)
                    }
                    State::Whole(_) if strict => return Err(conflict(&key, child.at)),
                    State::Whole(_) => State::Object(alloc::vec![child]),
                }
            } else {
                match (state, part.value) {
                    (State::Empty, value) => State::Whole(value),
                    (State::Object(mut children), Value::Object(map)) => {
                        children.extend(members(map, part.at));
                        State::Object(children)
                    }
                    (State::Whole(Value::Object(earlier)), Value::Object(map)) => {
                        let mut children: Vec<Part> = members(earlier, part.at).collect();
                        children.extend(members(map, part.at));
                        State::Object(children)
                    }
                    _ if strict => return Err(conflict(&key, part.at)),
                    (_, value) => State::Whole(value),
                }
            };
        }
        let value = match state {
            State::Empty => Value::Null,
            State::Whole(value) => value,
            State::Object(children) => Value::Object(build(children, strict)?),
        };
        entries.push((key, value));
    }
    Ok(Map::from_unique(entries))
}

fn conflict(key: &str, at: usize) -> Conflict {
    Conflict {
        key: String::from(key),
        at,
    }
}
