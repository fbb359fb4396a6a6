//! ASCII fast paths of the two pre-tokenizers: most pieces of JSON, code and English are all
//! ASCII, and bytes can be tested directly. A fast path returns `None` whenever its answer
//! could depend on a non-ASCII character or on the end of the text; the full scanners in
//! [`super::pretokenize`] then decide, so the fast paths never change a result, only its cost.

/// What an ASCII byte is to the scanners.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Lower,
    Upper,
    Digit,
    /// U+0020.
    Space,
    /// TAB, VT, FF: whitespace that may prefix a letter run.
    OtherSpace,
    /// CR, LF.
    Newline,
    Apostrophe,
    /// Punctuation, symbols and controls (`[^\s\p{L}\p{N}]` in ASCII).
    Punctuation,
    NonAscii,
}

const KINDS: [Kind; 256] = {
    let mut kinds = [Kind::NonAscii; 256];
    let mut b = 0;
    while b < 128 {
        kinds[b] = match b as u8 {
            b'a'..=b'z' => Kind::Lower,
            b'A'..=b'Z' => Kind::Upper,
            b'0'..=b'9' => Kind::Digit,
            b' ' => Kind::Space,
            b'\t' | 0x0b | 0x0c => Kind::OtherSpace,
            b'\r' | b'\n' => Kind::Newline,
            b'\'' => Kind::Apostrophe,
            _ => Kind::Punctuation,
        };
        b += 1;
    }
    kinds
};

#[inline(always)]
fn kind(bytes: &[u8], i: usize) -> Option<Kind> {
    bytes.get(i).map(|&b| KINDS[usize::from(b)])
}

#[inline(always)]
fn is_letter(kind: Kind) -> bool {
    matches!(kind, Kind::Lower | Kind::Upper)
}

#[inline(always)]
fn is_punctuation(kind: Kind) -> bool {
    matches!(kind, Kind::Punctuation | Kind::Apostrophe)
}

/// The end of the run from `i` of bytes whose kind passes `keep`, or `None` if the run meets a
/// non-ASCII byte or the end of the text.
#[inline(always)]
fn run(bytes: &[u8], mut i: usize, keep: impl Fn(Kind) -> bool) -> Option<usize> {
    loop {
        let kind = kind(bytes, i)?;
        if !keep(kind) {
            return (kind != Kind::NonAscii).then_some(i);
        }
        i += 1;
    }
}

// Runs eight bytes at a time (SWAR: a u64 as eight lanes). A lane's result is its high bit.

const LANES: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes from `i`, as lanes (first byte lowest), if the text has eight.
#[inline(always)]
fn word_at(bytes: &[u8], i: usize) -> Option<u64> {
    let word: [u8; 8] = bytes.get(i..i + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(word))
}

/// The lanes of `word` that hold an ASCII byte in `lo..=hi` (`hi` ASCII). Lanes are masked to
/// seven bits first, so no sum carries into the next lane; non-ASCII lanes are cleared.
#[inline(always)]
fn lanes_in(word: u64, lo: u8, hi: u8) -> u64 {
    let low7 = word & !HIGH_BITS;
    let at_least_lo = low7 + LANES * u64::from(0x80 - lo);
    let above_hi = low7 + LANES * u64::from(0x7F - hi);
    at_least_lo & !above_hi & !word & HIGH_BITS
}

/// The lanes of `word` that hold an ASCII letter.
#[inline(always)]
fn letter_lanes(word: u64) -> u64 {
    // `| 0x20` maps exactly A-Z onto a-z among ASCII bytes (and nothing else onto a-z).
    lanes_in(word | (LANES * 0x20), b'a', b'z')
}

/// The lanes of `word` that hold a space (U+0020).
#[inline(always)]
fn space_lanes(word: u64) -> u64 {
    let other = word ^ (LANES * 0x20);
    // A lane is nonzero iff adding 0x7F to its low seven bits, or its own high bit, sets bit 7.
    !(((other & !HIGH_BITS) + LANES * 0x7F) | other) & HIGH_BITS
}

/// The lanes of `word` that hold an ASCII digit.
#[inline(always)]
fn digit_lanes(word: u64) -> u64 {
    lanes_in(word, b'0', b'9')
}

/// The lanes of `word` that hold ASCII punctuation (apostrophe included): not a letter, digit
/// or whitespace (TAB, LF, VT, FF, CR, space).
#[inline(always)]
fn punctuation_lanes(word: u64) -> u64 {
    !word
        & HIGH_BITS
        & !letter_lanes(word)
        & !digit_lanes(word)
        & !lanes_in(word, 0x09, 0x0D)
        & !space_lanes(word)
}

/// [`run`] for a set of bytes that `lanes` finds eight at a time (`keep` is the same set, by
/// kind, for the last few bytes).
#[inline(always)]
fn wide_run(
    bytes: &[u8],
    mut i: usize,
    lanes: impl Fn(u64) -> u64,
    keep: impl Fn(Kind) -> bool,
) -> Option<usize> {
    while let Some(word) = word_at(bytes, i) {
        let stops = !lanes(word) & HIGH_BITS;
        if stops != 0 {
            let end = i + (stops.trailing_zeros() / 8) as usize;
            return (bytes[end] < 0x80).then_some(end);
        }
        i += 8;
    }
    run(bytes, i, keep)
}

/// The end of the run of ASCII letters from `i` ([`run`] with `is_letter`).
#[inline(always)]
fn letters(bytes: &[u8], i: usize) -> Option<usize> {
    wide_run(bytes, i, letter_lanes, is_letter)
}

/// The end of the run of ASCII upper-case letters from `i`.
#[inline(always)]
fn upper_letters(bytes: &[u8], i: usize) -> Option<usize> {
    wide_run(bytes, i, |w| lanes_in(w, b'A', b'Z'), |k| k == Kind::Upper)
}

/// The end of the run of ASCII lower-case letters from `i`.
#[inline(always)]
fn lower_letters(bytes: &[u8], i: usize) -> Option<usize> {
    wide_run(bytes, i, |w| lanes_in(w, b'a', b'z'), |k| k == Kind::Lower)
}

/// `\p{N}{1,3}` over ASCII digits from `i`.
#[inline(always)]
fn digits(bytes: &[u8], i: usize) -> Option<usize> {
    if let Some(word) = word_at(bytes, i) {
        let stops = !digit_lanes(word) & HIGH_BITS;
        let n = ((stops.trailing_zeros() / 8) as usize).min(3);
        // Fewer than three: the byte that ends them must be ASCII (`٣` is a digit too).
        return (n == 3 || bytes[i + n] < 0x80).then_some(i + n);
    }
    for end in i + 1..i + 3 {
        match kind(bytes, end)? {
            Kind::Digit => {}
            Kind::NonAscii => return None,
            _ => return Some(end),
        }
    }
    Some(i + 3)
}

/// The length of an ASCII contraction suffix (`s`, `d`, `m`, `t`, `ll`, `ve`, `re`, any case)
/// at `i`: `Some(0)` when there is none, `None` when it cannot tell (`ſ` is an `s`).
#[inline(always)]
fn contraction_suffix(bytes: &[u8], i: usize) -> Option<usize> {
    let c = *bytes.get(i)?;
    Some(match c | 0x20 {
        b's' | b'd' | b'm' | b't' => 1,
        b'l' | b'v' | b'r' => {
            let second = if c | 0x20 == b'l' { b'l' } else { b'e' };
            if *bytes.get(i + 1)? | 0x20 == second {
                2
            } else {
                0
            }
        }
        _ if c >= 0x80 => return None,
        _ => 0,
    })
}

/// ` ?[^\s\p{L}\p{N}]+` from `start` (a punctuation byte), then the bytes `trailing` accepts.
#[inline(always)]
fn punctuation(bytes: &[u8], start: usize, trailing: impl Fn(u8) -> bool) -> Option<usize> {
    let mut end = wide_run(bytes, start, punctuation_lanes, is_punctuation)?;
    while trailing(*bytes.get(end)?) {
        end += 1;
    }
    Some(end)
}

/// The whitespace alternatives over an ASCII run from `i` that is followed by something (at
/// the end of the text the two encodings differ, and the full scanners decide).
#[inline(always)]
fn whitespace(bytes: &[u8], i: usize) -> Option<usize> {
    let mut end = i;
    let mut after_newline = 0;
    loop {
        match kind(bytes, end)? {
            Kind::Space => {
                // Indentation: skip whole words of spaces.
                while let Some(word) = word_at(bytes, end + 1) {
                    let stops = !space_lanes(word) & HIGH_BITS;
                    end += (stops.trailing_zeros() / 8) as usize;
                    if stops != 0 {
                        break;
                    }
                }
            }
            Kind::OtherSpace => {}
            Kind::Newline => after_newline = end + 1,
            Kind::NonAscii => return None,
            _ => break,
        }
        end += 1;
    }
    Some(if after_newline > 0 {
        after_newline
    } else if end - i >= 2 {
        end - 1
    } else {
        end
    })
}

/// The `cl100k_base` piece at `i` when ASCII decides it.
#[inline(always)]
pub(super) fn cl100k_piece(bytes: &[u8], i: usize) -> Option<usize> {
    let first = kind(bytes, i)?;
    match first {
        Kind::Lower | Kind::Upper => letters(bytes, i + 1),
        Kind::Digit => digits(bytes, i),
        Kind::Newline => whitespace(bytes, i),
        Kind::NonAscii => None,
        _ => {
            if first == Kind::Apostrophe {
                let suffix = contraction_suffix(bytes, i + 1)?;
                if suffix > 0 {
                    return Some(i + 1 + suffix);
                }
            }
            let next = kind(bytes, i + 1)?;
            if is_letter(next) {
                return letters(bytes, i + 2);
            }
            match (first, next) {
                (_, Kind::NonAscii) => None,
                (Kind::Space, next) if is_punctuation(next) => {
                    punctuation(bytes, i + 1, |b| b == b'\r' || b == b'\n')
                }
                (Kind::Space | Kind::OtherSpace, _) => whitespace(bytes, i),
                _ => punctuation(bytes, i, |b| b == b'\r' || b == b'\n'),
            }
        }
    }
}

/// o200k's letter alternatives over ASCII from `i` (a letter): an upper-case run, then a
/// lower-case run, then a contraction; an upper-case run with no lower case after it is the
/// second alternative, which also takes a contraction.
#[inline(always)]
fn o200k_letters(bytes: &[u8], i: usize) -> Option<usize> {
    let upper_end = upper_letters(bytes, i)?;
    let end = lower_letters(bytes, upper_end)?;
    if kind(bytes, end)? == Kind::Apostrophe {
        return Some(end + 1 + contraction_suffix(bytes, end + 1)?)
            .filter(|&e| e > end + 1)
            .or(Some(end));
    }
    Some(end)
}

/// The `o200k_base` piece at `i` when ASCII decides it.
#[inline(always)]
pub(super) fn o200k_piece(bytes: &[u8], i: usize) -> Option<usize> {
    let first = kind(bytes, i)?;
    match first {
        Kind::Lower | Kind::Upper => o200k_letters(bytes, i),
        Kind::Digit => digits(bytes, i),
        Kind::Newline => whitespace(bytes, i),
        Kind::NonAscii => None,
        _ => {
            let next = kind(bytes, i + 1)?;
            if is_letter(next) {
                return o200k_letters(bytes, i + 1);
            }
            let slash_or_newline = |b| b == b'\r' || b == b'\n' || b == b'/';
            match (first, next) {
                (_, Kind::NonAscii) => None,
                (Kind::Space, next) if is_punctuation(next) => {
                    punctuation(bytes, i + 1, slash_or_newline)
                }
                (Kind::Space | Kind::OtherSpace, _) => whitespace(bytes, i),
                _ => punctuation(bytes, i, slash_or_newline),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use proptest::prelude::*;

    use super::super::pretokenize::{self, Whole};
    use super::*;

    /// Characters the fast paths must get right or hand back: ASCII of every kind (long runs of
    /// letters, digits and spaces come from repeats), contraction letters, the whitespace zoo,
    /// letters, marks and digits outside ASCII, and bytes next to the SWAR ranges' edges.
    fn piece_text() -> impl Strategy<Value = String> {
        let pick =
            |set: &'static [&'static str]| proptest::sample::select(set).prop_map(String::from);
        let character = prop_oneof![
            4 => pick(&["a", "z", "s", "t", "d", "m", "l", "v", "e", "r", "ll", "ve", "re"]),
            3 => pick(&["A", "Z", "S", "T", "D", "M", "L", "V", "E", "R", "LL", "VE", "RE"]),
            3 => pick(&["'", "\"", ",", ".", ":", "{", "}", "[", "]", "/", "_", "-", "@", "`", "^", "~", "\u{7f}", "\0"]),
            3 => pick(&[" ", "  ", "        ", "\t", "\n", "\r", "\r\n", "\u{b}", "\u{c}"]),
            2 => pick(&["0", "9", "123", "4567"]),
            2 => pick(&["é", "ſ", "ß", "Ω", "中", "\u{301}", "\u{a0}", "\u{2028}", "\u{3000}", "٣", "😀", "\u{85}"]),
        ];
        (proptest::collection::vec((character, 1usize..12), 0..24))
            .prop_map(|parts| parts.iter().map(|(c, n)| c.repeat(*n)).collect())
    }

    type Fast = fn(&[u8], usize) -> Option<usize>;
    type General = fn(&[u8], usize) -> usize;

    fn cl100k_general(bytes: &[u8], i: usize) -> usize {
        pretokenize::cl100k_piece(&Whole(bytes), i)
    }

    fn o200k_general(bytes: &[u8], i: usize) -> usize {
        pretokenize::o200k_piece(&Whole(bytes), i)
    }

    const BOTH: [(Fast, General); 2] =
        [(cl100k_piece, cl100k_general), (o200k_piece, o200k_general)];

    /// At every char boundary of `text` where the fast path answers, its answer is the
    /// general scanner's.
    fn check(text: &str, fast: Fast, general: General) -> Result<(), TestCaseError> {
        let bytes = text.as_bytes();
        for i in (0..bytes.len()).filter(|&i| text.is_char_boundary(i)) {
            if let Some(end) = fast(bytes, i) {
                prop_assert_eq!(end, general(bytes, i), "{:?} at {}", text, i);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn fast_paths_agree_with_the_scanners(text in piece_text()) {
            for (fast, general) in BOTH {
                check(&text, fast, general)?;
            }
        }

        #[test]
        fn wide_runs_equal_byte_runs(text in piece_text(), from in any::<prop::sample::Index>()) {
            let bytes = text.as_bytes();
            let i = from.index(bytes.len() + 1);
            prop_assert_eq!(letters(bytes, i), run(bytes, i, is_letter));
            prop_assert_eq!(upper_letters(bytes, i), run(bytes, i, |k| k == Kind::Upper));
            prop_assert_eq!(lower_letters(bytes, i), run(bytes, i, |k| k == Kind::Lower));
            prop_assert_eq!(
                wide_run(bytes, i, punctuation_lanes, is_punctuation),
                run(bytes, i, is_punctuation)
            );
        }
    }

    #[test]
    fn lanes_match_kinds_for_every_byte() {
        for b in 0..=255u8 {
            for at in 0..8 {
                // The byte in one lane, among lanes of every other kind.
                let mut word = [b'a', b' ', b'Z', 0x80, b'0', b'\n', 0xFF, b'\''];
                word[at] = b;
                let word = u64::from_le_bytes(word);
                let lane = |mask: u64| mask >> (8 * at + 7) & 1 == 1;
                let kind = KINDS[usize::from(b)];
                assert_eq!(lane(letter_lanes(word)), is_letter(kind), "{b:#x}");
                assert_eq!(
                    lane(lanes_in(word, b'A', b'Z')),
                    kind == Kind::Upper,
                    "{b:#x}"
                );
                assert_eq!(
                    lane(lanes_in(word, b'a', b'z')),
                    kind == Kind::Lower,
                    "{b:#x}"
                );
                assert_eq!(lane(space_lanes(word)), b == b' ', "{b:#x}");
                assert_eq!(lane(digit_lanes(word)), kind == Kind::Digit, "{b:#x}");
                assert_eq!(
                    lane(punctuation_lanes(word)),
                    is_punctuation(kind),
                    "{b:#x}"
                );
            }
        }
    }

    #[test]
    fn fast_paths_decide_pretty_json() {
        // The fast paths must answer, not only agree: every piece of ASCII JSON before the
        // last line (where the end of the text may matter).
        let line = "        \"signature\": \"func (s *server) serverHandlerClient123(ctx context.Context) error\",\n";
        let text: String = [line; 20].concat();
        let bytes = text.as_bytes();
        for (fast, general) in BOTH {
            let mut starts = Vec::new();
            let mut i = 0;
            while i < bytes.len() {
                starts.push(i);
                i = general(bytes, i);
            }
            assert!(starts.len() > 300);
            for &i in starts.iter().filter(|&&i| i + line.len() < bytes.len()) {
                assert_eq!(fast(bytes, i), Some(general(bytes, i)), "at {i}");
            }
        }
    }
}
