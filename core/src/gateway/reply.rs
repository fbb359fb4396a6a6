//! The gateway's error replies (`GatewayError.to_dict()`, §3.4): `{error, message, path,
//! retryable}` plus `details` when non-empty, packaged as `json.dumps` text.

use alloc::string::String;

use super::pytext::write_python_json;
use crate::Error;
use crate::json::{Map, Value};

const PATH_INVALID_HINT: &str = "fix the tool_browse path against the \u{a7}3.2 grammar; see https://dgenio.github.io/contextweaver/errors/#pathinvaliderror";
const PATH_NOT_FOUND_HINT: &str = "browse from the root to discover valid paths; the catalog may have changed since the path was built. See https://dgenio.github.io/contextweaver/errors/#pathnotfounderror";
const ITEM_NOT_FOUND_HINT: &str = "check the tool/agent/skill ID exists in the catalog; see https://dgenio.github.io/contextweaver/errors/#itemnotfounderror";

/// The gateway error codes agentwire produces.
///
/// ```
/// use agentwire::gateway::reply::{GatewayCode, GatewayError};
/// let error = GatewayError::args_invalid("tool_view requires string 'tool_id'.");
/// assert_eq!(error.code, GatewayCode::ArgsInvalid);
/// assert_eq!(error.code.as_str(), "ARGS_INVALID");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GatewayCode {
    /// A browse path breaks the §3.2 grammar.
    PathInvalid,
    /// A browse path does not resolve in the catalog.
    PathNotFound,
    /// Meta-tool arguments are wrong, or tool arguments fail the tool's schema.
    ArgsInvalid,
    /// A tool's JSON Schema is itself invalid.
    SchemaInvalid,
    /// The tool id is not in the catalog.
    HydrateFailed,
    /// A card of the reply breaks the hard token cap (the reference raises instead).
    CardHardCap,
}

impl GatewayCode {
    /// The wire code.
    ///
    /// ```
    /// use agentwire::gateway::reply::GatewayCode;
    /// assert_eq!(GatewayCode::HydrateFailed.as_str(), "HYDRATE_FAILED");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            GatewayCode::PathInvalid => "PATH_INVALID",
            GatewayCode::PathNotFound => "PATH_NOT_FOUND",
            GatewayCode::ArgsInvalid => "ARGS_INVALID",
            GatewayCode::SchemaInvalid => "SCHEMA_INVALID",
            GatewayCode::HydrateFailed => "HYDRATE_FAILED",
            GatewayCode::CardHardCap => "CARD_HARD_CAP",
        }
    }
}

/// One error reply of a meta-tool.
///
/// ```
/// use agentwire::gateway::reply::{GatewayCode, GatewayError};
/// let mut error = GatewayError::new(GatewayCode::ArgsInvalid, "'path' is a required property", "fs:read@1");
/// error.details.insert("path".into(), agentwire::json::Value::Array(Vec::new()));
/// assert_eq!(
///     error.wire_json(),
///     r#"{"error": "ARGS_INVALID", "message": "'path' is a required property", "path": "fs:read@1", "retryable": false, "details": {"path": []}}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GatewayError {
    /// The code.
    pub code: GatewayCode,
    /// `[CW_…] message (hint: …)` for errors that have a contextweaver class, else plain text.
    pub message: String,
    /// The path or tool id the error is about (`""` when none).
    pub path: String,
    /// Extra details (`{"path": [...]}` for schema failures), omitted when empty.
    pub details: Map,
}

impl GatewayError {
    /// A reply with no details.
    ///
    /// ```
    /// use agentwire::gateway::reply::{GatewayCode, GatewayError};
    /// let error = GatewayError::new(GatewayCode::SchemaInvalid, "bad schema", "fs:read@1");
    /// assert_eq!((error.path.as_str(), error.details.is_empty()), ("fs:read@1", true));
    /// ```
    pub fn new(
        code: GatewayCode,
        message: impl Into<String>,
        path: impl Into<String>,
    ) -> GatewayError {
        GatewayError {
            code,
            message: message.into(),
            path: path.into(),
            details: Map::new(),
        }
    }

    /// `PATH_INVALID` for a path grammar error.
    ///
    /// ```
    /// use agentwire::gateway::{path::parse_path, reply::GatewayError};
    /// let err = parse_path("/fs/").unwrap_err();
    /// let reply = GatewayError::path_invalid(&err, "/fs/");
    /// assert!(reply.message.starts_with("[CW_PATH_INVALID] path must not end with '/' (got '/fs/') (hint: "));
    /// assert_eq!(reply.path, "/fs/");
    /// ```
    pub fn path_invalid(error: &Error, path: &str) -> GatewayError {
        GatewayError::new(
            GatewayCode::PathInvalid,
            alloc::format!(
                "[CW_PATH_INVALID] {} (hint: {PATH_INVALID_HINT})",
                error.message()
            ),
            path,
        )
    }

    /// `PATH_NOT_FOUND`; `walked` is the prefix that failed to resolve, `None` for an empty
    /// catalog.
    ///
    /// ```
    /// use agentwire::gateway::reply::{GatewayCode, GatewayError};
    /// let reply = GatewayError::path_not_found(Some("/fs/x"), "/fs/x/y");
    /// assert_eq!(reply.code, GatewayCode::PathNotFound);
    /// assert!(reply.message.starts_with("[CW_PATH_NOT_FOUND] path /fs/x does not resolve in the catalog (hint: "));
    /// assert!(GatewayError::path_not_found(None, "/").message.contains("No catalog registered."));
    /// ```
    pub fn path_not_found(walked: Option<&str>, path: &str) -> GatewayError {
        let message = match walked {
            Some(walked) => alloc::format!("path {walked} does not resolve in the catalog"),
            None => "No catalog registered.".into(),
        };
        GatewayError::new(
            GatewayCode::PathNotFound,
            alloc::format!("[CW_PATH_NOT_FOUND] {message} (hint: {PATH_NOT_FOUND_HINT})"),
            path,
        )
    }

    /// `HYDRATE_FAILED` for an unknown tool id.
    ///
    /// ```
    /// use agentwire::gateway::reply::GatewayError;
    /// let reply = GatewayError::item_not_found("fs:nope@1");
    /// assert!(reply.message.starts_with("[CW_ITEM_NOT_FOUND] Item not found: 'fs:nope@1' (hint: "));
    /// assert_eq!(reply.path, "fs:nope@1");
    /// ```
    pub fn item_not_found(tool_id: &str) -> GatewayError {
        GatewayError::new(
            GatewayCode::HydrateFailed,
            alloc::format!(
                "[CW_ITEM_NOT_FOUND] Item not found: {} (hint: {ITEM_NOT_FOUND_HINT})",
                super::pytext::repr(tool_id)
            ),
            tool_id,
        )
    }

    /// `ARGS_INVALID` about the meta-tool call itself.
    ///
    /// ```
    /// use agentwire::gateway::reply::GatewayError;
    /// let reply = GatewayError::args_invalid("tool_browse requires exactly one of 'query' or 'path'.");
    /// assert_eq!((reply.code.as_str(), reply.path.as_str()), ("ARGS_INVALID", ""));
    /// ```
    pub fn args_invalid(message: impl Into<String>) -> GatewayError {
        GatewayError::new(GatewayCode::ArgsInvalid, message, "")
    }

    /// `GatewayError.to_dict()`.
    ///
    /// ```
    /// use agentwire::gateway::reply::GatewayError;
    /// let value = GatewayError::args_invalid("no").to_value();
    /// assert_eq!(value.get("retryable"), Some(&agentwire::json::Value::Bool(false)));
    /// assert_eq!(value.get("details"), None); // omitted when empty
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("error".into(), self.code.as_str().into());
        map.insert("message".into(), self.message.as_str().into());
        map.insert("path".into(), self.path.as_str().into());
        map.insert("retryable".into(), Value::Bool(false));
        if !self.details.is_empty() {
            map.insert("details".into(), Value::Object(self.details.clone()));
        }
        Value::Object(map)
    }

    /// `json.dumps(to_dict())`, the text of the MCP error reply.
    ///
    /// ```
    /// use agentwire::gateway::reply::GatewayError;
    /// assert_eq!(
    ///     GatewayError::args_invalid("bad 'top_k' → 1..50").wire_json(),
    ///     r#"{"error": "ARGS_INVALID", "message": "bad 'top_k' \u2192 1..50", "path": "", "retryable": false}"#
    /// );
    /// ```
    pub fn wire_json(&self) -> String {
        let mut out = String::new();
        write_python_json(&self.to_value(), &mut out);
        out
    }
}
