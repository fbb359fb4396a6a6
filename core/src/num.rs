//! Number text exactly as the Go references print it.
//!
//! Two float rules are in play:
//! - [`write_go_g_f64`] / [`write_go_g_f32`]: Go `strconv.FormatFloat(v, 'g', -1, bits)`, used
//!   for GCX1 row cells (`1e+06`, `1e-05`, `0.1`, `+Inf`).
//! - [`write_json_f64`]: Go `encoding/json`, which for finite values equals ECMAScript
//!   `Number#toString` except that `-0` stays `-0` (`1e+21`, `1e-7`, `100000000000000000000`).
//!
//! Both start from the shortest digit string that reads back to the same float, which the
//! standard library's `{:e}` formatting already produces.
//!
//! ```
//! use agentwire::num::{go_g_f64, json_f64};
//! assert_eq!(go_g_f64(1e6), "1e+06");
//! assert_eq!(json_f64(1e21)?, "1e+21");
//! assert_eq!(json_f64(0.1)?, "0.1");
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::string::String;
use core::fmt::Write;

use crate::{Error, ErrorKind, Result};

/// Significant digits: value = 0.d1d2…dn × 10^point (of a finite float's shortest round trip,
/// or of a JSON numeral).
struct Digits {
    negative: bool,
    buf: [u8; 24],
    len: usize,
    point: i32,
}

impl Digits {
    fn digits(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Parses the `{:e}` rendering (`-1.2345e-7`, `5e-324`, `0e0`).
    fn from_exp_form(text: &[u8]) -> Digits {
        let mut d = Digits {
            negative: false,
            buf: [0; 24],
            len: 0,
            point: 0,
        };
        let mut i = 0;
        if text.first() == Some(&b'-') {
            d.negative = true;
            i = 1;
        }
        while i < text.len() && text[i] != b'e' {
            if text[i] != b'.' && d.len < d.buf.len() {
                d.buf[d.len] = text[i];
                d.len += 1;
            }
            i += 1;
        }
        let mut exp: i32 = 0;
        let mut exp_negative = false;
        i += 1;
        if text.get(i) == Some(&b'-') {
            exp_negative = true;
            i += 1;
        }
        while i < text.len() {
            exp = exp * 10 + i32::from(text[i] - b'0');
            i += 1;
        }
        d.point = if exp_negative { -exp } else { exp } + 1;
        d
    }
}

/// A fixed-size `fmt::Write` target on the stack.
struct StackText {
    buf: [u8; 40],
    len: usize,
}

impl Write for StackText {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(core::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn shortest(args: core::fmt::Arguments<'_>) -> Digits {
    let mut text = StackText {
        buf: [0; 40],
        len: 0,
    };
    // `{:e}` of a finite f32/f64 is at most ~25 bytes, so this cannot fail.
    let _ = text.write_fmt(args);
    Digits::from_exp_form(&text.buf[..text.len])
}

/// Exact powers of ten up to 10^15.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// `(n, k)` with `magnitude == n / 10^k` for an integer `n < 10^15` and the smallest `k ≤ 15`
/// (the usual scores, confidences and counts), found without formatting: for each `k`, the
/// one candidate `n` near `magnitude·10^k` that reads back as `magnitude` (an exact `n`
/// divided by an exact power of ten is one correctly rounded division, which is what parsing
/// the text does). With fewer than 16 digits there is only one candidate per `k`, and the
/// smallest `k` gives the fewest digits, so `n·10^-k` is the shortest form (`n` has no
/// trailing zero unless `k` is 0). `None` for other values.
fn short_decimal(magnitude: f64) -> Option<(u64, usize)> {
    if !(1e-15..1e15).contains(&magnitude) {
        return None;
    }
    // Integral values (1.0, 52.0) are their own digits.
    let whole = magnitude as u64;
    if whole as f64 == magnitude {
        return Some((whole, 0));
    }
    for (k, &scale) in POW10.iter().enumerate().skip(1) {
        let scaled = magnitude * scale;
        if scaled >= 1e15 {
            return None;
        }
        // Round half up (ties do not matter: both neighbours are tried); no libm call.
        let nearest = (scaled + 0.5) as u64 as f64;
        // A candidate n with n / 10^k == v is within a few units in the last place of the
        // product (v is within half an ulp of n / 10^k, the product adds half an ulp): when the
        // product is farther than that from every integer, no k-digit candidate exists.
        if (scaled - nearest).abs() > scaled * f64::EPSILON * 4.0 {
            continue;
        }
        // The product may be off by a unit in its last place: try both neighbours.
        for n in [nearest, nearest - 1.0, nearest + 1.0] {
            if n >= 1.0 && n / scale == magnitude {
                return Some((n as u64, k));
            }
        }
    }
    None
}

/// [`short_decimal`] as [`Digits`].
fn short_decimal_digits(v: f64) -> Option<Digits> {
    short_decimal(v.abs()).map(|(n, k)| Digits::of_integer(v < 0.0, n, k as i32))
}

/// Appends `n · 10^-k` in fixed notation (`k` the number of decimals, `n`'s last digit not
/// zero when `k > 0`).
fn push_short_decimal(out: &mut String, n: u64, k: usize) {
    if k == 0 {
        return write_u64(out, n);
    }
    let scale = 10u64.pow(k as u32);
    write_u64(out, n / scale);
    out.push('.');
    let fraction = n % scale;
    // Leading zeros of the fraction (0.05 has one).
    let mut width = 1;
    while width < k && fraction >= 10u64.pow(width as u32) {
        width += 1;
    }
    for _ in width..k {
        out.push('0');
    }
    write_u64(out, fraction);
}

impl Digits {
    /// `n · 10^-k` as digits (trailing zeros dropped).
    fn of_integer(negative: bool, mut n: u64, k: i32) -> Digits {
        let mut d = Digits {
            negative,
            buf: [0; 24],
            len: 0,
            point: 0,
        };
        let mut count = 0;
        let mut stripped = false;
        let mut reversed = [0u8; 20];
        let mut kept = 0;
        while n > 0 {
            let digit = (n % 10) as u8;
            n /= 10;
            count += 1;
            if digit == 0 && !stripped {
                continue;
            }
            stripped = true;
            reversed[kept] = b'0' + digit;
            kept += 1;
        }
        for i in 0..kept {
            d.buf[i] = reversed[kept - 1 - i];
        }
        d.len = kept;
        d.point = count - k;
        d
    }
}

/// The shortest round-trip digits of a finite double.
fn shortest_f64(v: f64) -> Digits {
    short_decimal_digits(v).unwrap_or_else(|| shortest(format_args!("{v:e}")))
}

/// Appends ASCII digits (as chars: for a few bytes, cheaper than checking them as UTF-8 and
/// copying them).
fn push_digits(out: &mut String, digits: &[u8]) {
    out.reserve(digits.len());
    for &digit in digits {
        out.push(char::from(digit));
    }
}

fn push_zeros(out: &mut String, n: i32) {
    for _ in 0..n {
        out.push('0');
    }
}

/// Fixed notation of `d` with exactly its shortest digits (Go `'f'` with precision -1).
fn push_fixed(out: &mut String, d: &Digits) {
    let digits = d.digits();
    let nd = digits.len() as i32;
    if d.point <= 0 {
        out.push_str("0.");
        push_zeros(out, -d.point);
        push_digits(out, digits);
    } else if d.point >= nd {
        push_digits(out, digits);
        push_zeros(out, d.point - nd);
    } else {
        let split = d.point as usize;
        push_digits(out, &digits[..split]);
        out.push('.');
        push_digits(out, &digits[split..]);
    }
}

/// Exponent notation `d[.ddd]e±X`, with at least `min_exp_digits` exponent digits.
fn push_exponent(out: &mut String, d: &Digits, min_exp_digits: usize) {
    let digits = d.digits();
    out.push(digits[0] as char);
    if digits.len() > 1 {
        out.push('.');
        push_digits(out, &digits[1..]);
    }
    out.push('e');
    let exp = d.point - 1;
    out.push(if exp < 0 { '-' } else { '+' });
    let magnitude = exp.unsigned_abs();
    if magnitude < 10 && min_exp_digits >= 2 {
        out.push('0');
    }
    write_u64(out, u64::from(magnitude));
}

fn push_go_g(out: &mut String, d: &Digits) {
    if d.negative {
        out.push('-');
    }
    // Go decides between %e and %f with precision 6 for the shortest form.
    let exp = d.point - 1;
    if !(-4..6).contains(&exp) {
        push_exponent(out, d, 2);
    } else {
        push_fixed(out, d);
    }
}

fn push_non_finite(out: &mut String, v: f64) {
    out.push_str(if v.is_nan() {
        "NaN"
    } else if v > 0.0 {
        "+Inf"
    } else {
        "-Inf"
    });
}

/// Appends `v` as Go `strconv.FormatFloat(v, 'g', -1, 64)` does.
///
/// ```
/// let mut row = String::from("score\t");
/// agentwire::num::write_go_g_f64(&mut row, 0.00001);
/// agentwire::num::write_go_g_f64(&mut row, f64::INFINITY);
/// assert_eq!(row, "score\t1e-05+Inf");
/// ```
pub fn write_go_g_f64(out: &mut String, v: f64) {
    if !v.is_finite() {
        return push_non_finite(out, v);
    }
    push_go_g(out, &shortest_f64(v));
}

/// Appends `v` as Go `strconv.FormatFloat(float64(v), 'g', -1, 32)` does.
///
/// ```
/// let mut out = String::new();
/// // The float32 shortest digits, not those of the widened float64 (0.10000000149011612).
/// agentwire::num::write_go_g_f32(&mut out, 0.1_f32);
/// assert_eq!(out, "0.1");
/// ```
pub fn write_go_g_f32(out: &mut String, v: f32) {
    if !v.is_finite() {
        return push_non_finite(out, f64::from(v));
    }
    push_go_g(out, &shortest(format_args!("{v:e}")));
}

/// Appends `v` as Go `encoding/json` prints a float64 (= ECMAScript `Number#toString` for
/// finite values, but `-0` prints as `-0`). NaN and ±Infinity are an error, with Go's text.
///
/// ```
/// use agentwire::num::write_json_f64;
/// let mut out = String::new();
/// write_json_f64(&mut out, 1e20)?;
/// assert_eq!(out, "100000000000000000000");
/// let err = write_json_f64(&mut out, f64::NAN).unwrap_err();
/// assert_eq!(err.code(), "NON_FINITE_NUMBER");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_json_f64(out: &mut String, v: f64) -> Result<()> {
    if !v.is_finite() {
        let mut name = String::new();
        push_non_finite(&mut name, v);
        return Err(Error::new(
            ErrorKind::NonFiniteNumber,
            alloc::format!("json: unsupported value: {name}"),
        ));
    }
    // The usual short decimal in fixed notation, written directly.
    if let Some((n, k)) = short_decimal(v.abs()).filter(|_| v.abs() >= 1e-6) {
        if v < 0.0 {
            out.push('-');
        }
        push_short_decimal(out, n, k);
        return Ok(());
    }
    let d = shortest_f64(v);
    if d.negative {
        out.push('-');
    }
    let abs = v.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        push_exponent(out, &d, 1);
    } else {
        push_fixed(out, &d);
    }
    Ok(())
}

/// Whether a reader that holds JSON numbers as doubles (JavaScript's `JSON.parse`, Python's
/// `float`) gives `numeral` back unchanged: the double nearest to it prints, as the shortest
/// round trip (`JSON.stringify`), the same decimal value. `1.50`, `1E2` and
/// `18446744073709552000` are held; `9007199254740993`, `0.12345678901234567890`, `1e400`
/// (Infinity), `1e-400` (0) and `-0` (printed `0`) are not. Text that is not one JSON number is
/// not held.
///
/// ```
/// use agentwire::num::double_holds;
/// assert!(double_holds("9007199254740992") && double_holds("1.50") && double_holds("0.1"));
/// assert!(!double_holds("9007199254740993"));
/// assert!(!double_holds("0.12345678901234567890"));
/// assert!(!double_holds("1e400") && !double_holds("-0") && !double_holds("3ab"));
/// ```
pub fn double_holds(numeral: &str) -> bool {
    crate::json::is_json_number(numeral) && numeral_held(numeral)
}

/// [`double_holds`] of text the JSON grammar already accepted.
pub(crate) fn numeral_held(numeral: &str) -> bool {
    let Some(decimal) = Digits::from_numeral(numeral.as_bytes()) else {
        return false;
    };
    let Ok(v) = numeral.parse::<f64>() else {
        return false;
    };
    if !v.is_finite() {
        return false;
    }
    if v == 0.0 || decimal.len == 0 {
        // Only a zero numeral reads as 0, and `-0` prints as `0`.
        return v == 0.0 && decimal.len == 0 && !decimal.negative;
    }
    let printed = shortest_f64(v);
    decimal.negative == printed.negative
        && decimal.point == printed.point
        && decimal.digits() == printed.digits()
}

impl Digits {
    /// A JSON numeral's significant digits (no leading or trailing zero digit; a zero numeral
    /// has none). `None` for text that is not one JSON number, or with more than 24
    /// significant digits (no double prints that many, so such a numeral is never held).
    fn from_numeral(text: &[u8]) -> Option<Digits> {
        let mut d = Digits {
            negative: false,
            buf: [0; 24],
            len: 0,
            point: 0,
        };
        let mut i = 0;
        if text.first() == Some(&b'-') {
            d.negative = true;
            i = 1;
        }
        let digits_start = i;
        // Digits after the first non-zero one, trailing zeros included.
        let mut significant = 0usize;
        let mut seen_point = false;
        let mut integer_digits: i64 = 0;
        let mut leading_zeros: i64 = 0;
        while let Some(&b) = text.get(i) {
            match b {
                b'0'..=b'9' => {
                    if !seen_point {
                        integer_digits += 1;
                    }
                    if significant == 0 && b == b'0' {
                        leading_zeros += 1;
                    } else {
                        if b != b'0' {
                            if significant >= d.buf.len() {
                                return None;
                            }
                            // Zeros between non-zero digits are significant.
                            for slot in &mut d.buf[d.len..significant] {
                                *slot = b'0';
                            }
                            d.buf[significant] = b;
                            d.len = significant + 1;
                        }
                        significant += 1;
                    }
                }
                b'.' if !seen_point && i > digits_start => seen_point = true,
                b'e' | b'E' => break,
                _ => return None,
            }
            i += 1;
        }
        if i == digits_start {
            return None;
        }
        let mut exponent: i64 = 0;
        if i < text.len() {
            i += 1;
            let negative_exponent = match text.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let start = i;
            while let Some(&b) = text.get(i) {
                if !b.is_ascii_digit() {
                    return None;
                }
                // Saturates far beyond any double's range: such a numeral is 0 or Infinity.
                exponent = (exponent * 10 + i64::from(b - b'0')).min(1 << 40);
                i += 1;
            }
            if i == start {
                return None;
            }
            if negative_exponent {
                exponent = -exponent;
            }
        }
        // Past the i32 range the numeral is 0 or Infinity, and the caller has said so already.
        let point = integer_digits - leading_zeros + exponent;
        d.point = i32::try_from(point).unwrap_or(if point < 0 { i32::MIN } else { i32::MAX });
        Some(d)
    }
}

/// Appends finite `v` in plain decimal notation, never with an exponent: the shortest digits
/// that read back as `v` (those of ECMAScript's `Number#toString`), `-0` as `0`
/// (`1e21` → `1000000000000000000000`, `1e-7` → `0.0000001`).
pub(crate) fn write_plain_f64(out: &mut String, v: f64) {
    debug_assert!(v.is_finite());
    if v == 0.0 {
        out.push('0');
        return;
    }
    if v < 0.0 {
        out.push('-');
    }
    if let Some((n, k)) = short_decimal(v.abs()) {
        return push_short_decimal(out, n, k);
    }
    push_fixed(out, &shortest_f64(v.abs()));
}

/// Appends the decimal text of `v`.
///
/// ```
/// let mut out = String::from("line ");
/// agentwire::num::write_u64(&mut out, 18_446_744_073_709_551_615);
/// assert_eq!(out, "line 18446744073709551615");
/// ```
pub fn write_u64(out: &mut String, mut v: u64) {
    if v < 10_000 {
        // Counts and line numbers: digits pushed from the most significant, no buffer.
        let v = v as u16;
        let digit = |d: u16| char::from(b'0' + (d % 10) as u8);
        if v >= 1000 {
            out.push(digit(v / 1000));
        }
        if v >= 100 {
            out.push(digit(v / 100));
        }
        if v >= 10 {
            out.push(digit(v / 10));
        }
        out.push(digit(v));
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + v as u8;
    }
    push_digits(out, &buf[i..]);
}

/// The decimal text of `n` when it is below 100, without formatting or allocating.
pub(crate) fn small_decimal(n: u64) -> Option<&'static str> {
    const PAIRS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";
    let n = usize::try_from(n).ok().filter(|n| *n < 100)?;
    // Single digits are the second half of their pair ("07").
    let start = if n < 10 { 2 * n + 1 } else { 2 * n };
    PAIRS.get(start..2 * n + 2)
}

/// "00" to "99".
const DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends the decimal text of `v`.
///
/// ```
/// let mut out = String::new();
/// agentwire::num::write_i64(&mut out, i64::MIN);
/// assert_eq!(out, "-9223372036854775808");
/// ```
pub fn write_i64(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    write_u64(out, v.unsigned_abs());
}

/// Go `%g` text of a float64 as a new string (see [`write_go_g_f64`]).
///
/// ```
/// use agentwire::num::go_g_f64;
/// assert_eq!(go_g_f64(123456789.0), "1.23456789e+08");
/// assert_eq!(go_g_f64(-0.5), "-0.5");
/// assert_eq!(go_g_f64(f64::NAN), "NaN");
/// ```
pub fn go_g_f64(v: f64) -> String {
    let mut s = String::new();
    write_go_g_f64(&mut s, v);
    s
}

/// Go `encoding/json` text of a float64 as a new string (see [`write_json_f64`]).
///
/// ```
/// use agentwire::num::json_f64;
/// assert_eq!(json_f64(1e-7)?, "1e-7");
/// assert_eq!(json_f64(-0.0)?, "-0");
/// assert!(json_f64(f64::INFINITY).is_err());
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn json_f64(v: f64) -> Result<String> {
    let mut s = String::new();
    write_json_f64(&mut s, v)?;
    Ok(s)
}

/// Parses the float spellings the GCX1 vectors use for typed cells: decimal or exponent text,
/// plus Go's `NaN`, `+Inf`, `-Inf` (and `Inf`, `-0`).
///
/// ```
/// use agentwire::num::parse_f64;
/// assert_eq!(parse_f64("1e+06"), Some(1e6));
/// assert_eq!(parse_f64("-Inf"), Some(f64::NEG_INFINITY));
/// assert!(parse_f64("NaN").unwrap().is_nan());
/// // Rust's own spellings are refused.
/// assert_eq!(parse_f64("inf"), None);
/// ```
pub fn parse_f64(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "+Inf" | "Inf" => Some(f64::INFINITY),
        "-Inf" => Some(f64::NEG_INFINITY),
        _ if is_decimal_float(text) => text.parse().ok(),
        _ => None,
    }
}

/// Like [`parse_f64`] for a float32 (correctly rounded from the text).
///
/// ```
/// use agentwire::num::parse_f32;
/// assert_eq!(parse_f32("0.1"), Some(0.1_f32));
/// assert_eq!(parse_f32("+Inf"), Some(f32::INFINITY));
/// assert_eq!(parse_f32("0x10"), None);
/// ```
pub fn parse_f32(text: &str) -> Option<f32> {
    match text {
        "NaN" => Some(f32::NAN),
        "+Inf" | "Inf" => Some(f32::INFINITY),
        "-Inf" => Some(f32::NEG_INFINITY),
        _ if is_decimal_float(text) => text.parse().ok(),
        _ => None,
    }
}

/// `[+-]digits[.digits][e[+-]digits]` (Rust's parser also takes `inf`/`nan`, which we refuse).
fn is_decimal_float(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let start = i;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    if i == start {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The shortest form of a double, however it is written, reads back unchanged; one
        /// more significant digit than any double prints does not.
        #[test]
        fn double_holds_every_spelling_of_a_shortest_form(bits: u64, zeros in 0usize..30, shift in -30i32..30) {
            let v = f64::from_bits(bits);
            proptest::prop_assume!(v.is_finite() && v != 0.0);
            let shortest = alloc::format!("{v:e}"); // 1.2345e-7: Rust's shortest round trip
            let (mantissa, exponent) = shortest.split_once('e').unwrap();
            let exponent: i32 = exponent.parse().unwrap();
            let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
            let sign = if v < 0.0 { "-" } else { "" };
            let padded = alloc::format!("{digits}{}", "0".repeat(zeros));
            // d1.d2d3…e(exponent): move the point `shift` places, compensating the exponent.
            let point = 1 + shift.max(0) as usize;
            let respelled = if point < padded.len() {
                alloc::format!("{sign}{}.{}e{}", &padded[..point], &padded[point..], exponent - shift.max(0))
            } else {
                alloc::format!("{sign}{padded}e{}", exponent - (padded.len() as i32 - 1))
            };
            proptest::prop_assert!(double_holds(&respelled), "{} as {}", shortest, respelled);
            let leading = alloc::format!("{sign}0.{}{digits}e{}", "0".repeat(zeros), exponent + 1 + zeros as i32);
            proptest::prop_assert!(double_holds(&leading), "{} as {}", shortest, leading);
            let longer = alloc::format!("{sign}{}.{}{}1e{exponent}", &digits[..1], &digits[1..], "0".repeat(17));
            proptest::prop_assert!(!double_holds(&longer), "{} as {}", shortest, longer);
        }
    }

    #[test]
    fn double_holds_numerals_readers_give_back() {
        for held in [
            "0",
            "0.0",
            "0e10",
            "1",
            "-1",
            "1.50",
            "1E2",
            "1e+2",
            "0.1",
            "5e-324",
            "1.7976931348623157e308",
            "9007199254740992",
            "-9007199254740992",
            "18446744073709552000",
            "100000000000000000000",
            "12345678901234567000000000000e-28",
        ] {
            assert!(double_holds(held), "{held}");
        }
        for lost in [
            "-0",
            "-0.0",
            "9007199254740993",
            "12345678901234567890",
            "0.12345678901234567890",
            "1e400",
            "-1e400",
            "1e-400",
            "2e-324",
            "1.00000000000000000000000001",
            "18446744073709551616",
            "123456789012345678901234567890e-29",
            "01",
            "1.",
            ".5",
            "1e",
            "+1",
            "x",
            "",
        ] {
            assert!(!double_holds(lost), "{lost}");
        }
    }

    #[test]
    fn go_g_matches_strconv() {
        let cases: &[(f64, &str)] = &[
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1e20, "1e+20"),
            (123456789.0, "1.23456789e+08"),
            (1e6, "1e+06"),
            (100000.0, "100000"),
            (999999.0, "999999"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (2.5e-8, "2.5e-08"),
            (9007199254740993.0, "9.007199254740992e+15"),
            (-0.0, "-0"),
            (0.0, "0"),
            (1.0, "1"),
            (0.95, "0.95"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (1234567.0, "1.234567e+06"),
            (-1.5, "-1.5"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
        ];
        for &(v, want) in cases {
            assert_eq!(go_g_f64(v), want, "{v:e}");
        }
        let mut s = String::new();
        write_go_g_f32(&mut s, 16777217.0f32);
        assert_eq!(s, "1.6777216e+07");
        s.clear();
        write_go_g_f32(&mut s, 0.1f32);
        assert_eq!(s, "0.1");
    }

    #[test]
    fn json_matches_encoding_json() {
        let cases: &[(f64, &str)] = &[
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (1.5e300, "1.5e+300"),
            (5e-324, "5e-324"),
            (1e20, "100000000000000000000"),
            (0.000001, "0.000001"),
            (-0.0, "-0"),
            (1.0, "1"),
            (0.1, "0.1"),
            (1e-10, "1e-10"),
            (0.30000000000000004, "0.30000000000000004"),
            (1.2345678901234568e29, "1.2345678901234568e+29"),
            (-1e-300, "-1e-300"),
            (123456789.0, "123456789"),
        ];
        for &(v, want) in cases {
            assert_eq!(json_f64(v).unwrap(), want, "{v:e}");
        }
        let err = json_f64(f64::INFINITY).unwrap_err();
        assert_eq!(err.code(), "NON_FINITE_NUMBER");
        assert_eq!(err.message(), "json: unsupported value: +Inf");
        assert_eq!(
            json_f64(f64::NAN).unwrap_err().message(),
            "json: unsupported value: NaN"
        );
    }

    #[test]
    fn short_decimals_match_the_formatter() {
        let slow = |v: f64| shortest(format_args!("{v:e}"));
        let check = |v: f64| {
            if let Some(fast) = short_decimal_digits(v) {
                let slow = slow(v);
                assert_eq!(
                    (fast.negative, fast.digits(), fast.point),
                    (slow.negative, slow.digits(), slow.point),
                    "{v:e}"
                );
            }
        };
        // Short decimals (what the fast path is for), their neighbours, and random doubles.
        for scale in POW10 {
            for n in (1..20_000u64).chain((0..2_000).map(|i| 999_999_999_999_000 + i * 7)) {
                let v = n as f64 / scale;
                for v in [
                    v,
                    -v,
                    f64::from_bits(v.to_bits() + 1),
                    f64::from_bits(v.to_bits() - 1),
                ] {
                    check(v);
                }
            }
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..1_000_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check(f64::from_bits(x));
            check(f64::from_bits(x >> 12 | 0x3F00_0000_0000_0000));
        }
        assert!(short_decimal_digits(0.95).is_some() && short_decimal_digits(1e300).is_none());
        // The direct fixed writer agrees with the digits path.
        let digits_path = |v: f64| {
            let d = slow(v);
            let mut out = String::new();
            if d.negative {
                out.push('-');
            }
            push_fixed(&mut out, &d);
            out
        };
        for (k, scale) in POW10.iter().enumerate() {
            for n in (1..3_000u64).chain([123_456_789, 999_999_999_999_999 / 10u64.pow(k as u32)]) {
                let v = n as f64 / scale;
                if v >= 1e-6 {
                    let mut fast = String::new();
                    write_json_f64(&mut fast, v).unwrap();
                    assert_eq!(fast, digits_path(v), "{v:e}");
                }
            }
        }
        let mut s = String::new();
        for v in [1.0, 0.95, 100.0, 1e-7, 123456.789, 1e14, 0.1 + 0.2] {
            write_json_f64(&mut s, v).unwrap();
            s.push(' ');
            write_go_g_f64(&mut s, v);
            s.push(' ');
        }
        assert_eq!(
            s,
            "1 1 0.95 0.95 100 100 1e-7 1e-07 123456.789 123456.789 100000000000000 1e+14 0.30000000000000004 0.30000000000000004 "
        );
    }

    #[test]
    fn plain_decimals_have_no_exponent() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (1e-6, "0.000001"),
            (1e-7, "0.0000001"),
            (-2.5e-8, "-0.000000025"),
            (1e20, "100000000000000000000"),
            (1e21, "1000000000000000000000"),
            (1.5e22, "15000000000000000000000"),
            (0.1 + 0.2, "0.30000000000000004"),
            (123456.789, "123456.789"),
        ];
        for &(v, want) in cases {
            let mut out = String::new();
            write_plain_f64(&mut out, v);
            assert_eq!(out, want, "{v:e}");
            assert_eq!(out.parse::<f64>().unwrap(), v);
        }
        let mut out = String::new();
        write_plain_f64(&mut out, 5e-324);
        assert_eq!(out, alloc::format!("0.{}5", "0".repeat(323)));
        out.clear();
        write_plain_f64(&mut out, f64::MAX);
        assert_eq!(out.len(), 309);
        assert!(out.starts_with("17976931348623157") && out[17..].bytes().all(|b| b == b'0'));
        // The same digits as the JSON (ECMAScript) rule wherever that one has no exponent.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x >> 2);
            if !v.is_finite() {
                continue;
            }
            let (mut plain, mut json) = (String::new(), String::new());
            write_plain_f64(&mut plain, v);
            write_json_f64(&mut json, v).unwrap();
            assert_eq!(plain.parse::<f64>().unwrap(), v, "{plain}");
            if !json.contains('e') {
                assert_eq!(plain, json);
            }
        }
    }

    #[test]
    fn small_decimals() {
        for n in 0..100u64 {
            assert_eq!(small_decimal(n), Some(alloc::format!("{n}").as_str()));
        }
        assert_eq!(small_decimal(100), None);
    }

    #[test]
    fn integers() {
        let mut s = String::new();
        write_i64(&mut s, i64::MIN);
        s.push(' ');
        write_u64(&mut s, u64::MAX);
        s.push(' ');
        write_i64(&mut s, 0);
        assert_eq!(s, "-9223372036854775808 18446744073709551615 0");
        for n in 0..20_000u64 {
            s.clear();
            write_u64(&mut s, n);
            assert_eq!(s, alloc::format!("{n}"));
        }
        let mut v = 1u64;
        while let Some(next) = v.checked_mul(7) {
            for n in [v - 1, v, v + 1] {
                s.clear();
                write_u64(&mut s, n);
                assert_eq!(s, alloc::format!("{n}"));
            }
            v = next;
        }
    }

    #[test]
    fn parse_spellings() {
        assert!(parse_f64("NaN").unwrap().is_nan());
        assert_eq!(parse_f64("+Inf"), Some(f64::INFINITY));
        assert_eq!(parse_f64("-0").map(f64::to_bits), Some((-0.0f64).to_bits()));
        assert_eq!(parse_f64("1e6"), Some(1e6));
        assert_eq!(parse_f64("inf"), None);
        assert_eq!(parse_f64("1e"), None);
        assert_eq!(parse_f32("16777217"), Some(16777216.0));
    }
}
