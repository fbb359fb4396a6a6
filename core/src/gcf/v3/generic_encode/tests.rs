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

/// The body (header line stripped) of the 3.5.3 encoding of `json_text` (the 3.6.0 one:
/// `encode_v3_6`).
fn encode(json_text: &str) -> String {
    encode_in(json_text, SpecVersion::V3_5_3)
}

fn encode_v3_6(json_text: &str) -> String {
    encode_in(json_text, SpecVersion::V3_6_0)
}

fn encode_in(json_text: &str, version: SpecVersion) -> String {
    let options = EncodeOptions {
        version,
        ..EncodeOptions::default()
    };
    let text = encode_generic_with(&parse(json_text), &options).unwrap();
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

// ---------------------------------------------------------------------------------------------
// v3.6.0 (the default): what differs from 3.5.3, as the gcf crate 3.1.0 writes it
// ---------------------------------------------------------------------------------------------

#[test]
fn constant_columns_are_factored_in_sections() {
    let rows = r#"[{"id":1,"type":"entity","n":null},{"id":2,"type":"entity","n":null}]"#;
    assert_eq!(encode_v3_6(rows), "## [2]{id,type=entity,n=-}\n1\n2\n");
    assert_eq!(encode(rows), "## [2]{id,type,n}\n1|entity|-\n2|entity|-\n");
    // Sections at any depth are factored, in objects and in object items.
    assert_eq!(
        encode_v3_6(r#"{"a":{"b":[{"k":1,"v":1},{"k":1,"v":2}]}}"#),
        "## a\n  ## b [2]{k=1,v}\n  1\n  2\n"
    );
    assert_eq!(
        encode_v3_6(r#"[0,{"b":[{"k":1,"v":1},{"k":1,"v":2}]}]"#),
        "## [2]\n@0 =0\n@1 {}\n  ## b [2]{k=1,v}\n  1\n  2\n"
    );
    // Not in attachments, expanded array items or keyed tables (as the crate).
    assert_eq!(
        encode_v3_6(r#"[{"t":[{"k":1,"v":1},{"k":1,"v":2}]}]"#),
        "## [1]{t}\n@0 ^\n.t [2]{k,v}\n    1|1\n    1|2\n"
    );
    assert_eq!(
        encode_v3_6(r#"[[{"k":1,"v":1},{"k":1,"v":2}]]"#),
        "## [1]\n@0 [2]{k,v}\n  1|1\n  1|2\n"
    );
    assert_eq!(
        encode_v3_6(r#"{"m":{"a":{"k":1,"v":1},"b":{"k":1,"v":2}}}"#),
        "## m [2:]{key,k,v}\na|1|1\nb|1|2\n"
    );
}

#[test]
fn constant_columns_need_the_same_written_scalar_in_every_row() {
    // One row: nothing to factor.
    assert_eq!(encode_v3_6(r#"[{"a":1,"b":2}]"#), "## [1]{a,b}\n1|2\n");
    // Absent in a row, or a container somewhere: not constant.
    assert_eq!(
        encode_v3_6(r#"[{"a":1,"b":2},{"b":2}]"#),
        "## [2]{a,b=2}\n1\n~\n"
    );
    assert_eq!(
        encode_v3_6(r#"[{"a":1,"b":[2]},{"a":2,"b":[2]}]"#),
        "## [2]{a,b}\n@0 1|^\n.b [1]: 2\n@1 2|^\n.b [1]: 2\n"
    );
    // Written values compare: 1 and 1.0 are one constant, "1" and 1 are not.
    assert_eq!(
        encode_v3_6(r#"[{"a":1,"b":1},{"a":1.0,"b":"1"}]"#),
        "## [2]{a=1,b}\n1\n\"1\"\n"
    );
    // Every column constant: the last one keeps its cells.
    assert_eq!(
        encode_v3_6(r#"[{"a":1,"b":2},{"a":1,"b":2}]"#),
        "## [2]{a=1,b}\n2\n2\n"
    );
    // Path columns are never constant; plain ones next to them are.
    assert_eq!(
        encode_v3_6(r#"[{"a":1,"m":{"x":1}},{"a":1,"m":{"x":1}}]"#),
        "## [2]{a=1,\"m>x\"}\n1\n1\n"
    );
}

#[test]
fn constant_values_quote_as_cells_and_quote_a_closing_brace() {
    let table = |v: &str| {
        encode_v3_6(&alloc::format!(
            r#"[{{"id":1,"c":{v}}},{{"id":2,"c":{v}}}]"#
        ))
    };
    assert_eq!(table(r#""x}""#), "## [2]{id,c=\"x}\"}\n1\n2\n");
    assert_eq!(table(r#""a,b""#), "## [2]{id,c=\"a,b\"}\n1\n2\n");
    assert_eq!(table(r#""""#), "## [2]{id,c=\"\"}\n1\n2\n");
    assert_eq!(table(r#""~""#), "## [2]{id,c=\"~\"}\n1\n2\n");
    assert_eq!(table(r#""^{a}""#), "## [2]{id,c=\"^{a}\"}\n1\n2\n");
    // Bare when they read back as themselves: `=`, spaces inside, `{`, `]`, `^{abc`.
    assert_eq!(table(r#""a=b c""#), "## [2]{id,c=a=b c}\n1\n2\n");
    assert_eq!(table(r#""{x]""#), "## [2]{id,c={x]}\n1\n2\n");
    assert_eq!(table(r#""^{abc""#), "## [2]{id,c=^{abc}\n1\n2\n");
}

#[test]
fn an_open_caret_brace_stays_bare_in_v3_6() {
    assert_eq!(encode_v3_6(r#"{"k":"^{abc"}"#), "k=^{abc\n");
    assert_eq!(encode(r#"{"k":"^{abc"}"#), "k=\"^{abc\"\n");
    assert_eq!(encode_v3_6(r#"{"k":"^{a}"}"#), "k=\"^{a}\"\n");
}

#[test]
fn v3_6_flattens_objects_with_an_all_null_inner_object() {
    // 3.5.3 keeps them as attachments (flatten_guards_all_null_objects_at_every_level); the
    // crate checks only that a row's leaves are not all null.
    assert_eq!(
        encode_v3_6(r#"[{"m":{"x":1,"i":{"y":null}}}]"#),
        "## [1]{\"m>x\",\"m>i>y\"}\n1|-\n"
    );
    assert_eq!(
        encode_v3_6(r#"[{"m":{"x":null}},{"m":{"x":1}}]"#),
        "## [2]{m}\n@0 ^\n.m {}\n    x=-\n@1 ^\n.m {}\n    x=1\n"
    );
}

#[test]
fn v3_6_inline_schemas_admit_null_rows() {
    assert_eq!(
        encode_v3_6(r#"[{"m":{"":1,"b":2,"c":3}},{"m":null},{"m":{"":4,"b":5,"c":6}}]"#),
        "## [3]{m}\n@0 ^{\"\",b,c}\n1|2|3\n-\n@2 ^\n4|5|6\n"
    );
}

#[test]
fn v3_6_shares_array_schemas_only_when_every_row_fits() {
    // Every row's array a table of scalars over one field union: the later rows omit it.
    assert_eq!(
        encode_v3_6(r#"[{"t":[{"a":1}]},{"t":null},{"t":[{"a":2},{"b":3}]}]"#),
        "## [3]{t}\n@0 ^\n.t [1]{a}\n    1\n-\n@2 ^\n.t [2]{a,b}\n    2|~\n    ~|3\n"
    );
    assert_eq!(
        encode_v3_6(r#"[{"t":[{"a":1}]},{"t":[{"a":2},{"a":3}]}]"#),
        "## [2]{t}\n@0 ^\n.t [1]{a}\n    1\n@1 ^\n.t [2]\n    2\n    3\n"
    );
    // One row apart (an empty array here): every table is declared (3.5.3 shares row 0's).
    let rows = r#"[{"t":[{"a":1}]},{"t":[]},{"t":[{"a":2}]}]"#;
    assert_eq!(
        encode_v3_6(rows),
        "## [3]{t}\n@0 ^\n.t [1]{a}\n    1\n@1 ^\n.t [0]\n@2 ^\n.t [1]{a}\n    2\n"
    );
    assert!(encode(rows).ends_with("@2 ^\n.t [1]\n    2\n"));
    // An expanded array after a table stays a table attachment (3.5.3 expands the array).
    assert_eq!(
        encode_v3_6(r#"[{"t":[{"a":1}]},{"t":[[1]]}]"#),
        "## [2]{t}\n@0 ^\n.t [1]{a}\n    1\n@1 ^\n.t [1]\n    @0 [1]: 1\n"
    );
}

#[test]
fn grouped_encoding() {
    let grouped = |json_text: &str, key: &str, group: &str| {
        encode_generic_grouped(&parse(json_text), key, group)
            .map(|t| String::from(t.strip_prefix("GCF profile=generic\n").unwrap()))
    };
    assert_eq!(
        grouped(
            r#"[{"id":1,"d":"a","x":1,"y":"s"},{"id":2,"d":"b","x":2,"y":"s"},{"id":3,"d":"a","x":3,"y":"s"}]"#,
            "id",
            "d"
        )
        .unwrap(),
        "## [3]{@id,d,x,y=s} group=d\nd=a [2]\n1|1\n3|3\nd=b [1]\n2|2\n"
    );
    // A record without the group field joins the null group; absent cells are `~`; one record
    // factors nothing; subheader values are written as cells (a `}` needs no quotes there).
    assert_eq!(
        grouped(
            r#"[{"id":"k","d":"a}","x":1},{"id":"j","x":1,"z":2}]"#,
            "id",
            "d"
        )
        .unwrap(),
        "## [2]{@id,d,x=1,z} group=d\nd=a} [1]\nk|~\nd=- [1]\nj|2\n"
    );
    assert_eq!(
        grouped(r#"[{"id":1,"d":"a","x":1}]"#, "id", "d").unwrap(),
        "## [1]{@id,d,x} group=d\nd=a [1]\n1|1\n"
    );
    let kind = |json_text: &str, key: &str, group: &str| {
        grouped(json_text, key, group).unwrap_err().kind()
    };
    use ErrorKind::{GcfDuplicateKey, GcfOutOfRange, InvalidArgument};
    assert_eq!(kind(r#"{"id":1}"#, "id", "d"), InvalidArgument);
    assert_eq!(kind("[]", "id", "d"), InvalidArgument);
    assert_eq!(kind(r#"[{"id":1,"d":1}]"#, "id", "id"), InvalidArgument);
    assert_eq!(kind(r#"[{"id":1,"d":1},2]"#, "id", "d"), InvalidArgument);
    assert_eq!(kind(r#"[{"id":1,"d":1}]"#, "k", "d"), InvalidArgument);
    assert_eq!(kind(r#"[{"id":1,"d":1}]"#, "id", "g"), InvalidArgument);
    assert_eq!(
        kind(r#"[{"id":1,"d":1,"n":{}}]"#, "id", "d"),
        InvalidArgument
    );
    assert_eq!(
        kind(r#"[{"id":1,"d":1},{"d":1}]"#, "id", "d"),
        InvalidArgument
    );
    assert_eq!(kind(r#"[{"id":null,"d":1}]"#, "id", "d"), InvalidArgument);
    assert_eq!(
        kind(r#"[{"id":1,"d":1},{"id":1.0,"d":2}]"#, "id", "d"),
        GcfDuplicateKey
    );
    assert_eq!(
        kind(r#"[{"id":1,"d":9223372036854775808}]"#, "id", "d"),
        GcfOutOfRange
    );
}
