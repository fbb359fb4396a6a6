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

/// `\p{N}{1,3}` over ASCII digits from `i`.
#[inline(always)]
fn digits(bytes: &[u8], i: usize) -> Option<usize> {
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
    let mut end = run(bytes, start, is_punctuation)?;
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
            Kind::Space | Kind::OtherSpace => {}
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
        Kind::Lower | Kind::Upper => run(bytes, i + 1, is_letter),
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
                return run(bytes, i + 2, is_letter);
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
    let upper_end = run(bytes, i, |k| k == Kind::Upper)?;
    let end = run(bytes, upper_end, |k| k == Kind::Lower)?;
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
