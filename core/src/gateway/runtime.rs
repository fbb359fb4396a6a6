//! A gateway over one catalog (`adapters/proxy_runtime.py`, `adapters/mcp_gateway.py`):
//! atomic catalog ingest, path and query browse with the response bound, the cache-stable
//! browse session, hydrate/execute with argument validation, and meta-tool dispatch.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::card::{bound_browse_response, make_choice_cards, CardBudget, ChoiceCard};
use super::item::{mcp_tool_to_item, Item};
use super::path::{build_tree, node_cards, parse_path_value, resolve, Group};
use super::pytext::{repr, write_python_json};
use super::reply::{GatewayCode, GatewayError};
use super::schema::{ArgsValidator, SchemaCheck};
use crate::json::{Map, Value};
use crate::tokens::TokenCounter;
use crate::{Error, ErrorKind, Result};

/// The id of the cache-stable marker card.
pub const CACHE_BREAKPOINT_ID: &str = "__cache_breakpoint__";
/// The meta-tools [`Gateway::dispatch`] knows.
pub const META_TOOLS: [&str; 3] = ["tool_browse", "tool_execute", "tool_view"];
/// Largest `top_k` a query browse accepts (the meta-tool schema's maximum).
pub const MAX_TOP_K: i64 = 50;

/// The marker card between the cache-stable prefix and newly discovered cards.
pub fn cache_breakpoint_card() -> ChoiceCard {
    ChoiceCard::internal(
        CACHE_BREAKPOINT_ID,
        "cache_breakpoint",
        "Cache-stable prefix above; newly-discovered tools below (read ChoiceCard.score for rank).",
        "",
    )
}

/// What ingest does with a tool definition it cannot convert.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnInvalid {
    /// Record it in the report and go on (the reference default).
    #[default]
    Skip,
    /// Fail the whole registration.
    Raise,
}

impl OnInvalid {
    /// `skip` or `raise`.
    pub fn parse(text: &str) -> Result<OnInvalid> {
        match text {
            "skip" => Ok(OnInvalid::Skip),
            "raise" => Ok(OnInvalid::Raise),
            other => Err(Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!("on_invalid must be 'skip' or 'raise' (got {})", repr(other)),
            )),
        }
    }
}

/// A tool definition ingest skipped.
#[derive(Clone, Debug)]
pub struct Skipped {
    /// Position in the input list.
    pub index: usize,
    /// Its name (`""` when not a string).
    pub name: String,
    /// Why.
    pub error: Error,
}

/// The outcome of a registration.
#[derive(Clone, Debug, Default)]
pub struct IngestReport {
    /// Items registered.
    pub registered: usize,
    /// Definitions skipped, in input order.
    pub skipped: Vec<Skipped>,
}

/// A registered catalog and its navigation tree.
#[derive(Clone, Debug)]
pub struct Catalog {
    items: Vec<Item>,
    by_id: BTreeMap<String, usize>,
    tree: Group,
}

impl Catalog {
    /// A catalog with no items.
    pub fn empty() -> Catalog {
        Catalog {
            items: Vec::new(),
            by_id: BTreeMap::new(),
            tree: build_tree(&[]),
        }
    }

    /// A catalog of items; `CATALOG_DUPLICATE_ID` when two share an id.
    pub fn from_items(items: Vec<Item>) -> Result<Catalog> {
        let mut by_id = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            if by_id.insert(item.id.clone(), i).is_some() {
                return Err(Error::new(
                    ErrorKind::CatalogDuplicateId,
                    alloc::format!("Duplicate item id: {}", repr(&item.id)),
                ));
            }
        }
        let tree = build_tree(&items);
        Ok(Catalog { items, by_id, tree })
    }

    /// Converts MCP tool definitions (`register_tool_defs_sync`). Non-objects and names that
    /// are not non-blank strings are always skipped; other invalid definitions are skipped or
    /// fail per `on_invalid`. A duplicate id always fails, and nothing is half-registered.
    pub fn from_mcp_tools(
        defs: &[Value],
        server_name: Option<&str>,
        on_invalid: OnInvalid,
    ) -> Result<(Catalog, IngestReport)> {
        let mut items = Vec::new();
        let mut report = IngestReport::default();
        for (index, def) in defs.iter().enumerate() {
            let name = def.get("name").and_then(Value::as_str);
            let unusable = match name {
                None => Some("tool definition has no string 'name'"),
                Some(n) if n.chars().all(super::pytext::is_space) => {
                    Some("tool name is empty or blank")
                }
                Some(_) => None,
            };
            let converted = match unusable {
                Some(why) => Err((Error::new(ErrorKind::McpInvalidTool, why), true)),
                None => mcp_tool_to_item(def, server_name).map_err(|e| (e, false)),
            };
            match converted {
                Ok(converted) => items.push(converted.item),
                Err((error, always_skip)) => {
                    if on_invalid == OnInvalid::Raise && !always_skip {
                        return Err(error);
                    }
                    report.skipped.push(Skipped {
                        index,
                        name: name.unwrap_or_default().to_string(),
                        error,
                    });
                }
            }
        }
        report.registered = items.len();
        Ok((Catalog::from_items(items)?, report))
    }

    /// The items, in registration order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The item with this id.
    pub fn get(&self, id: &str) -> Option<&Item> {
        self.by_id.get(id).map(|&i| &self.items[i])
    }

    /// The ids, sorted.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.by_id.keys().map(String::as_str)
    }

    /// The navigation tree.
    pub fn tree(&self) -> &Group {
        &self.tree
    }

    /// The unbounded cards at a path (before the response bound).
    pub fn path_cards(&self, path: &Value) -> core::result::Result<Vec<ChoiceCard>, GatewayError> {
        let path_text = path.as_str().unwrap_or_default();
        if self.items.is_empty() {
            return Err(GatewayError::path_not_found(None, path_text));
        }
        let segments =
            parse_path_value(path).map_err(|e| GatewayError::path_invalid(&e, path_text))?;
        let nodes = resolve(&self.tree, &self.items, &segments)
            .map_err(|walked| GatewayError::path_not_found(Some(&walked), path_text))?;
        Ok(node_cards(&nodes, &self.items))
    }
}

/// Gateway settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatewayOptions {
    /// Cards per query browse by default, and the cache-stable cap (5).
    pub top_k: usize,
    /// Keep earlier cards first and frozen across browses (§5).
    pub cache_stable: bool,
    /// Per-card token budget.
    pub budget: CardBudget,
}

impl Default for GatewayOptions {
    fn default() -> GatewayOptions {
        GatewayOptions {
            top_k: 5,
            cache_stable: false,
            budget: CardBudget::default(),
        }
    }
}

/// A successful meta-tool reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `tool_browse`: the cards.
    Cards(Vec<ChoiceCard>),
    /// `tool_execute`: the arguments passed validation; the caller forwards them upstream.
    Execute {
        /// The tool.
        tool_id: String,
        /// Its arguments.
        args: Map,
        /// Whether the caller asked for a dry run.
        dry_run: bool,
    },
    /// `tool_view`: `{tool_id, args_schema, examples, constraints}`.
    View(Value),
}

impl Reply {
    /// `cards`, `envelope` or `view`.
    pub fn kind(&self) -> &'static str {
        match self {
            Reply::Cards(_) => "cards",
            Reply::Execute { .. } => "envelope",
            Reply::View(_) => "view",
        }
    }

    /// The JSON value of the reply.
    pub fn to_value(&self) -> Value {
        match self {
            Reply::Cards(cards) => Value::Array(cards.iter().map(ChoiceCard::to_value).collect()),
            Reply::Execute {
                tool_id,
                args,
                dry_run,
            } => {
                let mut map = Map::new();
                map.insert("tool_id".into(), tool_id.as_str().into());
                map.insert("args".into(), Value::Object(args.clone()));
                map.insert("dry_run".into(), Value::Bool(*dry_run));
                Value::Object(map)
            }
            Reply::View(value) => value.clone(),
        }
    }

    /// `json.dumps` text of the reply, the MCP text part.
    pub fn wire_json(&self) -> String {
        match self {
            Reply::Cards(cards) => super::card::cards_wire_json(cards),
            other => {
                let mut out = String::new();
                write_python_json(&other.to_value(), &mut out);
                out
            }
        }
    }
}

/// A query router: scored candidate ids for a query (the reference uses its own TF-IDF router,
/// which agentwire does not reproduce; plug yours in).
pub trait Router {
    /// Up to `top_k` `(id, score)` pairs, best first.
    fn route(&self, query: &str, top_k: usize) -> core::result::Result<Vec<(String, f64)>, String>;
}

/// What a meta-tool call needs from its host: a token counter, an argument validator and,
/// for query browse, a router.
#[allow(missing_debug_implementations)]
pub struct Services<'a> {
    /// Counts card tokens (cl100k_base for parity with the reference).
    pub counter: &'a dyn TokenCounter,
    /// Validates `tool_execute` arguments against the tool's schema.
    pub validator: &'a dyn ArgsValidator,
    /// Routes `tool_browse` queries; without one a query browse is `ARGS_INVALID`.
    pub router: Option<&'a dyn Router>,
}

/// A gateway session: a catalog plus the cache-stable state.
#[derive(Clone, Debug)]
pub struct Gateway {
    catalog: Catalog,
    options: GatewayOptions,
    seen: BTreeSet<String>,
    frozen: BTreeMap<String, ChoiceCard>,
}

type Outcome<T> = core::result::Result<T, GatewayError>;

fn hard_cap_error(error: Error) -> GatewayError {
    GatewayError::new(GatewayCode::CardHardCap, error.message(), "")
}

impl Gateway {
    /// A gateway with an empty catalog.
    pub fn new(options: GatewayOptions) -> Gateway {
        Gateway {
            catalog: Catalog::empty(),
            options,
            seen: BTreeSet::new(),
            frozen: BTreeMap::new(),
        }
    }

    /// The settings.
    pub fn options(&self) -> GatewayOptions {
        self.options
    }

    /// The catalog.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Replaces the catalog (a refresh): the cache-stable state is cleared. On error the
    /// previous catalog and state stay as they were.
    pub fn register(&mut self, catalog: Catalog) {
        self.catalog = catalog;
        self.seen.clear();
        self.frozen.clear();
    }

    /// [`Catalog::from_mcp_tools`] then [`register`](Self::register).
    pub fn register_mcp_tools(
        &mut self,
        defs: &[Value],
        server_name: Option<&str>,
        on_invalid: OnInvalid,
    ) -> Result<IngestReport> {
        let (catalog, report) = Catalog::from_mcp_tools(defs, server_name, on_invalid)?;
        self.register(catalog);
        Ok(report)
    }

    /// Ids seen by this session, sorted.
    pub fn seen(&self) -> impl Iterator<Item = &str> {
        self.seen.iter().map(String::as_str)
    }

    /// `tool_browse(path=…)`: resolved, bounded, then cache-stable when enabled.
    pub fn browse_path(
        &mut self,
        path: &Value,
        counter: &dyn TokenCounter,
    ) -> Outcome<Vec<ChoiceCard>> {
        let cards = self.catalog.path_cards(path)?;
        let cards =
            bound_browse_response(cards, counter, self.options.budget).map_err(hard_cap_error)?;
        Ok(self.cache_stable(cards))
    }

    /// `tool_browse(query=…)` after routing: cards for the scored ids (unknown ids are
    /// dropped; a missing score shows none), the first `max_cards`, bounded, then cache-stable when enabled.
    pub fn browse_scored(
        &mut self,
        scored: &[(String, Option<f64>)],
        max_cards: i64,
        counter: &dyn TokenCounter,
    ) -> Outcome<Vec<ChoiceCard>> {
        let items: Vec<&Item> = scored
            .iter()
            .filter_map(|(id, _)| self.catalog.get(id))
            .collect();
        let cards = make_choice_cards(&items, max_cards, scored, counter, self.options.budget)
            .map_err(hard_cap_error)?;
        let cards =
            bound_browse_response(cards, counter, self.options.budget).map_err(hard_cap_error)?;
        Ok(self.cache_stable(cards))
    }

    /// `_maybe_cache_stable`: earlier-seen cards first (frozen as first shown, by id), then the
    /// marker and the new cards (by id) in the slots `top_k` leaves.
    pub fn cache_stable(&mut self, cards: Vec<ChoiceCard>) -> Vec<ChoiceCard> {
        if !self.options.cache_stable {
            return cards;
        }
        let top_k = self.options.top_k;
        for card in &cards {
            self.frozen
                .entry(card.id.clone())
                .or_insert_with(|| card.clone());
        }
        let mut seen_cards: Vec<ChoiceCard> = cards
            .iter()
            .filter(|c| self.seen.contains(&c.id))
            .map(|c| self.frozen.get(&c.id).cloned().unwrap_or_else(|| c.clone()))
            .collect();
        seen_cards.sort_by(|a, b| a.id.cmp(&b.id));
        let mut new_cards: Vec<ChoiceCard> = cards
            .iter()
            .filter(|c| !self.seen.contains(&c.id))
            .cloned()
            .collect();
        new_cards.sort_by(|a, b| a.id.cmp(&b.id));
        self.seen.extend(cards.into_iter().map(|c| c.id));
        if !seen_cards.is_empty() && !new_cards.is_empty() {
            new_cards.truncate(top_k.saturating_sub(seen_cards.len() + 1));
            if new_cards.is_empty() {
                return seen_cards;
            }
            seen_cards.push(cache_breakpoint_card());
            seen_cards.extend(new_cards);
            return seen_cards;
        }
        seen_cards.extend(new_cards);
        seen_cards.truncate(top_k);
        seen_cards
    }

    /// Forgets the cache-stable state (the catalog stays).
    pub fn reset_session(&mut self) {
        self.seen.clear();
        self.frozen.clear();
    }

    /// `tool_hydrate` / `tool_view`: the item's schema; the id enters the seen-set.
    pub fn hydrate(&mut self, tool_id: &str) -> Outcome<Value> {
        let item = self
            .catalog
            .get(tool_id)
            .ok_or_else(|| GatewayError::item_not_found(tool_id))?;
        let mut map = Map::new();
        map.insert("tool_id".into(), tool_id.into());
        map.insert(
            "args_schema".into(),
            Value::Object(item.args_schema.clone()),
        );
        map.insert("examples".into(), Value::Array(Vec::new()));
        map.insert("constraints".into(), Value::Object(Map::new()));
        self.seen.insert(tool_id.into());
        Ok(Value::Object(map))
    }

    /// `tool_execute` up to the upstream call: the tool must exist and the arguments must pass
    /// its schema (skipped when the schema is empty). Success enters the seen-set.
    pub fn execute(
        &mut self,
        tool_id: &str,
        args: &Map,
        validator: &dyn ArgsValidator,
    ) -> Outcome<()> {
        let item = self
            .catalog
            .get(tool_id)
            .ok_or_else(|| GatewayError::item_not_found(tool_id))?;
        if !item.args_schema.is_empty() {
            let schema = Value::Object(item.args_schema.clone());
            match validator.check(&schema, &Value::Object(args.clone())) {
                SchemaCheck::Valid => {}
                SchemaCheck::Invalid(violation) => {
                    let mut error =
                        GatewayError::new(GatewayCode::ArgsInvalid, violation.message, tool_id);
                    error
                        .details
                        .insert("path".into(), Value::Array(violation.path));
                    return Err(error);
                }
                SchemaCheck::SchemaInvalid(message) => {
                    return Err(GatewayError::new(
                        GatewayCode::SchemaInvalid,
                        message,
                        tool_id,
                    ));
                }
            }
        }
        self.seen.insert(tool_id.into());
        Ok(())
    }

    /// `dispatch_meta_tool`: one meta-tool call with its JSON arguments.
    pub fn dispatch(
        &mut self,
        meta_tool: &str,
        arguments: &Value,
        services: &Services<'_>,
    ) -> Outcome<Reply> {
        let empty = Map::new();
        let args = match arguments {
            Value::Object(map) => map,
            Value::Null => &empty,
            other => {
                return Err(GatewayError::args_invalid(alloc::format!(
                    "meta-tool arguments must be an object, got {}",
                    other.type_name()
                )))
            }
        };
        let present = |key: &str| args.get(key).filter(|v| !matches!(v, Value::Null));
        match meta_tool {
            "tool_browse" => {
                let (query, path) = (present("query"), present("path"));
                match (query, path) {
                    (None, Some(path)) => {
                        self.browse_path(path, services.counter).map(Reply::Cards)
                    }
                    (Some(query), None) => self
                        .browse_query(query, present("top_k"), services)
                        .map(Reply::Cards),
                    _ => Err(GatewayError::args_invalid(
                        "tool_browse requires exactly one of 'query' or 'path'.",
                    )),
                }
            }
            "tool_execute" => {
                let bad = || {
                    GatewayError::args_invalid("tool_execute requires string 'tool_id', object 'args', and optional boolean 'dry_run'.")
                };
                let Some(Value::String(tool_id)) = args.get("tool_id") else {
                    return Err(bad());
                };
                let call_args = match args.get("args") {
                    None => Map::new(),
                    Some(Value::Object(map)) => map.clone(),
                    Some(_) => return Err(bad()),
                };
                let dry_run = match args.get("dry_run") {
                    None => false,
                    Some(Value::Bool(b)) => *b,
                    Some(_) => return Err(bad()),
                };
                self.execute(tool_id, &call_args, services.validator)?;
                Ok(Reply::Execute {
                    tool_id: tool_id.clone(),
                    args: call_args,
                    dry_run,
                })
            }
            "tool_view" => {
                let Some(Value::String(tool_id)) = args.get("tool_id") else {
                    return Err(GatewayError::args_invalid(
                        "tool_view requires string 'tool_id'.",
                    ));
                };
                self.hydrate(tool_id).map(Reply::View)
            }
            other => {
                let mut message = String::from("unknown meta-tool ");
                message.push_str(&repr(other));
                message.push_str(" (valid: ['tool_browse', 'tool_execute', 'tool_view'])");
                Err(GatewayError::args_invalid(message))
            }
        }
    }

    fn browse_query(
        &mut self,
        query: &Value,
        top_k: Option<&Value>,
        services: &Services<'_>,
    ) -> Outcome<Vec<ChoiceCard>> {
        let Value::String(query) = query else {
            return Err(GatewayError::args_invalid(
                "tool_browse 'query' must be a string.",
            ));
        };
        let top_k = match top_k {
            None => self.options.top_k as i64,
            Some(Value::Number(n)) => match n.as_i64() {
                Some(k) if (1..=MAX_TOP_K).contains(&k) => k,
                _ => {
                    return Err(GatewayError::args_invalid(
                        "tool_browse 'top_k' must be an integer from 1 to 50.",
                    ))
                }
            },
            Some(_) => {
                return Err(GatewayError::args_invalid(
                    "tool_browse 'top_k' must be an integer from 1 to 50.",
                ))
            }
        };
        let Some(router) = services.router else {
            return Err(GatewayError::args_invalid(
                "tool_browse 'query' needs a router; this gateway was set up without one (browse by 'path').",
            ));
        };
        let scored: Vec<(String, Option<f64>)> = router
            .route(query, top_k as usize)
            .map_err(GatewayError::args_invalid)?
            .into_iter()
            .map(|(id, score)| (id, Some(score)))
            .collect();
        self.browse_scored(&scored, top_k, services.counter)
    }
}
