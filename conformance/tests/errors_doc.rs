//! The error table (docs/errors.md) lists every code the core can report.

use agentwire::ErrorKind;

#[test]
fn error_table_lists_every_error_code() {
    let table = include_str!("../../docs/errors.md");
    for kind in ErrorKind::ALL {
        let row = format!("| `{}` | {} |", kind.code(), kind.format().as_str());
        assert!(
            table.contains(&row),
            "docs/errors.md error table lacks {row}"
        );
    }
}
