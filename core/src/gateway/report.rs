//! The JSON reports the CLI prints and the JS API returns for tool ids, ChoiceCards, browse
//! replies and truncations (the shapes the contextweaver golden files check): the derivation,
//! the parts and the item of an id; a card, or a list of cards, with its renderings and token
//! counts; a truncation with the offsets it considered.

use alloc::string::String;

use crate::gateway::card::{
    BudgetReport, CardBudget, ChoiceCard, Truncation, TruncationBranch, cards_wire_json,
    count_tokens, render_cards_text, response_cap_tokens,
};
use crate::gateway::item::McpItem;
use crate::gateway::tool_id::{Derivation, parts_to_value};
use crate::json::{Map, Number, Value};
use crate::tokens::TokenCounter;

fn uint(v: usize) -> Value {
    Value::Number(Number::from_u64(v as u64))
}

impl Derivation {
    /// `{upstream_name, inferred_namespace, derived_name, canonical_shape, hash_input,
    /// computed_hash8}`.
    ///
    /// ```
    /// use agentwire::gateway::tool_id;
    /// use agentwire::json;
    /// let tool = json::parse(r#"{"name":"github.search","inputSchema":{"type":"object"}}"#)?;
    /// let derivation = tool_id::derive(tool.as_object().unwrap(), None)?;
    /// assert_eq!(derivation.to_value().get("inferred_namespace").and_then(|v| v.as_str()), Some("github"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("upstream_name".into(), self.upstream_name.as_str().into());
        map.insert(
            "inferred_namespace".into(),
            self.inferred_namespace.as_str().into(),
        );
        map.insert("derived_name".into(), self.derived_name.as_str().into());
        map.insert(
            "canonical_shape".into(),
            self.canonical_shape.as_str().into(),
        );
        map.insert("hash_input".into(), self.hash_input.as_str().into());
        map.insert("computed_hash8".into(), self.computed_hash8.as_str().into());
        Value::Object(map)
    }
}

/// An MCP tool's id: the derivation, the id parts, `tool_id` and the catalog `item`.
///
/// ```
/// use agentwire::gateway::{item::mcp_tool_to_item, report};
/// use agentwire::json;
/// let tool = json::parse(r#"{"name":"github.search","description":"Search.","inputSchema":{"type":"object"}}"#)?;
/// let value = report::tool_id_report(&mcp_tool_to_item(&tool, None)?);
/// assert!(value.get("tool_id").and_then(|v| v.as_str()).unwrap().starts_with("github:search"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn tool_id_report(converted: &McpItem) -> Value {
    let mut map = match converted.derivation.to_value() {
        Value::Object(map) => map,
        _ => Map::new(),
    };
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
///
/// ```
/// use agentwire::gateway::card::{enforce_card_budget, CardBudget, ChoiceCard};
/// use agentwire::gateway::{report, Item};
/// use agentwire::json;
/// let item = Item::from_value(&json::parse(r#"{"id":"fs:read","name":"read","description":"Reads a file."}"#)?)?;
/// let mut card = ChoiceCard::from_item(&item, None);
/// let words = |text: &str| text.split_whitespace().count();
/// let budget = enforce_card_budget(&mut card, &words, CardBudget::default()).map_err(|(e, _)| e)?;
/// let value = report::card_report(&card, &budget, &words);
/// assert_eq!(value.get("truncated"), Some(&json::Value::Bool(false)));
/// # Ok::<(), agentwire::Error>(())
/// ```
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

/// A `tool_browse` reply's cards with their renderings: `{ids, cards, rendered_tokens,
/// rendered, per_card_budget_line_tokens, response_cap_tokens, wire_json}`.
///
/// ```
/// use agentwire::gateway::card::{CardBudget, ChoiceCard};
/// use agentwire::gateway::{report, Item};
/// use agentwire::json;
/// let item = Item::from_value(&json::parse(r#"{"id":"fs:read","name":"read","description":"Reads a file."}"#)?)?;
/// let cards = [ChoiceCard::from_item(&item, None)];
/// let words = |text: &str| text.split_whitespace().count();
/// let value = report::browse_report(&cards, CardBudget::default(), &words);
/// assert_eq!(value.get("ids"), Some(&json::parse(r#"["fs:read"]"#)?));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn browse_report(
    cards: &[ChoiceCard],
    budget: CardBudget,
    counter: &dyn TokenCounter,
) -> Value {
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
    map.insert("wire_json".into(), cards_wire_json(cards).into());
    Value::Object(map)
}

/// A truncation with the offsets it considered: `{output, branch, input_tokens,
/// output_tokens, boundary_ends?, chosen_boundary_end?, hard_cut_chars?}` (offsets in code
/// points).
///
/// ```
/// use agentwire::gateway::{card::truncate_description, report};
/// let words = |text: &str| text.split_whitespace().count();
/// let text = "First sentence here. Second one.";
/// let value = report::truncation_report(text, &truncate_description(text, 3, &words), &words);
/// assert_eq!(value.get("output").and_then(|v| v.as_str()), Some("First sentence here."));
/// ```
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
    map.insert(
        "output".into(),
        String::from(truncation.output.as_str()).into(),
    );
    Value::Object(map)
}
