//! Replays every saved fuzz input under `tests/fuzz-regressions/<target>/` through the check of
//! its cargo-fuzz target. The checks are `fuzz/src/checks.rs`, compiled in here by path, so an
//! input runs exactly as it did under the fuzzer: any panic (a crash or a broken property)
//! fails the test. A file `<name>.expected` beside an input holds the outcome the check must
//! return (`err GCB_TRUNCATED`, `ok symbols=2 edges=1`, …).

#[path = "../../../fuzz/src/checks.rs"]
mod checks;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz-regressions")
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    entries
}

fn is_input(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    path.is_file()
        && !name.starts_with('.')
        && !name.ends_with(".expected")
        && !name.eq_ignore_ascii_case("README.md")
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a non-text panic".into())
}

#[test]
fn every_target_has_a_regression_directory() {
    for target in checks::TARGETS {
        let dir = root().join(target);
        assert!(dir.is_dir(), "missing {}", dir.display());
    }
}

#[test]
fn saved_fuzz_inputs_pass_their_checks() {
    let mut failures = Vec::new();
    let mut replayed = 0;
    for dir in sorted_entries(&root()) {
        if !dir.is_dir() {
            continue;
        }
        let target = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
        assert!(
            checks::TARGETS.contains(&target),
            "{} is not named after a fuzz target ({:?})",
            dir.display(),
            checks::TARGETS
        );
        for input in sorted_entries(&dir).into_iter().filter(|p| is_input(p)) {
            let shown = format!("{target}/{}", input.file_name().unwrap().to_string_lossy());
            let data = std::fs::read(&input).expect("readable input");
            replayed += 1;
            let outcome = match std::panic::catch_unwind(|| checks::run(target, &data)) {
                Ok(outcome) => outcome.expect("a known target"),
                Err(payload) => {
                    failures.push(format!("{shown}: panicked: {}", panic_text(&*payload)));
                    continue;
                }
            };
            let mut expected_path = input.clone().into_os_string();
            expected_path.push(".expected");
            if let Ok(expected) = std::fs::read_to_string(&expected_path)
                && expected.trim_end() != outcome
            {
                failures.push(format!(
                    "{shown}: outcome {outcome:?}, expected {:?}",
                    expected.trim_end()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {replayed} saved fuzz inputs fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
