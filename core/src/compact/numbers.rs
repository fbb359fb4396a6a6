//! Whether every numeral of a JSON text is exactly a double (the check JavaScript readers need).

use alloc::string::String;

/// Whether every long numeral in `text` survives a reader that holds numbers as doubles.
/// Only numerals of 16 characters or more can fail, so only those are checked: a run of
/// `-?\d[\d.eE+-]{15,}` anywhere in the text (inside a string too, which only keeps the
/// input) that reads as a number must print back as itself (`String(Number(m)) === m`) or be
/// an integer the double holds exactly.
///
/// ```
/// use agentwire::compact::numbers_fit;
/// assert!(numbers_fit(r#"{"id": 9007199254740992, "x": 0.8401877171547095}"#));
/// assert!(!numbers_fit(r#"{"id": 9007199254740993}"#));
/// assert!(!numbers_fit(r#"{"id": 12345678901234567890}"#));
/// assert!(numbers_fit(r#"{"when": "2026-11-26T22:25:05.000000Z"}"#)); // not one numeral
/// ```
pub fn numbers_fit(text: &str) -> bool {
    let bytes = text.as_bytes();
    let numeral_byte = |b: u8| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-');
    let mut i = 0;
    while i < bytes.len() {
        let digit = if bytes[i] == b'-' { i + 1 } else { i };
        if bytes.get(digit).is_some_and(u8::is_ascii_digit) {
            let mut end = digit + 1;
            while end < bytes.len() && numeral_byte(bytes[end]) {
                end += 1;
            }
            if end - (digit + 1) >= 15 {
                if !double_holds(&text[i..end]) {
                    return false;
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    true
}

/// `Number(m)` is NaN, or prints as `m`, or is an integer equal to `m`.
fn double_holds(m: &str) -> bool {
    let Ok(n) = m.parse::<f64>() else {
        return true; // not one numeral (a date, an id with dashes): nothing to lose
    };
    if n.is_finite() {
        let mut printed = String::new();
        if n == 0.0 {
            printed.push('0');
        } else if crate::num::write_json_f64(&mut printed, n).is_err() {
            return false;
        }
        if printed == m {
            return true;
        }
    }
    let integer = m
        .strip_prefix('-')
        .unwrap_or(m)
        .bytes()
        .all(|b| b.is_ascii_digit());
    // Integers past i128 are taken as not held (a double that holds one is vanishingly rare).
    integer
        && n.is_finite()
        && m.parse::<i128>()
            .is_ok_and(|exact| n.abs() < 1.7e38 && n as i128 == exact)
}

#[cfg(test)]
mod tests {
    use super::numbers_fit;

    #[test]
    fn like_the_javascript_check() {
        for fits in [
            "0.1",
            "123456789012345",
            "1e21",
            "-0000000000000001",
            "0.30000000000000004",
            "1.7976931348623157e+308",
        ] {
            assert!(numbers_fit(fits), "{fits}");
        }
        for lost in [
            "0.12345678901234567890",
            "-9007199254740993",
            "1.00000000000000000",
            "1e400000000000000",
        ] {
            assert!(!numbers_fit(lost), "{lost}");
        }
        assert!(numbers_fit("[12345678901234567-12]"), "NaN: not a numeral");
    }
}
