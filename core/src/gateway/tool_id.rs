//! Stable tool ids: `namespace:name[@version][#hash8]`, as contextweaver 0.18.1 computes them
//! (`routing/tool_id.py`, `adapters/mcp.py`), with full-string anchoring (Python's `$` would
//! accept a trailing newline).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use sha2::{Digest, Sha256};

use super::pytext::{push_json_string, repr, scalar_str, truthy};
use crate::json::Value;
use crate::{Error, ErrorKind, Position, Result};

/// Longest tool id, in code points.
///
/// ```
/// use agentwire::gateway::tool_id::{parse_tool_id, MAX_TOOL_ID_CHARS};
/// let long = format!("ns:{}#0123abcd", "n".repeat(MAX_TOOL_ID_CHARS));
/// assert_eq!(parse_tool_id(&long).unwrap_err().code(), "TOOL_ID_TOO_LONG");
/// ```
pub const MAX_TOOL_ID_CHARS: usize = 240;

/// The parts of a tool id.
///
/// ```
/// use agentwire::gateway::{format_tool_id, ToolIdParts};
/// let parts = ToolIdParts {
///     namespace: "github".into(),
///     name: "create_issue".into(),
///     version: None,
///     hash8: Some("1f27b247".into()),
/// };
/// assert_eq!(format_tool_id(&parts)?, "github:create_issue#1f27b247");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolIdParts {
    /// `[a-z][a-z0-9_-]{0,63}`
    pub namespace: String,
    /// `[A-Za-z_][A-Za-z0-9_.-]{0,127}`
    pub name: String,
    /// `[A-Za-z0-9._-]{1,32}`, when present.
    pub version: Option<String>,
    /// 8 lowercase hex digits, when present.
    pub hash8: Option<String>,
}

fn all_chars(
    text: &str,
    first: impl Fn(char) -> bool,
    rest: impl Fn(char) -> bool,
    max: usize,
) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if first(c) => {}
        _ => return false,
    }
    let mut n = 1;
    for c in chars {
        n += 1;
        if n > max || !rest(c) {
            return false;
        }
    }
    true
}

fn is_namespace(text: &str) -> bool {
    all_chars(
        text,
        |c| c.is_ascii_lowercase(),
        |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-',
        64,
    )
}

fn is_name(text: &str) -> bool {
    all_chars(
        text,
        |c| c.is_ascii_alphabetic() || c == '_',
        |c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'),
        128,
    )
}

fn is_version(text: &str) -> bool {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    all_chars(text, ok, ok, 32)
}

fn is_hash8(text: &str) -> bool {
    text.len() == 8
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `CatalogError` at a code-point column of a one-line id (`at` is a byte index).
fn id_error(kind: ErrorKind, message: String, id: &str, at: usize) -> Error {
    Error::at(kind, message, Position::in_line(id.as_bytes(), 1, 0, at))
}

fn grammar(kind: ErrorKind, part: &str, value: &str) -> Error {
    Error::new(
        kind,
        alloc::format!("tool_id {part} not matching grammar: {}", repr(value)),
    )
}

/// Checks the parts in the reference's order (namespace, name, version, hash8, then "hash8
/// required") and joins them (`format_tool_id`).
///
/// ```
/// use agentwire::gateway::{format_tool_id, ToolIdParts};
/// let mut parts = ToolIdParts { namespace: "fs".into(), name: "read".into(), version: Some("2".into()), hash8: None };
/// assert_eq!(format_tool_id(&parts)?, "fs:read@2");
/// // Without a version, a hash8 is required.
/// parts.version = None;
/// assert_eq!(format_tool_id(&parts).unwrap_err().code(), "TOOL_ID_HASH8_REQUIRED");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn format_tool_id(parts: &ToolIdParts) -> Result<String> {
    check_parts(parts)?;
    let mut id = String::with_capacity(64);
    let _ = write!(id, "{}:{}", parts.namespace, parts.name);
    if let Some(version) = &parts.version {
        let _ = write!(id, "@{version}");
    }
    if let Some(hash8) = &parts.hash8 {
        let _ = write!(id, "#{hash8}");
    }
    let chars = id.chars().count();
    if chars > MAX_TOOL_ID_CHARS {
        return Err(Error::new(
            ErrorKind::ToolIdTooLong,
            alloc::format!("tool_id exceeds 240-char limit: {chars} chars"),
        ));
    }
    Ok(id)
}

fn check_parts(parts: &ToolIdParts) -> Result<()> {
    if !is_namespace(&parts.namespace) {
        return Err(grammar(
            ErrorKind::ToolIdNamespaceGrammar,
            "namespace",
            &parts.namespace,
        ));
    }
    if !is_name(&parts.name) {
        return Err(grammar(ErrorKind::ToolIdNameGrammar, "name", &parts.name));
    }
    if let Some(version) = parts.version.as_deref().filter(|v| !is_version(v)) {
        return Err(grammar(ErrorKind::ToolIdVersionGrammar, "version", version));
    }
    if let Some(hash8) = parts.hash8.as_deref().filter(|h| !is_hash8(h)) {
        return Err(grammar(ErrorKind::ToolIdHash8Grammar, "hash8", hash8));
    }
    if parts.version.is_none() && parts.hash8.is_none() {
        return Err(Error::new(
            ErrorKind::ToolIdHash8Required,
            "tool_id requires hash8 when version is absent (§1.2)",
        ));
    }
    Ok(())
}

/// Parses a tool id (`parse_tool_id`): length, then `:`, then `#hash8` and `@version` split
/// from the right, then the format checks. Errors point at the failing part.
///
/// ```
/// use agentwire::gateway::parse_tool_id;
/// let parts = parse_tool_id("everything:getTinyImage@1.0#1f27b247")?;
/// assert_eq!((parts.name.as_str(), parts.version.as_deref(), parts.hash8.as_deref()), ("getTinyImage", Some("1.0"), Some("1f27b247")));
/// // Errors point at the failing part (here the name, column 4).
/// let err = parse_tool_id("fs:9lives@1").unwrap_err();
/// assert_eq!((err.code(), err.column()), ("TOOL_ID_NAME_GRAMMAR", Some(4)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parse_tool_id(id: &str) -> Result<ToolIdParts> {
    let chars = id.chars().count();
    if chars > MAX_TOOL_ID_CHARS {
        return Err(id_error(
            ErrorKind::ToolIdTooLong,
            alloc::format!("tool_id exceeds 240-char limit: {chars} chars"),
            id,
            0,
        ));
    }
    let Some((namespace, rest)) = id.split_once(':') else {
        return Err(id_error(
            ErrorKind::ToolIdMissingSeparator,
            alloc::format!("tool_id missing namespace separator ':' in {}", repr(id)),
            id,
            0,
        ));
    };
    let (rest, hash8) = match rest.rsplit_once('#') {
        Some((r, h)) => (r, Some(h)),
        None => (rest, None),
    };
    let (name, version) = match rest.rsplit_once('@') {
        Some((n, v)) => (n, Some(v)),
        None => (rest, None),
    };
    let parts = ToolIdParts {
        namespace: namespace.into(),
        name: name.into(),
        version: version.map(String::from),
        hash8: hash8.map(String::from),
    };
    check_parts(&parts).map_err(|e| {
        // Point at the part the check refused.
        let at = match e.kind() {
            ErrorKind::ToolIdNamespaceGrammar => 0,
            ErrorKind::ToolIdNameGrammar => namespace.len() + 1,
            ErrorKind::ToolIdVersionGrammar => namespace.len() + 1 + name.len() + 1,
            ErrorKind::ToolIdHash8Grammar => hash8.map_or(0, |h| id.len() - h.len()),
            _ => id.len(),
        };
        e.with_position(Position::in_line(id.as_bytes(), 1, 0, at))
    })?;
    Ok(parts)
}

/// `parse_tool_id` of any JSON value: a non-string is `TOOL_ID_NOT_A_STRING`.
///
/// ```
/// use agentwire::gateway::tool_id::parse_tool_id_value;
/// use agentwire::json::Value;
/// assert_eq!(parse_tool_id_value(&Value::from("fs:read@1"))?.namespace, "fs");
/// let err = parse_tool_id_value(&Value::Bool(true)).unwrap_err();
/// assert_eq!((err.code(), err.message()), ("TOOL_ID_NOT_A_STRING", "tool_id must be a string, got bool"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parse_tool_id_value(value: &Value) -> Result<ToolIdParts> {
    match value {
        Value::String(id) => parse_tool_id(id),
        other => Err(Error::new(
            ErrorKind::ToolIdNotAString,
            alloc::format!("tool_id must be a string, got {}", python_type(other)),
        )),
    }
}

/// Python's type name of a decoded JSON value (for "got int" messages).
///
/// ```
/// use agentwire::gateway::tool_id::python_type;
/// let value = agentwire::json::parse(r#"[1, 1.5, null, {}]"#)?;
/// let names: Vec<&str> = value.as_array().unwrap().iter().map(python_type).collect();
/// assert_eq!(names, ["int", "float", "NoneType", "dict"]);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn python_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_integer() => "int",
        Value::Number(_) => "float",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// `infer_namespace`: the prefix before the first `.`, else before the first `/`, else the
/// first `_`-part of a name with three or more, else `mcp`. No lower-casing.
///
/// ```
/// use agentwire::gateway::tool_id::infer_namespace;
/// assert_eq!(infer_namespace("github.create_issue"), "github");
/// assert_eq!(infer_namespace("slack/post"), "slack");
/// assert_eq!(infer_namespace("jira_get_issue"), "jira");
/// assert_eq!(infer_namespace("get_issue"), "mcp");
/// ```
pub fn infer_namespace(name: &str) -> &str {
    for separator in ['.', '/'] {
        if let Some((prefix, _)) = name.split_once(separator)
            && !prefix.is_empty()
        {
            return prefix;
        }
    }
    let mut parts = name.split('_');
    let first = parts.next().unwrap_or("");
    if parts.count() >= 2 && !first.is_empty() {
        return first;
    }
    "mcp"
}

/// `_derive_tool_id_name`: what follows the first `.` (or `/`) when both sides are non-empty,
/// else the whole name.
///
/// ```
/// use agentwire::gateway::tool_id::derive_name;
/// assert_eq!(derive_name("github.create_issue"), "create_issue");
/// assert_eq!(derive_name("a.b.c"), "b.c");
/// assert_eq!(derive_name("plain_name"), "plain_name");
/// ```
pub fn derive_name(name: &str) -> &str {
    for separator in ['.', '/'] {
        if let Some((prefix, rest)) = name.split_once(separator)
            && !prefix.is_empty()
            && !rest.is_empty()
        {
            return rest;
        }
    }
    name
}

fn malformed(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::McpInvalidTool, message)
}

/// The canonical schema shape hashed after the name:
/// `{"properties":[sorted keys],"required":[sorted names]}` in `json.dumps(ensure_ascii)` form.
/// A non-object schema, non-object `properties` or non-string `required` entries are malformed.
///
/// ```
/// use agentwire::gateway::tool_id::canonical_shape;
/// let schema = agentwire::json::parse(r#"{"type":"object","properties":{"b":{},"a":{}},"required":["b"]}"#)?;
/// assert_eq!(canonical_shape(Some(&schema))?, r#"{"properties":["a","b"],"required":["b"]}"#);
/// assert_eq!(canonical_shape(None)?, r#"{"properties":[],"required":[]}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn canonical_shape(input_schema: Option<&Value>) -> Result<String> {
    let empty = crate::json::Map::new();
    let schema = match input_schema {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(m)) => m,
        // `[]` is falsy in Python, so it counts as no schema.
        Some(Value::Array(a)) if a.is_empty() => &empty,
        Some(other) => {
            return Err(malformed(alloc::format!(
                "inputSchema must be an object, got {}",
                python_type(other)
            )));
        }
    };
    let mut properties: Vec<&str> = match schema.get("properties") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(m)) => m.keys().collect(),
        Some(Value::Array(a)) if a.is_empty() => Vec::new(),
        Some(other) => {
            return Err(malformed(alloc::format!(
                "inputSchema.properties must be an object, got {}",
                python_type(other)
            )));
        }
    };
    let mut required: Vec<&str> = match schema.get("required") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .ok_or_else(|| malformed("inputSchema.required must hold strings"))
            })
            .collect::<Result<_>>()?,
        Some(other) => {
            return Err(malformed(alloc::format!(
                "inputSchema.required must be an array of strings, got {}",
                python_type(other)
            )));
        }
    };
    properties.sort_unstable();
    required.sort();
    let mut shape = String::from("{\"properties\":[");
    for (i, p) in properties.iter().enumerate() {
        if i > 0 {
            shape.push(',');
        }
        push_json_string(&mut shape, p);
    }
    shape.push_str("],\"required\":[");
    for (i, r) in required.iter().enumerate() {
        if i > 0 {
            shape.push(',');
        }
        push_json_string(&mut shape, r);
    }
    shape.push_str("]}");
    Ok(shape)
}

/// The first 8 hex digits of sha256(`hash_input`).
///
/// ```
/// use agentwire::gateway::tool_id::hash8;
/// // sha256("") = e3b0c442 98fc1c14 …
/// assert_eq!(hash8(""), "e3b0c442");
/// ```
pub fn hash8(hash_input: &str) -> String {
    let digest = Sha256::digest(hash_input.as_bytes());
    let mut out = String::with_capacity(8);
    for b in &digest[..4] {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Everything `mcp_tool_to_selectable` computes on the way to the id, for inspection.
///
/// ```
/// use agentwire::gateway::tool_id::derive;
/// let tool = agentwire::json::parse(r#"{"name":"read_file","inputSchema":{"properties":{"path":{}},"required":["path"]}}"#)?;
/// let derivation = derive(tool.as_object().unwrap(), Some("fs"))?;
/// assert_eq!(derivation.upstream_name, "fs.read_file");
/// assert_eq!(derivation.hash_input, "fs.read_file\n{\"properties\":[\"path\"],\"required\":[\"path\"]}");
/// assert_eq!(derivation.tool_id()?, "fs:read_file#7c3e638f");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Derivation {
    /// The name hashed: the tool's name, prefixed by `server_name.` when given.
    pub upstream_name: String,
    /// [`infer_namespace`] of it.
    pub inferred_namespace: String,
    /// [`derive_name`] of it.
    pub derived_name: String,
    /// [`canonical_shape`] of the input schema.
    pub canonical_shape: String,
    /// `upstream_name + "\n" + canonical_shape`.
    pub hash_input: String,
    /// [`hash8`] of it (always computed).
    pub computed_hash8: String,
    /// `_meta.version` as Python `str()` gives it (falsy values mean none).
    pub version: Option<String>,
}

/// The version of a tool definition: `_meta.version` when truthy. Strings and integers only
/// (`python_quirks.json`: Python's `str()` would turn `true` into `True` and `1e20` into an
/// invalid `1e+20`); other truthy values make the definition malformed.
fn meta_version(tool: &crate::json::Map) -> Result<Option<String>> {
    let Some(Value::Object(meta)) = tool.get("_meta") else {
        return Ok(None);
    };
    match meta.get("version") {
        Some(v) if truthy(v) => match v {
            Value::String(s) => Ok(Some(s.clone())),
            Value::Number(n) if n.is_integer() => Ok(scalar_str(v)),
            other => Err(malformed(alloc::format!(
                "_meta.version must be a string or an integer, got {}",
                python_type(other)
            ))),
        },
        _ => Ok(None),
    }
}

/// Computes the derivation of an MCP tool definition (`name` as given, even empty).
///
/// ```
/// use agentwire::gateway::tool_id::derive;
/// let tool = agentwire::json::parse(r#"{"name":"search","_meta":{"version":3}}"#)?;
/// let derivation = derive(tool.as_object().unwrap(), None)?;
/// assert_eq!((derivation.inferred_namespace.as_str(), derivation.version.as_deref()), ("mcp", Some("3")));
/// assert_eq!(derivation.tool_id()?, "mcp:search@3");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn derive(tool: &crate::json::Map, server_name: Option<&str>) -> Result<Derivation> {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    let upstream_name = match server_name {
        Some(server) => alloc::format!("{server}.{name}"),
        None => name.into(),
    };
    let canonical_shape = canonical_shape(tool.get("inputSchema"))?;
    let hash_input = alloc::format!("{upstream_name}\n{canonical_shape}");
    Ok(Derivation {
        inferred_namespace: infer_namespace(&upstream_name).into(),
        derived_name: derive_name(&upstream_name).into(),
        computed_hash8: hash8(&hash_input),
        version: meta_version(tool)?,
        upstream_name,
        canonical_shape,
        hash_input,
    })
}

impl Derivation {
    /// The canonical id: `ns:name@version` with a version, else `ns:name#hash8`.
    ///
    /// ```
    /// use agentwire::gateway::tool_id::derive;
    /// let tool = agentwire::json::parse(r#"{"name":"github.list_repos"}"#)?;
    /// let parts = derive(tool.as_object().unwrap(), None)?.parts();
    /// assert_eq!((parts.namespace.as_str(), parts.name.as_str()), ("github", "list_repos"));
    /// assert_eq!((parts.version, parts.hash8.map(|h| h.len())), (None, Some(8)));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parts(&self) -> ToolIdParts {
        ToolIdParts {
            namespace: self.inferred_namespace.clone(),
            name: self.derived_name.clone(),
            hash8: self.version.is_none().then(|| self.computed_hash8.clone()),
            version: self.version.clone(),
        }
    }

    /// [`format_tool_id`] of [`parts`](Self::parts).
    ///
    /// ```
    /// use agentwire::gateway::tool_id::derive;
    /// let tool = agentwire::json::parse(r#"{"name":"read_file","_meta":{"version":"1.2"}}"#)?;
    /// assert_eq!(derive(tool.as_object().unwrap(), Some("fs"))?.tool_id()?, "fs:read_file@1.2");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn tool_id(&self) -> Result<String> {
        format_tool_id(&self.parts())
    }
}

/// JSON form of parts: `{"namespace", "name", "version", "hash8"}` (null when absent).
///
/// ```
/// use agentwire::gateway::{parse_tool_id, tool_id::parts_to_value};
/// use agentwire::json::{self, WriteOptions};
/// let value = parts_to_value(&parse_tool_id("fs:read@1")?);
/// assert_eq!(json::to_string(&value, WriteOptions::PLAIN)?, r#"{"namespace":"fs","name":"read","version":"1","hash8":null}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parts_to_value(parts: &ToolIdParts) -> Value {
    let opt = |v: &Option<String>| v.as_deref().map_or(Value::Null, Value::from);
    let mut map = crate::json::Map::new();
    map.insert("namespace".into(), parts.namespace.as_str().into());
    map.insert("name".into(), parts.name.as_str().into());
    map.insert("version".into(), opt(&parts.version));
    map.insert("hash8".into(), opt(&parts.hash8));
    Value::Object(map)
}

/// Reads parts from `{"namespace", "name", "version"?, "hash8"?}` (null = absent).
///
/// ```
/// use agentwire::gateway::{format_tool_id, tool_id::parts_from_value};
/// let value = agentwire::json::parse(r#"{"namespace":"fs","name":"read","hash8":"0123abcd"}"#)?;
/// assert_eq!(format_tool_id(&parts_from_value(&value)?)?, "fs:read#0123abcd");
/// assert_eq!(parts_from_value(&agentwire::json::Value::Null).unwrap_err().code(), "INVALID_ARGUMENT");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parts_from_value(value: &Value) -> Result<ToolIdParts> {
    let map = value.as_object().ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidArgument,
            "tool id parts must be an object",
        )
    })?;
    let text = |key: &str| -> Result<Option<String>> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!("{key} must be a string or null"),
            )),
        }
    };
    Ok(ToolIdParts {
        namespace: text("namespace")?.unwrap_or_default(),
        name: text("name")?.unwrap_or_default(),
        version: text("version")?,
        hash8: text("hash8")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_fail_in_order() {
        let parts = parse_tool_id("my-srv_1:Tool-Name.v2_x@v1.0_rc-1#ffffffff").unwrap();
        assert_eq!(
            format_tool_id(&parts).unwrap(),
            "my-srv_1:Tool-Name.v2_x@v1.0_rc-1#ffffffff"
        );
        assert_eq!(
            parse_tool_id("ns:b#abc@1").unwrap_err().message(),
            "tool_id hash8 not matching grammar: 'abc@1'"
        );
        assert_eq!(
            parse_tool_id("ns:x").unwrap_err().code(),
            "TOOL_ID_HASH8_REQUIRED"
        );
        assert_eq!(
            parse_tool_id("ns:x#abcdef12\n").unwrap_err().code(),
            "TOOL_ID_HASH8_GRAMMAR"
        );
        let e = parse_tool_id("ns:café#abcdef12").unwrap_err();
        assert_eq!((e.code(), e.column()), ("TOOL_ID_NAME_GRAMMAR", Some(4)));
    }

    #[test]
    fn namespaces_names_and_hashes() {
        assert_eq!(infer_namespace("get_current_time"), "get");
        assert_eq!(infer_namespace("write_file"), "mcp");
        assert_eq!(infer_namespace("fs/read.txt"), "fs/read");
        assert_eq!(infer_namespace("_a_b_c"), "mcp");
        assert_eq!(derive_name("a.b.c"), "b.c");
        assert_eq!(derive_name("a."), "a.");
        assert_eq!(
            hash8("read_file\n{\"properties\":[],\"required\":[]}"),
            "559d82ea"
        );
        let schema =
            crate::json::parse(r#"{"properties":{"title":{},"body":{}},"required":["title"]}"#)
                .unwrap();
        let shape = canonical_shape(Some(&schema)).unwrap();
        assert_eq!(
            hash8(&alloc::format!("github.create_issue\n{shape}")),
            "6c5f877d"
        );
    }
}
