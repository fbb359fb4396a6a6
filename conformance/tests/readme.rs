//! The README's error table lists every code the core can report.

use agentwire::ErrorKind;

#[test]
fn readme_lists_every_error_code() {
    let readme = include_str!("../../README.md");
    for kind in ErrorKind::ALL {
        let row = format!("| `{}` | {} |", kind.code(), kind.format().as_str());
        assert!(readme.contains(&row), "README error table lacks {row}");
    }
}
