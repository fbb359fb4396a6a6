//! The event protocol's JS shapes: the options and results of the `events` functions over the
//! core (`agentwire::events`), and the state of `events.EventStreamDecoder`.

use agentwire::events::Diagnostic;
use agentwire::events::accumulate::{FunctionCall, Summary, accumulate};
use agentwire::events::decode::{DEFAULT_MAX_LINE_BYTES, DecodedItem, StreamDecoder};
use agentwire::events::followup::follow_up_input;
use agentwire::events::mock::{MockMode, mock_events};
use agentwire::events::serialize::{Form, write_event, write_events};
use agentwire::events::toolspec::{ToolSpec, parse_tool_spec, web_search_tool};
use agentwire::json::{Map, Number, Value};
use agentwire::{Error, ErrorKind, Result};

fn max_line_bytes(options: &Value) -> Result<usize> {
    match options.get("maxLineBytes") {
        None | Some(Value::Null) => Ok(DEFAULT_MAX_LINE_BYTES),
        Some(Value::Number(n)) => n
            .as_u64()
            .filter(|&v| v > 0)
            // Past the address space (wasm32) there is no limit to speak of.
            .map(|v| usize::try_from(v).unwrap_or(usize::MAX))
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidArgument,
                    "options.maxLineBytes must be a positive integer",
                )
            }),
        Some(_) => Err(Error::new(
            ErrorKind::InvalidArgument,
            "options.maxLineBytes must be a positive integer",
        )),
    }
}

fn item_value(item: &DecodedItem) -> Value {
    let mut map = Map::new();
    match item {
        DecodedItem::Event { line, event } => {
            map.insert("kind".into(), "event".into());
            map.insert("line".into(), Value::Number(Number::from_u64(*line)));
            map.insert("event".into(), event.to_value());
        }
        DecodedItem::Diagnostic(d) => {
            map.insert("kind".into(), "diagnostic".into());
            map.insert("diagnostic".into(), d.to_value());
        }
    }
    Value::Object(map)
}

/// `[diagnostic, …]` (what [`Summary::to_value`] writes for its diagnostics).
fn diagnostics_value(diagnostics: &[Diagnostic]) -> Value {
    Value::Array(diagnostics.iter().map(Diagnostic::to_value).collect())
}

fn items_value(items: &[DecodedItem]) -> Value {
    Value::Array(items.iter().map(item_value).collect())
}

/// The state of an `events.EventStreamDecoder`: push bytes, get `[{kind: "event", line, event}
/// | {kind: "diagnostic", diagnostic}]` as lines complete; finish for the verdict.
#[derive(Debug, Default)]
pub struct EventsDecoder {
    decoder: StreamDecoder,
    diagnostics: Vec<Diagnostic>,
}

impl EventsDecoder {
    /// A decoder. Options: `{maxLineBytes: 16777216}`.
    pub fn with_options(options: &Value) -> Result<EventsDecoder> {
        Ok(EventsDecoder {
            decoder: StreamDecoder::new(max_line_bytes(options)?),
            diagnostics: Vec::new(),
        })
    }

    /// Feeds bytes; returns the items the completed lines produced.
    pub fn push_value(&mut self, chunk: &[u8]) -> Value {
        let mut items = Vec::new();
        self.decoder.push(chunk, &mut items);
        self.keep(&items);
        items_value(&items)
    }

    /// End of input: `{items: [...], valid, result, diagnostics}` where `diagnostics` holds
    /// every diagnostic of the stream.
    pub fn finish_value(&mut self) -> Value {
        let mut items = Vec::new();
        let summary = self.decoder.finish(&mut items);
        self.keep(&items);
        let mut map = Map::new();
        map.insert(
            "items".into(),
            Value::Array(items.iter().map(item_value).collect()),
        );
        map.insert("valid".into(), Value::Bool(summary.valid));
        map.insert("result".into(), summary.result.to_value());
        map.insert("diagnostics".into(), diagnostics_value(&self.diagnostics));
        Value::Object(map)
    }

    fn keep(&mut self, items: &[DecodedItem]) {
        self.diagnostics
            .extend(items.iter().filter_map(|item| match item {
                DecodedItem::Diagnostic(d) => Some(d.clone()),
                DecodedItem::Event { .. } => None,
            }));
    }
}

/// A whole JSONL stream: `{valid, result, diagnostics, events: [{line, event}]}`. Options:
/// `{maxLineBytes}`.
pub fn parse(input: &[u8], options: &Value) -> Result<Value> {
    let (summary, events) =
        agentwire::events::decode::parse_stream(input, max_line_bytes(options)?);
    let mut map = summary_map(&summary);
    let events = events
        .into_iter()
        .map(|(line, event)| {
            let mut entry = Map::new();
            entry.insert("line".into(), Value::Number(Number::from_u64(line)));
            entry.insert("event".into(), Value::Object(event.into_json()));
            Value::Object(entry)
        })
        .collect();
    map.insert("events".into(), Value::Array(events));
    Ok(Value::Object(map))
}

fn summary_map(summary: &Summary) -> Map {
    match summary.to_value() {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn array(value: Value, what: &str) -> Result<Vec<Value>> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("{what} must be an array, got {}", other.type_name()),
        )),
    }
}

/// The stream rules over an array of event values (index + 1 is the line): `{valid, result,
/// diagnostics}`.
pub fn accumulate_value(events: Value) -> Result<Value> {
    Ok(accumulate(array(events, "events")?).to_value())
}

/// An array of event objects as JSONL in `form` (`godex` or `spec`).
pub fn serialize(events: Value, form: &str) -> Result<String> {
    let form = Form::parse(form)?;
    let mut out = String::new();
    for (i, event) in array(events, "events")?.iter().enumerate() {
        let Value::Object(map) = event else {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("events[{i}] must be an object"),
            ));
        };
        write_event(&mut out, map, form).map_err(|e| e.context(format!("events[{i}]")))?;
    }
    Ok(out)
}

/// The JSONL of a godex mock run (`echo`, `text`, `tool-call`, `tool-loop`; resolved as godex
/// does); `echo_text` is what echo mode repeats.
pub fn mock(mode: &str, echo_text: &str) -> Result<String> {
    let events = mock_events(MockMode::resolve(mode), echo_text);
    write_events(events.iter().filter_map(Value::as_object), Form::Godex)
}

/// A `--tool` value: `{kind: "web_search", tool}` or `{kind: "function", name, path}`.
pub fn tool_spec(spec: &str) -> Result<Value> {
    let mut map = Map::new();
    match parse_tool_spec(spec)? {
        ToolSpec::WebSearch => {
            map.insert("kind".into(), "web_search".into());
            map.insert("tool".into(), web_search_tool());
        }
        ToolSpec::Function { name, path } => {
            map.insert("kind".into(), "function".into());
            map.insert("name".into(), name.into());
            map.insert("path".into(), path.into());
        }
    }
    Ok(Value::Object(map))
}

/// The follow-up input: `context` (array), `calls` (`[{call_id, name, arguments}]` in
/// completion order) and `outputs` (`{call_id: text}`).
pub fn follow_up(context: Value, calls: Value, outputs: Value) -> Result<Value> {
    let context = array(context, "context")?;
    let calls = array(calls, "calls")?
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let field = |key: &str| {
                call.get(key)
                    .and_then(Value::as_str)
                    .map(String::from)
                    .ok_or_else(|| {
                        Error::new(
                            ErrorKind::InvalidArgument,
                            format!("calls[{i}].{key} must be a string"),
                        )
                    })
            };
            Ok(FunctionCall {
                id: call
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .into(),
                call_id: field("call_id")?,
                name: field("name")?,
                arguments: field("arguments")?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let outputs = match outputs {
        Value::Object(map) => map,
        other => {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("outputs must be an object, got {}", other.type_name()),
            ));
        }
    };
    let input = follow_up_input(&context, &calls, |call_id| {
        outputs.get(call_id).and_then(Value::as_str)
    })?;
    Ok(Value::Array(input))
}
