//! docs/errors.md lists every code the core can report, with its format, once, and no other.

use std::collections::BTreeSet;

use agentwire::ErrorKind;

#[test]
fn docs_errors_lists_every_error_code() {
    let doc = include_str!("../../../docs/errors.md");
    let table = doc
        .split("## Every code")
        .nth(1)
        .expect("docs/errors.md has an `## Every code` table");
    for kind in ErrorKind::ALL {
        let row = format!("| `{}` | {} |", kind.code(), kind.format().as_str());
        assert!(table.contains(&row), "docs/errors.md lacks {row}");
    }
    let listed: Vec<&str> = table
        .lines()
        .filter_map(|line| line.strip_prefix("| `")?.split('`').next())
        .collect();
    let unique: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(unique.len(), listed.len(), "a code is listed twice");
    let known: BTreeSet<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
    assert_eq!(
        unique, known,
        "docs/errors.md lists a code that does not exist"
    );
}
