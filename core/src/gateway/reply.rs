//! The gateway's error replies (`GatewayError.to_dict()`, §3.4): `{error, message, path,
//! retryable}` plus `details` when non-empty, packaged as `json.dumps` text.

use alloc::string::String;

use super::pytext::write_python_json;
use crate::json::{Map, Value};
use crate::Error;

const PATH_INVALID_HINT: &str =
    "fix the tool_browse path against the \u{a7}3.2 grammar; see https://dgenio.github.io/contextweaver/errors/#pathinvaliderror";
const PATH_NOT_FOUND_HINT: &str = "browse from the root to discover valid paths; the catalog may have changed since the path was built. See https://dgenio.github.io/contextweaver/errors/#pathnotfounderror";
const ITEM_NOT_FOUND_HINT: &str =
    "check the tool/agent/skill ID exists in the catalog; see https://dgenio.github.io/contextweaver/errors/#itemnotfounderror";

/// The gateway error codes agentwire produces.
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
    pub fn args_invalid(message: impl Into<String>) -> GatewayError {
        GatewayError::new(GatewayCode::ArgsInvalid, message, "")
    }

    /// `GatewayError.to_dict()`.
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
    pub fn wire_json(&self) -> String {
        let mut out = String::new();
        write_python_json(&self.to_value(), &mut out);
        out
    }
}
