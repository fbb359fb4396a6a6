//! `--tool` values (`web_search` or `name:json=path`) and the tool JSON godex sends upstream.
//! No file I/O here: the caller reads the schema file and passes its text.

use alloc::string::String;

use crate::json::{self, Map, Value};
use crate::text::go_quote;
use crate::{Error, ErrorKind, Result};

/// What a `--tool` value asks for.
///
/// ```
/// use agentwire::events::toolspec::{parse_tool_spec, ToolSpec};
/// assert_eq!(parse_tool_spec("web_search")?, ToolSpec::WebSearch);
/// assert_eq!(
///     parse_tool_spec("lookup:json=schemas/lookup.json")?,
///     ToolSpec::Function { name: "lookup".into(), path: "schemas/lookup.json".into() }
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ToolSpec {
    /// The literal `web_search`.
    WebSearch,
    /// `name:json=path`, split at the first `:json=`; both kept verbatim.
    Function {
        /// The function name.
        name: String,
        /// The schema file path.
        path: String,
    },
}

/// Parses a `--tool` value (`EVENTS_INVALID_TOOL_SPEC` with godex's message otherwise).
///
/// ```
/// use agentwire::events::toolspec::{parse_tool_spec, ToolSpec};
/// // Split at the first `:json=`.
/// let spec = parse_tool_spec("a:json=b:json=c")?;
/// assert_eq!(spec, ToolSpec::Function { name: "a".into(), path: "b:json=c".into() });
/// let err = parse_tool_spec("lookup").unwrap_err();
/// assert_eq!(err.code(), "EVENTS_INVALID_TOOL_SPEC");
/// assert_eq!(err.message(), r#"invalid --tool "lookup"; expected web_search or name:json=path"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parse_tool_spec(input: &str) -> Result<ToolSpec> {
    if input == "web_search" {
        return Ok(ToolSpec::WebSearch);
    }
    match input.split_once(":json=") {
        Some((name, path)) if !name.trim().is_empty() && !path.trim().is_empty() => {
            Ok(ToolSpec::Function {
                name: name.into(),
                path: path.into(),
            })
        }
        _ => Err(Error::new(
            ErrorKind::EventsInvalidToolSpec,
            alloc::format!(
                "invalid --tool {}; expected web_search or name:json=path",
                go_quote(input.as_bytes(), usize::MAX)
            ),
        )),
    }
}

/// `{"type": "web_search", "external_web_access": true}`.
///
/// ```
/// use agentwire::json::{self, WriteOptions};
/// let tool = agentwire::events::toolspec::web_search_tool();
/// assert_eq!(json::to_string(&tool, WriteOptions::GO)?, r#"{"external_web_access":true,"type":"web_search"}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn web_search_tool() -> Value {
    let mut map = Map::new();
    map.insert("type".into(), "web_search".into());
    map.insert("external_web_access".into(), Value::Bool(true));
    Value::Object(map)
}

/// `{"type": "function", "name", "parameters"}` from a schema file's text, which must be
/// exactly one JSON object (`EVENTS_SCHEMA_INVALID_JSON`, `EVENTS_SCHEMA_NOT_OBJECT`).
///
/// ```
/// use agentwire::events::toolspec::function_tool;
/// use agentwire::json::{self, WriteOptions};
/// let tool = function_tool("lookup", r#"{"type":"object"}"#)?;
/// assert_eq!(json::to_string(&tool, WriteOptions::PLAIN)?, r#"{"type":"function","name":"lookup","parameters":{"type":"object"}}"#);
/// assert_eq!(function_tool("lookup", "[]").unwrap_err().code(), "EVENTS_SCHEMA_NOT_OBJECT");
/// assert_eq!(function_tool("lookup", "{").unwrap_err().code(), "EVENTS_SCHEMA_INVALID_JSON");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn function_tool(name: &str, schema_text: &str) -> Result<Value> {
    let schema = json::parse(schema_text).map_err(|e| {
        Error::new(
            ErrorKind::EventsSchemaInvalidJson,
            alloc::format!("tool schema: {}", e.message()),
        )
    })?;
    if !matches!(schema, Value::Object(_)) {
        return Err(Error::new(
            ErrorKind::EventsSchemaNotObject,
            alloc::format!(
                "tool schema must be a JSON object, got {}",
                schema.type_name()
            ),
        ));
    }
    let mut map = Map::new();
    map.insert("type".into(), "function".into());
    map.insert("name".into(), name.into());
    map.insert("parameters".into(), schema);
    Ok(Value::Object(map))
}
