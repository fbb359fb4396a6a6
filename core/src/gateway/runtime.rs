//! A gateway over one catalog (`adapters/proxy_runtime.py`, `adapters/mcp_gateway.py`):
//! atomic catalog ingest, path and query browse with the response bound, the cache-stable
//! browse session, hydrate/execute with argument validation, and meta-tool dispatch.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::card::{CardBudget, ChoiceCard, bound_browse_response, make_choice_cards};
use super::item::{Item, mcp_tool_to_item};
use super::path::{Group, build_tree, node_cards, parse_path_value, resolve};
use super::pytext::{repr, write_python_json};
use super::reply::{GatewayCode, GatewayError};
use super::schema::{ArgsValidator, SchemaCheck};
use crate::json::{Map, Value};
use crate::tokens::TokenCounter;
use crate::{Error, ErrorKind, Result};

/// The id of the cache-stable marker card.
///
/// ```
/// use agentwire::gateway::runtime::{cache_breakpoint_card, CACHE_BREAKPOINT_ID};
/// assert_eq!(cache_breakpoint_card().id, CACHE_BREAKPOINT_ID);
/// ```
pub const CACHE_BREAKPOINT_ID: &str = "__cache_breakpoint__";
/// The meta-tools [`Gateway::dispatch`] knows.
///
/// ```
/// use agentwire::gateway::runtime::META_TOOLS;
/// assert!(META_TOOLS.contains(&"tool_view"));
/// ```
pub const META_TOOLS: [&str; 3] = ["tool_browse", "tool_execute", "tool_view"];
/// Largest `top_k` a query browse accepts (the meta-tool schema's maximum).
///
/// ```
/// use agentwire::gateway::runtime::{Gateway, GatewayOptions, Services, MAX_TOP_K};
/// use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
/// # struct AcceptAll;
/// # impl ArgsValidator for AcceptAll {
/// #     fn check(&self, _: &agentwire::json::Value, _: &agentwire::json::Value) -> SchemaCheck { SchemaCheck::Valid }
/// # }
/// let words = |text: &str| text.split_whitespace().count();
/// let services = Services { counter: &words, validator: &AcceptAll, router: None };
/// let mut gateway = Gateway::new(GatewayOptions::default());
/// let args = agentwire::json::parse(&format!(r#"{{"query":"read","top_k":{}}}"#, MAX_TOP_K + 1))?;
/// let err = gateway.dispatch("tool_browse", &args, &services).unwrap_err();
/// assert_eq!(err.message, "tool_browse 'top_k' must be an integer from 1 to 50.");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub const MAX_TOP_K: i64 = 50;

/// The marker card between the cache-stable prefix and newly discovered cards.
///
/// ```
/// use agentwire::gateway::runtime::cache_breakpoint_card;
/// use agentwire::gateway::Kind;
/// let card = cache_breakpoint_card();
/// assert_eq!((card.id.as_str(), card.name.as_str(), card.kind), ("__cache_breakpoint__", "cache_breakpoint", Kind::Internal));
/// ```
pub fn cache_breakpoint_card() -> ChoiceCard {
    ChoiceCard::internal(
        CACHE_BREAKPOINT_ID,
        "cache_breakpoint",
        "Cache-stable prefix above; newly-discovered tools below (read ChoiceCard.score for rank).",
        "",
    )
}

/// What ingest does with a tool definition it cannot convert.
///
/// ```
/// use agentwire::gateway::runtime::{Catalog, OnInvalid};
/// let defs = [
///     agentwire::json::parse(r#"{"name":"fs.read","description":"Reads."}"#)?,
///     agentwire::json::parse(r#"{"name":"fs.bad","description":7}"#)?,
/// ];
/// let (catalog, report) = Catalog::from_mcp_tools(&defs, None, OnInvalid::Skip)?;
/// assert_eq!((catalog.items().len(), report.skipped[0].name.as_str()), (1, "fs.bad"));
/// let err = Catalog::from_mcp_tools(&defs, None, OnInvalid::Raise).unwrap_err();
/// assert_eq!(err.code(), "MCP_INVALID_TOOL");
/// # Ok::<(), agentwire::Error>(())
/// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::OnInvalid;
    /// assert_eq!(OnInvalid::parse("raise")?, OnInvalid::Raise);
    /// assert_eq!(OnInvalid::parse("ignore").unwrap_err().message(), "on_invalid must be 'skip' or 'raise' (got 'ignore')");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
///
/// ```
/// use agentwire::gateway::runtime::{Catalog, OnInvalid};
/// let defs = [agentwire::json::parse(r#"{"name":"   "}"#)?, agentwire::json::Value::Null];
/// let (_, report) = Catalog::from_mcp_tools(&defs, None, OnInvalid::Raise)?; // always skipped
/// let why: Vec<(usize, &str)> = report.skipped.iter().map(|s| (s.index, s.error.message())).collect();
/// assert_eq!(why, [(0, "tool name is empty or blank"), (1, "tool definition has no string 'name'")]);
/// # Ok::<(), agentwire::Error>(())
/// ```
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
///
/// ```
/// use agentwire::gateway::runtime::{Catalog, OnInvalid};
/// let defs = [
///     agentwire::json::parse(r#"{"name":"fs.read","description":"Reads."}"#)?,
///     agentwire::json::parse(r#"{"name":"fs.write"}"#)?,
/// ];
/// let (_, report) = Catalog::from_mcp_tools(&defs, None, OnInvalid::Skip)?;
/// assert_eq!((report.registered, report.skipped.len()), (1, 1));
/// assert_eq!(report.skipped[0].error.code(), "MCP_MISSING_FIELDS");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct IngestReport {
    /// Items registered.
    pub registered: usize,
    /// Definitions skipped, in input order.
    pub skipped: Vec<Skipped>,
}

/// A registered catalog and its navigation tree.
///
/// ```
/// use agentwire::gateway::runtime::Catalog;
/// use agentwire::gateway::Item;
/// let items = vec![
///     Item::from_value(&agentwire::json::parse(r#"{"id":"fs:write@1"}"#)?)?,
///     Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?,
/// ];
/// let catalog = Catalog::from_items(items)?;
/// assert_eq!(catalog.ids().collect::<Vec<_>>(), ["fs:read@1", "fs:write@1"]);
/// assert!(catalog.get("fs:read@1").is_some());
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Catalog {
    items: Vec<Item>,
    by_id: BTreeMap<String, usize>,
    tree: Group,
}

impl Catalog {
    /// A catalog with no items.
    ///
    /// ```
    /// use agentwire::gateway::runtime::Catalog;
    /// let catalog = Catalog::empty();
    /// assert!(catalog.items().is_empty());
    /// let err = catalog.path_cards(&agentwire::json::Value::from("/")).unwrap_err();
    /// assert!(err.message.contains("No catalog registered."));
    /// ```
    pub fn empty() -> Catalog {
        Catalog {
            items: Vec::new(),
            by_id: BTreeMap::new(),
            tree: build_tree(&[]),
        }
    }

    /// A catalog of items; `CATALOG_DUPLICATE_ID` when two share an id.
    ///
    /// ```
    /// use agentwire::gateway::runtime::Catalog;
    /// use agentwire::gateway::Item;
    /// let item = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?;
    /// let err = Catalog::from_items(vec![item.clone(), item]).unwrap_err();
    /// assert_eq!((err.code(), err.message()), ("CATALOG_DUPLICATE_ID", "Duplicate item id: 'fs:read@1'"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Catalog, OnInvalid};
    /// let defs = [agentwire::json::parse(r#"{"name":"read_file","description":"Reads a file.","_meta":{"version":"2"}}"#)?];
    /// let (catalog, report) = Catalog::from_mcp_tools(&defs, Some("fs"), OnInvalid::Raise)?;
    /// assert_eq!(report.registered, 1);
    /// assert_eq!(catalog.items()[0].id, "fs:read_file@2");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Catalog, OnInvalid};
    /// let defs = [
    ///     agentwire::json::parse(r#"{"name":"z.last","description":"Z."}"#)?,
    ///     agentwire::json::parse(r#"{"name":"a.first","description":"A."}"#)?,
    /// ];
    /// let (catalog, _) = Catalog::from_mcp_tools(&defs, None, OnInvalid::Raise)?;
    /// let names: Vec<&str> = catalog.items().iter().map(|i| i.name.as_str()).collect();
    /// assert_eq!(names, ["z.last", "a.first"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The item with this id.
    ///
    /// ```
    /// use agentwire::gateway::runtime::Catalog;
    /// use agentwire::gateway::Item;
    /// let catalog = Catalog::from_items(vec![Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1","description":"Reads."}"#)?)?])?;
    /// assert_eq!(catalog.get("fs:read@1").map(|i| i.description.as_str()), Some("Reads."));
    /// assert!(catalog.get("fs:read@2").is_none());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn get(&self, id: &str) -> Option<&Item> {
        self.by_id.get(id).map(|&i| &self.items[i])
    }

    /// The ids, sorted.
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Catalog, OnInvalid};
    /// let defs = [
    ///     agentwire::json::parse(r#"{"name":"git.push","description":"Pushes.","_meta":{"version":"1"}}"#)?,
    ///     agentwire::json::parse(r#"{"name":"fs.read","description":"Reads.","_meta":{"version":"1"}}"#)?,
    /// ];
    /// let (catalog, _) = Catalog::from_mcp_tools(&defs, None, OnInvalid::Raise)?;
    /// assert_eq!(catalog.ids().collect::<Vec<_>>(), ["fs:read@1", "git:push@1"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.by_id.keys().map(String::as_str)
    }

    /// The navigation tree.
    ///
    /// ```
    /// use agentwire::gateway::path::Node;
    /// use agentwire::gateway::runtime::Catalog;
    /// use agentwire::gateway::Item;
    /// let catalog = Catalog::from_items(vec![Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?])?;
    /// assert_eq!(catalog.tree().id, "root");
    /// assert_eq!(catalog.tree().children, [Node::Leaf(0)]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn tree(&self) -> &Group {
        &self.tree
    }

    /// The unbounded cards at a path (before the response bound).
    ///
    /// ```
    /// use agentwire::gateway::reply::GatewayCode;
    /// use agentwire::gateway::runtime::Catalog;
    /// use agentwire::gateway::Item;
    /// use agentwire::json::Value;
    /// let catalog = Catalog::from_items(vec![
    ///     Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?,
    ///     Item::from_value(&agentwire::json::parse(r#"{"id":"fs:write@1"}"#)?)?,
    /// ])?;
    /// assert_eq!(catalog.path_cards(&Value::from("/")).map(|c| c.len()), Ok(2));
    /// assert_eq!(catalog.path_cards(&Value::from("/read")).map(|c| c[0].id.clone()), Ok("fs:read@1".into()));
    /// assert_eq!(catalog.path_cards(&Value::from("/Read")).unwrap_err().code, GatewayCode::PathInvalid);
    /// assert_eq!(catalog.path_cards(&Value::from("/delete")).unwrap_err().code, GatewayCode::PathNotFound);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
///
/// ```
/// use agentwire::gateway::runtime::{Gateway, GatewayOptions};
/// let options = GatewayOptions { cache_stable: true, ..GatewayOptions::default() };
/// assert_eq!((options.top_k, options.budget.target, options.budget.hard_cap), (5, 60, 80));
/// assert!(Gateway::new(options).options().cache_stable);
/// ```
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
///
/// ```
/// use agentwire::gateway::runtime::Reply;
/// use agentwire::json::{self, Map};
/// let reply = Reply::Execute { tool_id: "fs:read@1".into(), args: Map::new(), dry_run: true };
/// assert_eq!(reply.kind(), "envelope");
/// assert_eq!(reply.wire_json(), r#"{"tool_id": "fs:read@1", "args": {}, "dry_run": true}"#);
/// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::Reply;
    /// assert_eq!(Reply::Cards(Vec::new()).kind(), "cards");
    /// assert_eq!(Reply::View(agentwire::json::Value::Null).kind(), "view");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Reply::Cards(_) => "cards",
            Reply::Execute { .. } => "envelope",
            Reply::View(_) => "view",
        }
    }

    /// The JSON value of the reply.
    ///
    /// ```
    /// use agentwire::gateway::runtime::Reply;
    /// use agentwire::gateway::ChoiceCard;
    /// let reply = Reply::Cards(vec![ChoiceCard::internal("fs:read@1", "read", "Reads.", "fs")]);
    /// let value = reply.to_value();
    /// assert_eq!(value.as_array().unwrap()[0].get("id").and_then(|v| v.as_str()), Some("fs:read@1"));
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::Reply;
    /// let view = agentwire::json::parse(r#"{"tool_id":"fs:read@1","examples":[]}"#)?;
    /// assert_eq!(Reply::View(view).wire_json(), r#"{"tool_id": "fs:read@1", "examples": []}"#);
    /// assert_eq!(Reply::Cards(Vec::new()).wire_json(), "[]");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
///
/// ```
/// use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid, Reply, Router, Services};
/// use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
/// /// Scores ids by how many query words their id contains.
/// struct ByWord(Vec<String>);
/// impl Router for ByWord {
///     fn route(&self, query: &str, top_k: usize) -> Result<Vec<(String, f64)>, String> {
///         let mut scored: Vec<(String, f64)> = self.0.iter()
///             .map(|id| (id.clone(), query.split_whitespace().filter(|w| id.contains(w)).count() as f64))
///             .filter(|(_, score)| *score > 0.0)
///             .collect();
///         scored.sort_by(|a, b| b.1.total_cmp(&a.1));
///         scored.truncate(top_k);
///         Ok(scored)
///     }
/// }
/// # struct AcceptAll;
/// # impl ArgsValidator for AcceptAll {
/// #     fn check(&self, _: &agentwire::json::Value, _: &agentwire::json::Value) -> SchemaCheck { SchemaCheck::Valid }
/// # }
/// let mut gateway = Gateway::new(GatewayOptions::default());
/// let defs = [
///     agentwire::json::parse(r#"{"name":"fs.read","description":"Reads a file.","_meta":{"version":"1"}}"#)?,
///     agentwire::json::parse(r#"{"name":"fs.write","description":"Writes a file.","_meta":{"version":"1"}}"#)?,
/// ];
/// gateway.register_mcp_tools(&defs, None, OnInvalid::Raise)?;
/// let router = ByWord(gateway.catalog().ids().map(String::from).collect());
/// let words = |text: &str| text.split_whitespace().count();
/// let services = Services { counter: &words, validator: &AcceptAll, router: Some(&router) };
/// let reply = gateway.dispatch("tool_browse", &agentwire::json::parse(r#"{"query":"write"}"#)?, &services).unwrap();
/// let Reply::Cards(cards) = reply else { unreachable!() };
/// assert_eq!((cards.len(), cards[0].id.as_str(), cards[0].score), (1, "fs:write@1", Some(1.0)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub trait Router {
    /// Up to `top_k` `(id, score)` pairs, best first.
    ///
    /// ```
    /// use agentwire::gateway::runtime::Router;
    /// /// Always suggests the same tool.
    /// struct Fixed;
    /// impl Router for Fixed {
    ///     fn route(&self, _query: &str, top_k: usize) -> Result<Vec<(String, f64)>, String> {
    ///         Ok(vec![("fs:read@1".into(), 1.0)].into_iter().take(top_k).collect())
    ///     }
    /// }
    /// assert_eq!(Fixed.route("anything", 5), Ok(vec![("fs:read@1".to_string(), 1.0)]));
    /// assert_eq!(Fixed.route("anything", 0), Ok(vec![]));
    /// ```
    fn route(&self, query: &str, top_k: usize) -> core::result::Result<Vec<(String, f64)>, String>;
}

/// What a meta-tool call needs from its host: a token counter, an argument validator and,
/// for query browse, a router.
///
/// ```
/// use agentwire::gateway::runtime::{Gateway, GatewayOptions, Services};
/// use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
/// use agentwire::json::{self, Value};
/// struct AcceptAll;
/// impl ArgsValidator for AcceptAll {
///     fn check(&self, _schema: &Value, _args: &Value) -> SchemaCheck {
///         SchemaCheck::Valid
///     }
/// }
/// let words = |text: &str| text.split_whitespace().count();
/// let services = Services { counter: &words, validator: &AcceptAll, router: None };
/// let mut gateway = Gateway::new(GatewayOptions::default());
/// // Without a router, a query browse is refused (path browse still works).
/// let err = gateway.dispatch("tool_browse", &json::parse(r#"{"query":"read"}"#)?, &services).unwrap_err();
/// assert_eq!(err.code.as_str(), "ARGS_INVALID");
/// # Ok::<(), agentwire::Error>(())
/// ```
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
///
/// ```
/// use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid, Reply, Services};
/// use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
/// use agentwire::json::{self, Value};
/// # struct AcceptAll;
/// # impl ArgsValidator for AcceptAll {
/// #     fn check(&self, _: &Value, _: &Value) -> SchemaCheck { SchemaCheck::Valid }
/// # }
/// let mut gateway = Gateway::new(GatewayOptions::default());
/// let tool = json::parse(r#"{"name":"read_file","description":"Reads a file.","_meta":{"version":"1"}}"#)?;
/// gateway.register_mcp_tools(&[tool], Some("fs"), OnInvalid::Raise)?;
/// let words = |text: &str| text.split_whitespace().count();
/// let services = Services { counter: &words, validator: &AcceptAll, router: None };
/// let reply = gateway.dispatch("tool_browse", &json::parse(r#"{"path":"/"}"#)?, &services).unwrap();
/// assert_eq!(reply.wire_json(), r#"[{"id": "fs:read_file@1", "name": "fs.read_file", "description": "Reads a file.", "tags": ["mcp"], "kind": "tool", "namespace": "fs", "has_schema": false, "cost_hint": 0.0, "side_effects": true, "safety": ""}]"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Gateway, GatewayOptions};
    /// let gateway = Gateway::new(GatewayOptions::default());
    /// assert!(gateway.catalog().items().is_empty());
    /// assert_eq!(gateway.seen().count(), 0);
    /// ```
    pub fn new(options: GatewayOptions) -> Gateway {
        Gateway {
            catalog: Catalog::empty(),
            options,
            seen: BTreeSet::new(),
            frozen: BTreeMap::new(),
        }
    }

    /// The settings.
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Gateway, GatewayOptions};
    /// let gateway = Gateway::new(GatewayOptions { top_k: 3, ..GatewayOptions::default() });
    /// assert_eq!(gateway.options().top_k, 3);
    /// ```
    pub fn options(&self) -> GatewayOptions {
        self.options
    }

    /// The catalog.
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid};
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let tool = agentwire::json::parse(r#"{"name":"fs.read","description":"Reads.","_meta":{"version":"1"}}"#)?;
    /// gateway.register_mcp_tools(&[tool], None, OnInvalid::Raise)?;
    /// assert!(gateway.catalog().get("fs:read@1").is_some());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Replaces the catalog (a refresh): the cache-stable state is cleared.
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Catalog, Gateway, GatewayOptions};
    /// use agentwire::gateway::Item;
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let item = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?;
    /// gateway.register(Catalog::from_items(vec![item])?);
    /// gateway.hydrate("fs:read@1").unwrap();
    /// assert_eq!(gateway.seen().count(), 1);
    /// gateway.register(Catalog::empty());
    /// assert_eq!((gateway.seen().count(), gateway.catalog().items().len()), (0, 0));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn register(&mut self, catalog: Catalog) {
        self.catalog = catalog;
        self.seen.clear();
        self.frozen.clear();
    }

    /// [`Catalog::from_mcp_tools`] then [`register`](Self::register). On error the previous
    /// catalog and state stay as they were.
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid};
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let defs = [
    ///     agentwire::json::parse(r#"{"name":"fs.read","description":"Reads.","_meta":{"version":"1"}}"#)?,
    ///     agentwire::json::parse(r#"{"name":"fs.read","description":"Reads again.","_meta":{"version":"1"}}"#)?,
    /// ];
    /// // A duplicate id fails the whole registration, and the catalog stays as it was.
    /// let err = gateway.register_mcp_tools(&defs, None, OnInvalid::Skip).unwrap_err();
    /// assert_eq!(err.code(), "CATALOG_DUPLICATE_ID");
    /// assert!(gateway.catalog().items().is_empty());
    /// let report = gateway.register_mcp_tools(&defs[..1], None, OnInvalid::Skip)?;
    /// assert_eq!(report.registered, 1);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Catalog, Gateway, GatewayOptions};
    /// use agentwire::gateway::Item;
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let write = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:write@1"}"#)?)?;
    /// let read = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?;
    /// gateway.register(Catalog::from_items(vec![write, read])?);
    /// gateway.hydrate("fs:write@1").unwrap();
    /// gateway.hydrate("fs:read@1").unwrap();
    /// assert_eq!(gateway.seen().collect::<Vec<_>>(), ["fs:read@1", "fs:write@1"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn seen(&self) -> impl Iterator<Item = &str> {
        self.seen.iter().map(String::as_str)
    }

    /// `tool_browse(path=…)`: resolved, bounded, then cache-stable when enabled.
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Catalog, Gateway, GatewayOptions};
    /// use agentwire::gateway::Item;
    /// use agentwire::json::Value;
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let item = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1","description":"Reads."}"#)?)?;
    /// gateway.register(Catalog::from_items(vec![item])?);
    /// let words = |text: &str| text.split_whitespace().count();
    /// let cards = gateway.browse_path(&Value::from("/read"), &words).unwrap();
    /// assert_eq!(cards[0].budget_line(1, 1), "[1/1] fs:read@1 (tool) \u{2014} Reads.");
    /// let err = gateway.browse_path(&Value::from("/write"), &words).unwrap_err();
    /// assert_eq!(err.code.as_str(), "PATH_NOT_FOUND");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Catalog, Gateway, GatewayOptions};
    /// use agentwire::gateway::Item;
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let item = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?;
    /// gateway.register(Catalog::from_items(vec![item])?);
    /// let scored = [("fs:read@1".to_string(), Some(0.75)), ("fs:gone@1".to_string(), Some(0.9))];
    /// let words = |text: &str| text.split_whitespace().count();
    /// let cards = gateway.browse_scored(&scored, 5, &words).unwrap();
    /// assert_eq!((cards.len(), cards[0].score), (1, Some(0.75)));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Gateway, GatewayOptions, CACHE_BREAKPOINT_ID};
    /// use agentwire::gateway::ChoiceCard;
    /// let mut gateway = Gateway::new(GatewayOptions { cache_stable: true, ..GatewayOptions::default() });
    /// let card = |id: &str| ChoiceCard::internal(id, id, "", "");
    /// gateway.cache_stable(vec![card("b")]);
    /// let second = gateway.cache_stable(vec![card("c"), card("a"), card("b")]);
    /// let ids: Vec<&str> = second.iter().map(|c| c.id.as_str()).collect();
    /// assert_eq!(ids, ["b", CACHE_BREAKPOINT_ID, "a", "c"]);
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Catalog, Gateway, GatewayOptions};
    /// use agentwire::gateway::Item;
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// gateway.register(Catalog::from_items(vec![Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?])?);
    /// gateway.hydrate("fs:read@1").unwrap();
    /// gateway.reset_session();
    /// assert_eq!((gateway.seen().count(), gateway.catalog().items().len()), (0, 1));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn reset_session(&mut self) {
        self.seen.clear();
        self.frozen.clear();
    }

    /// `tool_hydrate` / `tool_view`: the item's schema; the id enters the seen-set.
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid};
    /// use agentwire::gateway::reply::GatewayCode;
    /// use agentwire::json::{self, WriteOptions};
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let tool = json::parse(r#"{"name":"fs.read","description":"Reads.","inputSchema":{"type":"object"},"_meta":{"version":"1"}}"#)?;
    /// gateway.register_mcp_tools(&[tool], None, OnInvalid::Raise)?;
    /// let view = gateway.hydrate("fs:read@1").unwrap();
    /// assert_eq!(json::to_string(&view, WriteOptions::PLAIN)?, r#"{"tool_id":"fs:read@1","args_schema":{"type":"object"},"examples":[],"constraints":{}}"#);
    /// assert_eq!(gateway.hydrate("fs:nope@1").unwrap_err().code, GatewayCode::HydrateFailed);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid};
    /// use agentwire::gateway::schema::{ArgsValidator, ArgsViolation, SchemaCheck};
    /// use agentwire::json::{self, Value};
    /// /// Requires a `path` argument, whatever the schema says.
    /// struct NeedsPath;
    /// impl ArgsValidator for NeedsPath {
    ///     fn check(&self, _schema: &Value, args: &Value) -> SchemaCheck {
    ///         match args.get("path") {
    ///             Some(_) => SchemaCheck::Valid,
    ///             None => SchemaCheck::Invalid(ArgsViolation { message: "'path' is a required property".into(), path: Vec::new() }),
    ///         }
    ///     }
    /// }
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let tool = json::parse(r#"{"name":"fs.read","description":"Reads.","inputSchema":{"required":["path"]},"_meta":{"version":"1"}}"#)?;
    /// gateway.register_mcp_tools(&[tool], None, OnInvalid::Raise)?;
    /// let args = json::parse(r#"{"path":"a.txt"}"#)?;
    /// assert!(gateway.execute("fs:read@1", args.as_object().unwrap(), &NeedsPath).is_ok());
    /// let err = gateway.execute("fs:read@1", &json::Map::new(), &NeedsPath).unwrap_err();
    /// assert_eq!(err.wire_json(), r#"{"error": "ARGS_INVALID", "message": "'path' is a required property", "path": "fs:read@1", "retryable": false, "details": {"path": []}}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
    ///
    /// ```
    /// use agentwire::gateway::runtime::{Gateway, GatewayOptions, OnInvalid, Reply, Services};
    /// use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
    /// use agentwire::json::{self, Value};
    /// # struct AcceptAll;
    /// # impl ArgsValidator for AcceptAll {
    /// #     fn check(&self, _: &Value, _: &Value) -> SchemaCheck { SchemaCheck::Valid }
    /// # }
    /// let mut gateway = Gateway::new(GatewayOptions::default());
    /// let tool = json::parse(r#"{"name":"fs.read","description":"Reads.","_meta":{"version":"1"}}"#)?;
    /// gateway.register_mcp_tools(&[tool], None, OnInvalid::Raise)?;
    /// let words = |text: &str| text.split_whitespace().count();
    /// let services = Services { counter: &words, validator: &AcceptAll, router: None };
    /// let call = json::parse(r#"{"tool_id":"fs:read@1","args":{"path":"a.txt"}}"#)?;
    /// let reply = gateway.dispatch("tool_execute", &call, &services).unwrap();
    /// assert_eq!(reply.wire_json(), r#"{"tool_id": "fs:read@1", "args": {"path": "a.txt"}, "dry_run": false}"#);
    /// let err = gateway.dispatch("tool_delete", &Value::Null, &services).unwrap_err();
    /// assert_eq!(err.message, "unknown meta-tool 'tool_delete' (valid: ['tool_browse', 'tool_execute', 'tool_view'])");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
                )));
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
                    GatewayError::args_invalid(
                        "tool_execute requires string 'tool_id', object 'args', and optional boolean 'dry_run'.",
                    )
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
                    ));
                }
            },
            Some(_) => {
                return Err(GatewayError::args_invalid(
                    "tool_browse 'top_k' must be an integer from 1 to 50.",
                ));
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
