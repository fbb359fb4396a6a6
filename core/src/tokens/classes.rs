//! The character classes the pre-tokenizers tell apart, from the generated Unicode tables.

use super::unicode_classes::{ASCII, BLOCK_BITS, BLOCK_COUNT, BLOCK_INDEX, LEAVES};

/// `\p{Lu}` and `\p{Lt}`: upper case only (o200k's first letter class).
pub(super) const UPPER: u8 = 1;
/// `\p{Ll}`: lower case only (o200k's second letter class).
pub(super) const LOWER: u8 = 2;
/// `\p{Lm}` and `\p{Lo}`: letters in both of o200k's classes.
pub(super) const OTHER_LETTER: u8 = 3;
/// `\p{M}`: a letter in both of o200k's classes, not a letter in cl100k.
pub(super) const MARK: u8 = 4;
/// `\p{N}`.
pub(super) const NUMBER: u8 = 5;
/// `\s` (Unicode White_Space) except CR and LF.
pub(super) const SPACE: u8 = 6;
/// CR and LF.
pub(super) const NEWLINE: u8 = 7;
/// Past the end of the text (never a class of a character). Every other value (0) is
/// punctuation, symbols, controls and unassigned code points.
pub(super) const END: u8 = 8;

/// The class of a code point at or above U+0080.
#[inline]
fn class_of_non_ascii(cp: u32) -> u8 {
    let block = (cp >> BLOCK_BITS) as usize;
    if block >= BLOCK_COUNT {
        return 0;
    }
    let index =
        (usize::from(BLOCK_INDEX[block]) << BLOCK_BITS) | (cp as usize & ((1 << BLOCK_BITS) - 1));
    (LEAVES[index >> 1] >> ((index & 1) * 4)) & 0x0f
}

/// The class and UTF-8 length of the character at `i` (`i < text.len()`, on a char boundary).
#[inline(always)]
pub(super) fn class_at(text: &[u8], i: usize) -> (u8, usize) {
    let b0 = text[i];
    if b0 < 0x80 {
        return (ASCII[usize::from(b0)], 1);
    }
    // `text` is UTF-8, so the continuation bytes are there.
    let (cp, len) = if b0 < 0xE0 {
        (
            (u32::from(b0 & 0x1F) << 6) | u32::from(text[i + 1] & 0x3F),
            2,
        )
    } else if b0 < 0xF0 {
        (
            (u32::from(b0 & 0x0F) << 12)
                | (u32::from(text[i + 1] & 0x3F) << 6)
                | u32::from(text[i + 2] & 0x3F),
            3,
        )
    } else {
        (
            (u32::from(b0 & 0x07) << 18)
                | (u32::from(text[i + 1] & 0x3F) << 12)
                | (u32::from(text[i + 2] & 0x3F) << 6)
                | u32::from(text[i + 3] & 0x3F),
            4,
        )
    };
    (class_of_non_ascii(cp), len)
}

/// The class of a character.
#[cfg(test)]
fn class_of(c: char) -> u8 {
    let cp = u32::from(c);
    if cp < 0x80 {
        ASCII[cp as usize]
    } else {
        class_of_non_ascii(cp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_of_known_characters() {
        let cases = [
            ('A', UPPER),
            ('ǅ', UPPER), // Lt
            ('a', LOWER),
            ('ß', LOWER),
            ('ʰ', OTHER_LETTER), // Lm
            ('中', OTHER_LETTER),
            ('\u{0301}', MARK),
            ('\u{0903}', MARK), // Mc
            ('7', NUMBER),
            ('½', NUMBER),
            ('Ⅻ', NUMBER),
            ('٣', NUMBER),
            (' ', SPACE),
            ('\t', SPACE),
            ('\u{85}', SPACE),
            ('\u{a0}', SPACE),
            ('\u{3000}', SPACE),
            ('\u{2028}', SPACE),
            ('\n', NEWLINE),
            ('\r', NEWLINE),
            ('\u{feff}', 0), // not White_Space
            ('\u{200b}', 0),
            ('"', 0),
            ('😀', 0),
            ('\u{e0100}', MARK), // a variation selector, in plane 14
            ('\u{10ffff}', 0),
            ('\u{1c89}', UPPER), // new in Unicode 16.0
        ];
        for (c, class) in cases {
            assert_eq!(class_of(c), class, "{c:?}");
            let mut buf = [0; 4];
            let encoded = c.encode_utf8(&mut buf).as_bytes();
            assert_eq!(class_at(encoded, 0), (class, encoded.len()), "{c:?}");
        }
    }
}
