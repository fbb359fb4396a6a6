//! Catalog items: what contextweaver calls a `SelectableItem`, built from MCP tool definitions
//! (`adapters/mcp.py` `mcp_tool_to_selectable`) or read from their JSON form.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::pytext::truthy;
use super::tool_id::{Derivation, derive};
use crate::json::{Map, Value};
use crate::{Error, ErrorKind, Result};

/// What a catalog item is (`ChoiceCard.kind`).
///
/// ```
/// use agentwire::gateway::{Item, Kind};
/// let item = Item::from_value(&agentwire::json::parse(r#"{"id":"support:triage","kind":"agent"}"#)?)?;
/// assert_eq!(item.kind, Kind::Agent);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Kind {
    /// An upstream tool.
    Tool,
    /// An agent.
    Agent,
    /// A skill.
    Skill,
    /// A navigation node of the gateway itself (path groups, the cache marker).
    Internal,
    /// A flow.
    Flow,
    /// A resource.
    Resource,
    /// A prompt.
    Prompt,
}

impl Kind {
    /// The wire name.
    ///
    /// ```
    /// use agentwire::gateway::Kind;
    /// assert_eq!(Kind::Resource.as_str(), "resource");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Agent => "agent",
            Kind::Skill => "skill",
            Kind::Internal => "internal",
            Kind::Flow => "flow",
            Kind::Resource => "resource",
            Kind::Prompt => "prompt",
        }
    }

    /// Parses a wire name (`CARD_INVALID` otherwise).
    ///
    /// ```
    /// use agentwire::gateway::Kind;
    /// assert_eq!(Kind::parse("skill")?, Kind::Skill);
    /// assert_eq!(Kind::parse("Tool").unwrap_err().code(), "CARD_INVALID");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parse(name: &str) -> Result<Kind> {
        Ok(match name {
            "tool" => Kind::Tool,
            "agent" => Kind::Agent,
            "skill" => Kind::Skill,
            "internal" => Kind::Internal,
            "flow" => Kind::Flow,
            "resource" => Kind::Resource,
            "prompt" => Kind::Prompt,
            other => {
                return Err(Error::new(
                    ErrorKind::CardInvalid,
                    alloc::format!(
                        "kind must be one of tool, agent, skill, internal, flow, resource, prompt (got {})",
                        super::pytext::repr(other)
                    ),
                ));
            }
        })
    }
}

/// One catalog entry.
///
/// ```
/// use agentwire::gateway::{Item, Kind};
/// // Only `id` is required; the rest default as contextweaver's SelectableItem.
/// let item = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?;
/// assert_eq!((item.name.as_str(), item.kind, item.side_effects, item.has_schema), ("fs:read@1", Kind::Tool, false, false));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Item {
    /// The canonical tool id (or any id for non-MCP items).
    pub id: String,
    /// What it is.
    pub kind: Kind,
    /// Display name: the full upstream name for MCP tools.
    pub name: String,
    /// Description, untruncated.
    pub description: String,
    /// Tags (`mcp`, `read-only`, `destructive`, …).
    pub tags: Vec<String>,
    /// Namespace (the inferred one for MCP tools).
    pub namespace: String,
    /// The input JSON Schema; empty when the tool has none.
    pub args_schema: Map,
    /// Whether the card advertises a schema (`bool(args_schema)` for MCP tools).
    pub has_schema: bool,
    /// `not annotations.readOnlyHint` for MCP tools; false by default.
    pub side_effects: bool,
    /// `annotations.costHint`, 0.0 by default.
    pub cost_hint: f64,
}

/// An MCP tool converted to an item, with the derivation that produced its id.
///
/// ```
/// use agentwire::gateway::item::mcp_tool_to_item;
/// let tool = agentwire::json::parse(r#"{"name":"search","description":"Searches."}"#)?;
/// let converted = mcp_tool_to_item(&tool, Some("docs"))?;
/// assert_eq!(converted.item.id, format!("docs:search#{}", converted.derivation.computed_hash8));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct McpItem {
    /// The item.
    pub item: Item,
    /// How the id was computed.
    pub derivation: Derivation,
}

fn malformed(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::McpInvalidTool, message)
}

/// Converts an MCP tool definition (`{name, description, inputSchema?, _meta?, annotations?}`),
/// the name prefixed with `server_name.` when given. Errors: `MCP_MISSING_FIELDS`,
/// `MCP_INVALID_TOOL` and the tool id grammar kinds.
///
/// Stricter than the reference where `python_quirks.json` recommends it: `name` and
/// `description` must be non-empty strings, `inputSchema` an object (null or absent is `{}`).
///
/// ```
/// use agentwire::gateway::item::mcp_tool_to_item;
/// let tool = agentwire::json::parse(r#"{
///     "name": "read_file", "description": "Reads a file.",
///     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
///     "annotations": {"readOnlyHint": true}
/// }"#)?;
/// let item = mcp_tool_to_item(&tool, Some("fs"))?.item;
/// assert_eq!((item.id.as_str(), item.name.as_str()), ("fs:read_file#7c3e638f", "fs.read_file"));
/// assert_eq!((item.tags.as_slice(), item.side_effects, item.has_schema), (["mcp".to_string(), "read-only".into()].as_slice(), false, true));
/// let err = mcp_tool_to_item(&agentwire::json::parse(r#"{"name":"x"}"#)?, None).unwrap_err();
/// assert_eq!(err.code(), "MCP_MISSING_FIELDS");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn mcp_tool_to_item(tool: &Value, server_name: Option<&str>) -> Result<McpItem> {
    let tool = tool.as_object().ok_or_else(|| {
        malformed(alloc::format!(
            "MCP tool definition must be an object, got {}",
            tool.type_name()
        ))
    })?;
    let mut missing = Vec::new();
    for field in ["name", "description"] {
        match tool.get(field) {
            Some(Value::String(s)) if !s.is_empty() => {}
            Some(v) if truthy(v) => {
                return Err(malformed(alloc::format!(
                    "MCP tool field '{field}' must be a string, got {}",
                    v.type_name()
                )));
            }
            _ => missing.push(field),
        }
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|f| alloc::format!("'{f}'")).collect();
        return Err(Error::new(
            ErrorKind::McpMissingFields,
            alloc::format!(
                "MCP tool definition missing required fields: [{}]",
                list.join(", ")
            ),
        ));
    }
    let derivation = derive(tool, server_name)?;
    let id = derivation.tool_id()?;
    let args_schema = match tool.get("inputSchema") {
        Some(Value::Object(schema)) => schema.clone(),
        _ => Map::new(),
    };
    let annotations = match tool.get("annotations") {
        None | Some(Value::Null) => None,
        Some(Value::Object(a)) => Some(a),
        Some(other) => {
            return Err(malformed(alloc::format!(
                "annotations must be an object, got {}",
                other.type_name()
            )));
        }
    };
    let hint = |key: &str| annotations.and_then(|a| a.get(key)).is_some_and(truthy);
    let read_only = hint("readOnlyHint");
    let mut tags = alloc::vec![String::from("mcp")];
    if read_only {
        tags.push("read-only".into());
    }
    if hint("destructiveHint") {
        tags.push("destructive".into());
    }
    tags.sort();
    let cost_hint = match annotations.and_then(|a| a.get("costHint")) {
        None => 0.0,
        Some(Value::Number(n)) => n.as_f64(),
        Some(other) => {
            return Err(malformed(alloc::format!(
                "annotations.costHint must be a number, got {}",
                other.type_name()
            )));
        }
    };
    let item = Item {
        id,
        kind: Kind::Tool,
        name: derivation.upstream_name.clone(),
        description: tool
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        tags,
        namespace: derivation.inferred_namespace.clone(),
        has_schema: !args_schema.is_empty(),
        args_schema,
        side_effects: !read_only,
        cost_hint,
    };
    Ok(McpItem { item, derivation })
}

fn field<'a>(map: &'a Map, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !matches!(v, Value::Null))
}

fn string_field(map: &Map, key: &str, default: &str) -> Result<String> {
    match field(map, key) {
        None => Ok(default.into()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(invalid(alloc::format!(
            "item.{key} must be a string, got {}",
            other.type_name()
        ))),
    }
}

fn bool_field(map: &Map, key: &str, default: bool) -> Result<bool> {
    match field(map, key) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(invalid(alloc::format!(
            "item.{key} must be a boolean, got {}",
            other.type_name()
        ))),
    }
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

impl Item {
    /// Reads `{id, kind?, name?, description?, tags?, namespace?, has_schema?, args_schema?,
    /// side_effects?, cost_hint?}`; defaults as contextweaver's `SelectableItem`.
    ///
    /// ```
    /// use agentwire::gateway::Item;
    /// let item = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:rm@1","tags":["destructive"],"side_effects":true,"cost_hint":0.5}"#)?)?;
    /// assert_eq!((item.tags[0].as_str(), item.side_effects, item.cost_hint), ("destructive", true, 0.5));
    /// let err = Item::from_value(&agentwire::json::parse(r#"{"id":"x","tags":"a"}"#)?).unwrap_err();
    /// assert_eq!(err.message(), "item.tags must be an array, got string");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<Item> {
        let map = value.as_object().ok_or_else(|| {
            invalid(alloc::format!(
                "an item must be an object, got {}",
                value.type_name()
            ))
        })?;
        let id = match field(map, "id") {
            Some(Value::String(s)) => s.clone(),
            _ => return Err(invalid("item.id must be a string".into())),
        };
        let tags = match field(map, "tags") {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|t| {
                    t.as_str()
                        .map(String::from)
                        .ok_or_else(|| invalid("item.tags must hold strings".into()))
                })
                .collect::<Result<_>>()?,
            Some(other) => {
                return Err(invalid(alloc::format!(
                    "item.tags must be an array, got {}",
                    other.type_name()
                )));
            }
        };
        let args_schema = match field(map, "args_schema") {
            None => Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(other) => {
                return Err(invalid(alloc::format!(
                    "item.args_schema must be an object, got {}",
                    other.type_name()
                )));
            }
        };
        let cost_hint = match field(map, "cost_hint") {
            None => 0.0,
            Some(Value::Number(n)) => n.as_f64(),
            Some(other) => {
                return Err(invalid(alloc::format!(
                    "item.cost_hint must be a number, got {}",
                    other.type_name()
                )));
            }
        };
        Ok(Item {
            kind: Kind::parse(&string_field(map, "kind", "tool")?)?,
            name: string_field(map, "name", &id)?,
            description: string_field(map, "description", "")?,
            namespace: string_field(map, "namespace", "")?,
            has_schema: bool_field(map, "has_schema", !args_schema.is_empty())?,
            side_effects: bool_field(map, "side_effects", false)?,
            id,
            tags,
            args_schema,
            cost_hint,
        })
    }

    /// The JSON form [`from_value`](Self::from_value) reads.
    ///
    /// ```
    /// use agentwire::gateway::Item;
    /// use agentwire::json::{self, WriteOptions};
    /// let item = Item::from_value(&json::parse(r#"{"id":"fs:read@1","namespace":"fs"}"#)?)?;
    /// let value = item.to_value();
    /// assert_eq!(
    ///     json::to_string(&value, WriteOptions::PLAIN)?,
    ///     r#"{"id":"fs:read@1","kind":"tool","name":"fs:read@1","description":"","tags":[],"namespace":"fs","has_schema":false,"args_schema":{},"side_effects":false,"cost_hint":0}"#
    /// );
    /// assert_eq!(Item::from_value(&value)?, item);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("id".into(), self.id.as_str().into());
        map.insert("kind".into(), self.kind.as_str().into());
        map.insert("name".into(), self.name.as_str().into());
        map.insert("description".into(), self.description.as_str().into());
        map.insert(
            "tags".into(),
            Value::Array(self.tags.iter().map(|t| t.as_str().into()).collect()),
        );
        map.insert("namespace".into(), self.namespace.as_str().into());
        map.insert("has_schema".into(), Value::Bool(self.has_schema));
        map.insert(
            "args_schema".into(),
            Value::Object(self.args_schema.clone()),
        );
        map.insert("side_effects".into(), Value::Bool(self.side_effects));
        map.insert("cost_hint".into(), super::float_value(self.cost_hint));
        Value::Object(map)
    }
}
