//! Upstream Responses streams over SSE: godex's `data:` framing (`pkg/sse.ParseStream`) and
//! the faithful converter to the wire subset (fixtures README "SSE vectors").

use alloc::vec::Vec;

use super::diagnostic::{Diagnostic, DiagnosticCode};
use super::model::Usage;
use crate::json::{self, Map, Value};

/// One dispatched payload: its JSON and the line of its first `data:` line.
///
/// ```
/// use agentwire::events::sse::frames;
/// let (frames, _) = frames("event: response.created\ndata: {\"type\":\"response.created\"}\n\n");
/// assert_eq!(frames[0].line, 2);
/// assert_eq!(frames[0].data.get("type").and_then(|t| t.as_str()), Some("response.created"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Frame {
    /// 1-based line of the first `data:` line.
    pub line: u64,
    /// The decoded payload (an object).
    pub data: Map,
}

/// Go `strings.TrimSpace`: Unicode white space at both ends.
fn trim_space(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace())
}

/// Splits SSE text into frames. Undecodable payloads give `invalid_json` or `not_object`
/// (godex skips them silently); empty and `[DONE]` payloads are skipped and do not end the
/// stream; data pending at the end is dispatched.
///
/// ```
/// use agentwire::events::{sse::frames, DiagnosticCode};
/// let text = ": keep-alive\ndata: {\"a\":\ndata: 1}\n\ndata: [DONE]\n\ndata: 42\n\n";
/// let (frames, diagnostics) = frames(text);
/// // Consecutive `data:` lines join with `\n`; `[DONE]` is skipped.
/// assert_eq!(frames.len(), 1);
/// assert_eq!((frames[0].line, frames[0].data.len()), (2, 1));
/// assert_eq!((diagnostics[0].line, diagnostics[0].code), (Some(7), DiagnosticCode::NotObject));
/// ```
pub fn frames(text: &str) -> (Vec<Frame>, Vec<Diagnostic>) {
    let mut frames = Vec::new();
    let mut diagnostics = Vec::new();
    let mut data: Vec<&str> = Vec::new();
    let mut first_line = 0u64;
    let mut dispatch = |data: &mut Vec<&str>, line: u64| {
        if data.is_empty() {
            return;
        }
        let payload = data.join("\n");
        data.clear();
        if payload.is_empty() || payload == "[DONE]" {
            return;
        }
        match json::parse(&payload) {
            Ok(Value::Object(map)) => frames.push(Frame { line, data: map }),
            Ok(other) => diagnostics.push(Diagnostic::new(
                Some(line),
                DiagnosticCode::NotObject,
                alloc::format!("expected a JSON object, got {}", other.type_name()),
            )),
            Err(e) => diagnostics.push(Diagnostic::new(
                Some(line),
                DiagnosticCode::InvalidJson,
                e.message(),
            )),
        }
    };
    let mut number = 0u64;
    for raw in text.split('\n') {
        number += 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.is_empty() {
            dispatch(&mut data, first_line);
        } else if let Some(rest) = line.strip_prefix("data:") {
            if data.is_empty() {
                first_line = number;
            }
            data.push(trim_space(rest));
        }
        // Comments (`:`), `event:`, `id:`, `retry:` and anything else are ignored.
    }
    dispatch(&mut data, first_line);
    (frames, diagnostics)
}

fn object(members: impl IntoIterator<Item = (&'static str, Value)>) -> Value {
    let mut map = Map::new();
    for (key, value) in members {
        map.insert(key.into(), value);
    }
    Value::Object(map)
}

fn copy(from: &Map, key: &'static str, to: &mut Vec<(&'static str, Value)>) {
    if let Some(value) = from.get(key) {
        to.push((key, value.clone()));
    }
}

fn converted_item(item: &Map, done: bool) -> Value {
    let mut members = Vec::new();
    copy(item, "id", &mut members);
    copy(item, "type", &mut members);
    if item.get("type").and_then(Value::as_str) == Some("function_call") {
        copy(item, "call_id", &mut members);
        copy(item, "name", &mut members);
        if done {
            copy(item, "arguments", &mut members);
        }
    }
    object(members)
}

/// The wire-subset event for one upstream event, `None` for types the subset drops.
///
/// ```
/// use agentwire::events::sse::convert;
/// use agentwire::json::{self, WriteOptions};
/// let upstream = json::parse(r#"{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"delta":"Hi"}"#)?;
/// let converted = convert(upstream.as_object().unwrap()).unwrap();
/// assert_eq!(json::to_string(&converted, WriteOptions::PLAIN)?, r#"{"type":"response.output_text.delta","delta":"Hi"}"#);
/// let dropped = json::parse(r#"{"type":"response.reasoning_summary_text.delta","delta":"..."}"#)?;
/// assert_eq!(convert(dropped.as_object().unwrap()), None);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn convert(event: &Map) -> Option<Value> {
    let kind = event.get("type").and_then(Value::as_str)?;
    let mut members: Vec<(&'static str, Value)> = alloc::vec![("type", kind.into())];
    match kind {
        "response.output_text.delta" => copy(event, "delta", &mut members),
        "response.content_part.added" => {
            if let Some(Value::Object(part)) = event.get("part") {
                let mut fields = Vec::new();
                copy(part, "type", &mut fields);
                copy(part, "text", &mut fields);
                members.push(("part", object(fields)));
            }
        }
        "response.output_item.added" | "response.output_item.done" => {
            if let Some(Value::Object(item)) = event.get("item") {
                members.push(("item", converted_item(item, kind.ends_with("done"))));
            }
        }
        "response.function_call_arguments.delta" => {
            copy(event, "item_id", &mut members);
            copy(event, "delta", &mut members);
        }
        "response.completed" | "response.failed" | "response.incomplete" => {
            let mut fields = Vec::new();
            if let Some(Value::Object(response)) = event.get("response") {
                copy(response, "status", &mut fields);
                match response.get("usage") {
                    Some(Value::Object(usage)) => match Usage::from_map(usage) {
                        Ok(normalized) => fields.push(("usage", normalized.to_value())),
                        // Keep what the validator will report on.
                        Err(_) => fields.push(("usage", Value::Object(usage.clone()))),
                    },
                    Some(other) => fields.push(("usage", other.clone())),
                    None => {}
                }
                copy(response, "error", &mut fields);
            }
            members.push(("response", object(fields)));
        }
        "error" => {
            let nested = match event.get("error") {
                Some(Value::Object(e)) => Some(e),
                _ => None,
            };
            let message = event
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| {
                    nested
                        .and_then(|e| e.get("message"))
                        .and_then(Value::as_str)
                })
                .unwrap_or("unknown error");
            members.push(("message", message.into()));
            let code = event
                .get("code")
                .filter(|c| !matches!(c, Value::Null))
                .or_else(|| nested.and_then(|e| e.get("code")));
            if let Some(code) = code.filter(|c| !matches!(c, Value::Null)) {
                members.push(("code", code.clone()));
            }
        }
        _ => return None,
    }
    Some(object(members))
}

/// Frames, framing diagnostics and the converted events of an SSE text.
///
/// ```
/// use agentwire::events::{self, sse::from_sse};
/// let sse = "data: {\"type\":\"response.output_text.delta\",\"delta\":\"ok\"}\n\n\
///            data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\",\"status\":\"completed\"}}\n\n";
/// let (frames, diagnostics, converted) = from_sse(sse);
/// assert_eq!((frames.len(), diagnostics.len()), (2, 0));
/// let summary = events::accumulate(converted);
/// assert!(summary.valid);
/// assert_eq!(summary.result.text, "ok");
/// ```
pub fn from_sse(text: &str) -> (Vec<Frame>, Vec<Diagnostic>, Vec<Value>) {
    let (frames, diagnostics) = frames(text);
    let converted = frames.iter().filter_map(|f| convert(&f.data)).collect();
    (frames, diagnostics, converted)
}

/// An SSE text converted, with the stream rules over the result: `{frames: [{line, data}],
/// framing_diagnostics, converted, valid, result, diagnostics}` (what the CLI prints and the JS
/// `events.fromSse` returns).
///
/// ```
/// use agentwire::events::sse::report;
/// let sse = "data: {\"type\":\"response.output_text.delta\",\"delta\":\"ok\"}\n\n";
/// let value = report(sse);
/// assert_eq!(value.get("frames").and_then(|f| f.as_array()).map(<[_]>::len), Some(1));
/// assert!(value.get("valid").is_some());
/// ```
pub fn report(text: &str) -> Value {
    let (frames, framing, converted) = from_sse(text);
    let summary = super::accumulate(converted.iter().cloned());
    let frames = frames
        .into_iter()
        .map(|f| {
            let mut entry = Map::new();
            entry.insert("line".into(), Value::Number(json::Number::from_u64(f.line)));
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
