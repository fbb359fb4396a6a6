//! Gateway contracts (`contextweaver-gateway-golden/1`): every golden file present in the
//! directory, through the JSON-text API the bindings wrap. `python_quirks.json` is not golden
//! and never counted.

use std::path::Path;

use agentwire::gateway::schema::JsonSchemaValidator;
use agentwire::tokens::{Encoding, Tiktoken, TokenCounter};
use agentwire::Error;
use agentwire_bindings::api::{self, GatewaySession};
use serde_json::{json, Value as J};

use crate::compare::{expect_json, Members};
use crate::support::{read_json, same, same_text};
use crate::Report;

type Check = fn(&Ctx, &J) -> Result<(), String>;

struct Ctx {
    counter: Tiktoken,
    validator: JsonSchemaValidator,
    /// tool_id.json, which defines the real catalogs path_browse.json browses.
    tool_ids: Option<J>,
}

pub fn run(dir: &Path) -> Result<Report, String> {
    let tool_ids_path = dir.join("tool_id.json");
    let ctx = Ctx {
        counter: Tiktoken(Encoding::Cl100kBase),
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
        if let Some(count) = fixture.get("count").and_then(J::as_u64) {
            if count != cases.len() as u64 {
                return Err(format!(
                    "{file}: declares count {count} but holds {} cases",
                    cases.len()
                ));
            }
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

fn parse(text: &str) -> Result<J, String> {
    serde_json::from_str(text).map_err(|e| format!("API returned invalid JSON ({e}): {text}"))
}

fn expected(case: &J) -> Result<&J, String> {
    case.get("expected").ok_or_else(|| "no expected".into())
}

fn is_ok(expected: &J) -> bool {
    expected.get("ok").and_then(J::as_bool).unwrap_or(true)
}

/// An error where the vector expects one: same `error_kind`, same message.
fn check_error(expected: &J, got: Result<String, Error>) -> Result<(), String> {
    match got {
        Ok(text) => Err(format!(
            "expected {} error, got {text}",
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

fn text(j: &J) -> String {
    j.to_string()
}

fn tool_id(_: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let want = expected(case)?;
    let options = json!({ "serverName": input.get("server_name") }).to_string();
    let got = api::gateway_tool_id(&text(&input["tool"]), &options);
    if is_ok(want) {
        let got = parse(&got.map_err(|e| e.to_string())?)?;
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
            let got = parse(
                &api::gateway_tool_id_derivation(&text(&input["tool"]), &options)
                    .map_err(|e| e.to_string())?,
            )?;
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
    let input = text(&case["input"]);
    match case["op"].as_str() {
        Some("parse") => {
            let got = api::gateway_parse_tool_id(&input);
            if !is_ok(want) {
                return check_error(want, got);
            }
            let parts = parse(&got.map_err(|e| e.to_string())?)?;
            same("parts", &want["parts"], &parts)?;
            let formatted = parse(
                &api::gateway_format_tool_id(&parts.to_string()).map_err(|e| e.to_string())?,
            )?;
            same("formatted", &want["formatted"], &formatted)
        }
        Some("format") => {
            let got = api::gateway_format_tool_id(&input);
            if !is_ok(want) {
                return check_error(want, got);
            }
            same(
                "tool_id",
                &want["tool_id"],
                &parse(&got.map_err(|e| e.to_string())?)?,
            )
        }
        other => Err(format!("unknown op {other:?}")),
    }
}

fn card(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let want = expected(case)?;
    let options = json!({
        "score": input["score"],
        "targetTokens": input["target_tokens"],
        "hardCapTokens": input["hard_cap_tokens"],
    });
    let got = api::gateway_card(&text(&input["item"]), &options.to_string(), &ctx.counter);
    if !is_ok(want) {
        return check_error(want, got);
    }
    same_keys(want, &parse(&got.map_err(|e| e.to_string())?)?, &[])
}

fn truncation(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let budget = input["budget"].as_i64().ok_or("budget is not an integer")?;
    let got = api::gateway_truncate(
        input["text"].as_str().ok_or("text is not a string")?,
        budget,
        &ctx.counter,
    );
    let got = parse(&got.map_err(|e| e.to_string())?)?;
    same_keys(expected(case)?, &got, &["linear_scan_would_give_chars"])
}

fn browse_render(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let options =
        json!({ "mode": input["mode"], "scores": input["scores"], "maxCards": input["max_cards"] });
    let got = api::gateway_browse_cards(&text(&input["items"]), &options.to_string(), &ctx.counter);
    same_keys(
        expected(case)?,
        &parse(&got.map_err(|e| e.to_string())?)?,
        &[],
    )
}

fn paths(_: &Ctx, case: &J) -> Result<(), String> {
    let want = expected(case)?;
    let got = api::gateway_parse_path(&text(&case["input"]));
    if !is_ok(want) {
        return check_error(want, got);
    }
    same(
        "segments",
        &want["segments"],
        &parse(&got.map_err(|e| e.to_string())?)?,
    )
}

fn session(options: J, defs: &J) -> Result<GatewaySession, String> {
    let mut session = GatewaySession::new(&options.to_string()).map_err(|e| e.to_string())?;
    session
        .register(&defs.to_string(), "")
        .map_err(|e| e.to_string())?;
    Ok(session)
}

fn dispatch(
    ctx: &Ctx,
    session: &mut GatewaySession,
    tool: &str,
    arguments: &J,
) -> Result<J, String> {
    let reply = session
        .dispatch(
            tool,
            &arguments.to_string(),
            "",
            &ctx.counter,
            &ctx.validator,
        )
        .map_err(|e| e.to_string())?;
    parse(&reply)
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
    let mut session = session(json!({}), &defs)?;
    let reply = dispatch(
        ctx,
        &mut session,
        "tool_browse",
        &json!({ "path": input["path"] }),
    )?;
    let want = expected(case)?;
    if !is_ok(want) {
        same("isError", &J::Bool(true), &reply["isError"])?;
        return same_keys(want, &reply["body"], &[]);
    }
    let cards = reply["result"]
        .as_array()
        .ok_or_else(|| format!("no cards: {reply}"))?;
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
    let mut session = session(
        json!({ "topK": input["top_k"], "cacheStable": true }),
        &input["catalog"],
    )?;
    let steps = input["steps"].as_array().ok_or("no steps")?;
    let wanted = want["steps"].as_array().ok_or("no expected steps")?;
    for (n, (step, want_step)) in steps.iter().zip(wanted).enumerate() {
        let at = |e: String| format!("step {n}: {e}");
        match step["op"].as_str() {
            Some("browse") => {
                let reply = parse(
                    &session
                        .browse_ranked(&step["cards"].to_string(), "", &ctx.counter)
                        .map_err(|e| at(e.to_string()))?,
                )?;
                expect_json(
                    "emitted",
                    &want_step["emitted"],
                    &emitted(&reply["result"]),
                    Members::AnyOrder,
                )
                .map_err(at)?;
            }
            Some("hydrate") => {
                let reply = dispatch(
                    ctx,
                    &mut session,
                    "tool_view",
                    &json!({ "tool_id": step["tool_id"] }),
                )?;
                check_step(want_step, &reply).map_err(at)?;
            }
            Some("execute") => {
                let reply = dispatch(
                    ctx,
                    &mut session,
                    "tool_execute",
                    &json!({ "tool_id": step["tool_id"], "args": step["args"] }),
                )?;
                check_step(want_step, &reply).map_err(at)?;
            }
            Some("refresh") => {
                session
                    .register(&input["catalog"].to_string(), "")
                    .map_err(|e| at(e.to_string()))?;
            }
            other => return Err(at(format!("unknown op {other:?}"))),
        }
        let seen = parse(&session.seen().map_err(|e| e.to_string())?)?;
        same("seen_after", &want_step["seen_after"], &seen).map_err(at)?;
    }
    Ok(())
}

fn check_step(want: &J, reply: &J) -> Result<(), String> {
    let ok = want["ok"].as_bool().unwrap_or(false);
    same(
        "ok",
        &J::Bool(ok),
        &J::Bool(reply["isError"] == J::Bool(false)),
    )?;
    if let Some(error) = want.get("error") {
        same("error", error, &reply["body"]["error"])?;
    }
    Ok(())
}

fn args(ctx: &Ctx, case: &J) -> Result<(), String> {
    let input = &case["input"];
    let want = expected(case)?;
    let mut session = session(json!({}), &input["catalog"])?;
    let reply = dispatch(
        ctx,
        &mut session,
        input["meta_tool"].as_str().unwrap_or_default(),
        &input["arguments"],
    )?;
    same("isError", &want["isError"], &reply["isError"])?;
    if let Some(kind) = want.get("ok_kind") {
        return same("ok_kind", kind, &reply["kind"]);
    }
    let body = &want["body"];
    let got = &reply["body"];
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
    let mut session = GatewaySession::new("").map_err(|e| e.to_string())?;
    let options = json!({ "onInvalid": input["on_invalid"] }).to_string();
    let got = session.register(&input["tool_defs"].to_string(), &options);
    if !is_ok(want) {
        return check_error(want, got);
    }
    let got = parse(&got.map_err(|e| e.to_string())?)?;
    same("registered", &want["registered"], &got["registered"])?;
    same(
        "tool_ids_sorted",
        &want["tool_ids_sorted"],
        &got["tool_ids"],
    )?;
    if let Some(skipped) = want.get("skipped") {
        let got_skipped: Vec<J> = got["skipped"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| json!({ "index": s["index"], "name": s["name"], "error_kind": error_kind_tag(s["code"].as_str().unwrap_or("")) }))
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
        &J::from(ctx.counter.token_ids(text)),
    )
}
