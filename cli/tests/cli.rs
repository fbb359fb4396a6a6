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
    // A command that fails on its arguments exits without reading its input.
    match child.stdin.take().unwrap().write_all(stdin) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
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
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    // `agentwire gcf encode big.json | head -3`: far more output than a pipe holds.
    let symbols: Vec<String> = (0..20_000)
        .map(|i| format!(r#"{{"qualifiedName":"pkg.S{i}","kind":"function","provenance":"lsp"}}"#))
        .collect();
    let payload = format!(r#"{{"tool":"t","symbols":[{}]}}"#, symbols.join(","));
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentwire"))
        .args(["gcf", "encode"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agentwire runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    let mut head = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..3 {
        let mut line = String::new();
        head.read_line(&mut line).unwrap();
        assert!(!line.is_empty());
    }
    drop(head);
    let out = child.wait_with_output().unwrap();
    assert_eq!(text(&out.stderr), "");
    assert!(out.status.success(), "{:?}", out.status);
}

#[test]
fn help_names_every_gcf_version_and_says_decode_streams() {
    let out = agentwire(&["--help"], b"");
    assert!(
        text(&out.stdout).contains("GCF text, v1.1 (graph), v3.5.3 and v3.6.0"),
        "{}",
        text(&out.stdout)
    );
    let out = agentwire(&["gcx", "decode", "--help"], b"");
    assert!(
        text(&out.stdout).contains("then not a complete JSON document"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn conformance_prints_the_summary_line() {
    let out = agentwire(&["conformance", "gcx1", &fixtures("gcx1")], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "169 passed, 0 failed\n");
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
fn scorecard_reproduces_the_published_byte_counts() {
    let out = agentwire(&["scorecard", "--format", "json"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 20);
    for case in cases {
        assert_eq!(
            case["json_bytes"], case["published_json_bytes"],
            "{}",
            case["name"]
        );
        assert_eq!(
            case["gcx_bytes"], case["published_gcx_bytes"],
            "{}",
            case["name"]
        );
        for key in ["json_tokens_cl100k", "gcx_tokens_cl100k", "roundtrip_ok"] {
            assert!(!case[key].is_null(), "{key}");
        }
    }
    assert!(report["summary"]["median_token_savings_cl100k"].is_number());
    // The upstream harness drops smart_context's `task`: the round trip must say so.
    let smart = cases
        .iter()
        .find(|c| c["name"] == "13_smart_context")
        .unwrap();
    assert_eq!(smart["roundtrip_ok"], false);
    assert_eq!(smart["gcx_layout_roundtrip_ok"], true);
}

#[test]
fn committed_scorecard_is_current() {
    let out = agentwire(&["scorecard"], b"");
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/results/scorecard.md"),
    )
    .unwrap();
    assert_eq!(
        text(&out.stdout),
        committed,
        "bench/results/scorecard.md is stale: regenerate it with `cargo run -p agentwire-cli -- scorecard > bench/results/scorecard.md`"
    );
}

#[test]
fn tokens_count_and_ids() {
    let out = agentwire(&["tokens"], b"hello world");
    assert_eq!(text(&out.stdout), "2\n");
    let out = agentwire(
        &["tokens", "--encoding", "o200k_base", "--ids"],
        b"hello world",
    );
    assert_eq!(text(&out.stdout), "[24912,2375]\n");
    let out = agentwire(&["tokens", "--encoding", "gpt2"], b"x");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("error[INVALID_ARGUMENT]"));
}

#[test]
fn encode_tool_uses_the_layout_or_falls_back() {
    let out = agentwire(
        &["gcx", "encode-tool", "--tool", "analyze_cycles"],
        br#"[{"size":2,"severity":"high","nodes":["a","b"]}]"#,
    );
    assert_eq!(
        text(&out.stdout),
        "GCX1 tool=analyze.cycles fields=size,severity,nodes\n2\thigh\ta,b\n"
    );
    let out = agentwire(
        &["gcx", "encode-tool", "--tool", "unknown_tool"],
        br#"{"a":1}"#,
    );
    assert_eq!(text(&out.stdout), "GCX1 tool=unknown_tool fields=a\n1\n");
    let out = agentwire(
        &["gcx", "encode-tool", "--tool", "t", "--strategy", "nope"],
        b"{}",
    );
    assert!(text(&out.stderr).starts_with("error[INVALID_ARGUMENT]"));
}

#[test]
fn gateway_conformance_and_commands() {
    let out = agentwire(&["conformance", "gateway", &fixtures("gateway")], b"");
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).ends_with("362 passed, 0 failed\n"));

    let tool = br#"{"name":"github.create_issue","description":"Create an issue.","inputSchema":{"properties":{"title":{},"body":{}},"required":["title"]}}"#;
    let out = agentwire(&["gateway", "tool-id"], tool);
    assert!(
        text(&out.stdout).contains(r#""tool_id":"github:create_issue#6c5f877d""#),
        "{}",
        text(&out.stdout)
    );
    let out = agentwire(&["gateway", "tool-id", "--parse", "gh:x@1\n"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error[TOOL_ID_VERSION_GRAMMAR]"),
        "{}",
        text(&out.stderr)
    );

    let item = br#"{"id":"billing:search#00000000","description":"Search invoices.","tags":["search","billing"]}"#;
    let out = agentwire(
        &["gateway", "card", "--score", "0.82", "--output", "line"],
        item,
    );
    assert_eq!(
        text(&out.stdout),
        "[1/1] billing:search#00000000 (tool) \u{2014} Search invoices. [billing, search] score=0.82\n"
    );

    let out = agentwire(
        &["gateway", "truncate", "--budget", "4"],
        b"One two. Three four five six seven eight.",
    );
    assert_eq!(text(&out.stdout), "One two.\n");

    let out = agentwire(&["gateway", "path", "/a//b"], b"");
    assert!(
        text(&out.stderr).starts_with("error[PATH_EMPTY_SEGMENT]"),
        "{}",
        text(&out.stderr)
    );
    let out = agentwire(&["gateway", "path", "/github/*"], b"");
    assert_eq!(text(&out.stdout), "[\"github\",\"*\"]\n");
}

#[test]
fn gateway_path_browses_a_catalog_file() {
    let dir = std::env::temp_dir().join(format!("agentwire-cli-catalog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let catalog = dir.join("tools.json");
    std::fs::write(
        &catalog,
        r#"[{"name":"fs.read","description":"Read a file."},{"name":"Bad.x","description":"d"}]"#,
    )
    .unwrap();
    let catalog = catalog.display().to_string();
    let out = agentwire(&["gateway", "path", "/", "--catalog", &catalog], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with(r#"[{"id": "fs:read#"#),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("skipped tool \"Bad.x\": [TOOL_ID_NAMESPACE_GRAMMAR]"));
    let out = agentwire(&["gateway", "path", "/nope", "--catalog", &catalog], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains(r#""error": "PATH_NOT_FOUND""#));
}

#[test]
fn events_conformance_and_commands() {
    let out = agentwire(&["conformance", "events", &fixtures("events")], b"");
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert_eq!(text(&out.stdout), "56 passed, 0 failed\n");

    let stream = format!("{}/streams/lifecycle_violations.jsonl", fixtures("events"));
    let out = agentwire(&["events", "validate", &stream], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("line 2: duplicate_item (error): "),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).ends_with("invalid\n"));

    let mock = agentwire(&["events", "mock", "--mode", " Tool-Loop "], b"");
    let out = agentwire(&["events", "accumulate"], &mock.stdout);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains(r#""text":"mock tool result: ok""#),
        "{}",
        text(&out.stdout)
    );

    let out = agentwire(&["events", "mock"], b"hello");
    assert!(text(&out.stdout).contains(r#"{"delta":"hello","type":"response.output_text.delta"}"#));

    let sse =
        b"data: {\"type\":\"response.output_text.delta\",\"delta\":\"hi\"}\n\ndata: [DONE]\n\n";
    let out = agentwire(&["events", "from-sse"], sse);
    assert_eq!(
        text(&out.stdout),
        "{\"delta\":\"hi\",\"type\":\"response.output_text.delta\"}\n"
    );

    let out = agentwire(&["events", "tool", "add"], b"");
    assert!(
        text(&out.stderr).starts_with("error[EVENTS_INVALID_TOOL_SPEC]: invalid --tool \"add\"")
    );
}

#[test]
fn gcf_generic_versions_and_the_grouped_form() {
    let rows = br#"[{"id":1,"dept":"eng","site":"ber"},{"id":2,"dept":"ops","site":"ber"}]"#;
    // `agentwire gcf encode --profile generic` with more arguments.
    let generic = |more: &[&str]| {
        let args = [&["gcf", "encode", "--profile", "generic"][..], more].concat();
        agentwire(&args, rows)
    };
    let encode = |more: &[&str]| {
        let out = generic(more);
        assert!(out.status.success(), "{more:?}: {}", text(&out.stderr));
        String::from(text(&out.stdout))
    };
    let v3_6 = "GCF profile=generic\n## [2]{id,dept,site=ber}\n1|eng\n2|ops\n";
    assert_eq!(encode(&[]), v3_6);
    assert_eq!(encode(&["--gcf-version", "3.6.0"]), v3_6);
    assert_eq!(
        encode(&["--gcf-version", "3.5.3"]),
        "GCF profile=generic\n## [2]{id,dept,site}\n1|eng|ber\n2|ops|ber\n"
    );
    let grouped = encode(&["--group", "dept", "--key", "id"]);
    assert_eq!(
        grouped,
        "GCF profile=generic\n## [2]{@id,dept,site=ber} group=dept\ndept=eng [1]\n1\ndept=ops [1]\n2\n"
    );
    // decode says which version it read.
    let out = agentwire(&["gcf", "decode", "--envelope"], grouped.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with(r#"{"version":"3.6.0","profile":"generic""#),
        "{}",
        text(&out.stdout)
    );
    // --group needs --key (clap), the generic profile and 3.6.0.
    assert!(!generic(&["--group", "dept"]).status.success());
    let out = generic(&["--gcf-version", "3.5.3", "--group", "dept", "--key", "id"]);
    assert!(
        text(&out.stderr).contains("INVALID_ARGUMENT"),
        "{}",
        text(&out.stderr)
    );
    let out = agentwire(&["gcf", "encode", "--group", "dept", "--key", "id"], rows);
    assert!(
        text(&out.stderr).contains("--profile generic"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn toon_conformance_encode_and_decode() {
    let out = agentwire(&["conformance", "toon", &fixtures("toon")], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "516 passed, 0 failed\n");

    let json =
        br#"{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}],"meta":{"page":{"next":null}}}"#;
    let out = agentwire(&["toon", "encode"], json);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "users[2]{id,name}:\n  1,Ada\n  2,Bob\nmeta:\n  page:\n    next: null\n"
    );
    let back = agentwire(&["toon", "decode"], &out.stdout);
    assert!(back.status.success(), "{}", text(&back.stderr));
    assert_eq!(text(&back.stdout).trim_end(), text(json));

    let args = [
        "toon",
        "encode",
        "--delimiter",
        "tab",
        "--indent",
        "4",
        "--key-folding",
    ];
    let out = agentwire(&args, json);
    assert_eq!(
        text(&out.stdout),
        "users[2\t]{id\tname}:\n    1\tAda\n    2\tBob\nmeta.page.next: null\n"
    );
    let args = ["toon", "encode", "--key-folding", "--flatten-depth", "2"];
    assert_eq!(
        text(&agentwire(&args, json).stdout),
        "users[2]{id,name}:\n  1,Ada\n  2,Bob\nmeta.page:\n  next: null\n"
    );
    let back = agentwire(
        &["toon", "decode", "--expand-paths"],
        b"meta.page.next: null",
    );
    assert_eq!(
        text(&back.stdout),
        "{\"meta\":{\"page\":{\"next\":null}}}\n"
    );

    // Errors: code, line and column on stderr, exit status 1; --no-strict reads leniently.
    let bad = b"tags[3]: a,b\nx: 1\nx: 2";
    let out = agentwire(&["toon", "decode"], bad);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error[TOON_COUNT_MISMATCH]: expected 3 inline values, found 2 at line 1 column 10\n"
    );
    let out = agentwire(&["toon", "decode", "--no-strict"], bad);
    assert_eq!(text(&out.stdout), "{\"tags\":[\"a\",\"b\"],\"x\":2}\n");
    let out = agentwire(&["toon", "encode", "--delimiter", "semicolon"], b"1");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error[INVALID_ARGUMENT]"),
        "{}",
        text(&out.stderr)
    );
    let out = agentwire(&["toon", "decode", "--indent", "0"], b"a: 1");
    assert!(
        text(&out.stderr).starts_with("error[INVALID_ARGUMENT]"),
        "{}",
        text(&out.stderr)
    );
}
