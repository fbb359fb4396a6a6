//! Events fixtures (in progress).

use std::path::Path;

use crate::Report;

pub fn run(dir: &Path) -> Result<Report, String> {
    Err(format!(
        "{}: the events suite is not implemented yet",
        dir.display()
    ))
}
