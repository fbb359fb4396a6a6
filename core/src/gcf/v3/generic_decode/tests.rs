use alloc::format;
use alloc::string::String;

use super::DecodeOptions;
use crate::gcf::v3::{Document, decode, decode_generic};
use crate::json::{self, Value};
use crate::{Error, ErrorKind};

fn body(text: &str) -> String {
    format!("GCF profile=generic\n{text}")
}

fn ok(text: &str) -> Value {
    decode_generic(&body(text)).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn err(text: &str) -> Error {
    match decode_generic(&body(text)) {
        Ok(v) => panic!("{text:?} decoded to {v:?}"),
        Err(e) => e,
    }
}

fn kind(text: &str) -> ErrorKind {
    err(text).kind()
}

fn json(text: &str) -> Value {
    json::parse(text).unwrap()
}

/// (line, column) of the error of `text`.
fn place(text: &str) -> (u64, u64) {
    let e = err(text);
    (e.line().unwrap(), e.column().unwrap())
}

#[test]
fn errors_carry_line_and_column() {
    assert_eq!(place("name=Alice\nname=Bob\n"), (3, 1));
    assert_eq!(place("value=~\n"), (2, 7));
    assert_eq!(place("## rows [03]{id}\n1\n"), (2, 9));
    assert_eq!(place("## rows [3]{id,name}\n1|a\n2|b\n"), (2, 9));
    assert_eq!(place("## rows [1]{id,name,score}\n1|Alice\n"), (3, 1));
    assert_eq!(place("## rows [1]{id,data}\n@0 1|^\n"), (3, 6));
    assert_eq!(place("## s\n  a=1\n\tb=2\n"), (4, 1));
    assert_eq!(place("## s\n  a=\"x\\q\"\n"), (3, 5));
    assert_eq!(place("## [2]{a}\n@0 1\n@5 2\n"), (4, 2));
    let e = err("## [2]{id}\n1\n2\n3\n");
    assert_eq!((e.kind(), e.line()), (ErrorKind::GcfCountMismatch, Some(5)));
    assert!(
        e.message().starts_with("count_mismatch: "),
        "{}",
        e.message()
    );
}

#[test]
fn every_strict_category_has_its_kind() {
    use ErrorKind::*;
    for (text, expected) in [
        ("v=\"abc\n", GcfUnterminatedQuote),
        ("v=\"a\\x\"\n", GcfInvalidEscape),
        ("v=\"a\"b\n", GcfTrailingCharacters),
        ("v=~\n", GcfInvalidMissing),
        ("v[2]: a,~\n", GcfInvalidMissing),
        ("## a [1]\n@0 =~\n", GcfInvalidMissing),
        ("=~\n", GcfInvalidMissing),
        ("v=^\n", GcfInvalidAttachmentMarker),
        ("v=^{a,b}\n", GcfInvalidAttachmentMarker),
        ("## r [1]{a}\n@0 ^{a,a}\n", GcfInvalidAttachmentMarker),
        ("v=\"\\uDC00\"\n", GcfInvalidSurrogate),
        ("a=1\na=2\n", GcfDuplicateKey),
        ("## a\n## a\n", GcfDuplicateKey),
        ("a=1\na[1]: 2\n", GcfDuplicateKey),
        ("## [2:]{key,x}\na|1\na|2\n", GcfDuplicateKey),
        ("## [1]{a,\"a>b\"}\n1|2\n", GcfDuplicateKey),
        ("## [1]{\"a>b\",\"a>b>c\"}\n1|2\n", GcfDuplicateKey),
        ("## r [1]{a,a}\n1|2\n", GcfDuplicateFieldName),
        ("## r [1]{a,b}\n1\n", GcfRowWidthMismatch),
        ("## [1:]{key,a}\nk|1|2\n", GcfRowWidthMismatch),
        ("## r [2]{a}\n1\n", GcfCountMismatch),
        ("## r [1]\n@0 =1\n@1 =2\n", GcfCountMismatch),
        ("t[1]: a,b\n", GcfCountMismatch),
        ("## r [?]{a}\n1\n##! summary counts=2\n", GcfCountMismatch),
        ("## r [x]{a}\n1\n", GcfInvalidCount),
        ("## r [-1]\n", GcfInvalidCount),
        ("## r [1\n", GcfInvalidCount),
        ("## [0:]{key,x}\n", GcfInvalidCount),
        ("## r [?]{a}\n1\n##! summary counts=a:1\n", GcfInvalidCount),
        ("## s\n\tx=1\n", GcfTabIndentation),
        ("## s\n    x=1\n", GcfInvalidIndent),
        ("## s\n   x=1\n", GcfInvalidIndent),
        ("a=1\n  b=2\n", GcfInvalidIndent),
        ("## r [1]{a}\n1\n    x\n", GcfInvalidIndent),
        ("## r [2]\n@0 =1\n@2 =2\n", GcfInvalidItemId),
        ("## r [1]{a}\n@1 1\n", GcfInvalidItemId),
        ("## r [1]{a}\n@x 1\n", GcfInvalidItemId),
        ("## r [1]{a}\n^\n.a {}\n", GcfInvalidItemId),
        ("## r [1]{a,b}\n@0 1|2\n.b {}\n", GcfOrphanAttachment),
        ("## r [1]{a,b}\n@0 1|^\n.c {}\n", GcfOrphanAttachment),
        ("## r [1]{a,b}\n@0 1|^{x,y}\n.b {}\n", GcfOrphanAttachment),
        ("## r [1]{a}\n1\n  x|y\n", GcfOrphanInlineAttachment),
        (
            "## r [1]{a,b}\n@0 1|^{x,y}\nA|B\nC|D\n",
            GcfOrphanInlineAttachment,
        ),
        ("## r [1]{a,b}\n@0 1|^\n", GcfMissingAttachment),
        ("## r [1]{a,b}\n@0 1|^{x,y}\n", GcfMissingAttachment),
        (
            "## r [1]{a,b}\n@0 1|^\n.b {}\n.b [0]\n",
            GcfDuplicateAttachment,
        ),
        (
            "## r [1]{a,b}\n@0 1|^{x,y}\nA|B\n.b {}\n",
            GcfDuplicateAttachment,
        ),
        (
            "## r [1]{a}\n@0 1\n.\"x>y\" =1\n.\"x>y\" =2\n",
            GcfDuplicateAttachment,
        ),
        (
            "## r [1]{a,b}\n@0 1|^{x,y}\nA|B|C\n",
            GcfInlineWidthMismatch,
        ),
        ("v=9223372036854775808\n", GcfOutOfRange),
        ("x\n", GcfInvalidLine),
        ("#x\n", GcfInvalidLine),
        ("a=1\n=2\n", GcfInvalidLine),
        ("=1\na=2\n", GcfInvalidLine),
        ("## [1]: a\nb=1\n", GcfInvalidLine),
        ("## s\n  ## [1]: a\n", GcfInvalidLine),
        ("tags[2]\n", GcfInvalidLine),
        ("## r [1]{a}: x\n", GcfInvalidLine),
        ("## r [1]{a,}\n1\n", GcfInvalidLine),
        ("## r [1]{@a,@b}\n1|2\n", GcfInvalidLine),
        ("## r [1]{a}\n@0 ^\n.a{}\n", GcfInvalidLine),
        ("## r [1]{a}\n@0 ^\n.a x\n", GcfInvalidLine),
        ("## r [1]{a} x\n", GcfInvalidLine),
        ("## r [1]{a,b}\n@0 1|^\n.b =2\n", GcfInvalidLine),
        ("## r [1]{@id,a}\n1|2\n", GcfInvalidLine),
        ("## [1:]{key,a}\n1|2\n", GcfInvalidLine),
        ("a=1\n##! summary\nb=2\n", GcfInvalidLine),
        ("##! other\n", GcfInvalidLine),
        ("##! summary counts\n", GcfMalformedHeaderField),
    ] {
        let e = err(text);
        assert_eq!(e.kind(), expected, "{text:?}: {}", e.message());
        assert!(e.line().is_some(), "{text:?} has no position");
        let category = e.code().trim_start_matches("GCF_").to_ascii_lowercase();
        assert!(
            e.message().starts_with(&format!("{category}: ")),
            "{text:?}: message {:?} does not start with {category}",
            e.message()
        );
    }
}

#[test]
fn prose_expectations_of_the_keyed_fixtures() {
    assert!(
        err("## [2:]{key,x}\na|1\na|2\n")
            .message()
            .contains("duplicate member key")
    );
    assert!(
        err("## [1:]{key}\na\n")
            .message()
            .contains("at least two fields")
    );
    assert!(err("## [0:]{key,x}\n").message().contains("zero count"));
}

#[test]
fn roots() {
    assert_eq!(ok(""), json("{}"));
    assert_eq!(ok("\n# c\n"), json("{}"));
    assert_eq!(ok("=\"a b\"\n"), json("\"a b\""));
    assert_eq!(ok("=-\n"), Value::Null);
    assert_eq!(ok("## [0]\n"), json("[]"));
    assert_eq!(ok("## [2]: a,\"b,c\"\n"), json(r#"["a","b,c"]"#));
    assert_eq!(ok("## [0]:\n"), json("[]"));
    assert_eq!(ok("## [1:]{key,a}\n\"\"|1\n"), json(r#"{"":{"a":1}}"#));
    assert_eq!(
        ok("_root=1\n\"\"=2\n\"a b\"[1]: x\n"),
        json(r#"{"_root":1,"":2,"a b":["x"]}"#)
    );
    assert_eq!(kind("  a=1\n"), ErrorKind::GcfInvalidIndent);
}

#[test]
fn sections_nest_and_dedent() {
    let text = "a=1\n## s\n  b=2\n  ## t\n    c=3\n  d=4\n## e\nf[0]:\n## g [0]\n";
    assert_eq!(
        ok(text),
        json(r#"{"a":1,"s":{"b":2,"t":{"c":3},"d":4},"e":{},"f":[],"g":[]}"#)
    );
    // A named block inside a section keeps its rows at the section's level.
    let text = "## s\n  ## r [1]{a,b}\n  @0 1|^\n  .b {}\n      x=1\n  y=2\nz=3\n";
    assert_eq!(
        ok(text),
        json(r#"{"s":{"r":[{"a":1,"b":{"x":1}}],"y":2},"z":3}"#)
    );
}

#[test]
fn expanded_items() {
    let text = "## v [5]\n@0 =a\n@1 {}\n  k=1\n@2 [2]{x}\n  1\n  2\n@3 [1:]{key,y}\n  m|2\n@4 [1]\n  @0 [0]\nafter=1\n";
    assert_eq!(
        ok(text),
        json(r#"{"v":["a",{"k":1},[{"x":1},{"x":2}],{"m":{"y":2}},[[]]],"after":1}"#)
    );
    assert_eq!(
        kind("## v [1]\n@0 [2]{x}\n  1\n  2\n  3\n"),
        ErrorKind::GcfCountMismatch
    );
}

#[test]
fn null_missing_and_keyed_maps() {
    assert_eq!(
        ok("## r [2]{id,note,tag}\n1|-|a\n2|x|~\n"),
        json(r#"{"r":[{"id":1,"note":null,"tag":"a"},{"id":2,"note":"x"}]}"#)
    );
    assert_eq!(
        ok("## m [2:]{key,a,b}\n@0 k1|1|^\n.b [1]: x\nk2|~|-\n"),
        json(r#"{"m":{"k1":{"a":1,"b":["x"]},"k2":{"b":null}}}"#)
    );
    // The key label is a display name only, even when it is also a value field name.
    assert_eq!(ok("## [1:]{_key,key}\nr|K\n"), json(r#"{"r":{"key":"K"}}"#));
    for key in ["1", "-", "true"] {
        assert_eq!(
            kind(&format!("## [1:]{{key,a}}\n{key}|1\n")),
            ErrorKind::GcfInvalidLine
        );
    }
}

#[test]
fn attachments_keep_header_order() {
    let text = "## r [1]{a,b,c,d}\n@0 ^|1|^|2\n.c [1]: x\n  .a {}\n    k=v\n";
    assert_eq!(
        ok(text),
        json(r#"{"r":[{"a":{"k":"v"},"b":1,"c":["x"],"d":2}]}"#)
    );
}

#[test]
fn positional_bodies_match_in_field_order() {
    // a declares a schema, b is traditional, c reuses nothing yet: bodies go a, then c.
    let text = "## r [2]{a,b,c}\n@0 ^{x,y}|^|^{z}\n  .b {}\n1|2\n3\n@1 ^|^|^\n.c {}\n4|5\n.b [0]\n";
    assert_eq!(
        ok(text),
        json(
            r#"{"r":[{"a":{"x":1,"y":2},"b":{},"c":{"z":3}},
                     {"a":{"x":4,"y":5},"b":[],"c":{}}]}"#
        )
    );
    // Quoted values starting with `.` are positional, not attachments.
    assert_eq!(
        ok("## r [1]{a}\n@0 ^{x}\n\".hidden\"\n"),
        json(r#"{"r":[{"a":{"x":".hidden"}}]}"#)
    );
    // `~` and `^` are not positional values.
    assert_eq!(
        kind("## r [1]{a}\n@0 ^{x,y}\n1|~\n"),
        ErrorKind::GcfInvalidMissing
    );
}

#[test]
fn shared_array_schemas() {
    let text = "## r [3]{id,items}\n@0 1|^\n.items [1]{s,p}\n    A|1\n@1 2|^\n.items [1]\n    B|2\n@2 3|^\n.items [2]\n    @0 =x\n    @1 {}\n";
    assert_eq!(
        ok(text),
        json(
            r#"{"r":[{"id":1,"items":[{"s":"A","p":1}]},{"id":2,"items":[{"s":"B","p":2}]},
                     {"id":3,"items":["x",{}]}]}"#
        )
    );
    // The schema does not leak into another table.
    let text =
        "## r [1]{items}\n@0 ^\n.items [1]{s}\n    A\n## q [1]{items}\n@0 ^\n.items [1]\n    B\n";
    assert_eq!(kind(text), ErrorKind::GcfCountMismatch);
}

#[test]
fn flattened_paths() {
    let text = "## [4]{id,\"a>x\",\"b>c>d\",\"a>y\",\"b>c>e\",\"b>f\"}\n1|1|2|3|4|5\n2|~|-|~|-|~\n3|-|~|-|~|~\n4|~|~|~|~|~\n";
    assert_eq!(
        ok(text),
        json(
            r#"[{"id":1,"a":{"x":1,"y":3},"b":{"c":{"d":2,"e":4},"f":5}},
                {"id":2,"b":{"c":{"d":null,"e":null}}},
                {"id":3,"a":null},
                {"id":4}]"#
        )
    );
    // Empty segments make a literal name.
    assert_eq!(
        ok("## [1]{\"a>\",\">b\",\"a>>b\"}\n1|2|3\n"),
        json(r#"[{"a>":1,">b":2,"a>>b":3}]"#)
    );
    assert_eq!(
        kind("## [1]{\"a>b\"}\n@0 ^\n.\"a>b\" {}\n"),
        ErrorKind::GcfInvalidAttachmentMarker
    );
    // A `>`-named field outside the columns is a bare per-row attachment.
    assert_eq!(
        ok("## [1]{id}\n@0 1\n.\"a>b\" =x\n.\"c>d\" {}\n    k=1\n"),
        json(r#"[{"id":1,"a>b":"x","c>d":{"k":1}}]"#)
    );
}

#[test]
fn deferred_counts_and_the_summary() {
    let text = "## a [?]{x}\n1\n2\n## b [?]\n@0 =1\nc[?]: 1,2,3\n##! summary counts=2,1,3\n";
    assert_eq!(
        ok(text),
        json(r#"{"a":[{"x":1},{"x":2}],"b":[1],"c":[1,2,3]}"#)
    );
    // No trailer: the actual counts stand.
    assert_eq!(
        ok("## a [?]{x}\n1\n2\n"),
        json(r#"{"a":[{"x":1},{"x":2}]}"#)
    );
    // Buffered mode: the trailer is informational.
    assert_eq!(
        ok("## a [1]{x}\n1\n##! summary counts=7\n"),
        json(r#"{"a":[{"x":1}]}"#)
    );
    // Comments never count and may follow the trailer.
    assert_eq!(
        ok("## a [?]{x}\n# c\n1\n##! summary counts=1\n# end\n"),
        json(r#"{"a":[{"x":1}]}"#)
    );
    let e = err("## a [?]{x}\n1\n## b [?]{x}\n1\n2\n##! summary counts=1,3\n");
    assert_eq!((e.kind(), e.line()), (ErrorKind::GcfCountMismatch, Some(4)));
    assert_eq!(
        kind("## a [?]{x}\n1\n##! summary symbols=1\n"),
        ErrorKind::GcfCountMismatch
    );
}

#[test]
fn identity_column_with_header_key() {
    let text = "GCF profile=generic pack_root=sha256:00 key=id\n## o [2]{@id,total}\n1|2\n3|4\n";
    assert_eq!(
        decode_generic(text).unwrap(),
        json(r#"{"o":[{"id":1,"total":2},{"id":3,"total":4}]}"#)
    );
    let dup = "GCF profile=generic key=id\n## o [2]{@id,total}\n1|2\n1.0|4\n";
    assert_eq!(
        decode_generic(dup).unwrap_err().kind(),
        ErrorKind::GcfDuplicateKey
    );
    let other = "GCF profile=generic key=total\n## o [1]{@id,total}\n1|2\n";
    assert_eq!(
        decode_generic(other).unwrap_err().kind(),
        ErrorKind::GcfInvalidLine
    );
}

#[test]
fn whitespace_rules() {
    assert_eq!(
        ok("a= x \r\nb=\"  y \"\r\n   \r\n## s  \n  t[2]: 1 , \"2\"\n"),
        json(r#"{"a":"x","b":"  y ","s":{"t":[1,"2"]}}"#)
    );
    assert_eq!(kind("a =1\n"), ErrorKind::GcfInvalidLine);
    assert_eq!(kind("##  s\n"), ErrorKind::GcfInvalidLine);
}

#[test]
fn depth_limit() {
    let options = DecodeOptions {
        max_depth: 3,
        ..DecodeOptions::default()
    };
    let decode_body = |text: &str| decode(body(text).as_bytes(), &options);
    assert!(decode_body("## a\n  ## b\n    c=1\n").is_ok());
    let e = decode_body("## a\n  ## b\n    ## c\n").unwrap_err();
    assert_eq!((e.kind(), e.line()), (ErrorKind::GcfTooDeep, Some(4)));
    assert_eq!(
        decode_body("## [1]{\"a>b>c\"}\n1\n").unwrap_err().kind(),
        ErrorKind::GcfTooDeep
    );
    assert!(matches!(
        decode_body("## [1]{\"a>b\"}\n1\n"),
        Ok(Document::Generic(_))
    ));
    assert_eq!(
        decode_body("## [1]\n@0 [1]\n  @0 [1]\n    @0 [1]: 1\n")
            .unwrap_err()
            .kind(),
        ErrorKind::GcfTooDeep
    );
    let zero = DecodeOptions {
        max_depth: 0,
        ..DecodeOptions::default()
    };
    assert!(decode(body("=1\n").as_bytes(), &zero).is_ok());
    assert!(decode(body("a=1\n").as_bytes(), &zero).is_err());
}

/// Nesting up to the default limit must not exhaust a 2 MiB test-thread stack.
#[test]
fn deep_nesting_at_the_default_limit() {
    let limit = DecodeOptions::default().max_depth;
    let mut sections = String::new();
    for level in 0..limit - 1 {
        sections.push_str(&" ".repeat(level * 2));
        sections.push_str("## s\n");
    }
    assert!(decode_generic(&body(&sections)).is_ok());
    sections.push_str(&" ".repeat((limit - 1) * 2));
    sections.push_str("## s\n");
    assert_eq!(
        decode_generic(&body(&sections)).unwrap_err().kind(),
        ErrorKind::GcfTooDeep
    );

    let mut items = String::from("## [1]\n");
    for level in 1..=limit {
        items.push_str(&" ".repeat((level - 1) * 2));
        items.push_str("@0 [1]\n");
    }
    assert_eq!(
        decode_generic(&body(&items)).unwrap_err().kind(),
        ErrorKind::GcfTooDeep
    );

    // Row attachments: each level is a one-row table whose cell attaches the next.
    let mut rows = String::from("## [1]{a}\n");
    let mut depth = 1;
    let mut indent = 0;
    while depth + 2 <= limit {
        rows.push_str(&" ".repeat(indent));
        rows.push_str("@0 ^\n");
        rows.push_str(&" ".repeat(indent));
        rows.push_str(".a [1]{a}\n");
        indent += 4;
        depth += 2;
    }
    rows.push_str(&" ".repeat(indent));
    rows.push_str("1\n");
    assert!(decode_generic(&body(&rows)).is_ok());
}

#[test]
fn declared_counts_allocate_nothing() {
    let huge = "## r [18446744073709551615]{a}\n1\n";
    assert_eq!(kind(huge), ErrorKind::GcfCountMismatch);
    assert_eq!(
        kind("## r [18446744073709551615]\n@0 =1\n"),
        ErrorKind::GcfCountMismatch
    );
    assert_eq!(
        kind("## r [99999999999999999999999]\n"),
        ErrorKind::GcfInvalidCount
    );
}

/// Wide inputs stay linear: these would take minutes with a quadratic key check, attachment
/// lookup, path tree or positional cursor.
#[test]
fn wide_inputs_stay_linear() {
    let n = 40_000;
    let mut object = String::new();
    for i in 0..n {
        object.push_str(&format!("k{i}=1\n"));
    }
    match ok(&object) {
        Value::Object(map) => assert_eq!(map.len(), n),
        other => panic!("{other:?}"),
    }
    object.push_str("k7=2\n");
    assert_eq!(kind(&object), ErrorKind::GcfDuplicateKey);

    let mut header = String::from("## [1]{");
    let mut row = String::from("@0 ");
    let mut bodies = String::new();
    for i in 0..n {
        let sep = if i == 0 { "" } else { "," };
        header.push_str(&format!("{sep}\"g>c{i}\",f{i},m{i}"));
        let sep = if i == 0 { "" } else { "|" };
        row.push_str(&format!("{sep}{i}|^|^{{x}}"));
        bodies.push_str(&format!(".f{i} [0]\n{i}\n.\"x>{i}\" =1\n"));
    }
    header.push_str("}\n");
    let text = format!("{header}{row}\n{bodies}");
    let Value::Array(rows) = ok(&text) else {
        panic!("not an array")
    };
    let Some(Value::Object(first)) = rows.first() else {
        panic!("no row")
    };
    // The group `g`, then f and m per column, then the bare attachments.
    assert_eq!(first.len(), 1 + 2 * n + n);

    // A wide shared array schema is compiled once, however many short attachments reuse it.
    let width = 20_000;
    let mut text = format!("## r [{}]{{id,items}}\n@0 0|^\n.items [1]{{", n + 1);
    for i in 0..width {
        text.push_str(&format!("{}field_name_{i}", if i == 0 { "" } else { "," }));
    }
    text.push_str("}\n    ");
    text.push_str(&"|".repeat(width - 1));
    text.push('\n');
    for i in 1..=n {
        let count = if i % 2 == 0 { "0" } else { "?" };
        text.push_str(&format!("@{i} {i}|^\n.items [{count}]\n"));
    }
    let Value::Object(root) = ok(&text) else {
        panic!("not an object")
    };
    assert_eq!(
        root.get("r").and_then(Value::as_array).map(<[Value]>::len),
        Some(n + 1)
    );
}

// ---------------------------------------------------------------------------------------------
// v3.6.0: constant columns and grouped sections (the error cases with positions are
// tests/fixtures-local/gcf36/errors.json)
// ---------------------------------------------------------------------------------------------

#[test]
fn constants_in_every_tabular_position() {
    let rows = json(r#"[{"id":1,"kind":"x","n":null},{"id":2,"kind":"x","n":null}]"#);
    // A root table, a member section, an attachment, an expanded item, a keyed map.
    assert_eq!(ok("## [2]{id,kind=x,n=-}\n1\n2\n"), rows);
    assert_eq!(
        ok("## r [2]{id,kind=x,n=-}\n1\n2\nz=1\n"),
        json(r#"{"r":[{"id":1,"kind":"x","n":null},{"id":2,"kind":"x","n":null}],"z":1}"#)
    );
    assert_eq!(
        ok("## [1]{t}\n@0 ^\n.t [2]{id,kind=x,n=-}\n    1\n    2\n"),
        json(r#"[{"t":[{"id":1,"kind":"x","n":null},{"id":2,"kind":"x","n":null}]}]"#)
    );
    assert_eq!(
        ok("## [1]\n@0 [2]{id,kind=x,n=-}\n  1\n  2\n"),
        Value::Array(alloc::vec![rows.clone()])
    );
    assert_eq!(
        ok("## [2:]{key,v,kind=x}\na|1\nb|2\n"),
        json(r#"{"a":{"v":1,"kind":"x"},"b":{"v":2,"kind":"x"}}"#)
    );
    // A shared array schema carries its constants to the later rows.
    assert_eq!(
        ok("## [2]{t}\n@0 ^\n.t [1]{a,k=1}\n    1\n@1 ^\n.t [1]\n    2\n"),
        json(r#"[{"t":[{"a":1,"k":1}]},{"t":[{"a":2,"k":1}]}]"#)
    );
}

#[test]
fn constant_values_and_names() {
    // Quoted names and values; `=` inside a bare value; a constant keeps its place among
    // path columns; a `>`-named constant is a literal member (as the gcf crate reads it).
    assert_eq!(
        ok("## [1]{\"a b\"=\"x,}\",v=a=b,\"m>x\",\"p>q\"=1}\n2\n"),
        json(r#"[{"a b":"x,}","v":"a=b","m":{"x":2},"p>q":1}]"#)
    );
    // `^{` without its closing brace is a string, as a constant, a cell or a value.
    assert_eq!(
        ok("## [2]{id,c=^{abc}\n1\n2\n"),
        json(r#"[{"id":1,"c":"^{abc"},{"id":2,"c":"^{abc"}]"#)
    );
    assert_eq!(ok("## [1]{a}\n^{x\n"), json(r#"[{"a":"^{x"}]"#));
    assert_eq!(ok("k=^{\n"), json(r#"{"k":"^{"}"#));
    // A complete marker that is not a valid declaration is still rejected.
    assert_eq!(
        kind("## [1]{a}\n^{a b}\n"),
        ErrorKind::GcfInvalidAttachmentMarker
    );
}

#[test]
fn grouped_sections() {
    let text = "## [3]{@id,dept,site=ber} group=dept\ndept=eng [2]\n1\n3\ndept=\"a,b\" [1]\n2\n";
    assert_eq!(
        ok(text),
        json(
            r#"[{"id":1,"dept":"eng","site":"ber"},{"id":3,"dept":"eng","site":"ber"},
                {"id":2,"dept":"a,b","site":"ber"}]"#
        )
    );
    // As a member followed by others, in an attachment, with a deferred count.
    assert_eq!(
        ok("## g [1]{@id,d} group=d\nd=- [1]\n1\nz=1\n"),
        json(r#"{"g":[{"id":1,"d":null}],"z":1}"#)
    );
    assert_eq!(
        ok("## [1]{t}\n@0 ^\n.t [2]{@id,d} group=d\n    d=a [1]\n    1\n    d=b [1]\n    2\n"),
        json(r#"[{"t":[{"id":1,"d":"a"},{"id":2,"d":"b"}]}]"#)
    );
    assert_eq!(
        ok("## g [?]{@id,d} group=d\nd=a [2]\n1\n2\n##! summary counts=2\n"),
        json(r#"{"g":[{"id":1,"d":"a"},{"id":2,"d":"a"}]}"#)
    );
    // `~` cells leave members out; `>`-named columns are literal and come last (the crate's
    // member order).
    assert_eq!(
        ok("## [1]{\"a>b\",@id,d,v} group=d\nd=x [1]\n1|1|~\n"),
        json(r#"[{"id":1,"d":"x","a>b":1}]"#)
    );
    // A keyed member of the same name as the group value's text is no subheader once the
    // declared count is read.
    assert_eq!(
        ok("## g [1]{@id,d} group=d\nd=a [1]\n1\nd=a [1]\n"),
        json(r#"{"g":[{"id":1,"d":"a"}],"d":"a [1]"}"#)
    );
}

#[test]
fn the_version_a_payload_uses() {
    use crate::gcf::v3::{SpecVersion, decode_versioned};
    let version = |text: &str| {
        decode_versioned(body(text).as_bytes(), &DecodeOptions::default())
            .unwrap()
            .0
    };
    assert_eq!(version("## [2]{a,b}\n1|x\n2|x\n"), SpecVersion::V3_5_3);
    assert_eq!(version("k=^{abc\n"), SpecVersion::V3_5_3);
    assert_eq!(version("## [2]{a,b=x}\n1\n2\n"), SpecVersion::V3_6_0);
    assert_eq!(
        version("## [1]{@id,d} group=d\nd=a [1]\n1\n"),
        SpecVersion::V3_6_0
    );
    assert_eq!(
        version("## [1]{t}\n@0 ^\n.t [1]{a,b=1}\n    1\n"),
        SpecVersion::V3_6_0
    );
}

#[test]
fn constant_copies_are_bounded() {
    // 24 bytes of constants per row (three at least 8 each); 10 rows need 240.
    let text = body("## [10]{id,a=1,b=2,c=3}\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
    let limited = |max_constant_bytes: usize| {
        let options = DecodeOptions {
            max_constant_bytes,
            ..DecodeOptions::default()
        };
        decode(text.as_bytes(), &options)
    };
    assert!(limited(240).is_ok());
    let e = limited(239).unwrap_err();
    assert_eq!(
        (e.kind(), e.line()),
        (ErrorKind::GcfPayloadTooLarge, Some(12)) // the tenth row
    );
    // Group values count too (the group value and the constants, per record).
    let grouped = body("## [2]{@id,d,k=1} group=d\nd=a [2]\n1\n2\n");
    let options = DecodeOptions {
        max_constant_bytes: 31,
        ..DecodeOptions::default()
    };
    assert_eq!(
        decode(grouped.as_bytes(), &options).unwrap_err().kind(),
        ErrorKind::GcfPayloadTooLarge
    );
}
