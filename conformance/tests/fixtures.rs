//! Every bundled fixture suite, through the same runner the CLI uses.

use std::path::Path;

fn run_bundled(suite: &str, dir: &str, expected_vectors: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(dir);
    let report = agentwire_conformance::run(suite, &dir).expect("suite runs");
    for failure in &report.failures {
        eprintln!("{failure}");
    }
    println!("{suite}: {}", report.summary());
    assert_eq!(report.failed(), 0, "{suite}: {}", report.summary());
    assert_eq!(
        report.passed, expected_vectors,
        "{suite}: every vector must run"
    );
}

#[test]
fn gcx1_golden_vectors() {
    // 162 golden vectors and the 7 workspace-scope files.
    run_bundled("gcx1", "gcx1", 169);
}

#[test]
fn token_counts_equal_tiktoken() {
    run_bundled("tokens", "gateway", 36);
}

#[test]
fn gateway_golden_vectors() {
    // 11 golden files: 96 + 50 + 41 + 37 + 7 + 35 + 24 + 10 + 18 + 8 + 36 cases.
    run_bundled("gateway", "gateway", 362);
}

#[test]
fn events_vectors() {
    // 35 streams and SSE files (each stream also in 10 chunkings), 14 tool specs, 5 mock runs,
    // 2 follow-ups.
    run_bundled("events", "events", 56);
}

#[test]
fn empty_directory_is_an_error_not_a_pass() {
    let dir = std::env::temp_dir().join("agentwire-empty-fixture-dir");
    std::fs::create_dir_all(&dir).unwrap();
    assert!(agentwire_conformance::run("gcx1", &dir).is_err());
    assert!(agentwire_conformance::run("gateway", &dir).is_err());
    assert!(agentwire_conformance::run("events", &dir).is_err());
    assert!(agentwire_conformance::run("nope", &dir).is_err());
}

#[test]
fn gcf_v11_graph_fixtures() {
    // 37 graph fixtures; generic/ (v1 tabular) and encode/011 (no expectation) are not counted.
    run_bundled("gcf-v1.1", "gcf/conformance-v1.1", 37);
}

#[test]
fn gcb1_vectors() {
    run_bundled("gcb1", "gcb1", 20);
}

#[test]
fn gcf_v3_conformance_fixtures() {
    // SPEC v3.5.3's 281 upstream fixtures, all 16 operations; none skipped.
    run_bundled("gcf", "gcf/conformance", 281);
}
