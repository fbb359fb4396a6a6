//! The one fixture runner of agentwire.
//!
//! `cargo test -p agentwire-conformance` runs the bundled fixtures through it, and
//! `agentwire conformance SUITE DIR` runs it on any directory in the same format. Fixtures are
//! read with `serde_json` (independent of the JSON code under test).

use std::fmt;
use std::path::Path;

mod compare;
mod events;
mod gateway;
mod gcf;
mod gcx1;
mod graph;
mod support;
mod tokens;
mod toon;

pub use events::decode_in_chunks;

/// Suites this runner knows.
pub const SUITES: &[&str] = &[
    "gcx1", "tokens", "gcf", "gcf-v1.1", "gcb1", "gateway", "events", "toon",
];

/// One failed vector.
#[derive(Debug, Clone)]
pub struct Failure {
    /// `file::vector-name`.
    pub id: String,
    /// What differed.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FAIL {}: {}", self.id, self.message)
    }
}

/// The outcome of a run.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Vectors that passed.
    pub passed: usize,
    /// Vectors that failed, in run order.
    pub failures: Vec<Failure>,
    /// One line each: fixtures the suite saw but did not count (not supported, no expectation),
    /// and remarks on counted ones (GCF: `ORDER id: …`, a value that matches only with member
    /// order ignored).
    pub notes: Vec<String>,
}

impl Report {
    /// Number of failed vectors.
    pub fn failed(&self) -> usize {
        self.failures.len()
    }

    /// `N passed, M failed`: the last line every runner prints.
    pub fn summary(&self) -> String {
        format!("{} passed, {} failed", self.passed, self.failed())
    }

    fn record(&mut self, id: String, outcome: Result<(), String>) {
        match outcome {
            Ok(()) => self.passed += 1,
            Err(message) => self.failures.push(Failure { id, message }),
        }
    }
}

/// Runs every vector file of `suite` present in `dir`. An unknown suite, an unreadable file or
/// a directory with no vector file of the suite is an error (a run that checks nothing must
/// not look green).
pub fn run(suite: &str, dir: &Path) -> Result<Report, String> {
    match suite {
        "gcx1" => gcx1::run(dir),
        "tokens" => tokens::run(dir),
        "gcf" => gcf::run(dir),
        "gcf-v1.1" => {
            let mut notes = Vec::new();
            let mut report = graph::run_gcf_v1(dir, &mut notes)?;
            report.notes = notes;
            Ok(report)
        }
        "gcb1" => graph::run_gcb1(dir),
        "gateway" => gateway::run(dir),
        "events" => events::run(dir),
        "toon" => toon::run(dir),
        _ => Err(format!(
            "unknown suite {suite:?} (known: {})",
            SUITES.join(", ")
        )),
    }
}
