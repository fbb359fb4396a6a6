//! The error table of docs/errors.md lists every code the core can report.

use agentwire::ErrorKind;

#[test]
fn error_doc_lists_every_error_code() {
    let doc = include_str!("../../docs/errors.md");
    for kind in ErrorKind::ALL {
        let row = format!("| `{}` | {} |", kind.code(), kind.format().as_str());
        assert!(doc.contains(&row), "docs/errors.md lacks {row}");
    }
}
