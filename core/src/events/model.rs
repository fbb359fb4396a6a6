//! The event model: the registry of types, the per-type field checks and a typed view.
//!
//! An [`Event`] keeps its whole JSON object (members in input order), so serialization is
//! lossless; [`Event::data`] reads the modelled fields from it.

use alloc::format;
use alloc::string::String;

use super::diagnostic::{DiagnosticCode, quoted};
use crate::json::{Map, Number, Value};

macro_rules! event_types {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, $role:ident; )*) => {
        /// The registry of event types (fixtures README "Registry").
        ///
        /// ```
        /// use agentwire::events::EventType;
        /// let t = EventType::from_name("response.output_text.delta");
        /// assert_eq!(t, EventType::OutputTextDelta);
        /// assert_eq!(t.name(), Some("response.output_text.delta"));
        /// assert_eq!(EventType::from_name("response.audio.delta"), EventType::Unknown);
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum EventType {
            $( $(#[$doc])* $variant, )*
            /// A type outside the registry: kept, flagged `unknown_type`, never accumulated.
            Unknown,
        }

        impl EventType {
            /// Every registered type (not [`EventType::Unknown`]).
            ///
            /// ```
            /// use agentwire::events::EventType;
            /// assert_eq!(EventType::REGISTERED.len(), 14);
            /// assert!(!EventType::REGISTERED.contains(&EventType::Unknown));
            /// ```
            pub const REGISTERED: &'static [EventType] = &[$(EventType::$variant),*];

            /// The type for a `type` string.
            ///
            /// ```
            /// use agentwire::events::EventType;
            /// assert_eq!(EventType::from_name("response.completed"), EventType::Completed);
            /// assert_eq!(EventType::from_name("error"), EventType::Error);
            /// assert_eq!(EventType::from_name("response.reasoning.delta"), EventType::Unknown);
            /// ```
            pub fn from_name(name: &str) -> EventType {
                match name {
                    $($name => EventType::$variant,)*
                    _ => EventType::Unknown,
                }
            }

            /// The `type` string; `None` for [`EventType::Unknown`].
            ///
            /// ```
            /// use agentwire::events::EventType;
            /// assert_eq!(EventType::Failed.name(), Some("response.failed"));
            /// assert_eq!(EventType::Unknown.name(), None);
            /// ```
            pub fn name(self) -> Option<&'static str> {
                match self {
                    $(EventType::$variant => Some($name),)*
                    EventType::Unknown => None,
                }
            }

            /// What the validator does with it.
            ///
            /// ```
            /// use agentwire::events::{model::Role, EventType};
            /// assert_eq!(EventType::Completed.role(), Role::Terminal);
            /// assert_eq!(EventType::OutputTextDelta.role(), Role::Core);
            /// assert_eq!(EventType::InProgress.role(), Role::Ignored);
            /// assert_eq!(EventType::Unknown.role(), Role::Unknown);
            /// ```
            pub fn role(self) -> Role {
                match self {
                    $(EventType::$variant => Role::$role,)*
                    EventType::Unknown => Role::Unknown,
                }
            }
        }
    };
}

event_types! {
    /// `response.output_text.delta`: a piece of the answer text.
    OutputTextDelta => "response.output_text.delta", Core;
    /// `response.content_part.added`: a content part starts (its `text` joins the answer).
    ContentPartAdded => "response.content_part.added", Core;
    /// `response.output_item.added`: an output item (function call, message, …) starts.
    OutputItemAdded => "response.output_item.added", Core;
    /// `response.function_call_arguments.delta`: a piece of a function call's arguments.
    FunctionCallArgumentsDelta => "response.function_call_arguments.delta", Core;
    /// `response.output_item.done`: an output item is complete.
    OutputItemDone => "response.output_item.done", Core;
    /// `response.completed`: terminal, status `completed`.
    Completed => "response.completed", Terminal;
    /// `error`: an error from the model or upstream (does not end the stream).
    Error => "error", Core;
    /// `response.failed`: terminal, status `failed`.
    Failed => "response.failed", Terminal;
    /// `response.incomplete`: terminal, status `incomplete`.
    Incomplete => "response.incomplete", Terminal;
    /// `response.created`: the godex mock always sends it (known, ignored).
    Created => "response.created", Ignored;
    /// `response.in_progress` (known, ignored).
    InProgress => "response.in_progress", Ignored;
    /// `response.output_text.done` (known, ignored).
    OutputTextDone => "response.output_text.done", Ignored;
    /// `response.content_part.done` (known, ignored).
    ContentPartDone => "response.content_part.done", Ignored;
    /// `response.function_call_arguments.done` (known, ignored).
    FunctionCallArgumentsDone => "response.function_call_arguments.done", Ignored;
}

/// What the validator does with an event type.
///
/// ```
/// use agentwire::events::{model::Role, EventType};
/// let terminal: Vec<&str> = EventType::REGISTERED.iter()
///     .filter(|t| t.role() == Role::Terminal)
///     .filter_map(|t| t.name())
///     .collect();
/// assert_eq!(terminal, ["response.completed", "response.failed", "response.incomplete"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Role {
    /// Checked and accumulated.
    Core,
    /// Checked; the first one ends the stream and sets the status.
    Terminal,
    /// Known and ignored (no checks, no diagnostic).
    Ignored,
    /// Not in the registry: an `unknown_type` warning.
    Unknown,
}

/// The status a terminal event sets.
///
/// ```
/// use agentwire::events::{self, TerminalStatus};
/// let (summary, _) = events::decode::parse_stream(b"{\"type\":\"response.failed\"}\n", 1024);
/// assert_eq!(summary.result.status, Some(TerminalStatus::Failed));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TerminalStatus {
    /// `response.completed`.
    Completed,
    /// `response.failed`.
    Failed,
    /// `response.incomplete`.
    Incomplete,
}

impl TerminalStatus {
    /// `completed`, `failed` or `incomplete`.
    ///
    /// ```
    /// use agentwire::events::TerminalStatus;
    /// assert_eq!(TerminalStatus::Incomplete.as_str(), "incomplete");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            TerminalStatus::Completed => "completed",
            TerminalStatus::Failed => "failed",
            TerminalStatus::Incomplete => "incomplete",
        }
    }
}

/// Token usage of a terminal event, normalized (fixtures README "Usage").
///
/// ```
/// use agentwire::events::{self, Usage};
/// let stream = br#"{"type":"response.completed","response":{"usage":{"input_tokens":10,"output_tokens":5}}}"#;
/// let (summary, _) = events::decode::parse_stream(stream, 1024);
/// let usage = Usage { input_tokens: 10, output_tokens: 5, cached_tokens: 0, total_tokens: 15 };
/// assert_eq!(summary.result.usage, Some(usage));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Usage {
    /// `input_tokens` (0 when absent).
    pub input_tokens: u64,
    /// `output_tokens` (0 when absent).
    pub output_tokens: u64,
    /// The flat `cached_tokens` (godex), else `input_tokens_details.cached_tokens` (official
    /// Responses), else 0.
    pub cached_tokens: u64,
    /// `total_tokens`, else `input_tokens + output_tokens` (saturating).
    pub total_tokens: u64,
}

impl Usage {
    /// Reads a usage object; `Err` names the first member that is not a non-negative integer
    /// (`response.usage.<name>`).
    ///
    /// ```
    /// use agentwire::events::Usage;
    /// use agentwire::json;
    /// let usage = json::parse(r#"{"input_tokens":8,"input_tokens_details":{"cached_tokens":6},"output_tokens":2}"#)?;
    /// let usage = Usage::from_map(usage.as_object().unwrap()).unwrap();
    /// assert_eq!((usage.cached_tokens, usage.total_tokens), (6, 10));
    /// let bad = json::parse(r#"{"input_tokens":-1}"#)?;
    /// assert_eq!(Usage::from_map(bad.as_object().unwrap()).unwrap_err(), "response.usage.input_tokens");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_map(usage: &Map) -> Result<Usage, String> {
        let input_tokens = count(usage, "input_tokens", "")?.unwrap_or(0);
        let output_tokens = count(usage, "output_tokens", "")?.unwrap_or(0);
        let cached_tokens = match count(usage, "cached_tokens", "")? {
            Some(cached) => cached,
            None => match usage.get("input_tokens_details") {
                Some(Value::Object(details)) => {
                    count(details, "cached_tokens", "input_tokens_details.")?.unwrap_or(0)
                }
                _ => 0,
            },
        };
        let total_tokens = count(usage, "total_tokens", "")?
            .unwrap_or_else(|| input_tokens.saturating_add(output_tokens));
        Ok(Usage {
            input_tokens,
            output_tokens,
            cached_tokens,
            total_tokens,
        })
    }

    /// `{"input_tokens", "output_tokens", "cached_tokens", "total_tokens"}`.
    ///
    /// ```
    /// use agentwire::events::Usage;
    /// use agentwire::json::{self, WriteOptions};
    /// let usage = Usage { input_tokens: 3, output_tokens: 4, cached_tokens: 0, total_tokens: 7 };
    /// assert_eq!(
    ///     json::to_string(&usage.to_value(), WriteOptions::PLAIN)?,
    ///     r#"{"input_tokens":3,"output_tokens":4,"cached_tokens":0,"total_tokens":7}"#
    /// );
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        for (key, count) in [
            ("input_tokens", self.input_tokens),
            ("output_tokens", self.output_tokens),
            ("cached_tokens", self.cached_tokens),
            ("total_tokens", self.total_tokens),
        ] {
            map.insert(key.into(), Value::Number(Number::from_u64(count)));
        }
        Value::Object(map)
    }
}

/// A usage member: `Ok(None)` when absent, `Err(field path)` when not a non-negative integer.
fn count(map: &Map, key: &str, prefix: &str) -> Result<Option<u64>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64()),
        Some(_) => Err(format!("response.usage.{prefix}{key}")),
    }
}

/// The usage of a terminal event.
///
/// ```
/// use agentwire::events::model::{EventData, UsageField};
/// use agentwire::events::Event;
/// let event = Event::from_value(agentwire::json::parse(r#"{"type":"response.completed","response":{"usage":{"output_tokens":"9"}}}"#)?).unwrap();
/// let EventData::Terminal { usage, .. } = event.data() else { unreachable!() };
/// assert_eq!(usage, UsageField::Invalid { field: "response.usage.output_tokens".into() });
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UsageField {
    /// No `response.usage`: the result's usage is `null`.
    Absent,
    /// A valid usage object.
    Valid(Usage),
    /// A count that is not a non-negative integer (`bad_field_type`, usage `null`, the status
    /// still applies).
    Invalid {
        /// The dotted path, e.g. `response.usage.input_tokens`.
        field: String,
    },
}

/// An error carried by an `error` event or a failed response.
///
/// ```
/// use agentwire::events::model::{ErrorInfo, EventData};
/// use agentwire::events::Event;
/// let event = Event::from_value(agentwire::json::parse(r#"{"type":"error","message":"overloaded","code":"server_busy"}"#)?).unwrap();
/// assert_eq!(event.data(), EventData::Error(ErrorInfo { message: "overloaded", code: Some("server_busy") }));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorInfo<'a> {
    /// The message.
    pub message: &'a str,
    /// The code when it is a string.
    pub code: Option<&'a str>,
}

/// An output item of `output_item.added` / `output_item.done`.
///
/// ```
/// use agentwire::events::model::{EventData, OutputItem};
/// use agentwire::events::Event;
/// let event = Event::from_value(agentwire::json::parse(r#"{"type":"response.output_item.added","item":{"type":"message","id":"msg_1"}}"#)?).unwrap();
/// let EventData::OutputItemAdded(item) = event.data() else { unreachable!() };
/// assert_eq!(item, OutputItem::Other { item_type: "message", id: Some("msg_1") });
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputItem<'a> {
    /// `item.type == "function_call"`.
    FunctionCall {
        /// `item.id`, which deltas refer to.
        id: &'a str,
        /// `item.call_id`, which the follow-up output refers to.
        call_id: &'a str,
        /// The function name.
        name: &'a str,
        /// `item.arguments` (done only; ignored on added).
        arguments: Option<&'a str>,
    },
    /// Any other item type (message, reasoning, …).
    Other {
        /// `item.type`.
        item_type: &'a str,
        /// `item.id`, when present.
        id: Option<&'a str>,
    },
}

impl<'a> OutputItem<'a> {
    /// The item id, when it has one.
    ///
    /// ```
    /// use agentwire::events::model::OutputItem;
    /// let call = OutputItem::FunctionCall { id: "fc_1", call_id: "call_1", name: "f", arguments: None };
    /// assert_eq!(call.id(), Some("fc_1"));
    /// assert_eq!(OutputItem::Other { item_type: "reasoning", id: None }.id(), None);
    /// ```
    pub fn id(&self) -> Option<&'a str> {
        match *self {
            OutputItem::FunctionCall { id, .. } => Some(id),
            OutputItem::Other { id, .. } => id,
        }
    }
}

/// The typed content of an event, borrowed from its JSON object.
///
/// ```
/// use agentwire::events::model::EventData;
/// use agentwire::events::Event;
/// let event = Event::from_value(agentwire::json::parse(r#"{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{\"a\""}"#)?).unwrap();
/// assert_eq!(event.data(), EventData::FunctionCallArgumentsDelta { item_id: "fc_1", delta: r#"{"a""# });
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum EventData<'a> {
    /// `response.output_text.delta`.
    OutputTextDelta {
        /// The text piece.
        delta: &'a str,
    },
    /// `response.content_part.added`.
    ContentPartAdded {
        /// `part.type` (`output_text` parts add their `text` to the answer).
        part_type: &'a str,
        /// `part.text`, when present.
        text: Option<&'a str>,
    },
    /// `response.output_item.added`.
    OutputItemAdded(OutputItem<'a>),
    /// `response.function_call_arguments.delta`.
    FunctionCallArgumentsDelta {
        /// The function-call item the piece belongs to.
        item_id: &'a str,
        /// The arguments piece.
        delta: &'a str,
    },
    /// `response.output_item.done`.
    OutputItemDone(OutputItem<'a>),
    /// `response.completed`, `response.failed` or `response.incomplete`.
    Terminal {
        /// The status it sets.
        status: TerminalStatus,
        /// `response.usage`.
        usage: UsageField,
        /// `response.error` of a failed response, when its message is a string.
        error: Option<ErrorInfo<'a>>,
    },
    /// `error`.
    Error(ErrorInfo<'a>),
    /// `response.created`.
    Created,
    /// Another known type that the protocol ignores.
    Ignored,
    /// A type outside the registry.
    Unknown,
}

/// Why an object is not a well-formed event: the diagnostic it gets (the event is dropped).
///
/// ```
/// use agentwire::events::{DiagnosticCode, Event};
/// let err = Event::from_value(agentwire::json::parse(r#"{"type":"response.output_text.delta","delta":7}"#)?).unwrap_err();
/// assert_eq!((err.code, err.field.as_deref()), (DiagnosticCode::BadFieldType, Some("delta")));
/// assert_eq!(err.message, r#""delta" must be a string, got number"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FieldError {
    /// `not_object`, `missing_type`, `bad_field_type` or `missing_field`.
    pub code: DiagnosticCode,
    /// The dotted path of the field.
    pub field: Option<String>,
    /// A human-readable explanation.
    pub message: String,
}

impl FieldError {
    fn missing(path: &str) -> FieldError {
        FieldError {
            code: DiagnosticCode::MissingField,
            field: Some(path.into()),
            message: format!("missing {}", quoted(path)),
        }
    }

    fn bad_type(path: &str, expected: &str, got: &Value) -> FieldError {
        FieldError {
            code: DiagnosticCode::BadFieldType,
            field: Some(path.into()),
            message: format!(
                "{} must be {expected}, got {}",
                quoted(path),
                got.type_name()
            ),
        }
    }
}

/// One event of the stream: a JSON object with a string `type` whose fields passed the
/// checks of its type.
///
/// ```
/// use agentwire::events::{Event, EventType};
/// let value = agentwire::json::parse(r#"{"type":"response.output_text.delta","delta":"Hi","sequence_number":3}"#)?;
/// let event = Event::from_value(value).unwrap();
/// assert_eq!(event.event_type(), EventType::OutputTextDelta);
/// // Members the model does not read are kept.
/// assert!(event.json().get("sequence_number").is_some());
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    event_type: EventType,
    json: Map,
}

impl Event {
    /// Reads an event: an object (`not_object`), with a string `type` (`missing_type`,
    /// `bad_field_type`), whose fields pass the checks of its type (`missing_field`,
    /// `bad_field_type`; unknown types are not checked).
    ///
    /// ```
    /// use agentwire::events::{DiagnosticCode, Event};
    /// use agentwire::json::{self, Value};
    /// assert!(Event::from_value(json::parse(r#"{"type":"response.created"}"#)?).is_ok());
    /// assert_eq!(Event::from_value(Value::Null).unwrap_err().code, DiagnosticCode::NotObject);
    /// assert_eq!(Event::from_value(json::parse("{}")?).unwrap_err().code, DiagnosticCode::MissingType);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: Value) -> Result<Event, FieldError> {
        match value {
            Value::Object(map) => Event::from_map(map),
            other => Err(not_object(&other)),
        }
    }

    /// [`Event::from_value`] for an object.
    ///
    /// ```
    /// use agentwire::events::{DiagnosticCode, Event};
    /// use agentwire::json::{Map, Value};
    /// let mut map = Map::new();
    /// map.insert("type".into(), Value::from("error"));
    /// let err = Event::from_map(map).unwrap_err();
    /// assert_eq!((err.code, err.field.as_deref()), (DiagnosticCode::MissingField, Some("message")));
    /// ```
    pub fn from_map(map: Map) -> Result<Event, FieldError> {
        let event_type = EventType::from_name(type_of(&map)?);
        Event::checked(event_type, map)
    }

    /// Checks the fields of an object whose `type` was read as `event_type`.
    pub(crate) fn checked(event_type: EventType, json: Map) -> Result<Event, FieldError> {
        view(event_type, &json)?;
        Ok(Event { event_type, json })
    }

    /// The registered type, or [`EventType::Unknown`].
    ///
    /// ```
    /// use agentwire::events::{Event, EventType};
    /// let event = Event::from_value(agentwire::json::parse(r#"{"type":"response.audio.delta"}"#)?).unwrap();
    /// assert_eq!(event.event_type(), EventType::Unknown);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn event_type(&self) -> EventType {
        self.event_type
    }

    /// The `type` string.
    ///
    /// ```
    /// use agentwire::events::Event;
    /// // Unknown types keep their name.
    /// let event = Event::from_value(agentwire::json::parse(r#"{"type":"response.audio.delta"}"#)?).unwrap();
    /// assert_eq!(event.type_name(), "response.audio.delta");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn type_name(&self) -> &str {
        self.json.get("type").and_then(Value::as_str).unwrap_or("")
    }

    /// The typed content.
    ///
    /// ```
    /// use agentwire::events::model::EventData;
    /// use agentwire::events::Event;
    /// let event = Event::from_value(agentwire::json::parse(r#"{"type":"response.content_part.added","part":{"type":"output_text","text":"Hi"}}"#)?).unwrap();
    /// assert_eq!(event.data(), EventData::ContentPartAdded { part_type: "output_text", text: Some("Hi") });
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn data(&self) -> EventData<'_> {
        // The fields were checked when the event was made and the map is private.
        view(self.event_type, &self.json).unwrap_or(EventData::Unknown)
    }

    /// The whole JSON object, members in input order.
    ///
    /// ```
    /// use agentwire::events::Event;
    /// let event = Event::from_value(agentwire::json::parse(r#"{"delta":"x","type":"response.output_text.delta"}"#)?).unwrap();
    /// assert_eq!(event.json().keys().collect::<Vec<_>>(), ["delta", "type"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn json(&self) -> &Map {
        &self.json
    }

    /// The JSON object.
    ///
    /// ```
    /// use agentwire::events::Event;
    /// let event = Event::from_value(agentwire::json::parse(r#"{"type":"response.in_progress","response":{}}"#)?).unwrap();
    /// let map = event.into_json();
    /// assert_eq!(map.len(), 2);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn into_json(self) -> Map {
        self.json
    }

    /// The JSON object as a value.
    ///
    /// ```
    /// use agentwire::events::Event;
    /// use agentwire::json;
    /// let text = r#"{"type":"response.output_text.delta","delta":"Hi"}"#;
    /// let event = Event::from_value(json::parse(text)?).unwrap();
    /// assert_eq!(json::to_string(&event.to_value(), json::WriteOptions::PLAIN)?, text);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        Value::Object(self.json.clone())
    }
}

pub(crate) fn not_object(value: &Value) -> FieldError {
    FieldError {
        code: DiagnosticCode::NotObject,
        field: None,
        message: format!("expected a JSON object, got {}", value.type_name()),
    }
}

/// The `type` string of an object (`missing_type`, `bad_field_type` with field `type`).
pub(crate) fn type_of(map: &Map) -> Result<&str, FieldError> {
    match map.get("type") {
        None => Err(FieldError {
            code: DiagnosticCode::MissingType,
            field: None,
            message: "the object has no \"type\"".into(),
        }),
        Some(Value::String(name)) => Ok(name),
        Some(other) => Err(FieldError::bad_type("type", "a string", other)),
    }
}

fn required_str<'a>(map: &'a Map, key: &str, path: &str) -> Result<&'a str, FieldError> {
    match map.get(key) {
        None => Err(FieldError::missing(path)),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(FieldError::bad_type(path, "a string", other)),
    }
}

fn optional_str<'a>(map: &'a Map, key: &str, path: &str) -> Result<Option<&'a str>, FieldError> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(FieldError::bad_type(path, "a string", other)),
    }
}

fn required_object<'a>(map: &'a Map, key: &str, path: &str) -> Result<&'a Map, FieldError> {
    match map.get(key) {
        None => Err(FieldError::missing(path)),
        Some(Value::Object(m)) => Ok(m),
        Some(other) => Err(FieldError::bad_type(path, "an object", other)),
    }
}

fn optional_object<'a>(map: &'a Map, key: &str, path: &str) -> Result<Option<&'a Map>, FieldError> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(other) => Err(FieldError::bad_type(path, "an object", other)),
    }
}

/// The per-type field checks, in the README's order; the first failing field is the error.
fn view(event_type: EventType, map: &Map) -> Result<EventData<'_>, FieldError> {
    Ok(match event_type {
        EventType::OutputTextDelta => EventData::OutputTextDelta {
            delta: required_str(map, "delta", "delta")?,
        },
        EventType::ContentPartAdded => {
            let part = required_object(map, "part", "part")?;
            EventData::ContentPartAdded {
                part_type: required_str(part, "type", "part.type")?,
                text: optional_str(part, "text", "part.text")?,
            }
        }
        EventType::OutputItemAdded => EventData::OutputItemAdded(output_item(map, false)?),
        EventType::FunctionCallArgumentsDelta => EventData::FunctionCallArgumentsDelta {
            item_id: required_str(map, "item_id", "item_id")?,
            delta: required_str(map, "delta", "delta")?,
        },
        EventType::OutputItemDone => EventData::OutputItemDone(output_item(map, true)?),
        EventType::Completed | EventType::Failed | EventType::Incomplete => {
            let status = match event_type {
                EventType::Failed => TerminalStatus::Failed,
                EventType::Incomplete => TerminalStatus::Incomplete,
                _ => TerminalStatus::Completed,
            };
            let response = optional_object(map, "response", "response")?;
            let usage = match response {
                Some(r) => optional_object(r, "usage", "response.usage")?,
                None => None,
            };
            let usage = match usage.map(Usage::from_map) {
                None => UsageField::Absent,
                Some(Ok(usage)) => UsageField::Valid(usage),
                Some(Err(field)) => UsageField::Invalid { field },
            };
            let error = match (status, response.and_then(|r| r.get("error"))) {
                (TerminalStatus::Failed, Some(Value::Object(e))) => e
                    .get("message")
                    .and_then(Value::as_str)
                    .map(|message| ErrorInfo {
                        message,
                        code: e.get("code").and_then(Value::as_str),
                    }),
                _ => None,
            };
            EventData::Terminal {
                status,
                usage,
                error,
            }
        }
        EventType::Error => EventData::Error(ErrorInfo {
            message: required_str(map, "message", "message")?,
            code: map.get("code").and_then(Value::as_str),
        }),
        EventType::Created => EventData::Created,
        EventType::InProgress
        | EventType::OutputTextDone
        | EventType::ContentPartDone
        | EventType::FunctionCallArgumentsDone => EventData::Ignored,
        EventType::Unknown => EventData::Unknown,
    })
}

fn output_item(map: &Map, done: bool) -> Result<OutputItem<'_>, FieldError> {
    let item = required_object(map, "item", "item")?;
    let item_type = required_str(item, "type", "item.type")?;
    if item_type == "function_call" {
        Ok(OutputItem::FunctionCall {
            id: required_str(item, "id", "item.id")?,
            call_id: required_str(item, "call_id", "item.call_id")?,
            name: required_str(item, "name", "item.name")?,
            // On added, `item.arguments` is ignored whatever its type.
            arguments: if done {
                optional_str(item, "arguments", "item.arguments")?
            } else {
                None
            },
        })
    } else {
        Ok(OutputItem::Other {
            item_type,
            id: optional_str(item, "id", "item.id")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn event(text: &str) -> Result<Event, FieldError> {
        Event::from_value(parse(text).unwrap())
    }

    #[test]
    fn registry_round_trips_names() {
        for t in EventType::REGISTERED {
            assert_eq!(EventType::from_name(t.name().unwrap()), *t);
        }
        assert_eq!(
            EventType::from_name("response.audio.delta"),
            EventType::Unknown
        );
        assert_eq!(EventType::Failed.role(), Role::Terminal);
        assert_eq!(EventType::Created.role(), Role::Ignored);
    }

    #[test]
    fn fields_are_checked_in_order() {
        let e = event(
            r#"{"type":"response.output_item.added","item":{"type":"function_call","name":"f"}}"#,
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (DiagnosticCode::MissingField, Some("item.id"))
        );
        let e = event(
            r#"{"type":"response.content_part.added","part":{"type":"output_text","text":1}}"#,
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (DiagnosticCode::BadFieldType, Some("part.text"))
        );
        let e = event(r#"[1]"#).unwrap_err();
        assert_eq!(e.code, DiagnosticCode::NotObject);
        let e = event(r#"{"type":null}"#).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (DiagnosticCode::BadFieldType, Some("type"))
        );
        // Added ignores arguments of any type; done checks them.
        assert!(event(r#"{"type":"response.output_item.added","item":{"type":"function_call","id":"a","call_id":"c","name":"n","arguments":5}}"#).is_ok());
        assert!(event(r#"{"type":"response.output_item.done","item":{"type":"function_call","id":"a","call_id":"c","name":"n","arguments":5}}"#).is_err());
    }

    #[test]
    fn usage_is_normalized_or_names_the_bad_count() {
        let e = event(r#"{"type":"response.completed","response":{"usage":{"input_tokens":3,"input_tokens_details":{"cached_tokens":2},"output_tokens":4}}}"#).unwrap();
        let EventData::Terminal { usage, .. } = e.data() else {
            panic!("terminal")
        };
        assert_eq!(
            usage,
            UsageField::Valid(Usage {
                input_tokens: 3,
                output_tokens: 4,
                cached_tokens: 2,
                total_tokens: 7
            })
        );
        let e = event(r#"{"type":"response.completed","response":{"usage":{"input_tokens":-1}}}"#)
            .unwrap();
        let EventData::Terminal { usage, .. } = e.data() else {
            panic!("terminal")
        };
        assert_eq!(
            usage,
            UsageField::Invalid {
                field: "response.usage.input_tokens".into()
            }
        );
        let e =
            event(r#"{"type":"response.failed","response":{"error":{"message":"m","code":7}}}"#)
                .unwrap();
        assert!(matches!(
            e.data(),
            EventData::Terminal {
                status: TerminalStatus::Failed,
                error: Some(ErrorInfo {
                    message: "m",
                    code: None
                }),
                ..
            }
        ));
    }
}
