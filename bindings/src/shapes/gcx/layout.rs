//! The JSON form of GCX1 tool layouts: what `gcx layouts` prints, the CLI's `--layouts` file
//! and the JS `layouts` option hold.
//!
//! A layout is `{"tool", "aliases"?: [..], "sections": [{"name", "rows": {"keys"?: [..],
//! "root"?: bool} | {"object": key-or-null}, "fields": [field], "meta"?: [..]}]}`, a field
//! `"name"` or `{"name", "from"?: [..], "join"?: ",", "optional"?: bool}`.

use agentwire::gcx::layout::{FieldLayout, RowsLayout, SectionLayout, ToolLayout};
use agentwire::json::{Map, Value};
use agentwire::{Error, ErrorKind, Result};

use crate::shapes::{FromValue, ToValue};

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
impl FromValue for FieldLayout {
    fn from_value(value: &Value) -> Result<FieldLayout> {
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
}

/// `{"name", "from", "join"?, "optional"?}` (`join` when set, `optional` when true).
impl ToValue for FieldLayout {
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), self.name.as_str().into());
        map.insert(
            "from".into(),
            Value::Array(self.from.iter().map(|s| s.as_str().into()).collect()),
        );
        if let Some(join) = &self.join {
            map.insert("join".into(), join.as_str().into());
        }
        if self.optional {
            map.insert("optional".into(), true.into());
        }
        Value::Object(map)
    }
}

/// Reads a layout from JSON:
/// `{"tool", "aliases"?: [..], "sections": [{"name", "rows": {"keys"?: [..], "root"?: bool}
/// | {"object": key-or-null}, "fields": [field], "meta"?: [..]}]}`.
impl FromValue for ToolLayout {
    fn from_value(value: &Value) -> Result<ToolLayout> {
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
                    .map(FieldLayout::from_value)
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
}

/// The JSON form [`FromValue`] reads (`gcx layouts` prints the built-in ones in it).
impl ToValue for ToolLayout {
    fn to_value(&self) -> Value {
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
                    Value::Array(s.fields.iter().map(FieldLayout::to_value).collect()),
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
