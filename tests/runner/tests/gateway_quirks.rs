//! What agentwire does where the Python reference is accidental (`python_quirks.json` is not
//! golden): each entry's recommendation, as docs/gateway.md documents it. Every quirk
//! id of the file must be decided here, so a new entry fails until someone decides it.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::LazyLock;

use agentwire::gateway::card::{CardBudget, ChoiceCard, enforce_card_budget};
use agentwire::gateway::item::{Item, mcp_tool_to_item};
use agentwire::gateway::path::parse_path_value;
use agentwire::gateway::report::{card_report, tool_id_report};
use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid, Services};
use agentwire::gateway::schema::JsonSchemaValidator;
use agentwire::gateway::tool_id::parse_tool_id;
use agentwire::json::{self, Value};
use agentwire::tokens::Tokenizer;
use serde_json::{Value as J, json};

static COUNTER: LazyLock<Tokenizer> = LazyLock::new(Tokenizer::cl100k_base);

fn code<T: std::fmt::Debug>(result: Result<T, agentwire::Error>) -> String {
    result.expect_err("must fail").code().to_string()
}

/// A fixture value in agentwire's JSON model, and back.
fn value(j: &J) -> Value {
    json::parse(&j.to_string()).unwrap()
}

fn fixture(v: &Value) -> J {
    serde_json::from_str(&json::to_string(v, json::WriteOptions::PLAIN).unwrap()).unwrap()
}

fn definitions(defs: &J) -> Vec<Value> {
    defs.as_array().unwrap().iter().map(value).collect()
}

fn session(defs: &J) -> Gateway {
    let mut gateway = Gateway::new(GatewayOptions::default());
    gateway
        .register_mcp_tools(&definitions(defs), None, OnInvalid::Skip)
        .unwrap();
    gateway
}

/// The reply's value, or the error body with `isError`.
fn dispatch(gateway: &mut Gateway, tool: &str, args: J) -> J {
    let validator = JsonSchemaValidator::default();
    let services = Services {
        counter: &*COUNTER,
        validator: &validator,
        router: None,
    };
    match gateway.dispatch(tool, &value(&args), &services) {
        Ok(reply) => json!({ "isError": false, "result": fixture(&reply.to_value()) }),
        Err(error) => json!({ "isError": true, "body": fixture(&error.to_value()) }),
    }
}

fn skipped_codes(defs: J) -> Vec<String> {
    let mut gateway = Gateway::new(GatewayOptions::default());
    let report = gateway
        .register_mcp_tools(&definitions(&defs), None, OnInvalid::Skip)
        .unwrap();
    report
        .skipped
        .iter()
        .map(|s| s.error.code().to_string())
        .collect()
}

fn tool_id(tool: J) -> Result<J, agentwire::Error> {
    mcp_tool_to_item(&value(&tool), None).map(|converted| fixture(&tool_id_report(&converted)))
}

#[test]
fn every_python_quirk_is_decided() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/gateway/python_quirks.json");
    let file: J = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let ids: BTreeSet<&str> = file["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    let decided: BTreeSet<&str> = [
        "parse_tool_id/trailing_newline_hash8",
        "parse_tool_id/trailing_newline_version",
        "parse_tool_id/newline_in_namespace",
        "parse_path/trailing_newline",
        "tool_id/properties_is_list",
        "tool_id/inputschema_not_object",
        "tool_id/required_is_string",
        "tool_id/required_integers",
        "tool_id/version_bool_and_float",
        "tool_id/description_non_string",
        "cards/special_token_text",
        "browse/card_hard_cap_raises",
        "browse/non_string_path",
        "browse/top_k_zero_or_negative",
        "ingest/collision_leaves_partial_state",
        "proxy/strip_tools_list_not_truncated",
        "cache_stable/dropped_new_cards_marked_seen",
    ]
    .into();
    assert_eq!(ids, decided);
}

#[test]
fn grammars_are_anchored_to_the_whole_string() {
    let parse = |id: &str| code(parse_tool_id(id));
    assert_eq!(
        parse("github:create_issue#abcdef12\n"),
        "TOOL_ID_HASH8_GRAMMAR"
    );
    assert_eq!(parse("gh:x@1\n"), "TOOL_ID_VERSION_GRAMMAR");
    assert_eq!(parse("ns\n:x#abcdef12"), "TOOL_ID_NAMESPACE_GRAMMAR");
    assert_eq!(
        code(parse_path_value(&Value::from("/github\n"))),
        "PATH_ROOT_SEGMENT_GRAMMAR"
    );
}

#[test]
fn malformed_tool_definitions_are_typed_errors_and_skipped() {
    let base = |schema: J| json!({"name": "a.b", "description": "d", "inputSchema": schema});
    assert_eq!(
        code(tool_id(base(json!({"properties": ["x"]})))),
        "MCP_INVALID_TOOL"
    );
    assert_eq!(code(tool_id(base(json!("str")))), "MCP_INVALID_TOOL");
    assert_eq!(
        code(tool_id(base(
            json!({"properties": {"a": {}}, "required": "ab"})
        ))),
        "MCP_INVALID_TOOL"
    );
    assert_eq!(
        code(tool_id(base(json!({"required": [2, 1]})))),
        "MCP_INVALID_TOOL"
    );
    // Falsy values still mean "no properties" / "no schema", as in Python.
    assert_eq!(
        tool_id(base(json!({"properties": []}))).unwrap()["canonical_shape"],
        "{\"properties\":[],\"required\":[]}"
    );
    assert_eq!(
        tool_id(base(json!(null))).unwrap()["item"]["has_schema"],
        false
    );
    assert_eq!(
        skipped_codes(json!([base(json!({"properties": ["x"]})), base(json!({}))])),
        ["MCP_INVALID_TOOL"]
    );
}

#[test]
fn versions_are_strings_or_integers_and_descriptions_strings() {
    let with_version = |v: J| json!({"name": "gh.t", "description": "d", "_meta": {"version": v}});
    assert_eq!(
        tool_id(with_version(json!("1.0"))).unwrap()["tool_id"],
        "gh:t@1.0"
    );
    assert_eq!(
        tool_id(with_version(json!(2))).unwrap()["tool_id"],
        "gh:t@2"
    );
    assert_eq!(code(tool_id(with_version(json!(true)))), "MCP_INVALID_TOOL");
    assert_eq!(code(tool_id(with_version(json!(1e20)))), "MCP_INVALID_TOOL");
    for falsy in [json!(false), json!(0), json!("")] {
        assert_eq!(
            tool_id(with_version(falsy)).unwrap()["tool_id"],
            "gh:t#b7c27b55"
        );
    }
    let with_description = |d: J| json!({"name": "gh.t", "description": d});
    assert_eq!(
        code(tool_id(with_description(json!(5)))),
        "MCP_INVALID_TOOL"
    );
    assert_eq!(
        code(tool_id(with_description(json!(0)))),
        "MCP_MISSING_FIELDS"
    );
    assert!(tool_id(with_description(json!(" "))).is_ok());
}

#[test]
fn special_token_text_counts_as_ordinary_text() {
    let item = json!({"id": "mcp:x#00000000", "description": "Ends a document with <|endoftext|> markers."});
    let mut card = ChoiceCard::from_item(&Item::from_value(&value(&item)).unwrap(), None);
    let report = enforce_card_budget(&mut card, &*COUNTER, CardBudget::default()).unwrap();
    let card = fixture(&card_report(&card, &report, &*COUNTER));
    assert_eq!(card["truncated"], false);
    assert!(card["budget_line_tokens"].as_u64().unwrap() > 10);
}

#[test]
fn browse_errors_are_replies_not_exceptions() {
    let long_id = format!("ns.{}", "aZ9_-.".repeat(21));
    let defs = json!([
        {"name": long_id, "description": "Read a file.", "_meta": {"version": "v".repeat(32)}},
        {"name": "fs.read", "description": "Read a file."},
    ]);
    let mut session = session(&defs);
    let reply = dispatch(&mut session, "tool_browse", json!({"path": "/"}));
    assert_eq!(reply["isError"], true);
    assert_eq!(reply["body"]["error"], "CARD_HARD_CAP");

    let reply = dispatch(&mut session, "tool_browse", json!({"path": 5}));
    assert_eq!(reply["body"]["error"], "PATH_INVALID");
    let message = reply["body"]["message"].as_str().unwrap();
    assert!(
        message.contains("path must be a string, got int"),
        "{message}"
    );

    for top_k in [json!(0), json!(-1), json!(51), json!(2.5), json!("3")] {
        let reply = dispatch(
            &mut session,
            "tool_browse",
            json!({"query": "read", "top_k": top_k}),
        );
        assert_eq!(reply["body"]["error"], "ARGS_INVALID", "top_k {top_k}");
    }
}

#[test]
fn a_colliding_refresh_keeps_the_previous_catalog() {
    let mut session = session(&json!([{"name": "a.b", "description": "d"}]));
    let colliding = json!([
        {"name": "ok.x", "description": "d", "_meta": {"version": "1"}},
        {"name": "ok/x", "description": "d", "_meta": {"version": "1"}},
    ]);
    let error = session
        .register_mcp_tools(&definitions(&colliding), None, OnInvalid::Skip)
        .unwrap_err();
    assert_eq!(error.code(), "CATALOG_DUPLICATE_ID");
    assert_eq!(error.message(), "Duplicate item id: 'ok:x@1'");
    let reply = dispatch(&mut session, "tool_browse", json!({"path": "/"}));
    let ids: Vec<&str> = reply["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a:b#a25c3fd6"]);
}

#[test]
fn tool_view_returns_the_untruncated_schema_and_description_is_kept_whole_in_items() {
    // proxy/strip_tools_list_not_truncated: agentwire has no tools/list stripping; items keep
    // the full description and only cards are budgeted (the reference's behaviour).
    let description = "word ".repeat(200);
    let tool =
        json!({"name": "svc.big", "description": description, "inputSchema": {"type": "object"}});
    let result = tool_id(tool.clone()).unwrap();
    assert_eq!(result["item"]["description"], J::from(description.clone()));
    let mut session = session(&json!([tool]));
    let view = dispatch(
        &mut session,
        "tool_view",
        json!({"tool_id": result["tool_id"]}),
    );
    assert_eq!(view["result"]["args_schema"], json!({"type": "object"}));
}
