//! The `agentwire` binary, run as a user runs it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn agentwire(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentwire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agentwire runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

fn fixtures(suite: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(suite)
        .display()
        .to_string()
}

#[test]
fn conformance_prints_the_summary_line() {
    let out = agentwire(&["conformance", "gcx1", &fixtures("gcx1")], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "162 passed, 0 failed\n");
}

#[test]
fn conformance_on_a_directory_without_vectors_fails() {
    let out = agentwire(&["conformance", "gcx1", env!("CARGO_MANIFEST_DIR")], b"");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no GCX1 vector file"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn encode_and_decode_round_trip() {
    let doc = br#"{"sections":[{"tool":"search_symbols","fields":["id","line"],"meta":{"total":"1"},"rows":[["a.go::Foo",10]]}]}"#;
    let out = agentwire(&["gcx", "encode"], doc);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "GCX1 tool=search_symbols fields=id,line total=1\na.go::Foo\t10\n"
    );
    let back = agentwire(&["gcx", "decode"], &out.stdout);
    assert_eq!(
        text(&back.stdout),
        "{\"sections\":[{\"tool\":\"search_symbols\",\"fields\":[\"id\",\"line\"],\"meta\":{\"total\":\"1\"},\"version\":1,\"rows\":[{\"id\":\"a.go::Foo\",\"line\":\"10\"}]}]}\n"
    );
}

#[test]
fn encode_generic_matches_the_reference() {
    let out = agentwire(
        &["gcx", "encode-generic", "--tool", "list"],
        br#"["a",1,true,null,"",2.5]"#,
    );
    assert_eq!(
        text(&out.stdout),
        "GCX1 tool=list fields=value rows=6\na\n1\ntrue\n\n\n2.5\n"
    );
}

#[test]
fn decode_items_with_comments() {
    let out = agentwire(
        &["gcx", "decode", "--items", "--comments"],
        b"GCX1 tool=x fields=a\n# hi\nv\n",
    );
    assert_eq!(
        text(&out.stdout),
        "{\"type\":\"section\",\"tool\":\"x\",\"fields\":[\"a\"],\"meta\":{},\"version\":1}\n{\"type\":\"comment\",\"text\":\"hi\"}\n{\"type\":\"row\",\"row\":{\"a\":\"v\"}}\n"
    );
}

#[test]
fn decode_errors_have_code_position_and_exit_1() {
    let out = agentwire(&["gcx", "decode"], b"GCX1 tool=x fields=a\nok\n1\t2\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error[GCX_TOO_MANY_VALUES]: wire: row has 2 values but header declared 1 fields at line 3 column 3\n"
    );
    // The document read before the error is still valid JSON.
    assert_eq!(
        text(&out.stdout),
        "{\"sections\":[{\"tool\":\"x\",\"fields\":[\"a\"],\"meta\":{},\"version\":1,\"rows\":[{\"a\":\"ok\"}]}]}\n"
    );
}

#[test]
fn bad_json_input_reports_its_position() {
    let out = agentwire(&["gcx", "encode"], b"[\n {\"tool\": x}]");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error[JSON_SYNTAX]: invalid character 'x' looking for beginning of value at line 2 column 11\n"
    );
}

#[test]
fn scorecard_covers_the_bundled_cases() {
    let out = agentwire(&["scorecard", "--format", "json"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("\"name\":\"01_search_symbols_small\""));
    assert!(report.contains("\"cases\":20"));
    // Case 01 has no floats, so its sizes equal the published scorecard (720 → 522 bytes).
    assert!(
        report.contains("\"json_bytes\":720,\"gcx_bytes\":522"),
        "{report}"
    );
}
