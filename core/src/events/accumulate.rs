//! The accumulator: line rules after JSON parsing, state rules, and the final result
//! (fixtures README "Line handling" 4–7, "State rules", "Usage").

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::diagnostic::{Diagnostic, DiagnosticCode, Severity, quoted};
use super::model::{
    ErrorInfo, Event, EventData, EventType, FieldError, OutputItem, TerminalStatus, Usage,
    UsageField, not_object, type_of,
};
use crate::json::{Map, Value};

/// A completed function call.
///
/// ```
/// use agentwire::{events, json};
/// let values = [
///     r#"{"type":"response.output_item.done","item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}"#,
///     r#"{"type":"response.completed"}"#,
/// ].iter().map(|l| json::parse(l)).collect::<Result<Vec<_>, _>>()?;
/// let summary = events::accumulate(values);
/// let call = &summary.result.function_calls[0];
/// assert_eq!((call.call_id.as_str(), call.name.as_str()), ("call_1", "get_weather"));
/// assert_eq!(call.arguments, r#"{"city":"Oslo"}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FunctionCall {
    /// The item id.
    pub id: String,
    /// The call id (the follow-up output refers to it).
    pub call_id: String,
    /// The function name.
    pub name: String,
    /// The arguments (JSON text, as the model wrote it).
    pub arguments: String,
}

impl FunctionCall {
    /// `{"id", "call_id", "name", "arguments"}`.
    ///
    /// ```
    /// use agentwire::events::FunctionCall;
    /// use agentwire::json::{self, WriteOptions};
    /// let call = FunctionCall { id: "fc_1".into(), call_id: "call_1".into(), name: "f".into(), arguments: "{}".into() };
    /// let text = json::to_string(&call.to_value(), WriteOptions::PLAIN)?;
    /// assert_eq!(text, r#"{"id":"fc_1","call_id":"call_1","name":"f","arguments":"{}"}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("id".into(), self.id.as_str().into());
        map.insert("call_id".into(), self.call_id.as_str().into());
        map.insert("name".into(), self.name.as_str().into());
        map.insert("arguments".into(), self.arguments.as_str().into());
        Value::Object(map)
    }
}

/// An error reported by the stream (`error` events, `response.failed`).
///
/// ```
/// use agentwire::{events, json};
/// let values = [r#"{"type":"error","message":"rate limited","code":"rate_limit"}"#, r#"{"type":"response.completed"}"#]
///     .iter().map(|l| json::parse(l)).collect::<Result<Vec<_>, _>>()?;
/// let errors = events::accumulate(values).result.errors;
/// assert_eq!(errors, [events::StreamError { message: "rate limited".into(), code: Some("rate_limit".into()) }]);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StreamError {
    /// The message.
    pub message: String,
    /// The code, when the event gave a string.
    pub code: Option<String>,
}

impl StreamError {
    fn from_info(info: ErrorInfo<'_>) -> StreamError {
        StreamError {
            message: info.message.into(),
            code: info.code.map(String::from),
        }
    }

    /// `{"message", "code"}` (code `null` when absent).
    ///
    /// ```
    /// use agentwire::events::StreamError;
    /// use agentwire::json::{self, WriteOptions};
    /// let error = StreamError { message: "upstream timeout".into(), code: None };
    /// assert_eq!(json::to_string(&error.to_value(), WriteOptions::PLAIN)?, r#"{"message":"upstream timeout","code":null}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("message".into(), self.message.as_str().into());
        map.insert(
            "code".into(),
            self.code.as_deref().map_or(Value::Null, Value::from),
        );
        Value::Object(map)
    }
}

/// What a stream amounts to.
///
/// ```
/// use agentwire::events::{self, TerminalStatus};
/// let (summary, _events) = events::decode::parse_stream(
///     b"{\"type\":\"response.output_text.delta\",\"delta\":\"4\"}\n{\"type\":\"response.incomplete\"}\n",
///     events::DEFAULT_MAX_LINE_BYTES,
/// );
/// let result = summary.result;
/// assert_eq!((result.status, result.text.as_str()), (Some(TerminalStatus::Incomplete), "4"));
/// assert!(result.function_calls.is_empty() && result.usage.is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StreamResult {
    /// Set by the first terminal event; `None` when there was none.
    pub status: Option<TerminalStatus>,
    /// Every text delta and `output_text` part text, in stream order.
    pub text: String,
    /// Function calls in `output_item.done` order.
    pub function_calls: Vec<FunctionCall>,
    /// The terminal event's usage (`None` when absent or invalid).
    pub usage: Option<Usage>,
    /// `error` events and the error of a failed response, in stream order.
    pub errors: Vec<StreamError>,
}

impl StreamResult {
    /// `{"status", "text", "function_calls", "usage", "errors"}` (the fixtures' `result`).
    ///
    /// ```
    /// use agentwire::events::StreamResult;
    /// use agentwire::json::{self, WriteOptions};
    /// let result = StreamResult { text: "hi".into(), ..StreamResult::default() };
    /// assert_eq!(
    ///     json::to_string(&result.to_value(), WriteOptions::PLAIN)?,
    ///     r#"{"status":null,"text":"hi","function_calls":[],"usage":null,"errors":[]}"#
    /// );
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert(
            "status".into(),
            self.status.map_or(Value::Null, |s| s.as_str().into()),
        );
        map.insert("text".into(), self.text.as_str().into());
        map.insert(
            "function_calls".into(),
            Value::Array(
                self.function_calls
                    .iter()
                    .map(FunctionCall::to_value)
                    .collect(),
            ),
        );
        map.insert(
            "usage".into(),
            self.usage.as_ref().map_or(Value::Null, Usage::to_value),
        );
        map.insert(
            "errors".into(),
            Value::Array(self.errors.iter().map(StreamError::to_value).collect()),
        );
        Value::Object(map)
    }
}

/// A whole stream's verdict: valid (no error diagnostic), the result and every diagnostic.
///
/// ```
/// use agentwire::events::{self, DiagnosticCode};
/// let (summary, _events) = events::decode::parse_stream(b"{\"type\":\"response.output_text.delta\",\"delta\":\"a\"}\n", 1024);
/// assert!(!summary.valid);
/// assert_eq!(summary.result.text, "a");
/// assert_eq!(summary.diagnostics[0].code, DiagnosticCode::MissingTerminal);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Summary {
    /// True when no diagnostic has severity error.
    pub valid: bool,
    /// The accumulated result.
    pub result: StreamResult,
    /// Every diagnostic, in stream order (end-of-input ones last).
    pub diagnostics: Vec<Diagnostic>,
}

impl Summary {
    /// `{"valid", "result", "diagnostics"}`.
    ///
    /// ```
    /// use agentwire::{events, json};
    /// let summary = events::accumulate([json::parse(r#"{"type":"response.completed"}"#)?]);
    /// let value = summary.to_value();
    /// assert_eq!(value.get("valid"), Some(&json::Value::Bool(true)));
    /// assert_eq!(value.get("result").and_then(|r| r.get("status")).and_then(|s| s.as_str()), Some("completed"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("valid".into(), self.valid.into());
        map.insert("result".into(), self.result.to_value());
        map.insert("diagnostics".into(), diagnostics_value(&self.diagnostics));
        Value::Object(map)
    }
}

pub(crate) fn diagnostics_value(diagnostics: &[Diagnostic]) -> Value {
    Value::Array(diagnostics.iter().map(Diagnostic::to_value).collect())
}

/// What the accumulator knows about an output item id.
#[derive(Debug)]
enum Tracked {
    FunctionCall {
        call_id: String,
        name: String,
        /// The deltas received so far (emptied once done).
        streamed: String,
        deltas: bool,
        done: bool,
    },
    Other,
}

/// Applies the line and state rules to one event after another and builds the result.
///
/// Diagnostics are appended to the caller's list as they arise; the accumulator keeps only
/// their counts. Memory grows with the result (text, calls) and the item ids seen.
///
/// ```
/// use agentwire::events::Accumulator;
/// use agentwire::json;
/// let mut accumulator = Accumulator::new();
/// let mut diagnostics = Vec::new();
/// accumulator.push_value(1, json::parse(r#"{"type":"response.output_text.delta","delta":"Hel"}"#)?, &mut diagnostics);
/// accumulator.push_value(2, json::parse(r#"{"type":"response.output_text.delta","delta":"lo"}"#)?, &mut diagnostics);
/// accumulator.push_value(3, json::parse(r#"{"type":"response.completed"}"#)?, &mut diagnostics);
/// accumulator.finish(&mut diagnostics);
/// assert!(diagnostics.is_empty() && accumulator.is_valid());
/// assert_eq!(accumulator.result().text, "Hello");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Accumulator {
    result: StreamResult,
    items: BTreeMap<String, Tracked>,
    /// Function-call ids in added order (for `item_not_done`).
    added_calls: Vec<String>,
    terminal_line: Option<u64>,
    errors: u64,
    warnings: u64,
    finished: bool,
}

impl Accumulator {
    /// An empty accumulator.
    ///
    /// ```
    /// let accumulator = agentwire::events::Accumulator::new();
    /// assert_eq!((accumulator.error_count(), accumulator.result().status), (0, None));
    /// ```
    pub fn new() -> Accumulator {
        Accumulator::default()
    }

    /// A line that is not one JSON value (`invalid_json`).
    ///
    /// ```
    /// use agentwire::events::{Accumulator, DiagnosticCode};
    /// let mut accumulator = Accumulator::new();
    /// let mut diagnostics = Vec::new();
    /// let err = agentwire::json::parse("{\"type\":").unwrap_err();
    /// accumulator.push_invalid_json(4, err.message(), &mut diagnostics);
    /// assert_eq!((diagnostics[0].line, diagnostics[0].code), (Some(4), DiagnosticCode::InvalidJson));
    /// assert!(!accumulator.is_valid());
    /// ```
    pub fn push_invalid_json(
        &mut self,
        line: u64,
        message: impl Into<String>,
        out: &mut Vec<Diagnostic>,
    ) {
        self.report(
            out,
            Diagnostic::new(Some(line), DiagnosticCode::InvalidJson, message),
        );
    }

    /// One line's JSON value: the line rules (object, `type`, after terminal, registry), the
    /// field checks and the state rules. Returns the event when it is kept: well-formed and
    /// not after the terminal event (unknown types are kept, flagged).
    ///
    /// ```
    /// use agentwire::events::{Accumulator, DiagnosticCode};
    /// use agentwire::json;
    /// let mut accumulator = Accumulator::new();
    /// let mut diagnostics = Vec::new();
    /// let event = accumulator.push_value(1, json::parse(r#"{"type":"response.output_text.delta","delta":"x"}"#)?, &mut diagnostics);
    /// assert_eq!(event.map(|e| e.type_name().to_string()).as_deref(), Some("response.output_text.delta"));
    /// // A delta without its `delta` is dropped with a diagnostic.
    /// let dropped = accumulator.push_value(2, json::parse(r#"{"type":"response.output_text.delta"}"#)?, &mut diagnostics);
    /// assert!(dropped.is_none());
    /// assert_eq!((diagnostics[0].code, diagnostics[0].field.as_deref()), (DiagnosticCode::MissingField, Some("delta")));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn push_value(
        &mut self,
        line: u64,
        value: Value,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Event> {
        if has_non_finite_number(&value) {
            // Go cannot decode such a number either.
            self.push_invalid_json(line, "a number is out of the double range", out);
            return None;
        }
        let map = match value {
            Value::Object(map) => map,
            other => {
                self.field_error(line, not_object(&other), out);
                return None;
            }
        };
        let event_type = match type_of(&map) {
            Ok(name) => EventType::from_name(name),
            Err(e) => {
                self.field_error(line, e, out);
                return None;
            }
        };
        if self.after_terminal(line, out) {
            return None;
        }
        match Event::checked(event_type, map) {
            Ok(event) => {
                self.apply(line, &event, out);
                Some(event)
            }
            Err(e) => {
                self.field_error(line, e, out);
                None
            }
        }
    }

    /// An event that is already well-formed (made by [`Event::from_value`] or a generator):
    /// the after-terminal and registry rules, then the state rules. Returns whether it was
    /// accepted (not after the terminal event).
    ///
    /// ```
    /// use agentwire::events::{mock, Accumulator, Event};
    /// let mut accumulator = Accumulator::new();
    /// let mut diagnostics = Vec::new();
    /// for (i, value) in mock::mock_events(mock::MockMode::Text, "").into_iter().enumerate() {
    ///     let event = Event::from_value(value).expect("mock events are well-formed");
    ///     assert!(accumulator.push_event(i as u64 + 1, &event, &mut diagnostics));
    /// }
    /// assert_eq!(accumulator.result().text, "mock response text");
    /// ```
    pub fn push_event(&mut self, line: u64, event: &Event, out: &mut Vec<Diagnostic>) -> bool {
        if self.after_terminal(line, out) {
            return false;
        }
        self.apply(line, event, out);
        true
    }

    /// End of input: `item_not_done` for every open function call (added order), then
    /// `missing_terminal` when no terminal event was seen. Later calls do nothing.
    ///
    /// ```
    /// use agentwire::events::{Accumulator, DiagnosticCode};
    /// use agentwire::json;
    /// let mut accumulator = Accumulator::new();
    /// let mut diagnostics = Vec::new();
    /// let added = r#"{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_1","call_id":"c","name":"f"}}"#;
    /// accumulator.push_value(1, json::parse(added)?, &mut diagnostics);
    /// accumulator.finish(&mut diagnostics);
    /// let codes: Vec<_> = diagnostics.iter().map(|d| d.code).collect();
    /// assert_eq!(codes, [DiagnosticCode::ItemNotDone, DiagnosticCode::MissingTerminal]);
    /// assert_eq!(diagnostics[0].item_id.as_deref(), Some("fc_1"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn finish(&mut self, out: &mut Vec<Diagnostic>) {
        if self.finished {
            return;
        }
        self.finished = true;
        let open: Vec<String> = self
            .added_calls
            .iter()
            .filter(|id| {
                matches!(
                    self.items.get(id.as_str()),
                    Some(Tracked::FunctionCall { done: false, .. })
                )
            })
            .cloned()
            .collect();
        for id in open {
            let diagnostic = Diagnostic::new(
                None,
                DiagnosticCode::ItemNotDone,
                format!("function call {} was never done", quoted(&id)),
            )
            .with_item(id);
            self.report(out, diagnostic);
        }
        if self.terminal_line.is_none() {
            self.report(
                out,
                Diagnostic::new(
                    None,
                    DiagnosticCode::MissingTerminal,
                    "the stream ended without response.completed, response.failed or response.incomplete",
                ),
            );
        }
    }

    /// A diagnostic found outside the accumulator (a line over the length limit): counted
    /// like the others.
    ///
    /// ```
    /// use agentwire::events::{Accumulator, Diagnostic, DiagnosticCode};
    /// let mut accumulator = Accumulator::new();
    /// let mut diagnostics = Vec::new();
    /// let too_long = Diagnostic::new(Some(9), DiagnosticCode::InvalidJson, "line too long (skipped)");
    /// accumulator.push_diagnostic(too_long, &mut diagnostics);
    /// assert_eq!((accumulator.error_count(), diagnostics.len()), (1, 1));
    /// ```
    pub fn push_diagnostic(&mut self, diagnostic: Diagnostic, out: &mut Vec<Diagnostic>) {
        self.report(out, diagnostic);
    }

    /// The result so far.
    ///
    /// ```
    /// use agentwire::events::Accumulator;
    /// let mut accumulator = Accumulator::new();
    /// let value = agentwire::json::parse(r#"{"type":"response.output_text.delta","delta":"partial"}"#)?;
    /// accumulator.push_value(1, value, &mut Vec::new());
    /// assert_eq!(accumulator.result().text, "partial");
    /// assert_eq!(accumulator.result().status, None);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn result(&self) -> &StreamResult {
        &self.result
    }

    /// The result.
    ///
    /// ```
    /// use agentwire::events::{Accumulator, TerminalStatus};
    /// let mut accumulator = Accumulator::new();
    /// accumulator.push_value(1, agentwire::json::parse(r#"{"type":"response.failed"}"#)?, &mut Vec::new());
    /// let result = accumulator.into_result();
    /// assert_eq!(result.status, Some(TerminalStatus::Failed));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn into_result(self) -> StreamResult {
        self.result
    }

    /// True while no error diagnostic was reported.
    ///
    /// ```
    /// use agentwire::events::Accumulator;
    /// let mut accumulator = Accumulator::new();
    /// assert!(accumulator.is_valid());
    /// accumulator.push_value(1, agentwire::json::Value::Null, &mut Vec::new());
    /// assert!(!accumulator.is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        self.errors == 0
    }

    /// Number of error diagnostics so far.
    ///
    /// ```
    /// use agentwire::events::Accumulator;
    /// use agentwire::json::{self, Value};
    /// let mut accumulator = Accumulator::new();
    /// let mut diagnostics = Vec::new();
    /// accumulator.push_value(1, Value::from("not an object"), &mut diagnostics);
    /// accumulator.push_value(2, json::parse(r#"{"no_type":true}"#)?, &mut diagnostics);
    /// assert_eq!(accumulator.error_count(), 2);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn error_count(&self) -> u64 {
        self.errors
    }

    /// Number of warnings so far.
    ///
    /// ```
    /// use agentwire::events::{Accumulator, Severity};
    /// let mut accumulator = Accumulator::new();
    /// let mut diagnostics = Vec::new();
    /// accumulator.push_value(1, agentwire::json::parse(r#"{"type":"response.audio.delta"}"#)?, &mut diagnostics);
    /// assert_eq!((accumulator.warning_count(), accumulator.error_count()), (1, 0));
    /// assert_eq!(diagnostics[0].severity(), Severity::Warning);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn warning_count(&self) -> u64 {
        self.warnings
    }

    fn report(&mut self, out: &mut Vec<Diagnostic>, diagnostic: Diagnostic) {
        match diagnostic.severity() {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
        out.push(diagnostic);
    }

    fn field_error(&mut self, line: u64, e: FieldError, out: &mut Vec<Diagnostic>) {
        let mut diagnostic = Diagnostic::new(Some(line), e.code, e.message);
        diagnostic.field = e.field;
        self.report(out, diagnostic);
    }

    fn after_terminal(&mut self, line: u64, out: &mut Vec<Diagnostic>) -> bool {
        let Some(terminal) = self.terminal_line else {
            return false;
        };
        self.report(
            out,
            Diagnostic::new(
                Some(line),
                DiagnosticCode::EventAfterTerminal,
                format!("event after the terminal event of line {terminal} (ignored)"),
            ),
        );
        true
    }

    fn item_diagnostic(
        &mut self,
        out: &mut Vec<Diagnostic>,
        line: u64,
        code: DiagnosticCode,
        id: &str,
        message: String,
    ) {
        self.report(
            out,
            Diagnostic::new(Some(line), code, message).with_item(id),
        );
    }

    /// The state rules for one well-formed event.
    fn apply(&mut self, line: u64, event: &Event, out: &mut Vec<Diagnostic>) {
        match event.data() {
            EventData::OutputTextDelta { delta } => self.result.text.push_str(delta),
            EventData::ContentPartAdded { part_type, text } => {
                if part_type == "output_text" {
                    self.result.text.push_str(text.unwrap_or(""));
                }
            }
            EventData::OutputItemAdded(item) => self.item_added(line, item, out),
            EventData::FunctionCallArgumentsDelta { item_id, delta } => {
                match self.items.get_mut(item_id) {
                    Some(Tracked::FunctionCall { done: true, .. }) => self.item_diagnostic(
                        out,
                        line,
                        DiagnosticCode::ItemClosed,
                        item_id,
                        format!(
                            "arguments delta for {} after its output_item.done",
                            quoted(item_id)
                        ),
                    ),
                    Some(Tracked::FunctionCall {
                        streamed, deltas, ..
                    }) => {
                        streamed.push_str(delta);
                        *deltas = true;
                    }
                    _ => self.item_diagnostic(
                        out,
                        line,
                        DiagnosticCode::UnknownItem,
                        item_id,
                        format!(
                            "arguments delta for {}, which was never added as a function call",
                            quoted(item_id)
                        ),
                    ),
                }
            }
            EventData::OutputItemDone(item) => self.item_done(line, item, out),
            EventData::Terminal {
                status,
                usage,
                error,
            } => {
                self.terminal_line = Some(line);
                self.result.status = Some(status);
                self.result.usage = match usage {
                    UsageField::Absent => None,
                    UsageField::Valid(usage) => Some(usage),
                    UsageField::Invalid { field } => {
                        let diagnostic = Diagnostic::new(
                            Some(line),
                            DiagnosticCode::BadFieldType,
                            format!("{} must be a non-negative integer", quoted(&field)),
                        )
                        .with_field(field);
                        self.report(out, diagnostic);
                        None
                    }
                };
                if let Some(error) = error {
                    self.result.errors.push(StreamError::from_info(error));
                }
            }
            EventData::Error(error) => self.result.errors.push(StreamError::from_info(error)),
            EventData::Created | EventData::Ignored => {}
            EventData::Unknown => self.report(
                out,
                Diagnostic::new(
                    Some(line),
                    DiagnosticCode::UnknownType,
                    format!("unknown event type {} (skipped)", quoted(event.type_name())),
                ),
            ),
        }
    }

    fn item_added(&mut self, line: u64, item: OutputItem<'_>, out: &mut Vec<Diagnostic>) {
        let Some(id) = item.id() else {
            return; // nothing to track
        };
        if self.items.contains_key(id) {
            self.item_diagnostic(
                out,
                line,
                DiagnosticCode::DuplicateItem,
                id,
                format!("item {} was already used in this stream", quoted(id)),
            );
            return;
        }
        let tracked = match item {
            OutputItem::FunctionCall { call_id, name, .. } => {
                self.added_calls.push(id.into());
                Tracked::FunctionCall {
                    call_id: call_id.into(),
                    name: name.into(),
                    streamed: String::new(),
                    deltas: false,
                    done: false,
                }
            }
            OutputItem::Other { .. } => Tracked::Other,
        };
        self.items.insert(id.into(), tracked);
    }

    fn item_done(&mut self, line: u64, item: OutputItem<'_>, out: &mut Vec<Diagnostic>) {
        let OutputItem::FunctionCall {
            id,
            call_id,
            name,
            arguments,
        } = item
        else {
            // Another item type only marks a known id as done; a function call's id is a
            // mismatch (its call would otherwise vanish without a diagnostic).
            if let (OutputItem::Other { item_type, .. }, Some(id)) = (item, item.id())
                && let Some(Tracked::FunctionCall { .. }) = self.items.get(id)
            {
                let diagnostic = Diagnostic::new(
                    Some(line),
                    DiagnosticCode::ItemMismatch,
                    format!(
                        "item {} was added as a function call, done as {}",
                        quoted(id),
                        quoted(item_type)
                    ),
                )
                .with_item(id)
                .with_field("item.type");
                self.report(out, diagnostic);
            }
            return;
        };
        let mut mismatches: Vec<Diagnostic> = Vec::new();
        let arguments = match self.items.get_mut(id) {
            None => {
                mismatches.push(
                    Diagnostic::new(
                        Some(line),
                        DiagnosticCode::DoneBeforeAdded,
                        format!(
                            "output_item.done for {}, which was never added (recorded anyway)",
                            quoted(id)
                        ),
                    )
                    .with_item(id),
                );
                self.items.insert(
                    id.into(),
                    Tracked::FunctionCall {
                        call_id: call_id.into(),
                        name: name.into(),
                        streamed: String::new(),
                        deltas: false,
                        done: true,
                    },
                );
                String::from(arguments.unwrap_or(""))
            }
            Some(Tracked::Other) => {
                let diagnostic = Diagnostic::new(
                    Some(line),
                    DiagnosticCode::ItemMismatch,
                    format!(
                        "item {} was not added as a function call (ignored)",
                        quoted(id)
                    ),
                )
                .with_item(id)
                .with_field("item.type");
                self.report(out, diagnostic);
                return;
            }
            Some(Tracked::FunctionCall { done: true, .. }) => {
                self.item_diagnostic(
                    out,
                    line,
                    DiagnosticCode::DuplicateDone,
                    id,
                    format!("function call {} is already done (ignored)", quoted(id)),
                );
                return;
            }
            Some(Tracked::FunctionCall {
                call_id: added_call_id,
                name: added_name,
                streamed,
                deltas,
                done,
            }) => {
                let (field, added, now) = if added_call_id != call_id {
                    ("item.call_id", added_call_id.as_str(), call_id)
                } else {
                    ("item.name", added_name.as_str(), name)
                };
                if added != now {
                    mismatches.push(
                        Diagnostic::new(
                            Some(line),
                            DiagnosticCode::ItemMismatch,
                            format!(
                                "{field} {} differs from {} of output_item.added (the done value wins)",
                                quoted(now),
                                quoted(added)
                            ),
                        )
                        .with_item(id)
                        .with_field(field),
                    );
                }
                *done = true;
                let streamed = core::mem::take(streamed);
                match arguments {
                    Some(final_arguments) => {
                        if *deltas && streamed != final_arguments {
                            mismatches.push(
                                Diagnostic::new(
                                    Some(line),
                                    DiagnosticCode::ArgumentsMismatch,
                                    "the streamed argument deltas differ from item.arguments (the done value wins)",
                                )
                                .with_item(id),
                            );
                        }
                        String::from(final_arguments)
                    }
                    None => streamed,
                }
            }
        };
        for diagnostic in mismatches {
            self.report(out, diagnostic);
        }
        self.result.function_calls.push(FunctionCall {
            id: id.into(),
            call_id: call_id.into(),
            name: name.into(),
            arguments,
        });
    }
}

/// True when a number in `value` is NaN or ±Infinity (e.g. `1e400`).
pub(crate) fn has_non_finite_number(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_non_finite(),
        Value::Array(items) => items.iter().any(has_non_finite_number),
        Value::Object(map) => map.iter().any(|(_, v)| has_non_finite_number(v)),
        _ => false,
    }
}

/// The stream rules applied to a list of JSON values, the list index + 1 standing for the line
/// (how the SSE vectors check converted events).
///
/// ```
/// use agentwire::{events, json};
/// let lines = [r#"{"type":"response.output_text.delta","delta":"ok"}"#, r#"{"type":"response.completed"}"#];
/// let values = lines.iter().map(|l| json::parse(l)).collect::<Result<Vec<_>, _>>()?;
/// let summary = events::accumulate(values);
/// assert_eq!(summary.result.text, "ok");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn accumulate(values: impl IntoIterator<Item = Value>) -> Summary {
    let mut accumulator = Accumulator::new();
    let mut diagnostics = Vec::new();
    for (i, value) in values.into_iter().enumerate() {
        accumulator.push_value(i as u64 + 1, value, &mut diagnostics);
    }
    accumulator.finish(&mut diagnostics);
    Summary {
        valid: accumulator.is_valid(),
        result: accumulator.into_result(),
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;
    use alloc::vec;

    fn run(lines: &[&str]) -> Summary {
        accumulate(lines.iter().map(|l| parse(l).unwrap()))
    }

    fn codes(summary: &Summary) -> Vec<(Option<u64>, &'static str)> {
        summary
            .diagnostics
            .iter()
            .map(|d| (d.line, d.code.as_str()))
            .collect()
    }

    #[test]
    fn message_done_for_a_function_call_is_a_mismatch() {
        let s = run(&[
            r#"{"type":"response.output_item.added","item":{"id":"a","type":"function_call","call_id":"c","name":"n"}}"#,
            r#"{"type":"response.output_item.done","item":{"id":"a","type":"message"}}"#,
            r#"{"type":"response.completed"}"#,
        ]);
        assert_eq!(
            codes(&s),
            vec![(Some(2), "item_mismatch"), (None, "item_not_done")]
        );
    }

    #[test]
    fn delta_after_done_before_added_is_closed() {
        let s = run(&[
            r#"{"type":"response.output_item.done","item":{"id":"a","type":"function_call","call_id":"c","name":"n"}}"#,
            r#"{"type":"response.function_call_arguments.delta","item_id":"a","delta":"x"}"#,
            r#"{"type":"response.output_item.added","item":{"id":"a","type":"function_call","call_id":"c","name":"n"}}"#,
            r#"{"type":"response.failed","response":{"error":{"message":"boom","code":"e1"},"usage":{"total_tokens":1.5}}}"#,
        ]);
        assert_eq!(
            codes(&s),
            vec![
                (Some(1), "done_before_added"),
                (Some(2), "item_closed"),
                (Some(3), "duplicate_item"),
                (Some(4), "bad_field_type"),
            ]
        );
        assert_eq!(s.result.function_calls[0].arguments, "");
        assert_eq!(s.result.status, Some(TerminalStatus::Failed));
        assert_eq!(s.result.usage, None);
        assert_eq!(s.result.errors[0].code.as_deref(), Some("e1"));
    }

    #[test]
    fn non_finite_numbers_are_invalid_json() {
        let s = run(&[r#"{"type":"error","message":"m","n":1e400}"#]);
        assert_eq!(
            codes(&s),
            vec![(Some(1), "invalid_json"), (None, "missing_terminal")]
        );
    }
}
