//! The generic fallback encoder for any JSON value (gcx-go `generic.go`, `EncodeAny`).

use alloc::string::String;
use alloc::vec::Vec;

use super::encode::{EncodeOptions, Encoder};
use super::plan::{PayloadWriter, check_finite, write_plans};
use super::tool::plan_generic;
use crate::Result;
use crate::json::Value;
use crate::sink::Sink;

/// Encodes any JSON value as one GCX1 section, byte-identical to gcx-go's `EncodeAny` with
/// typed numbers:
///
/// | value | section |
/// |---|---|
/// | object | fields = keys sorted by bytes, one row, no meta |
/// | non-empty array of objects | fields = union of keys sorted, meta `rows=N`, one row each |
/// | any other array | field `value`, meta `rows=N`, one row per element |
/// | scalar | field `value`, one row |
///
/// Strings are written raw (then row-escaped); nested arrays and objects become Go-compact
/// JSON (sorted keys, `<>&` escaped); numbers print by Go's `encoding/json` rule. NaN or
/// ±Infinity anywhere fails before anything is written, as `json.Marshal` does.
///
/// ```
/// use agentwire::{gcx, json};
/// let value = json::parse(r#"[{"id":"a","n":1},{"id":"b","ok":true}]"#)?;
/// let payload = gcx::encode_generic("list", &value, &gcx::EncodeOptions::default())?;
/// assert_eq!(payload, "GCX1 tool=list fields=id,n,ok rows=2\na\t1\t\nb\t\ttrue\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_generic(tool: &str, value: &Value, options: &EncodeOptions) -> Result<String> {
    let capacity = value.as_array().map_or(256, |items| 128 + items.len() * 64);
    let mut writer = PayloadWriter::new(capacity, options.mode());
    plan_generic(tool, value, &mut writer);
    writer.finish(value)
}

/// Appends the generic section for `value` to an encoder (for multi-section payloads).
///
/// ```
/// use agentwire::gcx::{self, EncodeOptions, Encoder};
/// use agentwire::json;
/// let mut enc = Encoder::new(String::new(), EncodeOptions::default());
/// gcx::write_generic(&mut enc, "user", &json::parse(r#"{"name":"ann","id":7}"#)?)?;
/// gcx::write_generic(&mut enc, "tags", &json::parse(r#"["a","b"]"#)?)?;
/// assert_eq!(
///     enc.finish()?,
///     "GCX1 tool=user fields=id,name\n7\tann\nGCX1 tool=tags fields=value rows=2\na\nb\n"
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_generic<S: Sink>(encoder: &mut Encoder<S>, tool: &str, value: &Value) -> Result<()> {
    check_finite(value)?;
    let mut plans = Vec::new();
    plan_generic(tool, value, &mut plans);
    write_plans(encoder, &plans)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`encode_generic`] of JSON text, parsed as the bindings do.
    fn encode_generic_json(tool: &str, json_text: &str, options: &EncodeOptions) -> Result<String> {
        let value = crate::json::parse_with(json_text, &options.parse_options())?;
        encode_generic(tool, &value, options)
    }

    fn generic(tool: &str, json_text: &str) -> String {
        encode_generic_json(tool, json_text, &EncodeOptions::default()).unwrap()
    }

    #[test]
    fn shapes() {
        assert_eq!(
            generic(
                "s",
                r#"[{"id":"1","kind":"f"},{"id":"2","line":42},{"name":"n"}]"#
            ),
            "GCX1 tool=s fields=id,kind,line,name rows=3\n1\tf\t\t\n2\t\t42\t\n\t\t\tn\n"
        );
        assert_eq!(generic("o", "{}"), "GCX1 tool=o fields=\n\n");
        assert_eq!(generic("a", "[]"), "GCX1 tool=a fields=value rows=0\n");
        assert_eq!(generic("a", "[{}]"), "GCX1 tool=a fields= rows=1\n\n");
        assert_eq!(generic("n", "null"), "GCX1 tool=n fields=value\n\n");
        assert_eq!(
            generic("m", r#"[{"b":2,"a":1},"s",3,[1,"x"]]"#),
            "GCX1 tool=m fields=value rows=4\n{\"a\":1,\"b\":2}\ns\n3\n[1,\"x\"]\n"
        );
    }

    #[test]
    fn key_unions_past_the_small_vector() {
        // 100 objects with two keys each, one shared: a union of 101 keys, in byte order.
        let items: Vec<String> = (0..100)
            .map(|i| alloc::format!(r#"{{"k{i:03}":{i},"z":true}}"#))
            .collect();
        let out = generic("u", &alloc::format!("[{}]", items.join(",")));
        let header = out.lines().next().unwrap();
        let mut fields: Vec<String> = (0..100).map(|i| alloc::format!("k{i:03}")).collect();
        fields.push("z".into());
        assert_eq!(
            header,
            alloc::format!("GCX1 tool=u fields={} rows=100", fields.join(","))
        );
        let row = out.lines().nth(3).unwrap();
        assert_eq!(row, alloc::format!("\t\t2{}\ttrue", "\t".repeat(97)));
    }

    #[test]
    fn wide_first_objects_take_the_two_passes() {
        // 70 keys (past the first-object fast path), written in reverse order.
        let object = |v: usize| {
            let members: Vec<String> = (0..70)
                .rev()
                .map(|k| alloc::format!(r#""k{k:02}":{v}"#))
                .collect();
            alloc::format!("{{{}}}", members.join(","))
        };
        let out = generic("w", &alloc::format!("[{},{}]", object(1), object(2)));
        let fields: Vec<String> = (0..70).map(|k| alloc::format!("k{k:02}")).collect();
        let row = |v: &str| alloc::vec![v; 70].join("\t");
        assert_eq!(
            out,
            alloc::format!(
                "GCX1 tool=w fields={} rows=2\n{}\n{}\n",
                fields.join(","),
                row("1"),
                row("2")
            )
        );
    }

    #[test]
    fn non_finite_fails_before_writing() {
        let e = encode_generic_json("n", r#"{"x":1e400}"#, &EncodeOptions::default()).unwrap_err();
        assert_eq!(e.code(), "NON_FINITE_NUMBER");
        assert_eq!(
            e.message(),
            "wire: marshal input: json: unsupported value: +Inf"
        );
        // The first in input order, however deep (the walk switches to a stack past 32).
        let deep = alloc::format!("[{}-1e400{}, 1e400]", "[".repeat(100), "]".repeat(100));
        let e = encode_generic_json("n", &deep, &EncodeOptions::default()).unwrap_err();
        assert_eq!(
            e.message(),
            "wire: marshal input: json: unsupported value: -Inf"
        );
        let e = encode_generic_json(
            "n",
            r#"{"b":[1e400],"a":-1e400}"#,
            &EncodeOptions::default(),
        )
        .unwrap_err();
        assert!(e.message().ends_with("+Inf"), "{e}");
    }
}
