//! The JSON shape of the event protocol's reports, shared by the JS API and the CLI.

use agentwire::events::accumulate::accumulate;
use agentwire::events::sse::from_sse;
use agentwire::events::Diagnostic;
use agentwire::json::{Map, Number, Value};

/// SSE text converted: `{frames: [{line, data}], framing_diagnostics, converted, ...summary}`.
pub fn sse_report(text: &str) -> Value {
    let (frames, framing, converted) = from_sse(text);
    let summary = accumulate(converted.iter().cloned());
    let frames = frames
        .into_iter()
        .map(|f| {
            let mut entry = Map::new();
            entry.insert("line".into(), Value::Number(Number::from_u64(f.line)));
            entry.insert("data".into(), Value::Object(f.data));
            Value::Object(entry)
        })
        .collect();
    let mut report = Map::new();
    report.insert("frames".into(), Value::Array(frames));
    let framing = framing.iter().map(Diagnostic::to_value).collect();
    report.insert("framing_diagnostics".into(), Value::Array(framing));
    report.insert("converted".into(), Value::Array(converted));
    if let Value::Object(verdict) = summary.to_value() {
        for (key, value) in verdict {
            report.insert(key, value);
        }
    }
    Value::Object(report)
}
