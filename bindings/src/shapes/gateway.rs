//! The gateway's binding shapes: the result of a JSON Schema check as it crosses a JS boundary
//! (`agentwire/schema`'s `checkArgs` returns it, a wasm gateway session's validator hands it
//! back), and the reports `gateway.toolId`, `gateway.card` and `gateway.truncate` (and the
//! CLI) return. The gateway's items, cards, replies and tool-id parts are contextweaver's JSON
//! and stay in the core (`agentwire::gateway`).

use agentwire::gateway::card::{
    count_tokens, BudgetReport, ChoiceCard, Truncation, TruncationBranch,
};
use agentwire::gateway::item::McpItem;
use agentwire::gateway::schema::{ArgsViolation, SchemaCheck};
use agentwire::gateway::tool_id::{parts_to_value, Derivation};
use agentwire::json::{Map, Number, Value};
use agentwire::tokens::TokenCounter;
use agentwire::{Error, ErrorKind, Result};

fn uint(v: usize) -> Value {
    Value::Number(Number::from_u64(v as u64))
}

/// `{upstream_name, inferred_namespace, derived_name, canonical_shape, hash_input,
/// computed_hash8}`.
pub fn derivation_value(d: &Derivation) -> Map {
    let mut map = Map::new();
    map.insert("upstream_name".into(), d.upstream_name.as_str().into());
    map.insert(
        "inferred_namespace".into(),
        d.inferred_namespace.as_str().into(),
    );
    map.insert("derived_name".into(), d.derived_name.as_str().into());
    map.insert("canonical_shape".into(), d.canonical_shape.as_str().into());
    map.insert("hash_input".into(), d.hash_input.as_str().into());
    map.insert("computed_hash8".into(), d.computed_hash8.as_str().into());
    map
}

/// An MCP tool's id: the derivation, the id parts, `tool_id` and the catalog `item`.
pub fn tool_id_report(converted: &McpItem) -> Value {
    let mut map = derivation_value(&converted.derivation);
    if let Value::Object(parts) = parts_to_value(&converted.derivation.parts()) {
        for (key, value) in parts.iter() {
            map.insert(key.into(), value.clone());
        }
    }
    map.insert("tool_id".into(), converted.item.id.as_str().into());
    map.insert("item".into(), converted.item.to_value());
    Value::Object(map)
}

/// A budgeted card with every rendering and its token counts: `{card, truncated,
/// untruncated_budget_line_tokens, fixed_overhead_tokens?, description_budget?,
/// budget_line_tokens, budget_line, prompt_text_tokens, prompt_text, wire_json}`.
pub fn card_report(card: &ChoiceCard, report: &BudgetReport, counter: &dyn TokenCounter) -> Value {
    let mut map = Map::new();
    map.insert("card".into(), card.to_value());
    map.insert("truncated".into(), Value::Bool(report.truncated()));
    map.insert(
        "untruncated_budget_line_tokens".into(),
        uint(report.untruncated_tokens),
    );
    if let (Some(overhead), Some(budget)) =
        (report.fixed_overhead_tokens, report.description_budget)
    {
        map.insert("fixed_overhead_tokens".into(), uint(overhead));
        map.insert("description_budget".into(), uint(budget));
    }
    let budget_line = card.budget_line(1, 1);
    let prompt_text = card.prompt_text();
    map.insert(
        "budget_line_tokens".into(),
        uint(count_tokens(counter, &budget_line)),
    );
    map.insert("budget_line".into(), budget_line.into());
    map.insert(
        "prompt_text_tokens".into(),
        uint(count_tokens(counter, &prompt_text)),
    );
    map.insert("prompt_text".into(), prompt_text.into());
    map.insert("wire_json".into(), card.wire_json().into());
    Value::Object(map)
}

/// A truncation with the offsets it considered: `{output, branch, input_tokens,
/// output_tokens, boundary_ends?, chosen_boundary_end?, hard_cut_chars?}` (offsets in code
/// points).
pub fn truncation_report(text: &str, truncation: &Truncation, counter: &dyn TokenCounter) -> Value {
    let mut map = Map::new();
    map.insert("branch".into(), truncation.branch.as_str().into());
    map.insert("input_tokens".into(), uint(count_tokens(counter, text)));
    map.insert(
        "output_tokens".into(),
        uint(count_tokens(counter, &truncation.output)),
    );
    if matches!(
        truncation.branch,
        TruncationBranch::Sentence | TruncationBranch::HardCut
    ) {
        map.insert(
            "boundary_ends".into(),
            Value::Array(truncation.boundary_ends.iter().map(|&e| uint(e)).collect()),
        );
    }
    if let Some(end) = truncation.chosen_boundary_end {
        map.insert("chosen_boundary_end".into(), uint(end));
    }
    if let Some(chars) = truncation.hard_cut_chars {
        map.insert("hard_cut_chars".into(), uint(chars));
    }
    map.insert("output".into(), truncation.output.as_str().into());
    Value::Object(map)
}

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
