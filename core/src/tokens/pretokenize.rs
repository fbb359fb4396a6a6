//! Hand-written pre-tokenizers: the pieces tiktoken's regular expressions cut a text into,
//! for `cl100k_base` and `o200k_base` (the patterns and the rules they imply:
//! docs/tokens.md). Each scanner takes the start of a piece and returns its end.
//!
//! The scanners read the text only through [`Text`], so that the streaming counter can tell
//! whether a piece's end depended on what lies past the end of a chunk.

use core::cell::Cell;

use super::classes::{END, LOWER, MARK, NEWLINE, NUMBER, OTHER_LETTER, SPACE, UPPER, class_at};
use super::unicode_classes::ASCII;

/// Punctuation, symbols, controls and unassigned code points (`[^\s\p{L}\p{N}]` less marks).
const OTHER: u8 = 0;

/// What a scanner reads.
pub(super) trait Text {
    /// The whole text (UTF-8).
    fn bytes(&self) -> &[u8];
    /// The byte at `i`, or `None` past the end.
    fn byte(&self, i: usize) -> Option<u8>;
    /// The class and length of the character at `i`, or `(END, 0)` past the end.
    fn at(&self, i: usize) -> (u8, usize);
    /// Called when a scan reads past the end without going through the two above.
    fn note_end(&self);
}

/// A complete text: its end is the end of the input.
pub(super) struct Whole<'a>(pub &'a [u8]);

impl Text for Whole<'_> {
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        self.0
    }

    #[inline(always)]
    fn byte(&self, i: usize) -> Option<u8> {
        self.0.get(i).copied()
    }

    #[inline(always)]
    fn at(&self, i: usize) -> (u8, usize) {
        if i < self.0.len() {
            class_at(self.0, i)
        } else {
            (END, 0)
        }
    }

    #[inline(always)]
    fn note_end(&self) {}
}

/// A chunk of a longer text: records whether a scan read past its end, in which case the
/// piece might end elsewhere once more text follows.
pub(super) struct Partial<'a> {
    bytes: &'a [u8],
    looked_past_end: Cell<bool>,
}

impl<'a> Partial<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Partial<'a> {
        Partial {
            bytes,
            looked_past_end: Cell::new(false),
        }
    }

    /// Whether any read since the last call went past the end (and resets it).
    pub(super) fn take_looked_past_end(&self) -> bool {
        self.looked_past_end.replace(false)
    }
}

impl Text for Partial<'_> {
    fn bytes(&self) -> &[u8] {
        self.bytes
    }

    fn byte(&self, i: usize) -> Option<u8> {
        let b = self.bytes.get(i).copied();
        if b.is_none() {
            self.looked_past_end.set(true);
        }
        b
    }

    fn at(&self, i: usize) -> (u8, usize) {
        if i < self.bytes.len() {
            class_at(self.bytes, i)
        } else {
            self.looked_past_end.set(true);
            (END, 0)
        }
    }

    fn note_end(&self) {
        self.looked_past_end.set(true);
    }
}

/// A set of classes (a bit per class).
#[derive(Clone, Copy)]
struct Set(u16);

impl Set {
    const fn of(classes: &[u8]) -> Set {
        let mut bits = 0u16;
        let mut i = 0;
        while i < classes.len() {
            bits |= 1 << classes[i];
            i += 1;
        }
        Set(bits)
    }

    #[inline(always)]
    fn contains(self, class: u8) -> bool {
        self.0 >> class & 1 != 0
    }
}

/// `\p{L}`.
const LETTER: Set = Set::of(&[UPPER, LOWER, OTHER_LETTER]);
/// `[^\s\p{L}\p{N}]`: marks are not letters (`\p{L}`), so they are punctuation here.
const PUNCTUATION: Set = Set::of(&[OTHER, MARK]);
/// `[^\r\n\p{L}\p{N}]`, the one character allowed before a letter run.
const LETTER_PREFIX: Set = Set::of(&[OTHER, MARK, SPACE]);
/// o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`.
const UPPER_PHASE: Set = Set::of(&[UPPER, OTHER_LETTER, MARK]);
/// o200k's `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`.
const LOWER_PHASE: Set = Set::of(&[LOWER, OTHER_LETTER, MARK]);

/// The end of the run of characters from `i` whose class is in `set`. ASCII bytes are looked
/// up directly; other characters are decoded.
#[inline(always)]
fn run<T: Text>(text: &T, mut i: usize, set: Set) -> usize {
    let bytes = text.bytes();
    loop {
        let Some(&b) = bytes.get(i) else {
            text.note_end();
            return i;
        };
        if b < 0x80 {
            if !set.contains(ASCII[usize::from(b)]) {
                return i;
            }
            i += 1;
        } else {
            let (class, len) = class_at(bytes, i);
            if !set.contains(class) {
                return i;
            }
            i += len;
        }
    }
}

/// `\p{N}{1,3}` from `i` (a number): at most three characters, from the start of the run.
#[inline(always)]
fn digits<T: Text>(text: &T, i: usize) -> usize {
    let mut end = i + text.at(i).1;
    for _ in 0..2 {
        let (class, len) = text.at(end);
        if class != NUMBER {
            break;
        }
        end += len;
    }
    end
}

/// The length of `(?i:[sdmt]|ll|ve|re)` at `i` (after an apostrophe), if it is there.
/// Case-insensitive with simple case folding: `ſ` (U+017F) is an `s`.
#[inline]
fn contraction_suffix<T: Text>(text: &T, i: usize) -> Option<usize> {
    let c = text.byte(i)?;
    match c | 0x20 {
        b's' | b'd' | b'm' | b't' => Some(1),
        b'l' | b'v' | b'r' => {
            let second = if c | 0x20 == b'l' { b'l' } else { b'e' };
            (text.byte(i + 1)? | 0x20 == second).then_some(2)
        }
        _ if c == 0xC5 => (text.byte(i + 1)? == 0xBF).then_some(2),
        _ => None,
    }
}

/// The end after an optional contraction (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`) at `i`.
#[inline(always)]
fn after_contraction<T: Text>(text: &T, i: usize) -> usize {
    if text.byte(i) == Some(b'\'')
        && let Some(len) = contraction_suffix(text, i + 1)
    {
        return i + 1 + len;
    }
    i
}

/// ` ?[^\s\p{L}\p{N}]+` then the trailing characters `trailing` accepts, from `i`, if a
/// punctuation run is there.
#[inline(always)]
fn punctuation<T: Text>(text: &T, i: usize, trailing: impl Fn(u8) -> bool) -> Option<usize> {
    let start = if text.bytes()[i] == b' ' && PUNCTUATION.contains(text.at(i + 1).0) {
        i + 1
    } else {
        i
    };
    if !PUNCTUATION.contains(text.at(start).0) {
        return None;
    }
    let mut end = run(text, start, PUNCTUATION);
    while text.byte(end).is_some_and(&trailing) {
        end += 1;
    }
    Some(end)
}

/// The whitespace alternatives from `i` (a whitespace character). cl100k tries `\s++$` first;
/// both then take everything up to the run's last CR or LF, then the run less its last
/// character when something follows (`\s+(?!\S)`), then one character.
#[inline(always)]
fn whitespace<T: Text>(text: &T, i: usize, run_to_end_first: bool) -> usize {
    let mut end = i;
    let mut last_start = i;
    let mut after_newline = None;
    let at_end = loop {
        let (class, len) = text.at(end);
        match class {
            SPACE => {}
            NEWLINE => after_newline = Some(end + len),
            _ => break class == END,
        }
        last_start = end;
        end += len;
    };
    if run_to_end_first && at_end {
        return end;
    }
    if let Some(after_newline) = after_newline {
        return after_newline;
    }
    if at_end || last_start == i {
        return end;
    }
    last_start
}

/// The end of the `cl100k_base` piece that starts at `i`:
/// `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`
#[inline(always)]
pub(super) fn cl100k_piece<T: Text>(text: &T, i: usize) -> usize {
    let (class, len) = text.at(i);
    if LETTER.contains(class) {
        return run(text, i + len, LETTER);
    }
    if text.bytes()[i] == b'\''
        && let Some(suffix) = contraction_suffix(text, i + 1)
    {
        return i + 1 + suffix;
    }
    if LETTER_PREFIX.contains(class) {
        let (next, next_len) = text.at(i + len);
        if LETTER.contains(next) {
            return run(text, i + len + next_len, LETTER);
        }
    }
    if class == NUMBER {
        return digits(text, i);
    }
    if let Some(end) = punctuation(text, i, |b| b == b'\r' || b == b'\n') {
        return end;
    }
    whitespace(text, i, true)
}

/// o200k's first letter alternative from `i`: `[Lu Lt Lm Lo M]*[Ll Lm Lo M]+` and an optional
/// contraction, as a backtracking matcher finds it (the longest upper-phase run that still
/// leaves one lower-phase character).
#[inline(always)]
fn o200k_lower_phase<T: Text>(text: &T, i: usize) -> Option<usize> {
    let mut end = i;
    let mut after_last_lower = None;
    let class = loop {
        let (class, len) = text.at(end);
        if !UPPER_PHASE.contains(class) {
            break class;
        }
        end += len;
        if class != UPPER {
            after_last_lower = Some(end);
        }
    };
    // Past the upper-phase run: a lower-case letter continues the lower phase; otherwise
    // backtrack to the run's last character that is in both phases.
    let end = if class == LOWER {
        run(text, end, LOWER_PHASE)
    } else {
        after_last_lower?
    };
    Some(after_contraction(text, end))
}

/// o200k's second letter alternative from `i`: `[Lu Lt Lm Lo M]+[Ll Lm Lo M]*` and an optional
/// contraction.
#[inline(always)]
fn o200k_upper_phase<T: Text>(text: &T, i: usize) -> Option<usize> {
    if !UPPER_PHASE.contains(text.at(i).0) {
        return None;
    }
    let end = run(text, run(text, i, UPPER_PHASE), LOWER_PHASE);
    Some(after_contraction(text, end))
}

/// The end of the `o200k_base` piece that starts at `i` (the seven alternatives:
/// docs/tokens.md).
#[inline(always)]
pub(super) fn o200k_piece<T: Text>(text: &T, i: usize) -> usize {
    let (class, len) = text.at(i);
    if class == LOWER {
        // The common case: no prefix, no upper phase.
        return after_contraction(text, run(text, i + len, LOWER_PHASE));
    }
    let prefix = LETTER_PREFIX.contains(class);
    let letter = UPPER_PHASE.contains(class) || LOWER_PHASE.contains(class);
    if prefix && let Some(end) = o200k_lower_phase(text, i + len) {
        return end;
    }
    if letter && let Some(end) = o200k_lower_phase(text, i) {
        return end;
    }
    if prefix && let Some(end) = o200k_upper_phase(text, i + len) {
        return end;
    }
    if letter && let Some(end) = o200k_upper_phase(text, i) {
        return end;
    }
    if class == NUMBER {
        return digits(text, i);
    }
    if let Some(end) = punctuation(text, i, |b| b == b'\r' || b == b'\n' || b == b'/') {
        return end;
    }
    whitespace(text, i, false)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    fn pieces<'t>(text: &'t str, piece: fn(&Whole<'t>, usize) -> usize) -> Vec<&'t str> {
        let whole = Whole(text.as_bytes());
        let mut out = Vec::new();
        let mut i = 0;
        while i < text.len() {
            let end = piece(&whole, i);
            assert!(end > i, "{text:?} at {i}");
            out.push(&text[i..end]);
            i = end;
        }
        out
    }

    #[test]
    fn cl100k_pieces() {
        let cases: &[(&str, &[&str])] = &[
            ("don't", &["don", "'t"]),
            ("'the", &["'t", "he"]),
            ("'ſ x", &["'ſ", " x"]),
            ("12345", &["123", "45"]),
            (
                "\"name\": \"Alice\",\n  ",
                &["\"name", "\":", " \"", "Alice", "\",\n", "  "],
            ),
            ("a   b", &["a", "  ", " b"]),
            ("x\n  ", &["x", "\n  "]),
            ("\n\n  x", &["\n\n", " ", " x"]),
            ("   12", &["  ", " ", "12"]),
            ("\tAlice", &["\tAlice"]),
            ("cafe\u{301}s", &["cafe", "\u{301}s"]),
            ("camelCase", &["camelCase"]),
            (".\n//", &[".\n", "//"]),
        ];
        for (text, expected) in cases {
            assert_eq!(pieces(text, cl100k_piece), *expected, "{text:?}");
        }
    }

    #[test]
    fn o200k_pieces() {
        let cases: &[(&str, &[&str])] = &[
            ("don't", &["don't"]),
            ("can'ts", &["can't", "s"]),
            ("3'ts", &["3", "'ts"]),
            ("camelCase", &["camel", "Case"]),
            ("HTTPResponse", &["HTTPResponse"]),
            ("HELLO world", &["HELLO", " world"]),
            (".\n//", &[".\n//"]),
            ("x\n  ", &["x", "\n", "  "]),
            ("cafe\u{301}s", &["cafe\u{301}s"]),
            ("12345", &["123", "45"]),
        ];
        for (text, expected) in cases {
            assert_eq!(pieces(text, o200k_piece), *expected, "{text:?}");
        }
    }
}
