//! Diagnostics: what the validator reports about a stream (it never stops at a bad line).

use alloc::string::String;

use crate::json::{Map, Number, Value};

/// How serious a diagnostic is. A stream is valid when it has no [`Severity::Error`].
///
/// ```
/// use agentwire::events::{DiagnosticCode, Severity};
/// assert_eq!(DiagnosticCode::UnknownType.severity(), Severity::Warning);
/// assert_eq!(DiagnosticCode::InvalidJson.severity(), Severity::Error);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Severity {
    /// The stream breaks the protocol.
    Error,
    /// Allowed, but worth knowing (only `unknown_type`: future versions may add types).
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    ///
    /// ```
    /// use agentwire::events::Severity;
    /// assert_eq!(Severity::Warning.as_str(), "warning");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! diagnostic_codes {
    ($( $(#[$doc:meta])* $variant:ident => $code:literal, $severity:ident; )*) => {
        /// The diagnostic codes of the fixtures README, each with its fixed severity.
        ///
        /// ```
        /// use agentwire::events::{self, DiagnosticCode};
        /// let (summary, _) = events::decode::parse_stream(b"{\"type\":\"response.completed\"}\n{\"type\":\"error\",\"message\":\"late\"}\n", 1024);
        /// assert_eq!(summary.diagnostics[0].code, DiagnosticCode::EventAfterTerminal);
        /// assert_eq!(summary.diagnostics[0].code.as_str(), "event_after_terminal");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub enum DiagnosticCode {
            $( $(#[$doc])* #[cfg_attr(feature = "serde", serde(rename = $code))] $variant, )*
        }

        impl DiagnosticCode {
            /// Every code, in the README's order.
            ///
            /// ```
            /// use agentwire::events::{DiagnosticCode, Severity};
            /// let warnings: Vec<&str> = DiagnosticCode::ALL.iter()
            ///     .filter(|c| c.severity() == Severity::Warning)
            ///     .map(|c| c.as_str())
            ///     .collect();
            /// assert_eq!(warnings, ["unknown_type"]);
            /// ```
            pub const ALL: &'static [DiagnosticCode] = &[$(DiagnosticCode::$variant),*];

            /// The code as the fixtures write it, e.g. `invalid_json`.
            ///
            /// ```
            /// use agentwire::events::DiagnosticCode;
            /// assert_eq!(DiagnosticCode::MissingTerminal.as_str(), "missing_terminal");
            /// ```
            pub fn as_str(self) -> &'static str {
                match self { $(DiagnosticCode::$variant => $code,)* }
            }

            /// The severity this code always has.
            ///
            /// ```
            /// use agentwire::events::{DiagnosticCode, Severity};
            /// assert_eq!(DiagnosticCode::ItemNotDone.severity(), Severity::Error);
            /// ```
            pub fn severity(self) -> Severity {
                match self { $(DiagnosticCode::$variant => Severity::$severity,)* }
            }
        }
    };
}

diagnostic_codes! {
    /// The line is not exactly one JSON value (also: invalid UTF-8, an over-long line, a
    /// number out of the double range).
    InvalidJson => "invalid_json", Error;
    /// The JSON value is not an object.
    NotObject => "not_object", Error;
    /// The object has no `type`.
    MissingType => "missing_type", Error;
    /// A field (or `type`) has the wrong JSON type; usage counts must be non-negative integers.
    BadFieldType => "bad_field_type", Error;
    /// A required field is absent.
    MissingField => "missing_field", Error;
    /// A `type` outside the registry (skipped).
    UnknownType => "unknown_type", Warning;
    /// An arguments delta for an item never added as a function call.
    UnknownItem => "unknown_item", Error;
    /// An arguments delta for a function call that is already done.
    ItemClosed => "item_closed", Error;
    /// `output_item.added` with an id already used in the stream.
    DuplicateItem => "duplicate_item", Error;
    /// `output_item.done` (function call) for an id never added; the call is still recorded.
    DoneBeforeAdded => "done_before_added", Error;
    /// `output_item.done` disagrees with its `output_item.added` (type, call_id or name).
    ItemMismatch => "item_mismatch", Error;
    /// The streamed argument deltas differ from the done item's `arguments`.
    ArgumentsMismatch => "arguments_mismatch", Error;
    /// A second `output_item.done` for the same function call.
    DuplicateDone => "duplicate_done", Error;
    /// An event after the first terminal event (ignored).
    EventAfterTerminal => "event_after_terminal", Error;
    /// End of input: a function call was added but never done.
    ItemNotDone => "item_not_done", Error;
    /// End of input: no `response.completed`, `response.failed` or `response.incomplete`.
    MissingTerminal => "missing_terminal", Error;
}

/// One problem found in a stream.
///
/// ```
/// use agentwire::events::{self, DiagnosticCode};
/// let stream = b"{\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_9\",\"delta\":\"{}\"}\n";
/// let (summary, _) = events::decode::parse_stream(stream, 1024);
/// let d = &summary.diagnostics[0];
/// assert_eq!((d.line, d.code, d.item_id.as_deref()), (Some(1), DiagnosticCode::UnknownItem, Some("fc_9")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Diagnostic {
    /// 1-based line (every line counts, blank ones included); `None` at end of input.
    pub line: Option<u64>,
    /// What is wrong.
    pub code: DiagnosticCode,
    /// The dotted path of the field concerned (`item.call_id`, `response.usage.input_tokens`).
    pub field: Option<String>,
    /// The item concerned, for the item lifecycle codes.
    pub item_id: Option<String>,
    /// A human-readable explanation (not stable).
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic without field or item.
    ///
    /// ```
    /// use agentwire::events::{Diagnostic, DiagnosticCode};
    /// let d = Diagnostic::new(None, DiagnosticCode::MissingTerminal, "no terminal event");
    /// assert_eq!((d.line, d.field, d.item_id), (None, None, None));
    /// ```
    pub fn new(line: Option<u64>, code: DiagnosticCode, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            line,
            code,
            field: None,
            item_id: None,
            message: message.into(),
        }
    }

    /// Sets the field path.
    ///
    /// ```
    /// use agentwire::events::{Diagnostic, DiagnosticCode};
    /// let d = Diagnostic::new(Some(3), DiagnosticCode::BadFieldType, "bad count").with_field("response.usage.input_tokens");
    /// assert_eq!(d.field.as_deref(), Some("response.usage.input_tokens"));
    /// ```
    pub fn with_field(mut self, field: impl Into<String>) -> Diagnostic {
        self.field = Some(field.into());
        self
    }

    /// Sets the item id.
    ///
    /// ```
    /// use agentwire::events::{Diagnostic, DiagnosticCode};
    /// let d = Diagnostic::new(Some(5), DiagnosticCode::DuplicateDone, "done twice").with_item("fc_1");
    /// assert_eq!(d.item_id.as_deref(), Some("fc_1"));
    /// ```
    pub fn with_item(mut self, item_id: impl Into<String>) -> Diagnostic {
        self.item_id = Some(item_id.into());
        self
    }

    /// The code's severity.
    ///
    /// ```
    /// use agentwire::events::{Diagnostic, DiagnosticCode, Severity};
    /// let d = Diagnostic::new(Some(1), DiagnosticCode::UnknownType, "unknown type");
    /// assert_eq!(d.severity(), Severity::Warning);
    /// ```
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// `{"line", "code", "severity", "field"?, "item_id"?, "message"}` (the fixtures' shape
    /// plus the message).
    ///
    /// ```
    /// use agentwire::events::{Diagnostic, DiagnosticCode};
    /// use agentwire::json::{self, WriteOptions};
    /// let d = Diagnostic::new(Some(2), DiagnosticCode::MissingField, "missing \"delta\"").with_field("delta");
    /// assert_eq!(
    ///     json::to_string(&d.to_value(), WriteOptions::PLAIN)?,
    ///     r#"{"line":2,"code":"missing_field","severity":"error","field":"delta","message":"missing \"delta\""}"#
    /// );
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert(
            "line".into(),
            self.line
                .map_or(Value::Null, |l| Value::Number(Number::from_u64(l))),
        );
        map.insert("code".into(), self.code.as_str().into());
        map.insert("severity".into(), self.severity().as_str().into());
        if let Some(field) = &self.field {
            map.insert("field".into(), field.as_str().into());
        }
        if let Some(item_id) = &self.item_id {
            map.insert("item_id".into(), item_id.as_str().into());
        }
        map.insert("message".into(), self.message.as_str().into());
        Value::Object(map)
    }
}

/// `s` as a JSON string literal, for messages.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::json::write_string(&mut out, s, false);
    out
}
