//! The checks behind the cargo-fuzz targets in `fuzz_targets/` (one call each).
//!
//! `checks.rs` is also compiled into `tests/runner/tests/fuzz_regressions.rs` (by path), so a saved
//! input replays exactly what the fuzzer ran.

pub mod checks;
pub mod tokens;
