//! Writing events: godex's canonical form (Go `json.Marshal` of a `map[string]any`: compact,
//! keys sorted by bytes at every depth, HTML characters escaped) and the spec-style form
//! (`type` first, the other members in their order, no HTML escaping). One event per line.

use alloc::string::String;

use crate::json::{self, Map, Value, WriteOptions};
use crate::Result;

/// Which form [`write_event`] writes.
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
pub fn write_events<'a>(events: impl IntoIterator<Item = &'a Map>, form: Form) -> Result<String> {
    let mut out = String::new();
    for event in events {
        write_event(&mut out, event, form)?;
    }
    Ok(out)
}
