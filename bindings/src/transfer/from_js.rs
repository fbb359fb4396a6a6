//! JS → Rust: the argument tape the JS writer (npm/lib/transfer.js) makes of the caller's values.
//!
//! Three parts: u32 ops (tag in the low 4 bits, argument above), the doubles of NUMBER ops in
//! order, and every string (object keys too) concatenated into one text, each op carrying its
//! string's UTF-16 length.

use std::borrow::Cow;

use agentwire::json::{BorrowedValue, Kind, Map, Number, Value, ValueReader};
use agentwire::{Error, ErrorKind, Result};

use crate::shapes::number;

/// Op tags (npm/lib/wire.js is generated from them: [`super::wire_js`]).
pub mod tag {
    crate::transfer::tags! {
        /// `null`.
        NULL = 0,
        /// `false`.
        FALSE = 1,
        /// `true`.
        TRUE = 2,
        /// The next double.
        NUMBER = 3,
        /// A string of `arg` UTF-16 units (the next piece of the text).
        STRING = 4,
        /// An array of `arg` values.
        ARRAY = 5,
        /// An object of `arg` members, each a STRING key op then the value.
        OBJECT = 6,
        /// An object with the keys of the last object at the same depth; each value may be
        /// [`ABSENT`].
        SAME_KEYS = 7,
        /// A member skipped the way `JSON.stringify` skips `undefined` (only in SAME_KEYS).
        ABSENT = 8,
        /// A BigInt: its decimal text, `arg` units, is the next piece of the text.
        BIGINT = 9,
        /// The length of the next op's string, when it does not fit in 28 bits.
        LONG = 10,
    }
}

/// Reads values from an argument tape.
#[derive(Debug)]
pub struct TapeReader<'a> {
    ops: &'a [u32],
    doubles: &'a [f64],
    text: &'a str,
    ascii: bool,
    op: usize,
    double: usize,
    /// Byte position in `text`.
    at: usize,
    /// The previous string ended inside a surrogate pair that the concatenation joined: the
    /// next string starts with the pair's second half (a lone surrogate in JS).
    split_pair: bool,
    /// The keys of the last object read at each depth (index: depth - 1), which a SAME_KEYS
    /// op at that depth refers to: a graph payload's symbols and their `components`, which
    /// alternate, each send their keys once.
    keys_at: Vec<Vec<Cow<'a, str>>>,
    depth: usize,
    max_depth: usize,
}

/// The deepest nesting any call accepts (the JS writer refuses deeper values first).
pub const MAX_DEPTH: usize = agentwire::json::MAX_DEPTH_CEILING;
/// The nesting [`TapeReader::value`] accepts: the JSON parser's default.
pub const DEFAULT_DEPTH: usize = agentwire::json::DEFAULT_MAX_DEPTH;

fn malformed() -> Error {
    Error::new(ErrorKind::Internal, "malformed argument tape")
}

impl<'a> TapeReader<'a> {
    /// A reader of one argument tape.
    pub fn new(ops: &'a [u32], doubles: &'a [f64], text: &'a str) -> TapeReader<'a> {
        TapeReader {
            ops,
            doubles,
            text,
            ascii: text.is_ascii(),
            op: 0,
            double: 0,
            at: 0,
            split_pair: false,
            keys_at: Vec::new(),
            depth: 0,
            max_depth: DEFAULT_DEPTH,
        }
    }

    fn next_op(&mut self) -> Result<(u32, usize)> {
        let word = *self.ops.get(self.op).ok_or_else(malformed)?;
        self.op += 1;
        if word & 15 == tag::LONG {
            let len = *self.ops.get(self.op).ok_or_else(malformed)? as usize;
            let next = *self.ops.get(self.op + 1).ok_or_else(malformed)?;
            self.op += 2;
            return Ok((next & 15, len));
        }
        Ok((word & 15, (word >> 4) as usize))
    }

    /// The next `units` UTF-16 units of the text. Lone surrogates arrive as U+FFFD (3 bytes,
    /// 1 unit); two lone halves that the concatenation made into a pair are split back.
    fn string(&mut self, units: usize) -> Result<Cow<'a, str>> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if self.ascii {
            let end = start
                .checked_add(units)
                .filter(|&e| e <= bytes.len())
                .ok_or_else(malformed)?;
            self.at = end;
            return Ok(Cow::Borrowed(&self.text[start..end]));
        }
        let mut prefix = false;
        let mut remaining = units;
        let mut p = start;
        if self.split_pair {
            // The second half of a pair that began in the previous string.
            self.split_pair = false;
            prefix = true;
            remaining = remaining.checked_sub(1).ok_or_else(malformed)?;
            p += 4;
        }
        let mut suffix = false;
        while remaining > 0 {
            let b = *bytes.get(p).ok_or_else(malformed)?;
            let (width, size) = match b {
                0x00..=0x7F => (1, 1),
                0xC0..=0xDF => (1, 2),
                0xE0..=0xEF => (1, 3),
                _ => (2, 4),
            };
            if width > remaining {
                // Only the first half of this pair belongs to this string.
                suffix = true;
                self.split_pair = true;
                break;
            }
            remaining -= width;
            p += size;
        }
        self.at = p;
        let body_start = if prefix { start + 4 } else { start };
        let body = self.text.get(body_start..p).ok_or_else(malformed)?;
        if !prefix && !suffix {
            return Ok(Cow::Borrowed(body));
        }
        let mut s = String::with_capacity(body.len() + 6);
        if prefix {
            s.push('\u{FFFD}');
        }
        s.push_str(body);
        if suffix {
            s.push('\u{FFFD}');
        }
        Ok(Cow::Owned(s))
    }

    /// The next value, nested at most `max_depth` levels (`JSON_DEPTH` beyond, with the JSON
    /// parser's message).
    pub fn value_within(&mut self, max_depth: usize) -> Result<Value> {
        self.max_depth = max_depth.min(MAX_DEPTH);
        let value = self.value();
        self.max_depth = DEFAULT_DEPTH;
        value
    }

    /// The next value (nested at most [`DEFAULT_DEPTH`] levels); `null` past the last one (the
    /// JS layer leaves trailing `undefined` arguments out).
    pub fn value(&mut self) -> Result<Value> {
        self.read::<Value>()
    }

    /// The next value as a [`BorrowedValue`]: its strings are slices of the argument text, so
    /// reading it allocates only for arrays and objects.
    pub fn arg(&mut self) -> Result<BorrowedValue<'a>> {
        self.read::<BorrowedValue<'a>>()
    }

    /// The next value, built by `B`: one reader of the tape grammar for borrowed views and
    /// owned values (an owned `Value` made straight from the tape, with no borrowed view
    /// between).
    fn read<B: Build<'a>>(&mut self) -> Result<B> {
        if self.depth == 0 && self.op == self.ops.len() {
            return Ok(B::null());
        }
        let (tag, arg) = self.next_op()?;
        Ok(match tag {
            tag::NULL => B::null(),
            tag::FALSE => B::bool(false),
            tag::TRUE => B::bool(true),
            tag::NUMBER => {
                let v = *self.doubles.get(self.double).ok_or_else(malformed)?;
                self.double += 1;
                B::number(number::from_host_double(v)?)
            }
            tag::STRING => B::string(self.string(arg)?),
            tag::BIGINT => B::number(number::from_integer_text(&self.string(arg)?)?),
            tag::ARRAY => {
                self.enter()?;
                let mut items = Vec::with_capacity(arg.min(self.ops.len() - self.op));
                for _ in 0..arg {
                    items.push(self.read::<B>()?);
                }
                self.depth -= 1;
                B::array(items)
            }
            tag::OBJECT => {
                self.enter()?;
                let mut keys = self.take_keys();
                keys.clear();
                let mut members = Vec::with_capacity(arg.min(self.ops.len() - self.op));
                for _ in 0..arg {
                    let (tag, units) = self.next_op()?;
                    if tag != tag::STRING {
                        return Err(malformed());
                    }
                    let key = self.string(units)?;
                    let member_key = B::key(&key);
                    keys.push(key);
                    let value = self.read::<B>()?;
                    members.push((member_key, value));
                }
                self.put_keys(keys);
                self.depth -= 1;
                B::object(members)
            }
            tag::SAME_KEYS => {
                self.enter()?;
                let keys = self.take_keys();
                let mut members = Vec::with_capacity(keys.len());
                for key in &keys {
                    if self.ops.get(self.op) == Some(&tag::ABSENT) {
                        self.op += 1;
                        continue;
                    }
                    let value = self.read::<B>()?;
                    members.push((B::key(key), value));
                }
                self.put_keys(keys);
                self.depth -= 1;
                B::object(members)
            }
            _ => return Err(malformed()),
        })
    }

    /// The tag of the next op, not consumed; NULL past the last argument.
    #[inline]
    fn next_tag(&self) -> Result<u32> {
        if self.depth == 0 && self.op == self.ops.len() {
            return Ok(tag::NULL);
        }
        let word = *self.ops.get(self.op).ok_or_else(malformed)?;
        if word & 15 == tag::LONG {
            return Ok(*self.ops.get(self.op + 2).ok_or_else(malformed)? & 15);
        }
        Ok(word & 15)
    }

    /// The keys of the last object at the current depth (none before the first), taken out
    /// while an object's members are read: they are deeper, with key lists of their own.
    fn take_keys(&mut self) -> Vec<Cow<'a, str>> {
        self.keys_at
            .get_mut(self.depth - 1)
            .map(core::mem::take)
            .unwrap_or_default()
    }

    /// The keys a SAME_KEYS op at the current depth refers to from now on.
    fn put_keys(&mut self, keys: Vec<Cow<'a, str>>) {
        let at = self.depth - 1;
        if self.keys_at.len() <= at {
            self.keys_at.resize_with(at + 1, Vec::new);
        }
        self.keys_at[at] = keys;
    }

    fn enter(&mut self) -> Result<()> {
        if self.depth >= self.max_depth {
            return Err(Error::new(
                ErrorKind::JsonDepth,
                format!("JSON nesting exceeds the limit of {}", self.max_depth),
            ));
        }
        self.depth += 1;
        Ok(())
    }
}

/// Typed readers (the GCF graph payload) read the tape in order, without a value tree, with
/// the same grammar, limits and errors as [`TapeReader::value`].
impl<'a> ValueReader<'a> for TapeReader<'a> {
    #[inline]
    fn kind(&mut self) -> Result<Kind> {
        Ok(match self.next_tag()? {
            tag::NULL => Kind::Null,
            tag::FALSE | tag::TRUE => Kind::Bool,
            tag::NUMBER | tag::BIGINT => Kind::Number,
            tag::STRING => Kind::String,
            tag::ARRAY => Kind::Array,
            tag::OBJECT | tag::SAME_KEYS => Kind::Object,
            _ => return Err(malformed()),
        })
    }

    fn skip(&mut self) -> Result<()> {
        self.read::<BorrowedValue<'a>>().map(drop)
    }

    fn string(&mut self) -> Result<Option<Cow<'a, str>>> {
        if self.next_tag()? != tag::STRING {
            return self.skip().map(|()| None);
        }
        let (_, units) = self.next_op()?;
        self.string(units).map(Some)
    }

    fn number(&mut self) -> Result<Option<Number>> {
        if self.kind()? != Kind::Number {
            return self.skip().map(|()| None);
        }
        match self.read::<BorrowedValue<'a>>()? {
            BorrowedValue::Number(n) => Ok(Some(n)),
            _ => Err(malformed()),
        }
    }

    fn array(&mut self, item: &mut dyn FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        if self.kind()? != Kind::Array {
            return self.skip();
        }
        let (_, len) = self.next_op()?;
        self.enter()?;
        for i in 0..len {
            item(self, i)?;
        }
        self.depth -= 1;
        Ok(())
    }

    fn object(&mut self, member: &mut dyn FnMut(&mut Self, &str) -> Result<()>) -> Result<()> {
        if self.kind()? != Kind::Object {
            return self.skip();
        }
        let (tag, len) = self.next_op()?;
        self.enter()?;
        if tag == tag::OBJECT {
            let mut keys = self.take_keys();
            keys.clear();
            for _ in 0..len {
                let (tag, units) = self.next_op()?;
                if tag != tag::STRING {
                    return Err(malformed());
                }
                let key = self.string(units)?;
                member(self, &key)?;
                keys.push(key);
            }
            self.put_keys(keys);
        } else {
            let keys = self.take_keys();
            for key in &keys {
                if self.ops.get(self.op) == Some(&tag::ABSENT) {
                    self.op += 1;
                    continue;
                }
                member(self, key)?;
            }
            self.put_keys(keys);
        }
        self.depth -= 1;
        Ok(())
    }
}

/// What [`TapeReader`] builds from the tape: [`BorrowedValue`] views or owned values.
trait Build<'a>: Sized {
    type Key;
    fn null() -> Self;
    fn bool(b: bool) -> Self;
    fn number(n: Number) -> Self;
    fn string(s: Cow<'a, str>) -> Self;
    fn key(key: &Cow<'a, str>) -> Self::Key;
    fn array(items: Vec<Self>) -> Self;
    fn object(members: Vec<(Self::Key, Self)>) -> Self;
}

impl<'a> Build<'a> for BorrowedValue<'a> {
    type Key = Cow<'a, str>;
    fn null() -> Self {
        BorrowedValue::Null
    }
    fn bool(b: bool) -> Self {
        BorrowedValue::Bool(b)
    }
    fn number(n: Number) -> Self {
        BorrowedValue::Number(n)
    }
    fn string(s: Cow<'a, str>) -> Self {
        BorrowedValue::String(s)
    }
    fn key(key: &Cow<'a, str>) -> Cow<'a, str> {
        key.clone()
    }
    fn array(items: Vec<Self>) -> Self {
        BorrowedValue::Array(items)
    }
    fn object(members: Vec<(Cow<'a, str>, Self)>) -> Self {
        BorrowedValue::Object(members)
    }
}

/// An owned [`Value`], read straight from the tape.
impl<'a> Build<'a> for Value {
    type Key = String;
    fn null() -> Self {
        Value::Null
    }
    fn bool(b: bool) -> Self {
        Value::Bool(b)
    }
    fn number(n: Number) -> Self {
        Value::Number(n)
    }
    fn string(s: Cow<'a, str>) -> Self {
        Value::String(s.into_owned())
    }
    fn key(key: &Cow<'a, str>) -> String {
        String::from(key.as_ref())
    }
    fn array(items: Vec<Self>) -> Self {
        Value::Array(items)
    }
    fn object(members: Vec<(String, Self)>) -> Self {
        // A JS object has no repeated keys; from_members checks anyway (a cheap scan).
        Value::Object(Map::from_members(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn op(tag: u32, arg: u32) -> u32 {
        tag | (arg << 4)
    }

    /// `[{"a": 1, "b": "x"}, {"a": 2 (b absent)}, {"k": [true, null]}, "é😀"]`, with the
    /// second object as SAME_KEYS.
    fn tape() -> (Vec<u32>, Vec<f64>, &'static str) {
        let ops = vec![
            op(tag::ARRAY, 4),
            op(tag::OBJECT, 2),
            op(tag::STRING, 1),
            op(tag::NUMBER, 0),
            op(tag::STRING, 1),
            op(tag::STRING, 1),
            op(tag::SAME_KEYS, 0),
            op(tag::NUMBER, 0),
            tag::ABSENT,
            op(tag::OBJECT, 1),
            op(tag::STRING, 1),
            op(tag::ARRAY, 2),
            tag::TRUE,
            tag::NULL,
            op(tag::STRING, 3),
        ];
        (ops, vec![1.0, 2.0], "abxké😀")
    }

    #[test]
    fn owned_values_and_borrowed_views_read_the_same_tape_alike() {
        let (ops, doubles, text) = tape();
        let value = TapeReader::new(&ops, &doubles, text).value().unwrap();
        let arg = TapeReader::new(&ops, &doubles, text).arg().unwrap();
        assert_eq!(
            value,
            agentwire::json::parse(r#"[{"a":1,"b":"x"},{"a":2},{"k":[true,null]},"é😀"]"#).unwrap()
        );
        assert_eq!(BorrowedValue::of(&value), arg);
    }

    #[test]
    fn a_truncated_tape_is_malformed_for_both_readers() {
        let (ops, doubles, text) = tape();
        let short = &ops[..ops.len() - 3];
        assert!(TapeReader::new(short, &doubles, text).value().is_err());
        assert!(TapeReader::new(short, &doubles, text).arg().is_err());
    }

    /// The tape npm/lib/transfer.js writes for `value`: SAME_KEYS for an object with the keys
    /// of the object written last at its depth, numbers as doubles.
    fn argument_tape(value: &Value) -> (Vec<u32>, Vec<f64>, String) {
        type Tape = (Vec<u32>, Vec<f64>, String);
        fn write(v: &Value, t: &mut Tape, keys_at: &mut Vec<Option<Vec<String>>>, depth: usize) {
            let string = |t: &mut Tape, s: &str| {
                t.0.push(op(tag::STRING, s.encode_utf16().count() as u32));
                t.2.push_str(s);
            };
            match v {
                Value::Null => t.0.push(tag::NULL),
                Value::Bool(b) => t.0.push(if *b { tag::TRUE } else { tag::FALSE }),
                Value::Number(n) => {
                    t.0.push(tag::NUMBER);
                    t.1.push(n.as_f64());
                }
                Value::String(s) => string(t, s),
                Value::Array(items) => {
                    t.0.push(op(tag::ARRAY, items.len() as u32));
                    items
                        .iter()
                        .for_each(|item| write(item, t, keys_at, depth + 1));
                }
                Value::Object(map) => {
                    let keys: Vec<String> = map.keys().map(String::from).collect();
                    if keys_at.len() <= depth {
                        keys_at.resize(depth + 1, None);
                    }
                    if keys_at[depth].as_ref() == Some(&keys) {
                        t.0.push(tag::SAME_KEYS);
                        map.iter()
                            .for_each(|(_, item)| write(item, t, keys_at, depth + 1));
                    } else {
                        t.0.push(op(tag::OBJECT, keys.len() as u32));
                        for (key, item) in map.iter() {
                            string(t, key);
                            write(item, t, keys_at, depth + 1);
                        }
                    }
                    keys_at[depth] = Some(keys);
                }
            }
        }
        let mut t = (Vec::new(), Vec::new(), String::new());
        write(value, &mut t, &mut Vec::new(), 0);
        t
    }

    /// Nested objects with the keys of objects before them, as JS writes them (SAME_KEYS
    /// inside SAME_KEYS, at one depth and at others, members absent or not): every value reads
    /// back as itself, through both readers, and the next argument after it is intact.
    #[test]
    fn objects_with_the_same_keys_nested_in_each_other_read_back() {
        let fixed = [
            r#"[{"k":[]},{"k":[{"k":[]}]}]"#,
            r#"[{"a":1,"b":{"a":2,"b":{"a":3,"b":null}}},{"a":4,"b":[{"a":5,"b":6}]}]"#,
            r#"[{"k":1},{"k":{"j":1}},{"k":{"k":2}},{"j":{"k":{"j":3}}}]"#,
        ];
        let mut seed: u64 = 99;
        let mut rand = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        fn random(rand: &mut dyn FnMut(u64) -> u64, depth: u32) -> String {
            let keys = ["k", "j"];
            match if depth > 4 { 3 } else { rand(5) } {
                0 => {
                    let n = rand(3);
                    let items: Vec<String> = (0..n).map(|_| random(rand, depth + 1)).collect();
                    format!("[{}]", items.join(","))
                }
                1 | 2 => {
                    let n = 1 + rand(2) as usize;
                    let members: Vec<String> = keys[..n]
                        .iter()
                        .map(|k| format!("\"{k}\":{}", random(rand, depth + 1)))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }
                _ => format!("{}", rand(10)),
            }
        }
        let generated: Vec<String> = (0..2000).map(|_| random(&mut rand, 0)).collect();
        for text in fixed.iter().map(|t| t.to_string()).chain(generated) {
            let value = agentwire::json::parse(&text).unwrap();
            let both = Value::Array(vec![value.clone(), Value::from("next")]);
            let (ops, doubles, tape_text) = argument_tape(&both);
            let mut reader = TapeReader::new(&ops, &doubles, &tape_text);
            assert_eq!(reader.value().unwrap(), both, "{text}");
            let arg = TapeReader::new(&ops, &doubles, &tape_text).arg().unwrap();
            assert_eq!(arg, BorrowedValue::of(&both), "{text}");
        }
    }

    /// Replaces one value (chosen by `pick`) of `value` with `with`, or adds an unknown key.
    fn mutate(value: &mut Value, pick: &mut u64, with: &Value) -> bool {
        *pick = pick.wrapping_sub(1);
        if *pick == 0 {
            *value = with.clone();
            return true;
        }
        match value {
            Value::Array(items) => items.iter_mut().any(|item| mutate(item, pick, with)),
            Value::Object(map) => {
                if *pick == 1 && map.get("extra").is_none() {
                    map.insert("extra".into(), with.clone());
                    return true;
                }
                map.values_mut().any(|item| mutate(item, pick, with))
            }
            _ => false,
        }
    }

    /// The graph payload read straight from a tape and read from the value tree of the same
    /// tape agree, value or error, on valid payloads and on thousands of broken ones.
    #[test]
    fn the_typed_tape_reader_agrees_with_the_tree_reader() {
        use agentwire::gcf::{DeltaPayload, Payload};
        let base = agentwire::json::parse(
            r#"{"tool":"t","tokenBudget":100,"tokensUsed":7,"packRoot":"r",
            "symbols":[{"qualifiedName":"a.B","kind":"type","score":0.25,"provenance":"ast","distance":1,
              "signature":"s","components":{"blastRadius":0.5,"confidence":1,"recency":0,"distance":1}},
              {"qualifiedName":"a.C","kind":"function","score":0.5,"provenance":"lsp","distance":0,
              "signature":"","components":{"blastRadius":0,"confidence":0,"recency":0,"distance":0}},
              {"qualifiedName":"é😀","kind":"method","score":1,"provenance":"lsp","distance":2}],
            "edges":[{"source":"a.B","target":"a.C","edgeType":"calls","status":"added"},
              {"source":"a.C","target":"a.B","edgeType":"implements"}]}"#,
        )
        .unwrap();
        let delta = agentwire::json::parse(
            r#"{"tool":"t","baseRoot":"a","newRoot":"b","removed":[{"qualifiedName":"x"}],
            "added":[{"qualifiedName":"y","kind":"type","distance":3}],"removedEdges":[],
            "addedEdges":[{"source":"y","target":"x"}],"deltaTokens":4,"fullTokens":9}"#,
        )
        .unwrap();
        let replacements = agentwire::json::parse(
            r#"[null, true, 1.5, -3, 1e300, "", "x", [], [1, "a"], {}, {"k": 1}, {"qualifiedName": 2}]"#,
        )
        .unwrap();
        let replacements = replacements.as_array().unwrap();
        let outcome = |r: Result<String>| match r {
            Ok(text) => text,
            Err(e) => format!("error {} {}", e.code(), e.message()),
        };
        let (mut state, mut cases, mut failures) = (0x9e37_79b9_7f4a_7c15_u64, 0, 0);
        for round in 0..4000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let delta_form = round % 4 == 3;
            let mut value = if delta_form {
                delta.clone()
            } else {
                base.clone()
            };
            // Up to three changes; the first rounds keep the valid value.
            for change in 0..(round % 4) {
                let with = &replacements[(state >> (8 * change)) as usize % replacements.len()];
                let mut pick = 1 + (state >> (16 + 8 * change)) % 48;
                mutate(&mut value, &mut pick, with);
            }
            let (ops, doubles, text) = argument_tape(&value);
            let tree = TapeReader::new(&ops, &doubles, &text).value().unwrap();
            let mut reader = TapeReader::new(&ops, &doubles, &text);
            let (direct, via_tree) = if delta_form {
                let show = |d: Result<DeltaPayload>| outcome(d.map(|d| format!("{d:?}")));
                (
                    show(DeltaPayload::from_reader(&mut reader)),
                    show(DeltaPayload::from_value(&tree)),
                )
            } else {
                let show = |p: Result<Payload>| outcome(p.map(|p| format!("{p:?}")));
                (
                    show(Payload::from_reader(&mut reader)),
                    show(Payload::from_value(&tree)),
                )
            };
            assert_eq!(
                direct,
                via_tree,
                "{}",
                agentwire::json::to_string(&value, agentwire::json::WriteOptions::PLAIN).unwrap()
            );
            assert_eq!(reader.op, ops.len(), "the whole value is read");
            cases += 1;
            failures += usize::from(direct.starts_with("error"));
        }
        // Both kinds of case were met (the mutations break about half).
        assert!(
            failures > 1000 && cases - failures > 1000,
            "{failures} of {cases} failed"
        );
    }
}
