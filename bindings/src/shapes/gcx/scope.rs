//! The JSON forms of the GCX1 workspace shapes (the CLI and JS shapes): tool definitions
//! `{"name", "scope"}`, tool requests `{"tool", "scope", "repo"}` and error envelopes
//! `{"code", "message", "detail"}`.

use agentwire::gcx::scope::{ErrorEnvelope, RepoParam, Scope, ToolDefinition, ToolRequest};
use agentwire::json::{Map, Value};
use agentwire::{Error, ErrorKind, Result};

use crate::shapes::{FromValue, ToValue};

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
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

/// Reads `{"name", "scope"}`.
impl FromValue for ToolDefinition {
    fn from_value(value: &Value) -> Result<ToolDefinition> {
        let map = object(value, "tool definition")?;
        Ok(ToolDefinition {
            name: string_member(map, "name", "tool definition")?.into(),
            scope: Scope::parse(string_member(map, "scope", "tool definition")?)?,
        })
    }
}

/// `{"name", "scope"}`.
impl ToValue for ToolDefinition {
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), self.name.as_str().into());
        map.insert("scope".into(), self.scope.as_str().into());
        Value::Object(map)
    }
}

/// Absent for null, a name for a string, a list for an array of strings.
impl FromValue for RepoParam {
    fn from_value(value: &Value) -> Result<RepoParam> {
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
}

/// null, a string, or an array of strings.
impl ToValue for RepoParam {
    fn to_value(&self) -> Value {
        match self {
            RepoParam::Absent => Value::Null,
            RepoParam::Name(name) => name.as_str().into(),
            RepoParam::List(names) => {
                Value::Array(names.iter().map(|n| n.as_str().into()).collect())
            }
        }
    }
}

/// Reads `{"tool", "scope", "repo"?}`.
impl FromValue for ToolRequest {
    fn from_value(value: &Value) -> Result<ToolRequest> {
        let map = object(value, "tool request")?;
        Ok(ToolRequest {
            tool: string_member(map, "tool", "tool request")?.into(),
            scope: Scope::parse(string_member(map, "scope", "tool request")?)?,
            repo: RepoParam::from_value(map.get("repo").unwrap_or(&Value::Null))?,
        })
    }
}

/// `{"tool", "scope", "repo"}` (repo null when absent).
impl ToValue for ToolRequest {
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("tool".into(), self.tool.as_str().into());
        map.insert("scope".into(), self.scope.as_str().into());
        map.insert("repo".into(), self.repo.to_value());
        Value::Object(map)
    }
}

/// Reads `{"code", "message"?, "detail"?}`.
impl FromValue for ErrorEnvelope {
    fn from_value(value: &Value) -> Result<ErrorEnvelope> {
        let map = object(value, "error envelope")?;
        Ok(ErrorEnvelope {
            code: string_member(map, "code", "error envelope")?.into(),
            message: string_member(map, "message", "error envelope")?.into(),
            detail: string_member(map, "detail", "error envelope")?.into(),
        })
    }
}

/// `{"code", "message", "detail"}`.
impl ToValue for ErrorEnvelope {
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("code".into(), self.code.as_str().into());
        map.insert("message".into(), self.message.as_str().into());
        map.insert("detail".into(), self.detail.as_str().into());
        Value::Object(map)
    }
}
