use super::*;
use crate::json::{self, ParseOptions};

fn parse(json_text: &str) -> Value {
    json::parse_with(
        json_text,
        &ParseOptions {
            literal_numbers: true,
            ..ParseOptions::default()
        },
    )
    .unwrap()
}

/// The body (header line stripped) of the encoding of `json_text`.
fn encode(json_text: &str) -> String {
    let text = encode_generic(&parse(json_text)).unwrap();
    text.strip_prefix("GCF profile=generic\n").unwrap().into()
}

#[test]
fn roots() {
    assert_eq!(encode("42"), "=42\n");
    assert_eq!(encode("\"-\""), "=\"-\"\n");
    assert_eq!(encode("null"), "=-\n");
    assert_eq!(encode("{}"), "");
    assert_eq!(encode("[]"), "## [0]\n");
    assert_eq!(encode("[1,\"a,b\"]"), "## [2]: 1,\"a,b\"\n");
    assert_eq!(encode("[{}]"), "## [1]\n@0 {}\n");
}

#[test]
fn nested_containers_in_expanded_items() {
    assert_eq!(
        encode(r#"{"x":[1,[],[2],[{"a":1}],{"k":{"a":{"b":1},"c":{"b":2}}},[[3]]]}"#),
        "## x [6]\n@0 =1\n@1 [0]\n@2 [1]: 2\n@3 [1]{a}\n  1\n@4 {}\n  ## k [2:]{key,b}\n  a|1\n  c|2\n\
         @5 [1]\n  @0 [1]: 3\n"
    );
    // A keyed map as an item, and an object item's section indentation.
    assert_eq!(
        encode(r#"[{"a":{"x":1},"b":{"x":2}},{"o":{"p":1}},0]"#),
        "## [3]\n@0 [2:]{key,x}\n  a|1\n  b|2\n@1 {}\n  ## o\n    p=1\n@2 =0\n"
    );
}

#[test]
fn flatten_guards_all_null_objects_at_every_level() {
    // Top level: {"x":null} would read back as null.
    assert_eq!(
        encode(r#"[{"m":{"x":null}},{"m":{"x":1}}]"#),
        "## [2]{m}\n@0 ^\n.m {}\n    x=-\n@1 ^\n.m {}\n    x=1\n"
    );
    // Nested level: the inner object {"y":null} would read back as null too.
    assert_eq!(
        encode(r#"[{"m":{"x":1,"i":{"y":null}}}]"#),
        "## [1]{m}\n@0 ^\n.m {}\n    x=1\n    ## i\n      y=-\n"
    );
    // A top-level null field flattens to `-` cells; leaves keep their own nulls.
    assert_eq!(
        encode(r#"[{"m":{"x":1,"i":{"y":null,"z":2}}},{"m":null},{}]"#),
        "## [3]{\"m>x\",\"m>i>y\",\"m>i>z\"}\n1|-|2\n-|-|-\n~|~|~\n"
    );
    // Empty nested objects have no leaf column.
    assert_eq!(
        encode(r#"[{"m":{"e":{}}}]"#),
        "## [1]{m}\n@0 ^\n.m {}\n    ## e\n"
    );
}

#[test]
fn inline_schema_when_flattening_is_impossible() {
    // An empty key cannot be a path segment, so the three-key objects go inline.
    assert_eq!(
        encode(
            r#"[{"id":1,"m":{"":1,"b":"x|y","c":null}},{"id":2},{"id":3,"m":{"":4,"b":5,"c":6}}]"#
        ),
        "## [3]{id,m}\n@0 1|^{\"\",b,c}\n1|\"x|y\"|-\n2|~\n@2 3|^\n4|5|6\n"
    );
    // A present null makes the field ineligible: traditional attachments.
    assert_eq!(
        encode(r#"[{"m":{"":1,"b":2,"c":3}},{"m":null}]"#),
        "## [2]{m}\n@0 ^\n.m {}\n    \"\"=1\n    b=2\n    c=3\n-\n"
    );
    // Row 0 must declare the schema.
    assert_eq!(
        encode(r#"[{"i":0},{"m":{"":1,"b":2,"c":3}}]"#),
        "## [2]{i,m}\n0|~\n@1 ~|^\n.m {}\n    \"\"=1\n    b=2\n    c=3\n"
    );
    // Fewer than three keys: traditional.
    assert_eq!(
        encode(r#"[{"m":{"":1,"b":2}}]"#),
        "## [1]{m}\n@0 ^\n.m {}\n    \"\"=1\n    b=2\n"
    );
}

#[test]
fn shared_array_schema_comes_from_row_zero_only() {
    assert_eq!(
        encode(r#"[{"t":[{"a":1}]},{"t":[{"b":1}]},{"t":[{"a":2},{"a":3}]}]"#),
        "## [3]{t}\n@0 ^\n.t [1]{a}\n    1\n@1 ^\n.t [1]{b}\n    1\n@2 ^\n.t [2]\n    2\n    3\n"
    );
    // Row 0 without a table: every later table is declared in full.
    assert_eq!(
        encode(r#"[{"t":1},{"t":[{"a":1}]},{"t":[{"a":2}]}]"#),
        "## [3]{t}\n1\n@1 ^\n.t [1]{a}\n    1\n@2 ^\n.t [1]{a}\n    2\n"
    );
    // A table with attachments never reuses a schema.
    assert_eq!(
        encode(r#"[{"t":[{"a":[1]}]},{"t":[{"a":[2]}]}]"#),
        "## [2]{t}\n@0 ^\n.t [1]{a}\n    @0 ^\n    .a [1]: 1\n@1 ^\n.t [1]{a}\n    @0 ^\n    .a [1]: 2\n"
    );
}

#[test]
fn expanded_attachment_after_table_attachment_is_not_tabular() {
    // `.t [1]` after `.t [1]{a}` would read as a table: the array is expanded instead.
    assert_eq!(
        encode(r#"[{"t":[{"a":1}]},{"t":[[1]]}]"#),
        "## [2]\n@0 {}\n  ## t [1]{a}\n  1\n@1 {}\n  ## t [1]\n  @0 [1]: 1\n"
    );
    // The other order is fine.
    assert_eq!(
        encode(r#"[{"t":[[1]]},{"t":[{"a":1}]}]"#),
        "## [2]{t}\n@0 ^\n.t [1]\n    @0 [1]: 1\n@1 ^\n.t [1]{a}\n    1\n"
    );
    // Same rule for keyed maps: sections instead.
    assert_eq!(
        encode(r#"{"p":{"t":[{"a":1}]},"q":{"t":[[1]]}}"#),
        "## p\n  ## t [1]{a}\n  1\n## q\n  ## t [1]\n  @0 [1]: 1\n"
    );
}

#[test]
fn gt_fields_are_attachments() {
    assert_eq!(
        encode(r#"[{"a>b":{"x":1},"id":1},{"id":2},{"a>b":[1],"id":3}]"#),
        "## [3]{id}\n@0 1\n.\"a>b\" {}\n    x=1\n2\n@2 3\n.\"a>b\" [1]: 1\n"
    );
    // Only `>` fields: no column left, so the array is expanded.
    assert_eq!(encode(r#"[{"a>b":1}]"#), "## [1]\n@0 {}\n  \"a>b\"=1\n");
    // Column attachments come first, then `>` fields in union order.
    assert_eq!(
        encode(r#"[{"y>":1,"x>":2,"c":[1]},{"x>":3,"y>":4}]"#),
        "## [2]{c}\n@0 ^\n.c [1]: 1\n.\"y>\" =1\n.\"x>\" =2\n@1 ~\n.\"y>\" =4\n.\"x>\" =3\n"
    );
}

#[test]
fn keyed_map_label_and_key_cells() {
    assert_eq!(
        encode(r#"{"a|b":{"key":1,"_key":2},"-":{"key":3}}"#),
        "## [2:]{__key,key,_key}\n\"a|b\"|1|2\n\"-\"|3|~\n"
    );
    // A named empty key is quoted; a member holding attachments takes `@i`.
    assert_eq!(
        encode(r#"{"":{"a":{"x":[1]},"b":{"x":2}}}"#),
        "## \"\" [2:]{key,x}\n@0 a|^\n.x [1]: 1\nb|2\n"
    );
}

#[test]
fn wide_union_keeps_first_observed_order() {
    let mut text = String::from("[");
    for row in 0..3 {
        if row > 0 {
            text.push(',');
        }
        text.push('{');
        // Each row lists the fields in reverse, offset so that rows introduce new fields.
        for (i, field) in (row..row + 20).rev().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&alloc::format!("\"f{field}\":{field}"));
        }
        text.push('}');
    }
    text.push(']');
    let body = encode(&text);
    let header = body.lines().next().unwrap();
    let mut expected = String::from("## [3]{");
    let order: Vec<usize> = (0..20).rev().chain([20, 21]).collect();
    for (i, field) in order.iter().enumerate() {
        if i > 0 {
            expected.push(',');
        }
        expected.push_str(&alloc::format!("f{field}"));
    }
    expected.push('}');
    assert_eq!(header, expected);
    let last_row = body.lines().nth(3).unwrap();
    assert!(last_row.starts_with("19|18|"), "{last_row}");
    assert!(last_row.ends_with("|3|2|~|~|20|21"), "{last_row}");
}

#[test]
fn numbers_out_of_domain() {
    let error = encode_generic(&parse(r#"{"v":[1,9223372036854775808]}"#)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::GcfOutOfRange);
    let error = encode_generic(&parse(r#"[{"a":-9223372036854775809}]"#)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::GcfOutOfRange);
    let nan = Value::Number(crate::json::Number::from_f64(f64::NAN));
    assert_eq!(
        encode_generic(&nan).unwrap_err().kind(),
        ErrorKind::GcfOutOfRange
    );
    assert_eq!(encode(r#"[-0.0, 5e18, 1e-7]"#), "## [3]: 0,5e+18,1e-7\n");
}

fn nested_arrays(levels: usize) -> Value {
    let mut value = Value::Array(Vec::new());
    for _ in 1..levels {
        value = Value::Array(alloc::vec![value]);
    }
    value
}

#[test]
fn depth_limit() {
    let text = encode_generic(&nested_arrays(MAX_DEPTH)).unwrap();
    assert!(text.ends_with("@0 [0]\n"));
    let error = encode_generic(&nested_arrays(MAX_DEPTH + 1)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::GcfTooDeep);
    // Deep objects inside table attachments (the deepest indentation per level).
    let mut value = parse("1");
    for _ in 1..MAX_DEPTH / 2 {
        let mut row = Map::new();
        row.insert("a".into(), value);
        value = Value::Array(alloc::vec![Value::Object(row)]);
    }
    assert!(encode_generic(&value).is_ok());
}

mod stream {
    use super::*;

    fn row(json_text: &str) -> Map {
        match parse(json_text) {
            Value::Object(map) => map,
            _ => unreachable!(),
        }
    }

    #[test]
    fn sections_and_trailer() {
        let mut stream = GenericStreamEncoder::new();
        stream
            .begin_section("employees", &["id", "name", "a,b"])
            .unwrap();
        stream.row(&row(r#"{"name":"Ada","id":1}"#)).unwrap();
        stream.row(&row(r#"{"id":2,"a,b":null}"#)).unwrap();
        stream.begin_section("", &["x"]).unwrap();
        stream.begin_section("more rows", &["x"]).unwrap();
        stream.row(&row(r#"{"x":"a|b"}"#)).unwrap();
        assert_eq!(
            stream.finish(),
            "GCF profile=generic\n## employees [?]{id,name,\"a,b\"}\n1|Ada|~\n2|~|-\n\
             ## \"\" [?]{x}\n## \"more rows\" [?]{x}\n\"a|b\"\n##! summary counts=2,0,1\n"
        );
        assert_eq!(
            GenericStreamEncoder::new().finish(),
            "GCF profile=generic\n##! summary\n"
        );
    }

    #[test]
    fn rejects_what_a_stream_cannot_write() {
        let mut stream = GenericStreamEncoder::new();
        assert!(stream.row(&row(r#"{"id":1}"#)).is_err());
        assert!(stream.begin_section("s", &[]).is_err());
        assert!(stream.begin_section("s", &["a>b"]).is_err());
        assert_eq!(
            stream.begin_section("s", &["a", "a"]).unwrap_err().kind(),
            ErrorKind::GcfDuplicateFieldName
        );
        stream.begin_section("s", &["id"]).unwrap();
        assert_eq!(
            stream.begin_section("s", &["id"]).unwrap_err().kind(),
            ErrorKind::GcfDuplicateKey
        );
        // An undeclared field is an error, never dropped; so is a nested value.
        assert!(stream.row(&row(r#"{"id":1,"extra":2}"#)).is_err());
        assert!(stream.row(&row(r#"{"id":[1]}"#)).is_err());
        assert_eq!(
            stream.row(&row(r#"{"id":1e999999}"#)).unwrap_err().kind(),
            ErrorKind::GcfOutOfRange
        );
        stream.row(&row(r#"{"id":7}"#)).unwrap();
        assert_eq!(
            stream.finish(),
            "GCF profile=generic\n## s [?]{id}\n7\n##! summary counts=1\n"
        );
    }
}
