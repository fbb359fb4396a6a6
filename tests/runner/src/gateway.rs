//! Gateway contracts (`contextweaver-gateway-golden/1`): every golden file present in the
//! directory, through the core's typed API (`agentwire::gateway`). `python_quirks.json` is not
//! golden and never counted.

use std::path::Path;

use agentwire::Error;
use agentwire::gateway::card::{
    CardBudget, ChoiceCard, bound_browse_response, enforce_card_budget, make_choice_cards,
    truncate_description,
};
use agentwire::gateway::item::{Item, mcp_tool_to_item};
use agentwire::gateway::path::parse_path_value;
use agentwire::gateway::report::{browse_report, card_report, tool_id_report, truncation_report};
use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid, Reply, Services};
use agentwire::gateway::schema::JsonSchemaValidator;
use agentwire::gateway::tool_id::{self, format_tool_id, parse_tool_id_value, parts_to_value};
use agentwire::json::Value;
use agentwire::tokens::{TokenCounter, Tokenizer};
use serde_json::{Value as J, json};

use crate::Report;
use crate::compare::{Members, expect_json};
use crate::support::{from_value, read_json, same, same_text, to_value};

type Check = fn(&Ctx, &J) -> Result<(), String>;

struct Ctx {
    counter: Tokenizer,
    validator: JsonSchemaValidator,
    /// tool_id.json, which defines the real catalogs path_browse.json browses.
    tool_ids: Option<J>,
}

pub fn run(dir: &Path) -> Result<Report, String> {
    let tool_ids_path = dir.join("tool_id.json");
    let ctx = Ctx {
        counter: Tokenizer::cl100k_base(),
        validator: JsonSchemaValidator::default(),
        tool_ids: if tool_ids_path.exists() {
            Some(read_json(&tool_ids_path)?)
        } else {
            None
        },
    };
    let checks: &[(&str, Check)] = &[
        ("tool_id.json", tool_id),
        ("tool_id_parse.json", tool_id_parse),
        ("cards.json", card),
        ("truncation.json", truncation),
        ("browse_render.json", browse_render),
        ("paths.json", paths),
        ("path_browse.json", path_browse),
        ("cache_stable.json", cache_stable),
        ("args.json", args),
        ("catalog_ingest.json", catalog_ingest),
        ("token_counts.json", token_counts),
    ];
    let mut report = Report::default();
    let mut files = 0;
    for (file, check) in checks {
        let path = dir.join(file);
        if !path.exists() {
            continue;
        }
        files += 1;
        let fixture = read_json(&path)?;
        let cases = fixture
            .get("cases")
            .and_then(J::as_array)
            .ok_or_else(|| format!("{file}: no \"cases\" array"))?;
        if let Some(count) = fixture.get("count").and_then(J::as_u64)
            && count != cases.len() as u64
        {
            return Err(format!(
                "{file}: declares count {count} but holds {} cases",
                cases.len()
            ));
        }
        for case in cases {
            let id = case.get("id").and_then(J::as_str).unwrap_or("?");
            report.record(format!("gateway/{file}::{id}"), check(&ctx, case));
        }
    }
    if dir.join("python_quirks.json").exists() {
        report
            .notes
            .push("python_quirks.json: not golden (documented deviations), not counted".into());
    }
    if files == 0 {
        return Err(format!("{}: no gateway vector file", dir.display()));
    }
    Ok(report)
}

/// The fixtures' `error_kind` tag of an agentwire error code.
pub fn error_kind_tag(code: &str) -> String {
    match code {
        "MCP_INVALID_TOOL" => "other".into(),
        "CARD_HARD_CAP" => "card_hard_cap".into(),
        _ => {
            let tail = ["TOOL_ID_", "PATH_", "MCP_", "CATALOG_"]
                .iter()
                .find_map(|prefix| code.strip_prefix(prefix))
                .unwrap_or(code);
            tail.to_ascii_lowercase()
        }
    }
}

fn expected(case: &J) -> Result<&J, String> {
    case.get("expected").ok_or_else(|| "no expected".into())
}

fn is_ok(expected: &J) -> bool {
    expected.get("ok").and_then(J::as_bool).unwrap_or(true)
}

/// An error where the vector expects one: same `error_kind`, same message.
fn check_error<T: std::fmt::Debug>(expected: &J, got: Result<T, Error>) -> Result<(), String> {
    match got {
        Ok(value) => Err(format!(
            "expected {} error, got {value:?}",
            expected["error_kind"]
        )),
        Err(error) => {
            same_text(
                "error_kind",
                expected["error_kind"].as_str().unwrap_or("?"),
                &error_kind_tag(error.code()),
            )?;
            match expected.get("message").and_then(J::as_str) {
                Some(message) => same_text("message", message, error.message()),
                None => Ok(()),
            }
        }
    }
}

/// Every key of `expected` (but `ok`) equals the same key of `got`.
fn same_keys(expected: &J, got: &J, skip: &[&str]) -> Result<(), String> {
    let map = expected.as_object().ok_or("expected is not an object")?;
    for (key, want) in map {
        if key == "ok" || skip.contains(&key.as_str()) {
            continue;
        }
        expect_json(
            key,
            want,
            got.get(key).unwrap_or(&J::Null),
            Members::AnyOrder,
        )?;
    }
    Ok(())
}

fn tool_id(_: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let want = expected(case)?;
    let tool = to_value(&input["tool"]);
    let server_name = input.get("server_name").and_then(J::as_str);
    let got = mcp_tool_to_item(&tool, server_name);
    if is_ok(want) {
        let got = from_value(&tool_id_report(&got.map_err(|e| e.to_string())?));
        same_keys(want, &got, &["item"])?;
        same_keys(&want["item"], &got["item"], &[])
    } else {
        check_error(want, got)?;
        let derivation = [
            "upstream_name",
            "inferred_namespace",
            "derived_name",
            "canonical_shape",
            "hash_input",
            "computed_hash8",
        ];
        if derivation.iter().any(|k| want.get(k).is_some()) {
            let map = tool.as_object().ok_or("the tool is not an object")?;
            let got = tool_id::derive(map, server_name).map_err(|e| e.to_string())?;
            let got = from_value(&got.to_value());
            for key in derivation {
                if let Some(value) = want.get(key) {
                    same(key, value, &got[key])?;
                }
            }
        }
        Ok(())
    }
}

fn tool_id_parse(_: &Ctx, case: &J) -> Result<(), String> {
    let want = expected(case)?;
    let input = to_value(&case["input"]);
    match case["op"].as_str() {
        Some("parse") => {
            let got = parse_tool_id_value(&input);
            if !is_ok(want) {
                return check_error(want, got);
            }
            let parts = got.map_err(|e| e.to_string())?;
            same(
                "parts",
                &want["parts"],
                &from_value(&parts_to_value(&parts)),
            )?;
            let formatted = format_tool_id(&parts).map_err(|e| e.to_string())?;
            same("formatted", &want["formatted"], &J::from(formatted))
        }
        Some("format") => {
            let got = tool_id::parts_from_value(&input).and_then(|parts| format_tool_id(&parts));
            if !is_ok(want) {
                return check_error(want, got);
            }
            same(
                "tool_id",
                &want["tool_id"],
                &J::from(got.map_err(|e| e.to_string())?),
            )
        }
        other => Err(format!("unknown op {other:?}")),
    }
}

/// The card budget of a case (`target_tokens`, `hard_cap_tokens`; defaults where absent).
fn budget_of(input: &J) -> CardBudget {
    let defaults = CardBudget::default();
    let tokens = |key: &str, default: usize| input[key].as_u64().map_or(default, |v| v as usize);
    CardBudget {
        target: tokens("target_tokens", defaults.target),
        hard_cap: tokens("hard_cap_tokens", defaults.hard_cap),
    }
}

fn card(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let want = expected(case)?;
    let got = Item::from_value(&to_value(&input["item"])).and_then(|item| {
        let mut card = ChoiceCard::from_item(&item, input["score"].as_f64());
        let report =
            enforce_card_budget(&mut card, &ctx.counter, budget_of(input)).map_err(|(e, _)| e)?;
        Ok(card_report(&card, &report, &ctx.counter))
    });
    if !is_ok(want) {
        return check_error(want, got);
    }
    same_keys(want, &from_value(&got.map_err(|e| e.to_string())?), &[])
}

fn truncation(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let budget = input["budget"].as_i64().ok_or("budget is not an integer")?;
    let text = input["text"].as_str().ok_or("text is not a string")?;
    let truncation = truncate_description(text, budget, &ctx.counter);
    let got = from_value(&truncation_report(text, &truncation, &ctx.counter));
    same_keys(expected(case)?, &got, &["linear_scan_would_give_chars"])
}

/// `[(id, score)]` of a case's `scores` object.
fn scores_of(scores: &J) -> Vec<(String, Option<f64>)> {
    let entries = scores.as_object().into_iter().flatten();
    entries
        .map(|(id, score)| (id.clone(), score.as_f64()))
        .collect()
}

fn browse_render(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let fail = |e: Error| e.to_string();
    let items = input["items"].as_array().ok_or("items is not an array")?;
    let items = items
        .iter()
        .map(|item| Item::from_value(&to_value(item)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    let budget = CardBudget::default();
    let cards = match input["mode"].as_str().unwrap_or("query") {
        "query" => {
            let max_cards = input["max_cards"].as_i64().unwrap_or(items.len() as i64);
            let refs: Vec<&Item> = items.iter().collect();
            let scores = scores_of(&input["scores"]);
            make_choice_cards(&refs, max_cards, &scores, &ctx.counter, budget).map_err(fail)?
        }
        "path" => items
            .iter()
            .map(|item| ChoiceCard::from_item(item, None))
            .collect(),
        other => return Err(format!("unknown mode {other:?}")),
    };
    let cards = bound_browse_response(cards, &ctx.counter, budget).map_err(fail)?;
    same_keys(
        expected(case)?,
        &from_value(&browse_report(&cards, budget, &ctx.counter)),
        &[],
    )
}

fn paths(_: &Ctx, case: &J) -> Result<(), String> {
    let want = expected(case)?;
    let input = to_value(&case["input"]);
    let got = parse_path_value(&input);
    if !is_ok(want) {
        return check_error(want, got);
    }
    let segments = got.map_err(|e| e.to_string())?;
    same("segments", &want["segments"], &J::from(segments))
}

/// A gateway over `defs` (MCP tool definitions).
fn session(options: GatewayOptions, defs: &J) -> Result<Gateway, String> {
    let mut gateway = Gateway::new(options);
    let defs = defs.as_array().ok_or("the catalog is not an array")?;
    let defs: Vec<Value> = defs.iter().map(to_value).collect();
    gateway
        .register_mcp_tools(&defs, None, OnInvalid::Skip)
        .map_err(|e| e.to_string())?;
    Ok(gateway)
}

/// One meta-tool call: the reply's kind and value, or the error body.
fn dispatch(
    ctx: &Ctx,
    gateway: &mut Gateway,
    tool: &str,
    arguments: &J,
) -> Result<(&'static str, J), J> {
    let services = Services {
        counter: &ctx.counter,
        validator: &ctx.validator,
        router: None,
    };
    match gateway.dispatch(tool, &to_value(arguments), &services) {
        Ok(reply) => Ok((reply.kind(), from_value(&reply.to_value()))),
        Err(error) => Err(from_value(&error.to_value())),
    }
}

/// The tool definitions of the real catalogs in tool_id.json (`real/<server>/<tool>`).
pub fn real_catalog(tool_ids: &J, name: &str) -> Result<J, String> {
    let (servers, prefixed): (&[&str], bool) = match name {
        "flat13" => (&["time", "filesystem"], false),
        "grouped22" => (&["time", "filesystem", "everything"], true),
        other => return Err(format!("unknown catalog {other:?}")),
    };
    let mut defs = Vec::new();
    for case in tool_ids["cases"]
        .as_array()
        .ok_or("tool_id.json: no cases")?
    {
        let id = case["id"].as_str().unwrap_or_default();
        let Some(server) = id
            .strip_prefix("real/")
            .and_then(|rest| rest.split('/').next())
        else {
            continue;
        };
        if servers.contains(&server) {
            let mut tool = case["input"]["tool"].clone();
            if prefixed {
                let name = format!("{server}.{}", tool["name"].as_str().unwrap_or_default());
                tool["name"] = J::from(name);
            }
            defs.push(tool);
        }
    }
    Ok(J::Array(defs))
}

fn path_browse(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let tool_ids = ctx
        .tool_ids
        .as_ref()
        .ok_or("path_browse.json needs tool_id.json in the same directory")?;
    let defs = real_catalog(tool_ids, input["catalog"].as_str().unwrap_or_default())?;
    let mut gateway = session(GatewayOptions::default(), &defs)?;
    let reply = dispatch(
        ctx,
        &mut gateway,
        "tool_browse",
        &json!({ "path": input["path"] }),
    );
    let want = expected(case)?;
    let result = match reply {
        Err(body) if !is_ok(want) => return same_keys(want, &body, &[]),
        Err(body) => return Err(format!("expected cards, got the error {body}")),
        Ok((_, result)) if is_ok(want) => result,
        Ok((_, result)) => return Err(format!("expected an error, got {result}")),
    };
    let cards = result
        .as_array()
        .ok_or_else(|| format!("no cards: {result}"))?;
    let ids: Vec<J> = cards.iter().map(|c| c["id"].clone()).collect();
    same("ids", &want["ids"], &J::Array(ids))?;
    for (want_card, got_card) in want["cards"].as_array().into_iter().flatten().zip(cards) {
        // Group cards' name and description come from a keyword labeler: informative.
        let informative: &[&str] = if want_card["kind"] == "internal" {
            &["name", "description"]
        } else {
            &[]
        };
        same_keys(want_card, got_card, informative)?;
    }
    Ok(())
}

fn emitted(cards: &J) -> J {
    J::Array(
        cards
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| json!({ "id": c["id"], "score": c.get("score").cloned().unwrap_or(J::Null), "kind": c["kind"] }))
            .collect(),
    )
}

fn cache_stable(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let want = expected(case)?;
    let options = GatewayOptions {
        top_k: input["top_k"].as_u64().map_or(5, |k| k as usize),
        cache_stable: true,
        ..GatewayOptions::default()
    };
    let mut gateway = session(options, &input["catalog"])?;
    let steps = input["steps"].as_array().ok_or("no steps")?;
    let wanted = want["steps"].as_array().ok_or("no expected steps")?;
    for (n, (step, want_step)) in steps.iter().zip(wanted).enumerate() {
        let at = |e: String| format!("step {n}: {e}");
        match step["op"].as_str() {
            Some("browse") => {
                let ranked = ranked_of(&step["cards"]).map_err(at)?;
                let cards = gateway
                    .browse_scored(&ranked, ranked.len() as i64, &ctx.counter)
                    .map_err(|e| at(from_value(&e.to_value()).to_string()))?;
                expect_json(
                    "emitted",
                    &want_step["emitted"],
                    &emitted(&from_value(&Reply::Cards(cards).to_value())),
                    Members::AnyOrder,
                )
                .map_err(at)?;
            }
            Some("hydrate") => {
                let reply = dispatch(
                    ctx,
                    &mut gateway,
                    "tool_view",
                    &json!({ "tool_id": step["tool_id"] }),
                );
                check_step(want_step, &reply).map_err(at)?;
            }
            Some("execute") => {
                let reply = dispatch(
                    ctx,
                    &mut gateway,
                    "tool_execute",
                    &json!({ "tool_id": step["tool_id"], "args": step["args"] }),
                );
                check_step(want_step, &reply).map_err(at)?;
            }
            Some("refresh") => {
                let defs = input["catalog"]
                    .as_array()
                    .ok_or("the catalog is not an array")?;
                let defs: Vec<Value> = defs.iter().map(to_value).collect();
                gateway
                    .register_mcp_tools(&defs, None, OnInvalid::Skip)
                    .map_err(|e| at(e.to_string()))?;
            }
            other => return Err(at(format!("unknown op {other:?}"))),
        }
        let seen: Vec<&str> = gateway.seen().collect();
        same("seen_after", &want_step["seen_after"], &J::from(seen)).map_err(at)?;
    }
    Ok(())
}

/// A browse step's ranking: `[{id, score}]`.
fn ranked_of(cards: &J) -> Result<Vec<(String, Option<f64>)>, String> {
    let cards = cards.as_array().ok_or("cards is not an array")?;
    let entry = |card: &J| {
        let id = card["id"]
            .as_str()
            .ok_or("a ranked card has no string id")?;
        Ok((id.to_string(), card["score"].as_f64()))
    };
    cards.iter().map(entry).collect()
}

fn check_step(want: &J, reply: &Result<(&'static str, J), J>) -> Result<(), String> {
    let ok = want["ok"].as_bool().unwrap_or(false);
    same("ok", &J::Bool(ok), &J::Bool(reply.is_ok()))?;
    if let Some(error) = want.get("error") {
        let body = reply.as_ref().err().unwrap_or(&J::Null);
        same("error", error, &body["error"])?;
    }
    Ok(())
}

fn args(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let want = expected(case)?;
    let mut gateway = session(GatewayOptions::default(), &input["catalog"])?;
    let reply = dispatch(
        ctx,
        &mut gateway,
        input["meta_tool"].as_str().unwrap_or_default(),
        &input["arguments"],
    );
    same("isError", &want["isError"], &J::Bool(reply.is_err()))?;
    let got = match reply {
        Ok((kind, _)) => return same("ok_kind", &want["ok_kind"], &J::from(kind)),
        Err(body) => body,
    };
    let got = &got;
    let body = &want["body"];
    for key in ["error", "path", "retryable"] {
        same(key, &body[key], &got[key])?;
    }
    match body.get("details") {
        // Schema failures: the messages are Python jsonschema's (informative).
        Some(details) => same("details.path", &details["path"], &got["details"]["path"]),
        None => same("message", &body["message"], &got["message"]),
    }
}

fn catalog_ingest(_: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let want = expected(case)?;
    let mut gateway = Gateway::new(GatewayOptions::default());
    let on_invalid = match input["on_invalid"].as_str() {
        None => OnInvalid::Skip,
        Some(text) => OnInvalid::parse(text).map_err(|e| e.to_string())?,
    };
    let defs = input["tool_defs"]
        .as_array()
        .ok_or("tool_defs is not an array")?;
    let defs: Vec<Value> = defs.iter().map(to_value).collect();
    let got = gateway.register_mcp_tools(&defs, None, on_invalid);
    if !is_ok(want) {
        return check_error(want, got);
    }
    let got = got.map_err(|e| e.to_string())?;
    same("registered", &want["registered"], &J::from(got.registered))?;
    let ids: Vec<&str> = gateway.catalog().ids().collect();
    same("tool_ids_sorted", &want["tool_ids_sorted"], &J::from(ids))?;
    if let Some(skipped) = want.get("skipped") {
        let got_skipped: Vec<J> = got
            .skipped
            .iter()
            .map(|s| json!({ "index": s.index, "name": s.name, "error_kind": error_kind_tag(s.error.code()) }))
            .collect();
        same("skipped", skipped, &J::Array(got_skipped))?;
    }
    Ok(())
}

fn token_counts(ctx: &Ctx, case: &J) -> Result<(), String> {
    let text = case["input"].as_str().ok_or("input is not a string")?;
    let want = expected(case)?;
    same(
        "tokens",
        &want["tokens"],
        &J::from(ctx.counter.count_tokens(text)),
    )?;
    same(
        "token_ids",
        &want["token_ids"],
        &J::from(ctx.counter.encode(text)),
    )
}
