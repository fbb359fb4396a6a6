//! The workspace-scope files reproduced byte for byte from typed input, and check_request's
//! envelopes equal to the error files (inputs: tests/scope_inputs.json, shared with the JS tests).

use std::path::{Path, PathBuf};

use agentwire::gcx::EncodeOptions;
use agentwire::gcx::scope::{self, ErrorEnvelope, ToolDefinition, ToolRequest};
use agentwire::json::{self, Value};

/// `tests/`, beside this crate.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scope_file(name: &str) -> String {
    std::fs::read_to_string(root().join("fixtures/gcx1/scope").join(name)).unwrap()
}

fn inputs() -> Value {
    json::parse(&std::fs::read_to_string(root().join("scope_inputs.json")).unwrap()).unwrap()
}

fn definitions(inputs: &Value) -> Vec<ToolDefinition> {
    let value = inputs
        .get("files")
        .and_then(|f| f.get("scope_tool_definitions.gcx"))
        .and_then(|f| f.get("value"));
    value
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .map(|d| ToolDefinition::from_value(d).unwrap())
        .collect()
}

#[test]
fn every_scope_file_from_typed_input() {
    let inputs = inputs();
    let files = inputs.get("files").and_then(Value::as_object).unwrap();
    let options = EncodeOptions::default();
    let mut checked = 0;
    for (name, spec) in files.iter() {
        let value = spec.get("value").unwrap();
        let (encoded, decoded_matches) = match spec.get("shape").and_then(Value::as_str).unwrap() {
            "tool_definitions" => {
                let defs: Vec<ToolDefinition> = value
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| ToolDefinition::from_value(d).unwrap())
                    .collect();
                let back = scope::decode_tool_definitions(&scope_file(name)).unwrap();
                let mut sorted = defs.clone();
                sorted.sort_by(|a, b| a.name.cmp(&b.name));
                (
                    scope::encode_tool_definitions(&defs, &options).unwrap(),
                    back == sorted,
                )
            }
            "tool_request" => {
                let request = ToolRequest::from_value(value).unwrap();
                let back = scope::decode_tool_request(&scope_file(name)).unwrap();
                (
                    scope::encode_tool_request(&request, &options).unwrap(),
                    back == request,
                )
            }
            "error" => {
                let envelope = ErrorEnvelope::from_value(value).unwrap();
                let back = scope::decode_error_envelope(&scope_file(name)).unwrap();
                (
                    scope::encode_error_envelope(&envelope, &options).unwrap(),
                    back == envelope,
                )
            }
            other => panic!("unknown shape {other}"),
        };
        assert_eq!(encoded, scope_file(name), "{name}");
        assert!(decoded_matches, "{name} decodes to a different value");
        checked += 1;
    }
    assert_eq!(checked, 7);
}

#[test]
fn check_request_gives_the_fixture_envelopes() {
    let inputs = inputs();
    let defs = definitions(&inputs);
    for check in inputs.get("checks").and_then(Value::as_array).unwrap() {
        let request = ToolRequest::from_value(check.get("request").unwrap()).unwrap();
        let repos: Vec<String> = check
            .get("workspace_repos")
            .and_then(Value::as_array)
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string())
            .collect();
        let envelope = scope::check_request(&defs, &request, &repos).unwrap();
        match check.get("envelope_file").and_then(Value::as_str) {
            Some(file) => {
                let envelope = envelope.expect("an illegal request");
                assert_eq!(
                    scope::encode_error_envelope(&envelope, &EncodeOptions::default()).unwrap(),
                    scope_file(file)
                );
            }
            None => assert_eq!(envelope, None),
        }
    }
}

#[test]
fn invalid_scopes_are_refused_with_codes() {
    let bad_scope = "GCX1 tool=tool_definitions fields=name,scope\nx\tglobal\n";
    let e = scope::decode_tool_definitions(bad_scope).unwrap_err();
    assert_eq!(
        (e.code(), e.line(), e.column()),
        ("GCX_SCHEMA", Some(2), Some(3))
    );
    let no_scope = "GCX1 tool=tool_definitions fields=name\nx\n";
    assert_eq!(
        scope::decode_tool_definitions(no_scope).unwrap_err().code(),
        "GCX_SCHEMA"
    );
    let fanout_plain =
        "GCX1 tool=tool_request fields=tool,scope,repo\nsearch_symbols\tfan-out\tgortex\n";
    assert_eq!(
        scope::decode_tool_request(fanout_plain).unwrap_err().code(),
        "GCX_SCHEMA"
    );
    let empty_code = ErrorEnvelope {
        code: String::new(),
        message: "m".into(),
        detail: String::new(),
    };
    assert_eq!(
        scope::encode_error_envelope(&empty_code, &EncodeOptions::default())
            .unwrap_err()
            .code(),
        "GCX_SCHEMA"
    );
}
