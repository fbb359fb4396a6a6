//! The JSON forms of GCX1 tool layouts (what `gcx layouts` prints, the CLI's `--layouts` file
//! and the JS `layouts` option hold) and of the workspace shapes: tool definitions `{"name",
//! "scope"}`, tool requests `{"tool", "scope", "repo"}` and error envelopes `{"code",
//! "message", "detail"}`.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::gcx::layout::{FieldLayout, RowsLayout, SectionLayout, ToolLayout};
use crate::gcx::scope::{ErrorEnvelope, RepoParam, Scope, ToolDefinition, ToolRequest};
use crate::json::{Map, Value};
use crate::{Error, ErrorKind, Result};

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

fn string_list(value: Option<&Value>, what: &str) -> Result<Vec<String>> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(String::from)
                    .ok_or_else(|| invalid(format!("{what}: expected strings")))
            })
            .collect(),
        Some(_) => Err(invalid(format!("{what}: expected an array of strings"))),
    }
}

fn required_str<'v>(map: &'v Map, key: &str, what: &str) -> Result<&'v str> {
    map.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(format!("{what}: \"{key}\" must be a string")))
}

/// `"name"` or `{"name", "from"?: [..], "join"?: ",", "optional"?: bool}`.
fn field_from_value(value: &Value) -> Result<FieldLayout> {
    if let Some(name) = value.as_str() {
        return Ok(FieldLayout {
            name: name.into(),
            from: vec![name.into()],
            join: None,
            optional: false,
        });
    }
    let map = value.as_object().ok_or_else(|| {
        invalid("a field is a name or {\"name\", \"from\", \"join\", \"optional\"}")
    })?;
    let name = required_str(map, "name", "field")?;
    let from = string_list(map.get("from"), "field from")?;
    Ok(FieldLayout {
        name: name.into(),
        from: if from.is_empty() {
            vec![name.into()]
        } else {
            from
        },
        join: map.get("join").and_then(Value::as_str).map(String::from),
        optional: matches!(map.get("optional"), Some(Value::Bool(true))),
    })
}

/// `{"name", "from", "join"?, "optional"?}` (`join` when set, `optional` when true).
fn field_to_value(field: &FieldLayout) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), field.name.as_str().into());
    map.insert(
        "from".into(),
        Value::Array(field.from.iter().map(|s| s.as_str().into()).collect()),
    );
    if let Some(join) = &field.join {
        map.insert("join".into(), join.as_str().into());
    }
    if field.optional {
        map.insert("optional".into(), true.into());
    }
    Value::Object(map)
}

impl ToolLayout {
    /// Reads a layout's JSON form (what `gcx layouts` prints, the CLI's `--layouts` file and
    /// the JS `layouts` option hold): `{"tool", "aliases"?: [..], "sections": [{"name",
    /// "rows": {"keys"?: [..], "root"?: bool} | {"object": key-or-null}, "fields": [field],
    /// "meta"?: [..]}]}`, a field `"name"` or `{"name", "from"?: [..], "join"?: ",",
    /// "optional"?: bool}`.
    ///
    /// ```
    /// use agentwire::gcx::ToolLayout;
    /// use agentwire::json;
    /// let layout = ToolLayout::from_value(&json::parse(
    ///     r#"{"tool":"list","sections":[{"name":"items","rows":{"keys":["items"]},"fields":["id"]}]}"#,
    /// )?)?;
    /// assert_eq!((layout.tool.as_str(), layout.sections[0].fields[0].name.as_str()), ("list", "id"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<ToolLayout> {
        let map = value
            .as_object()
            .ok_or_else(|| invalid("a layout must be an object"))?;
        let tool = required_str(map, "tool", "layout")?;
        let sections = map
            .get("sections")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("layout: \"sections\" must be an array"))?
            .iter()
            .map(|s| {
                let s = s
                    .as_object()
                    .ok_or_else(|| invalid("a section layout must be an object"))?;
                let rows = match s.get("rows").and_then(Value::as_object) {
                    Some(rows) if rows.get("object").is_some() => RowsLayout::Object {
                        key: rows.get("object").and_then(Value::as_str).map(String::from),
                    },
                    Some(rows) => RowsLayout::Array {
                        keys: string_list(rows.get("keys"), "rows keys")?,
                        root: matches!(rows.get("root"), Some(Value::Bool(true))),
                    },
                    None => return Err(invalid("section layout: \"rows\" must be an object")),
                };
                let columns = s
                    .get("fields")
                    .and_then(Value::as_array)
                    .ok_or_else(|| invalid("section layout: \"fields\" must be an array"))?
                    .iter()
                    .map(field_from_value)
                    .collect::<Result<Vec<_>>>()?;
                Ok(SectionLayout {
                    name: required_str(s, "name", "section layout")?.into(),
                    rows,
                    fields: columns,
                    meta: string_list(s.get("meta"), "section meta")?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ToolLayout {
            tool: tool.into(),
            aliases: string_list(map.get("aliases"), "layout aliases")?,
            sections,
        })
    }

    /// The JSON form [`ToolLayout::from_value`] reads (`gcx layouts` prints the built-in
    /// ones in it).
    ///
    /// ```
    /// use agentwire::gcx::{Layouts, ToolLayout};
    /// let layout = &Layouts::builtin().all()[0];
    /// assert_eq!(&ToolLayout::from_value(&layout.to_value())?, layout);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("tool".into(), self.tool.as_str().into());
        map.insert(
            "aliases".into(),
            Value::Array(self.aliases.iter().map(|s| s.as_str().into()).collect()),
        );
        let sections = self
            .sections
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("name".into(), s.name.as_str().into());
                let mut rows = Map::new();
                match &s.rows {
                    RowsLayout::Array { keys, root } => {
                        rows.insert(
                            "keys".into(),
                            Value::Array(keys.iter().map(|k| k.as_str().into()).collect()),
                        );
                        rows.insert("root".into(), (*root).into());
                    }
                    RowsLayout::Object { key } => {
                        rows.insert(
                            "object".into(),
                            key.as_deref().map_or(Value::Null, Value::from),
                        );
                    }
                }
                m.insert("rows".into(), Value::Object(rows));
                m.insert(
                    "fields".into(),
                    Value::Array(s.fields.iter().map(field_to_value).collect()),
                );
                m.insert(
                    "meta".into(),
                    Value::Array(s.meta.iter().map(|k| k.as_str().into()).collect()),
                );
                Value::Object(m)
            })
            .collect();
        map.insert("sections".into(), Value::Array(sections));
        Value::Object(map)
    }
}

fn string_member<'v>(map: &'v Map, key: &str, what: &str) -> Result<&'v str> {
    match map.get(key) {
        Some(Value::String(s)) => Ok(s),
        None | Some(Value::Null) => Ok(""),
        Some(other) => Err(invalid(format!(
            "{what}.{key}: expected a string, got {}",
            other.type_name()
        ))),
    }
}

fn object<'v>(value: &'v Value, what: &str) -> Result<&'v Map> {
    value.as_object().ok_or_else(|| {
        invalid(format!(
            "{what}: expected an object, got {}",
            value.type_name()
        ))
    })
}

impl ToolDefinition {
    /// Reads `{"name", "scope"}`.
    ///
    /// ```
    /// use agentwire::gcx::scope::ToolDefinition;
    /// use agentwire::json;
    /// let definition = ToolDefinition::from_value(&json::parse(r#"{"name":"search","scope":"fan-out"}"#)?)?;
    /// assert_eq!(definition.scope.as_str(), "fan-out");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<ToolDefinition> {
        let map = object(value, "tool definition")?;
        Ok(ToolDefinition {
            name: string_member(map, "name", "tool definition")?.into(),
            scope: Scope::parse(string_member(map, "scope", "tool definition")?)?,
        })
    }

    /// `{"name", "scope"}`.
    ///
    /// ```
    /// use agentwire::gcx::scope::{Scope, ToolDefinition};
    /// use agentwire::json::{self, WriteOptions};
    /// let definition = ToolDefinition { name: "search".into(), scope: Scope::Repo };
    /// assert_eq!(json::to_string(&definition.to_value(), WriteOptions::PLAIN)?, r#"{"name":"search","scope":"repo"}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), self.name.as_str().into());
        map.insert("scope".into(), self.scope.as_str().into());
        Value::Object(map)
    }
}

/// Absent for null, a name for a string, a list for an array of strings.
fn repo_from_value(value: &Value) -> Result<RepoParam> {
    match value {
        Value::Null => Ok(RepoParam::Absent),
        Value::String(s) => Ok(RepoParam::Name(s.clone())),
        Value::Array(items) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(String::from)
                    .ok_or_else(|| invalid("repo list: expected strings"))
            })
            .collect::<Result<Vec<_>>>()
            .map(RepoParam::List),
        other => Err(invalid(format!(
            "repo: expected a string or an array of strings, got {}",
            other.type_name()
        ))),
    }
}

/// null, a string, or an array of strings.
fn repo_to_value(repo: &RepoParam) -> Value {
    match repo {
        RepoParam::Absent => Value::Null,
        RepoParam::Name(name) => name.as_str().into(),
        RepoParam::List(names) => Value::Array(names.iter().map(|n| n.as_str().into()).collect()),
    }
}

impl ToolRequest {
    /// Reads `{"tool", "scope", "repo"?}`.
    ///
    /// ```
    /// use agentwire::gcx::scope::{RepoParam, ToolRequest};
    /// use agentwire::json;
    /// let request = ToolRequest::from_value(&json::parse(r#"{"tool":"search","scope":"repo","repo":"a"}"#)?)?;
    /// assert_eq!(request.repo, RepoParam::Name("a".into()));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<ToolRequest> {
        let map = object(value, "tool request")?;
        Ok(ToolRequest {
            tool: string_member(map, "tool", "tool request")?.into(),
            scope: Scope::parse(string_member(map, "scope", "tool request")?)?,
            repo: repo_from_value(map.get("repo").unwrap_or(&Value::Null))?,
        })
    }

    /// `{"tool", "scope", "repo"}` (repo null when absent).
    ///
    /// ```
    /// use agentwire::gcx::scope::{RepoParam, Scope, ToolRequest};
    /// use agentwire::json::{self, WriteOptions};
    /// let request = ToolRequest { tool: "t".into(), scope: Scope::Repo, repo: RepoParam::Absent };
    /// assert_eq!(json::to_string(&request.to_value(), WriteOptions::PLAIN)?, r#"{"tool":"t","scope":"repo","repo":null}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("tool".into(), self.tool.as_str().into());
        map.insert("scope".into(), self.scope.as_str().into());
        map.insert("repo".into(), repo_to_value(&self.repo));
        Value::Object(map)
    }
}

impl ErrorEnvelope {
    /// Reads `{"code", "message"?, "detail"?}`.
    ///
    /// ```
    /// use agentwire::gcx::scope::ErrorEnvelope;
    /// use agentwire::json;
    /// let envelope = ErrorEnvelope::from_value(&json::parse(r#"{"code":"unknown_repo"}"#)?)?;
    /// assert_eq!((envelope.code.as_str(), envelope.message.as_str()), ("unknown_repo", ""));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<ErrorEnvelope> {
        let map = object(value, "error envelope")?;
        Ok(ErrorEnvelope {
            code: string_member(map, "code", "error envelope")?.into(),
            message: string_member(map, "message", "error envelope")?.into(),
            detail: string_member(map, "detail", "error envelope")?.into(),
        })
    }

    /// `{"code", "message", "detail"}`.
    ///
    /// ```
    /// use agentwire::gcx::scope::ErrorEnvelope;
    /// use agentwire::json::{self, WriteOptions};
    /// let envelope = ErrorEnvelope { code: "c".into(), message: "m".into(), detail: String::new() };
    /// assert_eq!(json::to_string(&envelope.to_value(), WriteOptions::PLAIN)?, r#"{"code":"c","message":"m","detail":""}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("code".into(), self.code.as_str().into());
        map.insert("message".into(), self.message.as_str().into());
        map.insert("detail".into(), self.detail.as_str().into());
        Value::Object(map)
    }
}
