//! Argument validation against a tool's JSON Schema: the [`ArgsValidator`] trait (any host can
//! supply one) and, with the `schema` feature, `JsonSchemaValidator` on the `jsonschema` crate.

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::{Map, Value};
use crate::{Error, ErrorKind, Result};

/// One failing argument: the validator's message and where in the arguments it failed.
///
/// ```
/// use agentwire::gateway::schema::{ArgsValidator, ArgsViolation, SchemaCheck};
/// use agentwire::json::Value;
/// // A validator that only checks for a required `path` argument.
/// struct NeedsPath;
/// impl ArgsValidator for NeedsPath {
///     fn check(&self, _schema: &Value, args: &Value) -> SchemaCheck {
///         match args.get("path") {
///             Some(_) => SchemaCheck::Valid,
///             None => SchemaCheck::Invalid(ArgsViolation { message: "'path' is a required property".into(), path: Vec::new() }),
///         }
///     }
/// }
/// let check = NeedsPath.check(&Value::Null, &agentwire::json::parse("{}")?);
/// assert!(matches!(check, SchemaCheck::Invalid(v) if v.path.is_empty()));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ArgsViolation {
    /// Human-readable message (the validator's own wording).
    pub message: String,
    /// Path into the arguments: keys as strings, array indices as numbers (`[]` for the root).
    pub path: Vec<Value>,
}

/// The outcome of checking arguments against a schema.
///
/// ```
/// use agentwire::gateway::schema::{ArgsViolation, SchemaCheck};
/// // What a gateway makes of each outcome.
/// fn reply(check: SchemaCheck) -> String {
///     match check {
///         SchemaCheck::Valid => "forward upstream".into(),
///         SchemaCheck::Invalid(v) => format!("ARGS_INVALID: {}", v.message),
///         SchemaCheck::SchemaInvalid(m) => format!("SCHEMA_INVALID: {m}"),
///     }
/// }
/// let violation = ArgsViolation { message: "'path' is a required property".into(), path: Vec::new() };
/// assert_eq!(reply(SchemaCheck::Invalid(violation)), "ARGS_INVALID: 'path' is a required property");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaCheck {
    /// The arguments conform.
    Valid,
    /// The first failing argument.
    Invalid(ArgsViolation),
    /// The schema itself is not a valid JSON Schema.
    SchemaInvalid(String),
}

impl SchemaCheck {
    /// `{"valid": true}`, `{"valid": false, "message", "path"}` or `{"valid": false,
    /// "schemaInvalid": message}`: the form that crosses a JS boundary (`agentwire/schema`'s
    /// `checkArgs` returns it, a wasm gateway session's validator hands it back).
    ///
    /// ```
    /// use agentwire::gateway::schema::SchemaCheck;
    /// use agentwire::json::{self, WriteOptions};
    /// assert_eq!(json::to_string(&SchemaCheck::Valid.to_value(), WriteOptions::PLAIN)?, r#"{"valid":true}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
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

    /// Reads the [`SchemaCheck::to_value`] form (what a JavaScript validator returns); a
    /// malformed result is `INVALID_ARGUMENT` (`schema check result: …`).
    ///
    /// ```
    /// use agentwire::gateway::schema::SchemaCheck;
    /// use agentwire::json;
    /// let check = SchemaCheck::from_value(&json::parse(r#"{"valid":false,"schemaInvalid":"bad"}"#)?)?;
    /// assert_eq!(check, SchemaCheck::SchemaInvalid("bad".into()));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<SchemaCheck> {
        let bad_result = |message: &str| {
            Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!("schema check result: {message}"),
            )
        };
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

/// Checks tool arguments against a tool's JSON Schema.
///
/// ```
/// use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid};
/// use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
/// use agentwire::json::{self, Map, Value};
/// /// Accepts every argument object (a host without a JSON Schema library).
/// struct AcceptAll;
/// impl ArgsValidator for AcceptAll {
///     fn check(&self, _schema: &Value, _args: &Value) -> SchemaCheck {
///         SchemaCheck::Valid
///     }
/// }
/// let mut gateway = Gateway::new(GatewayOptions::default());
/// let tool = json::parse(r#"{"name":"fs.read","description":"Reads.","inputSchema":{"type":"object"},"_meta":{"version":"1"}}"#)?;
/// gateway.register_mcp_tools(&[tool], None, OnInvalid::Raise)?;
/// assert!(gateway.execute("fs:read@1", &Map::new(), &AcceptAll).is_ok());
/// # Ok::<(), agentwire::Error>(())
/// ```
pub trait ArgsValidator {
    /// The first violation of `schema` by `args`, as the reference's `iter_errors` gives it.
    ///
    /// ```
    /// use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
    /// use agentwire::json::Value;
    /// struct AcceptAll;
    /// impl ArgsValidator for AcceptAll {
    ///     fn check(&self, _schema: &Value, _args: &Value) -> SchemaCheck {
    ///         SchemaCheck::Valid
    ///     }
    /// }
    /// assert_eq!(AcceptAll.check(&Value::Null, &Value::Null), SchemaCheck::Valid);
    /// ```
    fn check(&self, schema: &Value, args: &Value) -> SchemaCheck;
}

#[cfg(feature = "schema")]
pub use validator::JsonSchemaValidator;

#[cfg(feature = "schema")]
mod validator {
    use alloc::string::{String, ToString};
    use alloc::sync::Arc;
    use alloc::vec::Vec;
    use std::collections::HashMap;
    use std::sync::{Mutex, PoisonError};

    use serde_json::Value as J;

    use super::{ArgsValidator, ArgsViolation, SchemaCheck};
    use crate::json::{Number, Value};

    /// Compiled schemas kept per validator; a gateway sees a bounded set of tools.
    const CACHE_LIMIT: usize = 256;

    /// Validation with the `jsonschema` crate: the draft comes from `$schema` (2020-12 when
    /// absent), the schema is checked against its meta-schema, and the first error of the
    /// iteration is reported. Compiled schemas are cached by their JSON text.
    ///
    /// ```
    /// use agentwire::gateway::schema::{ArgsValidator, JsonSchemaValidator, SchemaCheck};
    /// use agentwire::json::{self, Value};
    /// let validator = JsonSchemaValidator::new();
    /// let schema = json::parse(r#"{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"}}}}"#)?;
    /// assert_eq!(validator.check(&schema, &json::parse(r#"{"ids":[1,2]}"#)?), SchemaCheck::Valid);
    /// let SchemaCheck::Invalid(violation) = validator.check(&schema, &json::parse(r#"{"ids":[1,"x"]}"#)?) else { panic!() };
    /// assert_eq!(violation.path, [Value::from("ids"), json::parse("1")?]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    #[derive(Default)]
    pub struct JsonSchemaValidator {
        cache: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
    }

    impl core::fmt::Debug for JsonSchemaValidator {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            let cached = self.cache.lock().map_or(0, |c| c.len());
            f.debug_struct("JsonSchemaValidator")
                .field("cached", &cached)
                .finish()
        }
    }

    fn to_serde(value: &Value) -> J {
        match value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Number(n) => number(n),
            Value::String(s) => J::String(s.clone()),
            Value::Array(items) => J::Array(items.iter().map(to_serde).collect()),
            Value::Object(map) => J::Object(
                map.iter()
                    .map(|(k, v)| (k.to_string(), to_serde(v)))
                    .collect(),
            ),
        }
    }

    fn number(n: &Number) -> J {
        if let Some(v) = n.as_u64() {
            J::from(v)
        } else if let Some(v) = n.as_i64() {
            J::from(v)
        } else {
            // Non-finite numbers cannot come from JSON text; null keeps the conversion total.
            serde_json::Number::from_f64(n.as_f64()).map_or(J::Null, J::Number)
        }
    }

    /// The instance path as keys and indices, typed by walking the instance (a key "0" of an
    /// object stays a string).
    fn typed_path(pointer: &str, instance: &J) -> Vec<Value> {
        let mut at = Some(instance);
        let mut path = Vec::new();
        for raw in pointer.split('/').skip(1) {
            let segment = raw.replace("~1", "/").replace("~0", "~");
            match at {
                Some(J::Array(items)) => match segment.parse::<usize>() {
                    Ok(i) => {
                        path.push(Value::Number(Number::from_u64(i as u64)));
                        at = items.get(i);
                    }
                    Err(_) => {
                        path.push(Value::String(segment));
                        at = None;
                    }
                },
                Some(J::Object(map)) => {
                    at = map.get(&segment);
                    path.push(Value::String(segment));
                }
                _ => path.push(Value::String(segment)),
            }
        }
        path
    }

    impl JsonSchemaValidator {
        /// A validator with an empty cache.
        ///
        /// ```
        /// use agentwire::gateway::schema::{ArgsValidator, JsonSchemaValidator, SchemaCheck};
        /// let validator = JsonSchemaValidator::new();
        /// let bad_schema = agentwire::json::parse(r#"{"type":"no-such-type"}"#)?;
        /// assert!(matches!(validator.check(&bad_schema, &agentwire::json::Value::Null), SchemaCheck::SchemaInvalid(_)));
        /// # Ok::<(), agentwire::Error>(())
        /// ```
        pub fn new() -> JsonSchemaValidator {
            JsonSchemaValidator::default()
        }

        fn compiled(&self, schema: &J) -> Result<Arc<jsonschema::Validator>, String> {
            let key = schema.to_string();
            // A poisoned lock is taken anyway: the cache only holds finished validators. (In
            // wasm, where a panic traps, `std::thread::panicking()` stays true after the first
            // trap, so every later guard would poison the lock and disable the cache.)
            let cache = || self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(found) = cache().get(&key) {
                return Ok(found.clone());
            }
            let compiled = Arc::new(jsonschema::validator_for(schema).map_err(|e| e.to_string())?);
            let mut cache = cache();
            if cache.len() >= CACHE_LIMIT {
                cache.clear();
            }
            cache.insert(key, compiled.clone());
            Ok(compiled)
        }
    }

    impl ArgsValidator for JsonSchemaValidator {
        fn check(&self, schema: &Value, args: &Value) -> SchemaCheck {
            let schema = to_serde(schema);
            let instance = to_serde(args);
            let validator = match self.compiled(&schema) {
                Ok(validator) => validator,
                Err(message) => return SchemaCheck::SchemaInvalid(message),
            };
            let first = validator.iter_errors(&instance).next();
            match first {
                None => SchemaCheck::Valid,
                Some(error) => SchemaCheck::Invalid(ArgsViolation {
                    message: error.to_string(),
                    path: typed_path(error.instance_path().as_str(), &instance),
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{self, Number, WriteOptions};

    #[test]
    fn every_check_form_round_trips() {
        let checks = [
            SchemaCheck::Valid,
            SchemaCheck::Invalid(ArgsViolation {
                message: "1 is not of type 'string'".into(),
                path: alloc::vec!["a".into(), Value::from(Number::from_u64(0))],
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
