//! The gateway's JS shapes: the options and results of the `gateway` functions over the core
//! (`agentwire::gateway`, whose reports and contextweaver JSON they return), and the state of
//! `gateway.BrowseSession`. Functions that measure cards take the token counter as an
//! argument: the caller's, or exact cl100k where the build has it.

use agentwire::gateway::card::{
    CardBudget, ChoiceCard, bound_browse_response, enforce_card_budget, make_choice_cards,
    truncate_description,
};
use agentwire::gateway::item::{Item, mcp_tool_to_item};
use agentwire::gateway::path::parse_path_value;
use agentwire::gateway::reply::GatewayError;
use agentwire::gateway::report::{browse_report, card_report, tool_id_report, truncation_report};
use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid, Reply, Router, Services};
use agentwire::gateway::schema::ArgsValidator;
use agentwire::gateway::tool_id::{self, parts_from_value, parts_to_value};
use agentwire::json::{Map, Number, Value};
use agentwire::tokens::TokenCounter;
use agentwire::{Error, ErrorKind, Result};

use super::{option_str, option_uint, read_array};

fn uint(v: usize) -> Value {
    Value::Number(Number::from_u64(v as u64))
}

fn budget_options(options: &Value) -> Result<CardBudget> {
    let defaults = CardBudget::default();
    Ok(CardBudget {
        target: option_uint(options, "targetTokens", defaults.target)?,
        hard_cap: option_uint(options, "hardCapTokens", defaults.hard_cap)?,
    })
}

/// How an MCP tool definition's id is derived (`{upstream_name, inferred_namespace,
/// derived_name, canonical_shape, hash_input, computed_hash8}`), before any grammar check.
/// Options: `{serverName}`.
pub fn tool_id_derivation(tool: &Value, options: &Value) -> Result<Value> {
    let map = tool.as_object().ok_or_else(|| {
        Error::new(
            ErrorKind::McpInvalidTool,
            format!(
                "MCP tool definition must be an object, got {}",
                tool.type_name()
            ),
        )
    })?;
    let derivation = tool_id::derive(map, option_str(options, "serverName")?)?;
    Ok(derivation.to_value())
}

/// `tool_id_for(tool_def)`: the derivation, the id parts, `tool_id` and the catalog `item`.
/// Options: `{serverName}`.
pub fn tool_id(tool: &Value, options: &Value) -> Result<Value> {
    let converted = mcp_tool_to_item(tool, option_str(options, "serverName")?)?;
    Ok(tool_id_report(&converted))
}

/// `parse_tool_id`: a value (non-strings are `TOOL_ID_NOT_A_STRING`) to `{namespace, name,
/// version, hash8}`.
pub fn parse_tool_id(value: &Value) -> Result<Value> {
    Ok(parts_to_value(&tool_id::parse_tool_id_value(value)?))
}

/// `format_tool_id` of `{namespace, name, version?, hash8?}`: the id.
pub fn format_tool_id(parts: &Value) -> Result<String> {
    tool_id::format_tool_id(&parts_from_value(parts)?)
}

/// One item's ChoiceCard with its budget applied and every rendering. Options: `{score,
/// targetTokens, hardCapTokens}`. A card over the hard cap is `CARD_HARD_CAP`.
pub fn card(item: &Value, options: &Value, counter: &dyn TokenCounter) -> Result<Value> {
    let item = Item::from_value(item)?;
    let score = match options.get("score") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(n.as_f64()),
        Some(other) => {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("options.score must be a number, got {}", other.type_name()),
            ));
        }
    };
    let mut card = ChoiceCard::from_item(&item, score);
    let report =
        enforce_card_budget(&mut card, counter, budget_options(options)?).map_err(|(e, _)| e)?;
    Ok(card_report(&card, &report, counter))
}

/// `truncate_description_to_tokens(text, budget)` with the offsets it considered (see
/// `agentwire::gateway::report::truncation_report`).
pub fn truncate(text: &str, budget: i64, counter: &dyn TokenCounter) -> Value {
    let truncation = truncate_description(text, budget, counter);
    truncation_report(text, &truncation, counter)
}

fn scores_from(value: Option<&Value>) -> Result<Vec<(String, Option<f64>)>> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(id, v)| match v {
                Value::Number(n) => Ok((String::from(id), Some(n.as_f64()))),
                Value::Null => Ok((String::from(id), None)),
                other => Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!("scores[{id:?}] must be a number, got {}", other.type_name()),
                )),
            })
            .collect(),
        Some(Value::Array(entries)) => entries
            .iter()
            .map(|entry| match (entry.get("id"), entry.get("score")) {
                (Some(Value::String(id)), Some(Value::Number(n))) => {
                    Ok((id.clone(), Some(n.as_f64())))
                }
                (Some(Value::String(id)), None | Some(Value::Null)) => Ok((id.clone(), None)),
                _ => Err(Error::new(
                    ErrorKind::InvalidArgument,
                    "each ranked entry must be {\"id\": string, \"score\": number or null}",
                )),
            })
            .collect(),
        Some(other) => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "scores must be an object or an array, got {}",
                other.type_name()
            ),
        )),
    }
}

/// A `tool_browse` reply from items: `query` mode (`make_choice_cards` with `scores` and
/// `maxCards`) or `path` mode (every item unscored), then the response bound. Options:
/// `{mode, scores: {id: score}, maxCards, targetTokens, hardCapTokens}`. Returns `{ids,
/// cards, rendered, rendered_tokens, per_card_budget_line_tokens, response_cap_tokens,
/// wire_json}`.
pub fn browse_cards(items: &Value, options: &Value, counter: &dyn TokenCounter) -> Result<Value> {
    let items = read_array(items, "items", Item::from_value)?;
    let budget = budget_options(options)?;
    let cards = match option_str(options, "mode")?.unwrap_or("query") {
        "query" => {
            let scores = scores_from(options.get("scores"))?;
            let max_cards = match options.get("maxCards") {
                None | Some(Value::Null) => items.len() as i64,
                Some(Value::Number(n)) => n.as_i64().ok_or_else(|| {
                    Error::new(
                        ErrorKind::InvalidArgument,
                        "options.maxCards must be an integer",
                    )
                })?,
                Some(_) => {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        "options.maxCards must be an integer",
                    ));
                }
            };
            let refs: Vec<&Item> = items.iter().collect();
            make_choice_cards(&refs, max_cards, &scores, counter, budget)?
        }
        "path" => items
            .iter()
            .map(|item| ChoiceCard::from_item(item, None))
            .collect(),
        other => {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("options.mode must be \"query\" or \"path\" (got {other:?})"),
            ));
        }
    };
    let cards = bound_browse_response(cards, counter, budget)?;
    Ok(browse_report(&cards, budget, counter))
}

/// `parse_path`: a value to its segments (`[]` for the root).
pub fn parse_path(value: &Value) -> Result<Value> {
    let segments = parse_path_value(value)?;
    Ok(Value::Array(
        segments.into_iter().map(Value::from).collect(),
    ))
}

fn reply_value(outcome: core::result::Result<Reply, GatewayError>) -> Value {
    let mut map = Map::new();
    match outcome {
        Ok(reply) => {
            map.insert("isError".into(), Value::Bool(false));
            map.insert("kind".into(), reply.kind().into());
            map.insert("result".into(), reply.to_value());
            map.insert("text".into(), reply.wire_json().into());
        }
        Err(error) => {
            map.insert("isError".into(), Value::Bool(true));
            map.insert("body".into(), error.to_value());
            map.insert("text".into(), error.wire_json().into());
        }
    }
    Value::Object(map)
}

/// A router whose answer the host computed before the call (JavaScript routers run on the JS
/// side, then the ranking crosses the boundary).
struct RankedRouter(Vec<(String, Option<f64>)>);

impl Router for RankedRouter {
    fn route(
        &self,
        _query: &str,
        top_k: usize,
    ) -> core::result::Result<Vec<(String, f64)>, String> {
        Ok(self
            .0
            .iter()
            .take(top_k)
            .map(|(id, score)| (id.clone(), score.unwrap_or(0.0)))
            .collect())
    }
}

/// The state of a `gateway.BrowseSession`: the catalog, the cache-stable state, meta-tool
/// dispatch.
#[derive(Debug)]
pub struct GatewaySession {
    gateway: Gateway,
}

impl GatewaySession {
    /// A session. Options: `{topK: 5, cacheStable: false, targetTokens: 60, hardCapTokens:
    /// 80}`.
    pub fn with_options(options: &Value) -> Result<GatewaySession> {
        let cache_stable = match options.get("cacheStable") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    "options.cacheStable must be a boolean",
                ));
            }
        };
        let top_k = option_uint(options, "topK", 5)?;
        Ok(GatewaySession {
            gateway: Gateway::new(GatewayOptions {
                top_k,
                cache_stable,
                budget: budget_options(options)?,
            }),
        })
    }

    /// Registers MCP tool definitions (a refresh clears the session state). Options:
    /// `{onInvalid: "skip" | "raise", serverName}`. Returns `{registered, tool_ids, skipped:
    /// [{index, name, code, message}]}`; duplicate ids fail and keep the old catalog.
    pub fn register_value(&mut self, tool_defs: Value, options: &Value) -> Result<Value> {
        let on_invalid = match option_str(options, "onInvalid")? {
            None => OnInvalid::Skip,
            Some(text) => OnInvalid::parse(text)?,
        };
        let defs = match tool_defs {
            Value::Array(defs) => defs,
            other => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!(
                        "tool definitions must be an array, got {}",
                        other.type_name()
                    ),
                ));
            }
        };
        let report = self.gateway.register_mcp_tools(
            &defs,
            option_str(options, "serverName")?,
            on_invalid,
        )?;
        let mut map = Map::new();
        map.insert("registered".into(), uint(report.registered));
        map.insert(
            "tool_ids".into(),
            Value::Array(self.gateway.catalog().ids().map(Value::from).collect()),
        );
        let skipped = report
            .skipped
            .iter()
            .map(|s| {
                let mut entry = Map::new();
                entry.insert("index".into(), uint(s.index));
                entry.insert("name".into(), s.name.as_str().into());
                entry.insert("code".into(), s.error.code().into());
                entry.insert("message".into(), s.error.message().into());
                Value::Object(entry)
            })
            .collect();
        map.insert("skipped".into(), Value::Array(skipped));
        Ok(Value::Object(map))
    }

    /// Cards of a router's ranking (`[{id, score}]` or `{id: score}`), first `maxCards`
    /// (default all), bounded and cache-stable when enabled: `{isError, kind, result, text}`.
    pub fn browse_ranked_value(
        &mut self,
        ranked: &Value,
        options: &Value,
        counter: &dyn TokenCounter,
    ) -> Result<Value> {
        let ranked = scores_from(Some(ranked))?;
        let max_cards = option_uint(options, "maxCards", ranked.len())? as i64;
        Ok(reply_value(
            self.gateway
                .browse_scored(&ranked, max_cards, counter)
                .map(Reply::Cards),
        ))
    }

    /// One meta-tool call (`tool_browse`, `tool_execute`, `tool_view`): `{isError: false,
    /// kind, result, text}` or `{isError: true, body, text}`. `ranked` is the host router's
    /// answer for a query browse (`[{id, score}]`), null when there is no router.
    pub fn dispatch_value(
        &mut self,
        meta_tool: &str,
        arguments: &Value,
        ranked: &Value,
        counter: &dyn TokenCounter,
        validator: &dyn ArgsValidator,
    ) -> Result<Value> {
        let router = match ranked {
            Value::Null => None,
            ranked => Some(RankedRouter(scores_from(Some(ranked))?)),
        };
        let services = Services {
            counter,
            validator,
            router: router.as_ref().map(|r| r as &dyn Router),
        };
        Ok(reply_value(
            self.gateway.dispatch(meta_tool, arguments, &services),
        ))
    }

    /// Ids the cache-stable session has seen, sorted.
    pub fn seen_value(&self) -> Value {
        Value::Array(self.gateway.seen().map(Value::from).collect())
    }

    /// Forgets the cache-stable state, keeping the catalog.
    pub fn reset(&mut self) {
        self.gateway.reset_session();
    }
}
