//! The events of `godex exec --mock --mock-mode M --json`: `text`, `tool-call`, `tool-loop`
//! and `echo` (the request text cut into deltas of at most 800 bytes, never inside a UTF-8
//! character).

use alloc::vec::Vec;

use crate::json::{Map, Value};

/// Largest echo delta, in bytes.
///
/// ```
/// use agentwire::events::mock::{mock_events, MockMode, ECHO_CHUNK_BYTES};
/// let request = "x".repeat(ECHO_CHUNK_BYTES + 1);
/// // response.created, two deltas (800 + 1 bytes), response.completed
/// assert_eq!(mock_events(MockMode::Echo, &request).len(), 4);
/// ```
pub const ECHO_CHUNK_BYTES: usize = 800;

/// A mock mode.
///
/// ```
/// use agentwire::events::{self, mock::{mock_events, MockMode}};
/// let summary = events::accumulate(mock_events(MockMode::ToolLoop, ""));
/// assert!(summary.valid);
/// assert_eq!(summary.result.function_calls[0].name, "mock_tool");
/// assert_eq!(summary.result.text, "mock tool result: ok");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MockMode {
    /// The request JSON, echoed as text deltas (the fallback).
    Echo,
    /// `mock response text`.
    Text,
    /// One function call `mock_tool` with `{"value":42}`.
    ToolCall,
    /// The function call, then `mock tool result: ok`.
    ToolLoop,
}

impl MockMode {
    /// godex's resolution: trimmed and lower-cased; empty or unknown is echo.
    ///
    /// ```
    /// use agentwire::events::mock::MockMode;
    /// assert_eq!(MockMode::resolve(" Tool-Call "), MockMode::ToolCall);
    /// assert_eq!(MockMode::resolve("text"), MockMode::Text);
    /// assert_eq!(MockMode::resolve("poetry"), MockMode::Echo);
    /// ```
    pub fn resolve(mode: &str) -> MockMode {
        let mode = mode.trim().to_ascii_lowercase();
        match mode.as_str() {
            "text" => MockMode::Text,
            "tool-call" => MockMode::ToolCall,
            "tool-loop" => MockMode::ToolLoop,
            _ => MockMode::Echo,
        }
    }
}

fn object(members: Vec<(&str, Value)>) -> Value {
    let mut map = Map::new();
    for (key, value) in members {
        map.insert(key.into(), value);
    }
    Value::Object(map)
}

fn response(status: &str) -> Value {
    object(alloc::vec![
        ("id", "mock-response".into()),
        ("object", "response".into()),
        ("status", status.into()),
    ])
}

fn text_delta(delta: &str) -> Value {
    object(alloc::vec![
        ("type", "response.output_text.delta".into()),
        ("delta", delta.into())
    ])
}

fn call_item(arguments: Option<&str>) -> Value {
    let mut members = alloc::vec![
        ("type", Value::from("function_call")),
        ("id", "fc_mock".into()),
        ("call_id", "call_mock".into()),
        ("name", "mock_tool".into()),
    ];
    if let Some(arguments) = arguments {
        members.push(("arguments", arguments.into()));
    }
    object(members)
}

/// Cuts `text` into pieces of at most `max` bytes, each ending on a character boundary.
///
/// ```
/// use agentwire::events::mock::utf8_chunks;
/// assert_eq!(utf8_chunks("abcdé", 2), ["ab", "cd", "é"]);
/// // A character wider than `max` still goes out whole.
/// assert_eq!(utf8_chunks("😀a", 2), ["😀", "a"]);
/// ```
pub fn utf8_chunks(text: &str, max: usize) -> Vec<&str> {
    let mut chunks = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = max.min(rest.len());
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        // A character wider than `max` still goes out whole.
        if end == 0 {
            end = rest.chars().next().map_or(rest.len(), char::len_utf8);
        }
        chunks.push(&rest[..end]);
        rest = &rest[end..];
    }
    chunks
}

/// The events of a mock run; `echo_text` is what echo mode repeats (godex: the request JSON).
///
/// ```
/// use agentwire::events::mock::{mock_events, MockMode};
/// let events = mock_events(MockMode::Text, "");
/// let types: Vec<&str> = events.iter().filter_map(|e| e.get("type")?.as_str()).collect();
/// assert_eq!(types, ["response.created", "response.output_text.delta", "response.completed"]);
/// assert_eq!(events[1].get("delta").and_then(|d| d.as_str()), Some("mock response text"));
/// ```
pub fn mock_events(mode: MockMode, echo_text: &str) -> Vec<Value> {
    let mut events = alloc::vec![object(alloc::vec![
        ("type", "response.created".into()),
        ("response", response("in_progress")),
    ])];
    let arguments = "{\"value\":42}";
    match mode {
        MockMode::Echo => events.extend(
            utf8_chunks(echo_text, ECHO_CHUNK_BYTES)
                .into_iter()
                .map(text_delta),
        ),
        MockMode::Text => events.push(text_delta("mock response text")),
        MockMode::ToolCall | MockMode::ToolLoop => {
            events.push(object(alloc::vec![
                ("type", "response.output_item.added".into()),
                ("item", call_item(None)),
            ]));
            events.push(object(alloc::vec![
                ("type", "response.function_call_arguments.delta".into()),
                ("item_id", "fc_mock".into()),
                ("delta", arguments.into()),
            ]));
            events.push(object(alloc::vec![
                ("type", "response.output_item.done".into()),
                ("item", call_item(Some(arguments))),
            ]));
            if mode == MockMode::ToolLoop {
                events.push(text_delta("mock tool result: ok"));
            }
        }
    }
    events.push(object(alloc::vec![
        ("type", "response.completed".into()),
        ("response", response("completed")),
    ]));
    events
}
