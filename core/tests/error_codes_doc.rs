//! docs/errors.md lists every error code exactly once, and no code that does not exist.

use std::collections::BTreeSet;

use agentwire::ErrorKind;

#[test]
fn docs_errors_md_lists_every_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/errors.md");
    let doc = std::fs::read_to_string(path).expect("docs/errors.md");
    let table = doc
        .split("## Every code")
        .nth(1)
        .expect("docs/errors.md has an `## Every code` table");
    let mut listed = Vec::new();
    for line in table.lines() {
        if let Some(rest) = line.strip_prefix("| `") {
            listed.push(rest.split('`').next().unwrap_or_default().to_string());
        }
    }
    let known: BTreeSet<String> = ErrorKind::ALL.iter().map(|k| k.code().into()).collect();
    let unique: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(unique.len(), listed.len(), "a code is listed twice");
    assert_eq!(unique, known);
}
