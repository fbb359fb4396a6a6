//! Gateway contracts over JSON text. Functions that measure cards take the token counter as
//! an argument: the Node addon passes exact cl100k, the wasm module a JavaScript function.

use Vec;

use super::{options_value, to_json};
use crate::shapes::gateway::{card_report, derivation_value, tool_id_report, truncation_report};
use agentwire::gateway::card::{
    bound_browse_response, count_tokens, enforce_card_budget, make_choice_cards, render_cards_text,
    response_cap_tokens, truncate_description, CardBudget, ChoiceCard,
};
use agentwire::gateway::item::{mcp_tool_to_item, Item};
use agentwire::gateway::path::parse_path_value;
use agentwire::gateway::reply::GatewayError;
use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid, Reply, Router, Services};
use agentwire::gateway::schema::ArgsValidator;
use agentwire::gateway::tool_id::{self, parts_from_value, parts_to_value};
use agentwire::json::{self, Map, Number, Value};
use agentwire::tokens::TokenCounter;
use agentwire::{Error, ErrorKind, Result};

fn uint(v: usize) -> Value {
    Value::Number(Number::from_u64(v as u64))
}

fn option_str<'a>(options: &'a Value, key: &str) -> Result<Option<&'a str>> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("options.{key} must be a string, got {}", other.type_name()),
        )),
    }
}

fn option_uint(options: &Value, key: &str, default: usize) -> Result<usize> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Number(n)) => n.as_u64().map(|v| v as usize).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidArgument,
                format!("options.{key} must be a non-negative integer"),
            )
        }),
        Some(other) => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "options.{key} must be a non-negative integer, got {}",
                other.type_name()
            ),
        )),
    }
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
/// Options: `{"serverName"}`.
pub fn gateway_tool_id_derivation(tool_json: &str, options_json: &str) -> Result<String> {
    to_json(&tool_id_derivation(
        &json::parse(tool_json)?,
        &options_value(options_json)?,
    )?)
}

/// [`gateway_tool_id_derivation`] over values.
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
    Ok(Value::Object(derivation_value(&derivation)))
}

/// `tool_id_for(tool_def)`: the derivation, the id parts, `tool_id` and the catalog `item`.
/// Options: `{"serverName"}`.
pub fn gateway_tool_id(tool_json: &str, options_json: &str) -> Result<String> {
    to_json(&tool_id(
        &json::parse(tool_json)?,
        &options_value(options_json)?,
    )?)
}

/// [`gateway_tool_id`] over values.
pub fn tool_id(tool: &Value, options: &Value) -> Result<Value> {
    let converted = mcp_tool_to_item(tool, option_str(options, "serverName")?)?;
    Ok(tool_id_report(&converted))
}

/// `parse_tool_id`: a JSON value (non-strings are `TOOL_ID_NOT_A_STRING`) to
/// `{namespace, name, version, hash8}`.
pub fn gateway_parse_tool_id(value_json: &str) -> Result<String> {
    to_json(&parse_tool_id(&json::parse(value_json)?)?)
}

/// [`gateway_parse_tool_id`] over values.
pub fn parse_tool_id(value: &Value) -> Result<Value> {
    Ok(parts_to_value(&tool_id::parse_tool_id_value(value)?))
}

/// `format_tool_id` of `{namespace, name, version?, hash8?}`, as a JSON string.
pub fn gateway_format_tool_id(parts_json: &str) -> Result<String> {
    to_json(&Value::String(format_tool_id(&json::parse(parts_json)?)?))
}

/// [`gateway_format_tool_id`] over values: the id.
pub fn format_tool_id(parts: &Value) -> Result<String> {
    tool_id::format_tool_id(&parts_from_value(parts)?)
}

/// One item's ChoiceCard with its budget applied and every rendering. Options: `{"score",
/// "targetTokens", "hardCapTokens"}`. A card over the hard cap is `CARD_HARD_CAP`.
pub fn gateway_card(
    item_json: &str,
    options_json: &str,
    counter: &dyn TokenCounter,
) -> Result<String> {
    to_json(&card(
        &json::parse(item_json)?,
        &options_value(options_json)?,
        counter,
    )?)
}

/// [`gateway_card`] over values.
pub fn card(item: &Value, options: &Value, counter: &dyn TokenCounter) -> Result<Value> {
    let item = Item::from_value(item)?;
    let score = match options.get("score") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(n.as_f64()),
        Some(other) => {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("options.score must be a number, got {}", other.type_name()),
            ))
        }
    };
    let mut card = ChoiceCard::from_item(&item, score);
    let report =
        enforce_card_budget(&mut card, counter, budget_options(options)?).map_err(|(e, _)| e)?;
    Ok(card_report(&card, &report, counter))
}

/// `truncate_description_to_tokens(text, budget)` with the offsets it considered:
/// `{output, branch, input_tokens, output_tokens, boundary_ends?, chosen_boundary_end?,
/// hard_cut_chars?}` (offsets in code points).
pub fn gateway_truncate(text: &str, budget: i64, counter: &dyn TokenCounter) -> Result<String> {
    to_json(&truncate(text, budget, counter))
}

/// [`gateway_truncate`] as a value.
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

fn cards_report(cards: &[ChoiceCard], budget: CardBudget, counter: &dyn TokenCounter) -> Map {
    let rendered = render_cards_text(cards);
    let mut map = Map::new();
    map.insert(
        "ids".into(),
        Value::Array(cards.iter().map(|c| c.id.as_str().into()).collect()),
    );
    map.insert(
        "cards".into(),
        Value::Array(cards.iter().map(ChoiceCard::to_value).collect()),
    );
    map.insert(
        "rendered_tokens".into(),
        uint(count_tokens(counter, &rendered)),
    );
    map.insert("rendered".into(), rendered.into());
    map.insert(
        "per_card_budget_line_tokens".into(),
        Value::Array(
            cards
                .iter()
                .map(|c| uint(count_tokens(counter, &c.budget_line(1, 1))))
                .collect(),
        ),
    );
    map.insert(
        "response_cap_tokens".into(),
        uint(response_cap_tokens(cards.len(), budget)),
    );
    map.insert(
        "wire_json".into(),
        agentwire::gateway::card::cards_wire_json(cards).into(),
    );
    map
}

/// A `tool_browse` reply from items: `query` mode (`make_choice_cards` with `scores` and
/// `maxCards`) or `path` mode (every item unscored), then the response bound. Options:
/// `{"mode", "scores": {id: score}, "maxCards", "targetTokens", "hardCapTokens"}`. Returns
/// `{ids, cards, rendered, rendered_tokens, per_card_budget_line_tokens, response_cap_tokens,
/// wire_json}`.
pub fn gateway_browse_cards(
    items_json: &str,
    options_json: &str,
    counter: &dyn TokenCounter,
) -> Result<String> {
    let items = json::parse(items_json)?;
    to_json(&browse_cards(
        &items,
        &options_value(options_json)?,
        counter,
    )?)
}

/// [`gateway_browse_cards`] over values.
pub fn browse_cards(items: &Value, options: &Value, counter: &dyn TokenCounter) -> Result<Value> {
    let items = super::read_array(items, "items", Item::from_value)?;
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
                    ))
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
            ))
        }
    };
    let cards = bound_browse_response(cards, counter, budget)?;
    Ok(Value::Object(cards_report(&cards, budget, counter)))
}

/// `parse_path`: a JSON value to its segments (`[]` for the root).
pub fn gateway_parse_path(value_json: &str) -> Result<String> {
    to_json(&parse_path(&json::parse(value_json)?)?)
}

/// [`gateway_parse_path`] over values.
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
/// side, then the ranking crosses the boundary as JSON).
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

/// A gateway session over JSON text: the catalog, the cache-stable state, meta-tool dispatch.
#[derive(Debug)]
pub struct GatewaySession {
    gateway: Gateway,
}

impl GatewaySession {
    /// Options: `{"topK": 5, "cacheStable": false, "targetTokens": 60, "hardCapTokens": 80}`.
    pub fn new(options_json: &str) -> Result<GatewaySession> {
        GatewaySession::with_options(&options_value(options_json)?)
    }

    /// A session with an options value.
    pub fn with_options(options: &Value) -> Result<GatewaySession> {
        let cache_stable = match options.get("cacheStable") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    "options.cacheStable must be a boolean",
                ))
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
    /// `{"onInvalid": "skip" | "raise", "serverName"}`. Returns `{registered, tool_ids,
    /// skipped: [{index, name, code, message}]}`; duplicate ids fail and keep the old catalog.
    pub fn register(&mut self, tool_defs_json: &str, options_json: &str) -> Result<String> {
        let defs = json::parse(tool_defs_json)?;
        to_json(&self.register_value(defs, &options_value(options_json)?)?)
    }

    /// [`GatewaySession::register`] over values.
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
                ))
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
    pub fn browse_ranked(
        &mut self,
        ranked_json: &str,
        options_json: &str,
        counter: &dyn TokenCounter,
    ) -> Result<String> {
        let ranked = json::parse(ranked_json)?;
        to_json(&self.browse_ranked_value(&ranked, &options_value(options_json)?, counter)?)
    }

    /// [`GatewaySession::browse_ranked`] over values.
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

    /// One meta-tool call (`tool_browse`, `tool_execute`, `tool_view`) with JSON arguments:
    /// `{isError: false, kind, result, text}` or `{isError: true, body, text}`. `ranked_json`
    /// is the host router's answer for a query browse (`[{id, score}]`), `""` when there is no
    /// router.
    pub fn dispatch(
        &mut self,
        meta_tool: &str,
        arguments_json: &str,
        ranked_json: &str,
        counter: &dyn TokenCounter,
        validator: &dyn ArgsValidator,
    ) -> Result<String> {
        let arguments = options_value(arguments_json)?;
        let ranked = match ranked_json.trim() {
            "" => Value::Null,
            text => json::parse(text)?,
        };
        to_json(&self.dispatch_value(meta_tool, &arguments, &ranked, counter, validator)?)
    }

    /// [`GatewaySession::dispatch`] over values; `ranked` is null when there is no router.
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

    /// Ids the cache-stable session has seen, sorted, as a JSON array.
    pub fn seen(&self) -> Result<String> {
        to_json(&self.seen_value())
    }

    /// [`GatewaySession::seen`] as a value.
    pub fn seen_value(&self) -> Value {
        Value::Array(self.gateway.seen().map(Value::from).collect())
    }

    /// Forgets the cache-stable state, keeping the catalog.
    pub fn reset(&mut self) {
        self.gateway.reset_session();
    }
}
