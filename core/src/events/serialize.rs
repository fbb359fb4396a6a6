//! Writing events: godex's canonical form (Go `json.Marshal` of a `map[string]any`: compact,
//! keys sorted by bytes at every depth, HTML characters escaped) and the spec-style form
//! (`type` first, the other members in their order, no HTML escaping). One event per line.

use alloc::string::String;

use crate::Result;
use crate::json::{self, Map, Value, WriteOptions};

/// Which form [`write_event`] writes.
///
/// ```
/// use agentwire::events::serialize::{write_events, Form};
/// use agentwire::json;
/// let event = json::parse(r#"{"type":"error","message":"<bad>","code":"x"}"#)?;
/// let events = [event.as_object().unwrap()];
/// assert_eq!(write_events(events, Form::Godex)?, "{\"code\":\"x\",\"message\":\"\\u003cbad\\u003e\",\"type\":\"error\"}\n");
/// assert_eq!(write_events(events, Form::Spec)?, "{\"type\":\"error\",\"message\":\"<bad>\",\"code\":\"x\"}\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// Byte-identical to `godex exec --json`.
    #[default]
    Godex,
    /// `type` first, members in input order, as the spec's examples show.
    Spec,
}

impl Form {
    /// `godex` or `spec`.
    ///
    /// ```
    /// use agentwire::events::serialize::Form;
    /// assert_eq!(Form::parse("spec")?, Form::Spec);
    /// assert_eq!(Form::parse("godex")?, Form::default());
    /// assert_eq!(Form::parse("yaml").unwrap_err().code(), "INVALID_ARGUMENT");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parse(name: &str) -> Result<Form> {
        match name {
            "godex" => Ok(Form::Godex),
            "spec" => Ok(Form::Spec),
            other => Err(crate::Error::new(
                crate::ErrorKind::InvalidArgument,
                alloc::format!("unknown event form {other:?} (expected \"godex\" or \"spec\")"),
            )),
        }
    }
}

/// Appends one event object and `\n`. Non-finite numbers are an error.
///
/// ```
/// use agentwire::events::serialize::{write_event, Form};
/// use agentwire::json;
/// let event = json::parse(r#"{"delta":"a&b","type":"response.output_text.delta"}"#)?;
/// let mut out = String::new();
/// write_event(&mut out, event.as_object().unwrap(), Form::Spec)?;
/// assert_eq!(out, "{\"type\":\"response.output_text.delta\",\"delta\":\"a&b\"}\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_event(out: &mut String, event: &Map, form: Form) -> Result<()> {
    match form {
        Form::Godex => json::write(out, &Value::Object(event.clone()), WriteOptions::GO)?,
        Form::Spec => {
            let mut ordered = Map::new();
            if let Some(kind) = event.get("type") {
                ordered.insert("type".into(), kind.clone());
            }
            for (key, value) in event.iter().filter(|(k, _)| *k != "type") {
                ordered.insert(key.into(), value.clone());
            }
            json::write(out, &Value::Object(ordered), WriteOptions::PLAIN)?;
        }
    }
    out.push('\n');
    Ok(())
}

/// Every event of a list, one per line.
///
/// ```
/// use agentwire::events::mock::{mock_events, MockMode};
/// use agentwire::events::serialize::{write_events, Form};
/// let events = mock_events(MockMode::Text, "");
/// let text = write_events(events.iter().filter_map(|e| e.as_object()), Form::Godex)?;
/// assert_eq!(text.lines().nth(1), Some(r#"{"delta":"mock response text","type":"response.output_text.delta"}"#));
/// assert_eq!(text.lines().count(), 3);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_events<'a>(events: impl IntoIterator<Item = &'a Map>, form: Form) -> Result<String> {
    let mut out = String::new();
    for event in events {
        write_event(&mut out, event, form)?;
    }
    Ok(out)
}
