//! Token counts (`token_counts.json` of the gateway vectors): exact cl100k_base counts and ids.

use std::path::Path;

use agentwire::tokens::{Encoding, Tokenizer};
use serde_json::Value as J;

use crate::Report;
use crate::support::{read_json, same};

pub fn run(dir: &Path) -> Result<Report, String> {
    let path = dir.join("token_counts.json");
    if !path.exists() {
        return Err(format!("{}: no token_counts.json", dir.display()));
    }
    let file = read_json(&path)?;
    let encoding = file
        .pointer("/source/encoding")
        .and_then(J::as_str)
        .unwrap_or("cl100k_base");
    let counter = Tokenizer::new(Encoding::parse(encoding).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let cases = file
        .get("cases")
        .and_then(J::as_array)
        .ok_or("token_counts.json: no \"cases\" array")?;
    let mut report = Report::default();
    for case in cases {
        let id = case.get("id").and_then(J::as_str).unwrap_or("?");
        report.record(
            format!("tokens/token_counts.json::{id}"),
            check(&counter, case),
        );
    }
    Ok(report)
}

fn check(counter: &Tokenizer, case: &J) -> Result<(), String> {
    let text = case
        .get("input")
        .and_then(J::as_str)
        .ok_or("input is not a string")?;
    let expected = case.get("expected").ok_or("no expected")?;
    same("tokens", &expected["tokens"], &J::from(counter.count(text)))?;
    same(
        "token_ids",
        &expected["token_ids"],
        &J::from(counter.encode(text)),
    )
}
