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

use alloc::string::String;
use core::fmt::Write;

use crate::{Error, ErrorKind, Result};

/// Shortest round-trip digits of a finite float: value = 0.d1d2…dn × 10^point.
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

/// Appends ASCII digits.
fn push_digits(out: &mut String, digits: &[u8]) {
    out.push_str(core::str::from_utf8(digits).unwrap_or_default());
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
pub fn write_go_g_f64(out: &mut String, v: f64) {
    if !v.is_finite() {
        return push_non_finite(out, v);
    }
    push_go_g(out, &shortest(format_args!("{v:e}")));
}

/// Appends `v` as Go `strconv.FormatFloat(float64(v), 'g', -1, 32)` does.
pub fn write_go_g_f32(out: &mut String, v: f32) {
    if !v.is_finite() {
        return push_non_finite(out, f64::from(v));
    }
    push_go_g(out, &shortest(format_args!("{v:e}")));
}

/// Appends `v` as Go `encoding/json` prints a float64 (= ECMAScript `Number#toString` for
/// finite values, but `-0` prints as `-0`). NaN and ±Infinity are an error, with Go's text.
pub fn write_json_f64(out: &mut String, v: f64) -> Result<()> {
    if !v.is_finite() {
        let mut name = String::new();
        push_non_finite(&mut name, v);
        return Err(Error::new(
            ErrorKind::NonFiniteNumber,
            alloc::format!("json: unsupported value: {name}"),
        ));
    }
    let d = shortest(format_args!("{v:e}"));
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

/// Appends the decimal text of `v`.
pub fn write_u64(out: &mut String, mut v: u64) {
    if v < 10 {
        out.push(char::from(b'0' + v as u8));
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

/// "00" to "99".
const DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends the decimal text of `v`.
pub fn write_i64(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    write_u64(out, v.unsigned_abs());
}

/// Go `%g` text of a float64 as a new string (see [`write_go_g_f64`]).
pub fn go_g_f64(v: f64) -> String {
    let mut s = String::new();
    write_go_g_f64(&mut s, v);
    s
}

/// Go `encoding/json` text of a float64 as a new string (see [`write_json_f64`]).
pub fn json_f64(v: f64) -> Result<String> {
    let mut s = String::new();
    write_json_f64(&mut s, v)?;
    Ok(s)
}

/// Parses the float spellings the GCX1 vectors use for typed cells: decimal or exponent text,
/// plus Go's `NaN`, `+Inf`, `-Inf` (and `Inf`, `-0`).
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
    fn integers() {
        let mut s = String::new();
        write_i64(&mut s, i64::MIN);
        s.push(' ');
        write_u64(&mut s, u64::MAX);
        s.push(' ');
        write_i64(&mut s, 0);
        assert_eq!(s, "-9223372036854775808 18446744073709551615 0");
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
