//! The JavaScript number policy: how a host's numbers become agentwire's typed JSON numbers.
//! A JavaScript number is a binary64 double, exact for integers up to 2^53 − 1; a BigInt is an
//! integer of any size.

use agentwire::json::Number;
use agentwire::{Error, ErrorKind, Result};

/// The largest integer a double holds exactly together with all smaller ones (2^53 − 1).
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The typed reading of a host double (a JavaScript number): a safe integer
/// (|v| ≤ 2^53 − 1) becomes an exact integer, any other finite value stays a double, and NaN
/// or ±Infinity is an error (`NON_FINITE_NUMBER`).
pub fn from_host_double(v: f64) -> Result<Number> {
    if !v.is_finite() {
        let name = if v.is_nan() {
            "NaN"
        } else if v > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        return Err(Error::new(
            ErrorKind::NonFiniteNumber,
            format!("{name} is not a JSON number"),
        ));
    }
    // Within ±2^53 the cast is exact exactly when `v` is integral.
    if v.abs() <= MAX_SAFE_INTEGER && (v as i64) as f64 == v {
        return Ok(Number::from_i64(v as i64));
    }
    Ok(Number::from_f64(v))
}

/// The typed reading of decimal integer text (a JavaScript BigInt): must fit i64 or u64
/// (`INTEGER_OUT_OF_RANGE` otherwise).
pub fn from_integer_text(text: &str) -> Result<Number> {
    if let Ok(v) = text.parse::<u64>() {
        return Ok(Number::from_u64(v));
    }
    if let Ok(v) = text.parse::<i64>() {
        return Ok(Number::from_i64(v));
    }
    Err(Error::new(
        ErrorKind::IntegerOutOfRange,
        format!("integer {text} does not fit in 64 bits"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_doubles() {
        assert_eq!(from_host_double(3.0).unwrap(), Number::from_i64(3));
        assert_eq!(from_host_double(-0.5).unwrap(), Number::from_f64(-0.5));
        assert_eq!(
            from_host_double(MAX_SAFE_INTEGER).unwrap(),
            Number::from_i64(9_007_199_254_740_991)
        );
        assert_eq!(
            from_host_double(MAX_SAFE_INTEGER + 1.0).unwrap(),
            Number::from_f64(9_007_199_254_740_992.0)
        );
        let e = from_host_double(f64::NEG_INFINITY).unwrap_err();
        assert_eq!(
            (e.code(), e.message()),
            ("NON_FINITE_NUMBER", "-Infinity is not a JSON number")
        );
        assert_eq!(
            from_host_double(f64::NAN).unwrap_err().code(),
            "NON_FINITE_NUMBER"
        );
    }

    #[test]
    fn integer_texts() {
        assert_eq!(
            from_integer_text("18446744073709551615").unwrap(),
            Number::from_u64(u64::MAX)
        );
        assert_eq!(
            from_integer_text("-9223372036854775808").unwrap(),
            Number::from_i64(i64::MIN)
        );
        assert_eq!(
            from_integer_text("18446744073709551616")
                .unwrap_err()
                .code(),
            "INTEGER_OUT_OF_RANGE"
        );
    }
}
