//! Rust → JS: the result tape.
//!
//! Layout (little-endian u32 words): word 0 is the tape length in words, word 1 the index of the
//! first double (doubles are stored after the ops, 8-byte aligned), word 2 the flags
//! ([`RESET`]); ops start at word 3. An op's tag is its low 4 bits, its argument the upper 28
//! bits. Object shapes are defined once per JS boundary ([`super::shapes`]).

use agentwire::json::{Map, Number, Value};

use super::shapes::ShapeRegistry;

/// Op tags (npm/lib/wire.js is generated from them: [`super::wire_js`]).
pub mod tag {
    crate::transfer::tags! {
        /// `null`.
        NULL = 0,
        /// `false`.
        FALSE = 1,
        /// `true`.
        TRUE = 2,
        /// A signed integer in the upper 28 bits.
        INT = 3,
        /// The next double of the double region.
        DOUBLE = 4,
        /// A string: the next two words are its UTF-16 start and end in the input string, or in
        /// the side string when the start has [`SIDE`](super::SIDE) set.
        STRING = 5,
        /// An array of `arg` values.
        ARRAY = 6,
        /// An object of shape `arg`: one value per key of the shape follows.
        OBJECT = 7,
        /// Defines the next shape id: `arg` keys follow, each as a STRING op.
        SHAPE = 8,
        /// `arg` rows of shape `next word`, every value a string: `fields × 2` words per row
        /// (start, end), as STRING's operands.
        STRING_ROWS = 9,
        /// A number given as its decimal text (an exact integer beyond 2^53, a literal number):
        /// STRING's operands follow. JS reads it with `Number(text)`, as `JSON.parse` would.
        NUMBER_TEXT = 10,
    }
}

/// Set on a string's start when it is in the side string.
pub const SIDE: u32 = 1 << 31;
/// Flag: JS forgets the shapes it knows before reading this tape (the registry started over).
pub const RESET: u32 = 1;
const ARG_MAX: usize = super::ARG_MAX as usize;
const INT_MIN: i64 = -(1 << 27);
const INT_MAX: i64 = (1 << 27) - 1;
/// Integers up to 2^53 are exact as doubles.
const MAX_EXACT: u64 = 1 << 53;

/// Where the strings of a result come from: the caller's input (when it was a JS string,
/// JS can slice it) and the side string Rust builds for everything else.
#[derive(Debug)]
pub struct TapeWriter<'i> {
    words: Vec<u32>,
    doubles: Vec<f64>,
    side: String,
    side_units: usize,
    input: Option<&'i str>,
    input_ascii: bool,
    /// The input holds U+FFFD, which may stand for a lone surrogate of the JS string.
    input_replacements: bool,
    /// A UTF-16 position in the input known to be at `cursor.0` bytes.
    cursor: (usize, usize),
    /// The shapes of the caller's boundary, taken for this call and put back when done.
    shapes: ShapeRegistry,
    token: u32,
}

/// Whether UTF-8 text holds U+FFFD (EF BF BD).
fn has_replacement(bytes: &[u8]) -> bool {
    let mut i = 0;
    while i + 2 < bytes.len() {
        if bytes[i] == 0xEF && bytes[i + 1] == 0xBF && bytes[i + 2] == 0xBD {
            return true;
        }
        i += 1;
    }
    false
}

/// UTF-16 units of UTF-8 text.
pub fn utf16_len(text: &str) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    text.bytes()
        .map(|b| (b as i8 >= -0x40) as usize + (b >= 0xF0) as usize)
        .sum()
}

impl<'i> TapeWriter<'i> {
    /// A writer whose strings may refer to `input` (the JS string the caller passed), for a
    /// boundary with `token` that knows `known` shapes (token 0: shapes of this tape only).
    pub fn new(input: Option<&'i str>, token: u32, known: u32) -> TapeWriter<'i> {
        let (shapes, reset) = super::shapes::take(token, known);
        let ascii = input.is_some_and(str::is_ascii);
        let (words, side) = pooled();
        let mut writer = TapeWriter {
            words,
            doubles: Vec::new(),
            side,
            side_units: 0,
            input,
            input_ascii: ascii,
            input_replacements: !ascii && input.is_some_and(|i| has_replacement(i.as_bytes())),
            cursor: (0, 0),
            shapes,
            token,
        };
        writer
            .words
            .extend_from_slice(&[0, 0, if reset { RESET } else { 0 }]);
        writer
    }

    /// A writer with shapes of its own (a result made outside a call).
    pub fn local(input: Option<&'i str>) -> TapeWriter<'i> {
        TapeWriter::new(input, 0, 0)
    }

    fn op(&mut self, tag: u32, arg: usize) {
        debug_assert!(arg <= ARG_MAX);
        self.words.push(tag | ((arg.min(ARG_MAX) as u32) << 4));
    }

    /// `null`.
    pub fn null(&mut self) {
        self.op(tag::NULL, 0);
    }

    /// A boolean.
    pub fn bool(&mut self, v: bool) {
        self.op(if v { tag::TRUE } else { tag::FALSE }, 0);
    }

    /// A double: small integers as INT, the rest as DOUBLE.
    pub fn f64(&mut self, v: f64) {
        let small = v.fract() == 0.0 && v >= INT_MIN as f64 && v <= INT_MAX as f64;
        if small && !(v == 0.0 && v.is_sign_negative()) {
            self.int(v as i64);
        } else {
            self.op(tag::DOUBLE, 0);
            self.doubles.push(v);
        }
    }

    fn int(&mut self, v: i64) {
        self.words.push(tag::INT | ((v as i32 as u32) << 4));
    }

    /// An integer: exact in JS up to 2^53, beyond as the double `JSON.parse` would read.
    pub fn i64(&mut self, v: i64) {
        if (INT_MIN..=INT_MAX).contains(&v) {
            self.int(v);
        } else if v.unsigned_abs() <= MAX_EXACT {
            self.op(tag::DOUBLE, 0);
            self.doubles.push(v as f64);
        } else {
            self.number_text(&v.to_string());
        }
    }

    /// An unsigned integer (see [`TapeWriter::i64`]).
    pub fn u64(&mut self, v: u64) {
        match i64::try_from(v) {
            Ok(v) => self.i64(v),
            Err(_) => self.number_text(&v.to_string()),
        }
    }

    /// A JSON number: integers exact (as text beyond 2^53, so a JSON host keeps every digit),
    /// literal numbers as their text.
    pub fn number(&mut self, n: &Number) {
        if let Some(text) = n.as_literal() {
            self.number_text(text);
        } else if let Some(v) = n.as_i64() {
            self.i64(v);
        } else if let Some(v) = n.as_u64() {
            self.u64(v);
        } else {
            self.f64(n.as_f64());
        }
    }

    fn number_text(&mut self, text: &str) {
        let start = self.side_units;
        self.side.push_str(text);
        self.side_units += text.len();
        self.words.extend_from_slice(&[
            tag::NUMBER_TEXT,
            start as u32 | SIDE,
            self.side_units as u32,
        ]);
    }

    /// The (start, end) words of a string: a slice of the input when it is one, else copied
    /// to the side string.
    fn string_words(&mut self, s: &str) -> (u32, u32) {
        // A lone surrogate of the JS string reached Rust as U+FFFD: a slice would give JS the
        // surrogate back, so strings holding U+FFFD are copied (every runtime reads U+FFFD).
        let sliceable = !self.input_replacements || !has_replacement(s.as_bytes());
        if let Some(input) = self.input.filter(|_| sliceable) {
            let base = input.as_ptr() as usize;
            let at = (s.as_ptr() as usize).wrapping_sub(base);
            if at <= input.len() && at + s.len() <= input.len() {
                let (start, len) = if self.input_ascii {
                    (at, s.len())
                } else {
                    if at < self.cursor.0 {
                        self.cursor = (0, 0);
                    }
                    let units = utf16_len(&input[self.cursor.0..at]);
                    self.cursor = (at, self.cursor.1 + units);
                    (self.cursor.1, utf16_len(s))
                };
                return (start as u32, (start + len) as u32);
            }
        }
        let start = self.side_units;
        self.side.push_str(s);
        self.side_units += utf16_len(s);
        (start as u32 | SIDE, self.side_units as u32)
    }

    /// A string.
    pub fn str(&mut self, s: &str) {
        let (start, end) = self.string_words(s);
        self.words.extend_from_slice(&[tag::STRING, start, end]);
    }

    /// An array of `len` values, which follow.
    pub fn array(&mut self, len: usize) {
        self.op(tag::ARRAY, len);
    }

    /// The shape id of `keys`, defined here when the caller's boundary does not know it.
    pub fn shape<K: AsRef<str>>(&mut self, keys: &[K]) -> usize {
        let (id, added) = self.shapes.find_or_add(keys);
        if added {
            self.op(tag::SHAPE, keys.len());
            for k in keys {
                self.str(k.as_ref());
            }
        }
        id as usize
    }

    /// An object of `shape`; its values follow in key order.
    pub fn object(&mut self, shape: usize) {
        self.op(tag::OBJECT, shape);
    }

    /// Rows of string values: `rows` of `shape`'s width.
    pub fn string_rows<'a, R, C>(&mut self, shape: usize, rows: R)
    where
        R: ExactSizeIterator<Item = &'a [C]>,
        C: AsRef<str> + 'a,
    {
        self.op(tag::STRING_ROWS, rows.len());
        self.words.push(shape as u32);
        for row in rows {
            for cell in row {
                let (start, end) = self.string_words(cell.as_ref());
                self.words.push(start);
                self.words.push(end);
            }
        }
    }

    /// A JSON value.
    pub fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => self.number(n),
            Value::String(s) => self.str(s),
            Value::Array(items) => {
                self.array(items.len());
                for item in items {
                    self.value(item);
                }
            }
            Value::Object(map) => self.map(map),
        }
    }

    fn map(&mut self, map: &Map) {
        let keys: Vec<&str> = map.keys().collect();
        let shape = self.shape(&keys);
        self.object(shape);
        for (_, v) in map.iter() {
            self.value(v);
        }
    }

    /// The finished tape and the side string.
    pub fn finish(mut self) -> (Vec<u32>, String) {
        let mut words = core::mem::take(&mut self.words);
        let side = core::mem::take(&mut self.side);
        let doubles = core::mem::take(&mut self.doubles);
        if words.len() % 2 == 1 {
            words.push(0);
        }
        let first_double = words.len();
        words.reserve(doubles.len() * 2);
        for d in &doubles {
            let bits = d.to_bits();
            words.push(bits as u32);
            words.push((bits >> 32) as u32);
        }
        words[0] = words.len() as u32;
        words[1] = first_double as u32;
        (words, side)
    }
}

impl Drop for TapeWriter<'_> {
    fn drop(&mut self) {
        super::shapes::put_back(self.token, core::mem::take(&mut self.shapes));
    }
}

std::thread_local! {
    /// Tape buffers given back after JS read them, so a call allocates none once warm.
    static BUFFERS: core::cell::RefCell<Vec<(Vec<u32>, String)>> = const { core::cell::RefCell::new(Vec::new()) };
}

fn pooled() -> (Vec<u32>, String) {
    BUFFERS.with(|b| b.borrow_mut().pop()).unwrap_or_default()
}

/// Gives a tape's buffers back for the next calls (small ones only: a huge result's memory
/// goes back to the allocator).
pub fn recycle(mut words: Vec<u32>, mut side: String) {
    if words.capacity() <= 1 << 20 && side.capacity() <= 1 << 22 {
        words.clear();
        side.clear();
        BUFFERS.with(|b| {
            let mut b = b.borrow_mut();
            if b.len() < 4 {
                b.push((words, side));
            }
        });
    }
}
