//! The gateway's binding shapes: the result of a JSON Schema check as it crosses a JS boundary
//! (`agentwire/schema`'s `checkArgs` returns it, a wasm gateway session's validator hands it
//! back). The gateway's items, cards, replies and tool-id parts are contextweaver's JSON and
//! stay in the core (`agentwire::gateway`).

use agentwire::gateway::schema::{ArgsViolation, SchemaCheck};
use agentwire::json::{Map, Value};
use agentwire::{Error, ErrorKind, Result};

use crate::shapes::{FromValue, ToValue};

fn bad_result(message: &str) -> Error {
    Error::new(
        ErrorKind::InvalidArgument,
        format!("schema check result: {message}"),
    )
}

/// `{"valid": true}`, `{"valid": false, "message", "path"}` or `{"valid": false,
/// "schemaInvalid": message}`: the form that crosses a JS boundary.
impl ToValue for SchemaCheck {
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert(
            "valid".into(),
            Value::Bool(matches!(self, SchemaCheck::Valid)),
        );
        match self {
            SchemaCheck::Valid => {}
            SchemaCheck::Invalid(violation) => {
                map.insert("message".into(), violation.message.as_str().into());
                map.insert("path".into(), Value::Array(violation.path.clone()));
            }
            SchemaCheck::SchemaInvalid(message) => {
                map.insert("schemaInvalid".into(), message.as_str().into());
            }
        }
        Value::Object(map)
    }
}

/// Reads the [`ToValue`] form (what a JavaScript validator returns); a malformed result is
/// `INVALID_ARGUMENT` (`schema check result: …`).
impl FromValue for SchemaCheck {
    fn from_value(value: &Value) -> Result<SchemaCheck> {
        let map = value
            .as_object()
            .ok_or_else(|| bad_result("expected an object"))?;
        match map.get("valid") {
            Some(Value::Bool(true)) => return Ok(SchemaCheck::Valid),
            Some(Value::Bool(false)) => {}
            _ => return Err(bad_result("\"valid\" must be a boolean")),
        }
        if let Some(schema_error) = map.get("schemaInvalid") {
            let message = schema_error
                .as_str()
                .ok_or_else(|| bad_result("\"schemaInvalid\" must be a string"))?;
            return Ok(SchemaCheck::SchemaInvalid(message.into()));
        }
        let message = map
            .get("message")
            .and_then(Value::as_str)
            .ok_or_else(|| bad_result("\"message\" must be a string"))?;
        let path = match map.get("path") {
            Some(Value::Array(items))
                if items
                    .iter()
                    .all(|v| matches!(v, Value::String(_) | Value::Number(_))) =>
            {
                items.clone()
            }
            _ => return Err(bad_result("\"path\" must be an array of keys and indices")),
        };
        Ok(SchemaCheck::Invalid(ArgsViolation {
            message: message.into(),
            path,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agentwire::json::{self, Number, WriteOptions};

    #[test]
    fn every_form_round_trips() {
        let checks = [
            SchemaCheck::Valid,
            SchemaCheck::Invalid(ArgsViolation {
                message: "1 is not of type 'string'".into(),
                path: vec!["a".into(), Value::from(Number::from_u64(0))],
            }),
            SchemaCheck::SchemaInvalid("bad schema".into()),
        ];
        for check in checks {
            assert_eq!(SchemaCheck::from_value(&check.to_value()).unwrap(), check);
        }
        let text = json::to_string(&SchemaCheck::Valid.to_value(), WriteOptions::PLAIN).unwrap();
        assert_eq!(text, r#"{"valid":true}"#);
        let e = SchemaCheck::from_value(
            &json::parse(r#"{"valid":false,"message":"m","path":[{}]}"#).unwrap(),
        )
        .unwrap_err();
        assert_eq!(e.code(), "INVALID_ARGUMENT");
        assert_eq!(
            e.message(),
            "schema check result: \"path\" must be an array of keys and indices"
        );
    }
}
