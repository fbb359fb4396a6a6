//! ChoiceCards (`envelope.py`, `routing/cards.py`): the permitted fields only, their three
//! renderings, the per-card token budget with sentence-boundary truncation, browse ordering.
//!
//! ```
//! use agentwire::gateway::card::{enforce_card_budget, CardBudget, ChoiceCard};
//! use agentwire::gateway::Item;
//! use agentwire::json;
//! let item = Item::from_value(&json::parse(
//!     r#"{"id":"fs:read_file","kind":"tool","name":"read_file","description":"Reads a file."}"#,
//! )?)?;
//! let mut card = ChoiceCard::from_item(&item, Some(0.9));
//! // Any `Fn(&str) -> usize` counts tokens; `tokens::Tokenizer` is exact cl100k.
//! let words = |text: &str| text.split_whitespace().count();
//! let report = enforce_card_budget(&mut card, &words, CardBudget::default()).map_err(|(e, _)| e)?;
//! assert!(!report.truncated());
//! assert!(card.budget_line(1, 1).contains("fs:read_file"));
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt::Write;

use super::item::{Item, Kind};
use super::pytext::{float_repr, is_space, push_json_string, rstrip};
use crate::json::{Map, Value};
use crate::tokens::TokenCounter;
use crate::{Error, ErrorKind, Result};

/// Longest card name, in code points.
///
/// ```
/// use agentwire::gateway::card::{ChoiceCard, MAX_NAME_CHARS};
/// use agentwire::gateway::Item;
/// let long_name = "n".repeat(100);
/// let item = Item::from_value(&agentwire::json::parse(&format!(r#"{{"id":"x:y@1","name":"{long_name}"}}"#))?)?;
/// assert_eq!(ChoiceCard::from_item(&item, None).name.len(), MAX_NAME_CHARS);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub const MAX_NAME_CHARS: usize = 64;
/// Most tags on a card.
///
/// ```
/// use agentwire::gateway::card::{cap_tags, MAX_TAGS};
/// let tags: Vec<String> = (1..=8).map(|i| format!("t{i}")).collect();
/// assert_eq!(cap_tags(&tags).len(), MAX_TAGS);
/// ```
pub const MAX_TAGS: usize = 5;
/// Longest tag, in code points.
///
/// ```
/// use agentwire::gateway::card::{cap_tags, MAX_TAG_CHARS};
/// let capped = cap_tags(&["x".repeat(30)]);
/// assert_eq!(capped[0].chars().count(), MAX_TAG_CHARS);
/// ```
pub const MAX_TAG_CHARS: usize = 24;
/// The slack `bound_browse_response` adds to `80·n`.
///
/// ```
/// use agentwire::gateway::card::{response_cap_tokens, CardBudget, BROWSE_RESPONSE_SLACK};
/// assert_eq!(response_cap_tokens(0, CardBudget::default()), BROWSE_RESPONSE_SLACK);
/// ```
pub const BROWSE_RESPONSE_SLACK: usize = 32;

/// The safety class a card shows.
///
/// ```
/// use agentwire::gateway::card::{safety_of, Safety};
/// let tags = ["mcp".to_string(), "Read-Only".into()];
/// assert_eq!(safety_of(&tags), Safety::ReadOnly);
/// assert_eq!(Safety::default(), Safety::Unspecified);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Safety {
    /// No safety tag.
    #[default]
    Unspecified,
    /// Tagged `read-only` or `read_only`.
    ReadOnly,
    /// Tagged `destructive` (wins over read-only).
    Destructive,
}

impl Safety {
    /// The wire text: `""`, `read_only`, `destructive`.
    ///
    /// ```
    /// use agentwire::gateway::card::Safety;
    /// assert_eq!(Safety::ReadOnly.as_str(), "read_only");
    /// assert_eq!(Safety::Unspecified.as_str(), "");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Safety::Unspecified => "",
            Safety::ReadOnly => "read_only",
            Safety::Destructive => "destructive",
        }
    }

    fn parse(text: &str) -> Result<Safety> {
        match text {
            "" => Ok(Safety::Unspecified),
            "read_only" => Ok(Safety::ReadOnly),
            "destructive" => Ok(Safety::Destructive),
            other => Err(card_invalid(alloc::format!(
                "safety must be '', 'read_only' or 'destructive' (got {})",
                super::pytext::repr(other)
            ))),
        }
    }
}

/// The compact card a gateway shows for one item. Schemas, examples and metadata are banned
/// from cards, so there are no fields for them.
///
/// ```
/// use agentwire::gateway::{ChoiceCard, Item};
/// let item = Item::from_value(&agentwire::json::parse(
///     r#"{"id":"fs:rm@1","name":"rm","description":"Deletes a file.","tags":["destructive","fs"],"side_effects":true}"#,
/// )?)?;
/// let card = ChoiceCard::from_item(&item, Some(0.5));
/// assert_eq!(card.safety, agentwire::gateway::Safety::Destructive);
/// assert_eq!(card.budget_line(2, 3), "[2/3] fs:rm@1 (tool) \u{2014} Deletes a file. [destructive, fs] score=0.50");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChoiceCard {
    /// Item id.
    pub id: String,
    /// Display name, at most 64 code points.
    pub name: String,
    /// Description (possibly truncated to the budget).
    pub description: String,
    /// At most 5 tags of at most 24 code points, sorted.
    pub tags: Vec<String>,
    /// Item kind.
    pub kind: Kind,
    /// Namespace, `""` for internal cards.
    pub namespace: String,
    /// Whether `tool_view` can return a schema.
    pub has_schema: bool,
    /// Relative cost.
    pub cost_hint: f64,
    /// Whether calling it changes anything.
    pub side_effects: bool,
    /// Safety class from the tags.
    pub safety: Safety,
    /// Router score, when the card came from a query.
    pub score: Option<f64>,
}

fn card_invalid(message: String) -> Error {
    Error::new(ErrorKind::CardInvalid, message)
}

fn prefix_chars(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

fn is_safety_tag(tag: &str) -> bool {
    let lower = tag.to_lowercase();
    matches!(lower.as_str(), "destructive" | "read-only" | "read_only")
}

/// `_cap_tags`: cut each tag to 24 code points, merge duplicates, keep safety tags first, at
/// most 5, sorted by code point.
///
/// ```
/// use agentwire::gateway::card::cap_tags;
/// let tags: Vec<String> = ["zeta", "alpha", "beta", "gamma", "delta", "alpha", "destructive"].map(String::from).into();
/// // Duplicates merged, the safety tag kept even though it sorts late, then sorted.
/// assert_eq!(cap_tags(&tags), ["alpha", "beta", "delta", "destructive", "gamma"]);
/// ```
pub fn cap_tags(tags: &[String]) -> Vec<String> {
    let mut deduped: Vec<&str> = tags
        .iter()
        .map(|t| prefix_chars(t, MAX_TAG_CHARS))
        .collect();
    deduped.sort_unstable();
    deduped.dedup();
    let (safety, other): (Vec<&str>, Vec<&str>) =
        deduped.into_iter().partition(|t| is_safety_tag(t));
    let mut kept: Vec<String> = safety
        .into_iter()
        .chain(other)
        .take(MAX_TAGS)
        .map(String::from)
        .collect();
    kept.sort();
    kept
}

/// The safety class of the original (uncut) tags.
///
/// ```
/// use agentwire::gateway::card::{safety_of, Safety};
/// let tags = ["read-only".to_string(), "DESTRUCTIVE".into()];
/// assert_eq!(safety_of(&tags), Safety::Destructive); // destructive wins
/// assert_eq!(safety_of(&[]), Safety::Unspecified);
/// ```
pub fn safety_of(tags: &[String]) -> Safety {
    let lower: Vec<String> = tags.iter().map(|t| t.to_lowercase()).collect();
    if lower.iter().any(|t| t == "destructive") {
        Safety::Destructive
    } else if lower.iter().any(|t| t == "read-only" || t == "read_only") {
        Safety::ReadOnly
    } else {
        Safety::Unspecified
    }
}

impl ChoiceCard {
    /// `item_to_card`: the name cut to 64 code points, the description unchanged, tags capped.
    ///
    /// ```
    /// use agentwire::gateway::{ChoiceCard, Item, Kind};
    /// let item = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1","description":"Reads a file.","namespace":"fs"}"#)?)?;
    /// let card = ChoiceCard::from_item(&item, Some(0.9));
    /// assert_eq!((card.id.as_str(), card.kind, card.namespace.as_str(), card.score), ("fs:read@1", Kind::Tool, "fs", Some(0.9)));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_item(item: &Item, score: Option<f64>) -> ChoiceCard {
        ChoiceCard {
            id: item.id.clone(),
            name: prefix_chars(&item.name, MAX_NAME_CHARS).to_string(),
            description: item.description.clone(),
            tags: cap_tags(&item.tags),
            kind: item.kind,
            namespace: item.namespace.clone(),
            has_schema: item.has_schema,
            cost_hint: item.cost_hint,
            side_effects: item.side_effects,
            safety: safety_of(&item.tags),
            score,
        }
    }

    /// A card with only id, name, description and kind set (the rest at defaults).
    ///
    /// ```
    /// use agentwire::gateway::{ChoiceCard, Kind};
    /// let card = ChoiceCard::internal("root/fs", "fs: file", "Tools related to fs: file", "");
    /// assert_eq!((card.kind, card.tags.len(), card.score), (Kind::Internal, 0, None));
    /// assert_eq!(card.budget_line(1, 1), "[1/1] root/fs (internal) \u{2014} Tools related to fs: file");
    /// ```
    pub fn internal(id: &str, name: &str, description: &str, namespace: &str) -> ChoiceCard {
        ChoiceCard {
            id: id.into(),
            name: name.into(),
            description: description.into(),
            tags: Vec::new(),
            kind: Kind::Internal,
            namespace: namespace.into(),
            has_schema: false,
            cost_hint: 0.0,
            side_effects: false,
            safety: Safety::Unspecified,
            score: None,
        }
    }

    /// Checks the limits `ChoiceCard.__post_init__` enforces (`CARD_INVALID`).
    ///
    /// ```
    /// use agentwire::gateway::ChoiceCard;
    /// let mut card = ChoiceCard::internal("x", "name", "", "");
    /// assert!(card.validate().is_ok());
    /// card.tags = (0..6).map(|i| format!("t{i}")).collect();
    /// assert_eq!(card.validate().unwrap_err().message(), "6 tags, over 5");
    /// ```
    pub fn validate(&self) -> Result<()> {
        let name_chars = self.name.chars().count();
        if name_chars > MAX_NAME_CHARS {
            return Err(card_invalid(alloc::format!(
                "name is {name_chars} characters, over {MAX_NAME_CHARS}"
            )));
        }
        if self.tags.len() > MAX_TAGS {
            return Err(card_invalid(alloc::format!(
                "{} tags, over {MAX_TAGS}",
                self.tags.len()
            )));
        }
        if let Some(tag) = self.tags.iter().find(|t| t.chars().count() > MAX_TAG_CHARS) {
            return Err(card_invalid(alloc::format!(
                "tag {} is over {MAX_TAG_CHARS} characters",
                super::pytext::repr(tag)
            )));
        }
        Ok(())
    }

    /// The §2.3 line every budget is measured on: `[i/n] {id} ({kind}) — {description}` plus
    /// ` [tags]` and ` score=x.xx` when present.
    ///
    /// ```
    /// use agentwire::gateway::ChoiceCard;
    /// let mut card = ChoiceCard::internal("fs:read@1", "read", "Reads a file.", "fs");
    /// card.tags = vec!["mcp".into(), "read-only".into()];
    /// card.score = Some(0.875);
    /// assert_eq!(card.budget_line(1, 3), "[1/3] fs:read@1 (internal) \u{2014} Reads a file. [mcp, read-only] score=0.88");
    /// ```
    pub fn budget_line(&self, index: usize, total: usize) -> String {
        let mut line = String::with_capacity(self.id.len() + self.description.len() + 48);
        let _ = write!(
            line,
            "[{index}/{total}] {} ({}) \u{2014} {}",
            self.id,
            self.kind.as_str(),
            self.description
        );
        if !self.tags.is_empty() {
            let _ = write!(line, " [{}]", self.tags.join(", "));
        }
        if let Some(score) = self.score {
            let _ = write!(line, " score={score:.2}");
        }
        line
    }

    /// `format_card_for_prompt`: the multi-line form (no score).
    ///
    /// ```
    /// use agentwire::gateway::{ChoiceCard, Item};
    /// let item = Item::from_value(&agentwire::json::parse(
    ///     r#"{"id":"fs:write@1","name":"write","description":"Writes a file.","tags":["fs"],"side_effects":true,"cost_hint":0.25}"#,
    /// )?)?;
    /// assert_eq!(
    ///     ChoiceCard::from_item(&item, Some(1.0)).prompt_text(),
    ///     "[fs:write@1] write\n  Writes a file.\n  tags: fs\n  ! has side effects\n  cost: 0.25"
    /// );
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn prompt_text(&self) -> String {
        let mut text = alloc::format!("[{}] {}\n  {}", self.id, self.name, self.description);
        if !self.tags.is_empty() {
            let mut tags = self.tags.clone();
            tags.sort();
            let _ = write!(text, "\n  tags: {}", tags.join(", "));
        }
        if self.safety == Safety::Destructive {
            text.push_str("\n  \u{26a0} destructive");
        } else if self.side_effects {
            text.push_str("\n  ! has side effects");
        }
        if self.safety == Safety::ReadOnly {
            text.push_str("\n  read-only");
        }
        if self.cost_hint != 0.0 {
            let _ = write!(text, "\n  cost: {:.2}", self.cost_hint);
        }
        text
    }

    /// Appends `json.dumps(card.to_dict())`: `", "`/`": "` separators, ASCII-only, Python float
    /// repr, `score` only when set.
    ///
    /// ```
    /// use agentwire::gateway::ChoiceCard;
    /// let mut out = String::from("[");
    /// ChoiceCard::internal("x", "café", "", "").write_wire_json(&mut out);
    /// out.push(']');
    /// assert_eq!(
    ///     out,
    ///     r#"[{"id": "x", "name": "caf\u00e9", "description": "", "tags": [], "kind": "internal", "namespace": "", "has_schema": false, "cost_hint": 0.0, "side_effects": false, "safety": ""}]"#
    /// );
    /// ```
    pub fn write_wire_json(&self, out: &mut String) {
        let key = |out: &mut String, name: &str, first: bool| {
            if !first {
                out.push_str(", ");
            }
            push_json_string(out, name);
            out.push_str(": ");
        };
        out.push('{');
        key(out, "id", true);
        push_json_string(out, &self.id);
        key(out, "name", false);
        push_json_string(out, &self.name);
        key(out, "description", false);
        push_json_string(out, &self.description);
        key(out, "tags", false);
        out.push('[');
        for (i, tag) in self.tags.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            push_json_string(out, tag);
        }
        out.push(']');
        key(out, "kind", false);
        push_json_string(out, self.kind.as_str());
        key(out, "namespace", false);
        push_json_string(out, &self.namespace);
        key(out, "has_schema", false);
        out.push_str(if self.has_schema { "true" } else { "false" });
        key(out, "cost_hint", false);
        out.push_str(&float_repr(self.cost_hint));
        key(out, "side_effects", false);
        out.push_str(if self.side_effects { "true" } else { "false" });
        key(out, "safety", false);
        push_json_string(out, self.safety.as_str());
        if let Some(score) = self.score {
            key(out, "score", false);
            out.push_str(&float_repr(score));
        }
        out.push('}');
    }

    /// [`write_wire_json`](Self::write_wire_json) into a new string.
    ///
    /// ```
    /// use agentwire::gateway::ChoiceCard;
    /// let mut card = ChoiceCard::internal("fs:read@1", "read", "Reads.", "fs");
    /// card.score = Some(2.0);
    /// assert!(card.wire_json().ends_with(r#""safety": "", "score": 2.0}"#));
    /// ```
    pub fn wire_json(&self) -> String {
        let mut out = String::new();
        self.write_wire_json(&mut out);
        out
    }

    /// The card as a JSON value (the `to_dict` keys and order).
    ///
    /// ```
    /// use agentwire::gateway::ChoiceCard;
    /// use agentwire::json::{self, WriteOptions};
    /// let card = ChoiceCard::internal("x", "n", "d", "");
    /// assert_eq!(
    ///     json::to_string(&card.to_value(), WriteOptions::PLAIN)?,
    ///     r#"{"id":"x","name":"n","description":"d","tags":[],"kind":"internal","namespace":"","has_schema":false,"cost_hint":0,"side_effects":false,"safety":""}"#
    /// );
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("id".into(), self.id.as_str().into());
        map.insert("name".into(), self.name.as_str().into());
        map.insert("description".into(), self.description.as_str().into());
        map.insert(
            "tags".into(),
            Value::Array(self.tags.iter().map(|t| t.as_str().into()).collect()),
        );
        map.insert("kind".into(), self.kind.as_str().into());
        map.insert("namespace".into(), self.namespace.as_str().into());
        map.insert("has_schema".into(), Value::Bool(self.has_schema));
        map.insert("cost_hint".into(), super::float_value(self.cost_hint));
        map.insert("side_effects".into(), Value::Bool(self.side_effects));
        map.insert("safety".into(), self.safety.as_str().into());
        if let Some(score) = self.score {
            map.insert("score".into(), super::float_value(score));
        }
        Value::Object(map)
    }

    /// Reads the [`to_value`](Self::to_value) form and validates it.
    ///
    /// ```
    /// use agentwire::gateway::ChoiceCard;
    /// let mut card = ChoiceCard::internal("fs:read@1", "read", "Reads.", "fs");
    /// card.score = Some(0.5);
    /// assert_eq!(ChoiceCard::from_value(&card.to_value())?, card);
    /// let bad = agentwire::json::parse(r#"{"id":"x","safety":"maybe"}"#)?;
    /// assert_eq!(ChoiceCard::from_value(&bad).unwrap_err().code(), "CARD_INVALID");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<ChoiceCard> {
        let item = Item::from_value(value)?;
        let Some(map) = value.as_object() else {
            return Err(card_invalid("a card must be an object".into()));
        };
        let tags = item.tags.clone();
        let safety = match map.get("safety") {
            None | Some(Value::Null) => safety_of(&tags),
            Some(Value::String(s)) => Safety::parse(s)?,
            Some(other) => {
                return Err(card_invalid(alloc::format!(
                    "safety must be a string, got {}",
                    other.type_name()
                )));
            }
        };
        let score = match map.get("score") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => Some(n.as_f64()),
            Some(other) => {
                return Err(card_invalid(alloc::format!(
                    "score must be a number, got {}",
                    other.type_name()
                )));
            }
        };
        let card = ChoiceCard {
            id: item.id,
            name: item.name,
            description: item.description,
            tags,
            kind: item.kind,
            namespace: item.namespace,
            has_schema: item.has_schema,
            cost_hint: item.cost_hint,
            side_effects: item.side_effects,
            safety,
            score,
        };
        card.validate()?;
        Ok(card)
    }
}

/// `tokens.count`: 0 for `""`, otherwise at least 1.
///
/// ```
/// use agentwire::gateway::card::count_tokens;
/// let words = |text: &str| text.split_whitespace().count();
/// assert_eq!(count_tokens(&words, ""), 0);
/// assert_eq!(count_tokens(&words, "   "), 1); // non-empty text is at least one token
/// assert_eq!(count_tokens(&words, "a b c"), 3);
/// ```
pub fn count_tokens(counter: &dyn TokenCounter, text: &str) -> usize {
    if text.is_empty() {
        0
    } else {
        counter.count_tokens(text).max(1)
    }
}

/// Per-card token budget: the target a card is truncated to, the cap above which it is an error.
///
/// ```
/// use agentwire::gateway::card::{enforce_card_budget, CardBudget};
/// use agentwire::gateway::ChoiceCard;
/// let words = |text: &str| text.split_whitespace().count();
/// let mut card = ChoiceCard::internal("x:y@1", "y", "One two three. Four five six seven.", "");
/// let budget = CardBudget { target: 8, hard_cap: 10 };
/// enforce_card_budget(&mut card, &words, budget).map_err(|(e, _)| e)?;
/// assert_eq!(card.description, "One two three.");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CardBudget {
    /// 60 by default.
    pub target: usize,
    /// 80 by default.
    pub hard_cap: usize,
}

impl Default for CardBudget {
    fn default() -> CardBudget {
        CardBudget {
            target: 60,
            hard_cap: 80,
        }
    }
}

/// What [`enforce_card_budget`] measured.
///
/// ```
/// use agentwire::gateway::card::{enforce_card_budget, CardBudget};
/// use agentwire::gateway::ChoiceCard;
/// let words = |text: &str| text.split_whitespace().count();
/// let mut card = ChoiceCard::internal("x:y@1", "y", "One two three. Four five six seven.", "");
/// let report = enforce_card_budget(&mut card, &words, CardBudget { target: 8, hard_cap: 10 }).map_err(|(e, _)| e)?;
/// // "[1/1] x:y@1 (internal) — " is 4 words, so 4 are left for the description.
/// assert_eq!((report.untruncated_tokens, report.fixed_overhead_tokens, report.description_budget, report.final_tokens), (11, Some(4), Some(4), 7));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BudgetReport {
    /// Tokens of the budget line before truncation.
    pub untruncated_tokens: usize,
    /// Tokens of the budget line with an empty description, when truncation ran.
    pub fixed_overhead_tokens: Option<usize>,
    /// `max(target − overhead, 1)`, when truncation ran.
    pub description_budget: Option<usize>,
    /// Tokens of the final budget line.
    pub final_tokens: usize,
}

impl BudgetReport {
    /// Whether the description was truncated.
    ///
    /// ```
    /// use agentwire::gateway::card::{enforce_card_budget, CardBudget};
    /// use agentwire::gateway::ChoiceCard;
    /// let words = |text: &str| text.split_whitespace().count();
    /// let mut card = ChoiceCard::internal("x:y@1", "y", "Short.", "");
    /// let report = enforce_card_budget(&mut card, &words, CardBudget::default()).map_err(|(e, _)| e)?;
    /// assert!(!report.truncated());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn truncated(&self) -> bool {
        self.description_budget.is_some()
    }
}

/// `_enforce_card_budget`: truncates the description so the budget line fits the target,
/// `CARD_HARD_CAP` when the line still exceeds the hard cap. On error the card is left as
/// truncated and the report is in the error's context.
///
/// ```
/// use agentwire::gateway::card::{enforce_card_budget, CardBudget};
/// use agentwire::gateway::ChoiceCard;
/// let words = |text: &str| text.split_whitespace().count();
/// // The id alone is over the cap: truncating the description cannot help.
/// let mut card = ChoiceCard::internal("x:y@1", "y", "Some description.", "");
/// let (err, report) = enforce_card_budget(&mut card, &words, CardBudget { target: 2, hard_cap: 3 }).unwrap_err();
/// assert_eq!(err.code(), "CARD_HARD_CAP");
/// assert_eq!((report.final_tokens, card.description.as_str()), (5, "…"));
/// ```
pub fn enforce_card_budget(
    card: &mut ChoiceCard,
    counter: &dyn TokenCounter,
    budget: CardBudget,
) -> core::result::Result<BudgetReport, (Error, BudgetReport)> {
    let untruncated_tokens = count_tokens(counter, &card.budget_line(1, 1));
    if untruncated_tokens <= budget.target {
        return Ok(BudgetReport {
            untruncated_tokens,
            fixed_overhead_tokens: None,
            description_budget: None,
            final_tokens: untruncated_tokens,
        });
    }
    let description = core::mem::take(&mut card.description);
    let overhead = count_tokens(counter, &card.budget_line(1, 1));
    let description_budget = budget.target.saturating_sub(overhead).max(1);
    card.description =
        truncate_description(&description, description_budget as i64, counter).output;
    let final_tokens = count_tokens(counter, &card.budget_line(1, 1));
    let report = BudgetReport {
        untruncated_tokens,
        fixed_overhead_tokens: Some(overhead),
        description_budget: Some(description_budget),
        final_tokens,
    };
    if final_tokens > budget.hard_cap {
        let error = Error::new(
            ErrorKind::CardHardCap,
            alloc::format!(
                "ChoiceCard for '{}' exceeds hard cap ({final_tokens} > {} tokens) after description truncation; non-description fields too large.",
                card.id,
                budget.hard_cap
            ),
        );
        return Err((error, report));
    }
    Ok(report)
}

/// Which step of [`truncate_description`] produced the output.
///
/// ```
/// use agentwire::gateway::card::{truncate_description, TruncationBranch};
/// let words = |text: &str| text.split_whitespace().count();
/// let branch = |text: &str, budget: i64| truncate_description(text, budget, &words).branch;
/// assert_eq!(branch("a b", 0), TruncationBranch::Empty);
/// assert_eq!(branch("a b", 2), TruncationBranch::Verbatim);
/// assert_eq!(branch("a b. c d", 2), TruncationBranch::Sentence);
/// assert_eq!(branch("a b c d", 2), TruncationBranch::HardCut);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TruncationBranch {
    /// The budget is 0 or less: `""`.
    Empty,
    /// The text fits.
    Verbatim,
    /// Cut at a sentence boundary.
    Sentence,
    /// Cut by the binary search, `…` appended.
    HardCut,
}

impl TruncationBranch {
    /// `empty`, `verbatim`, `sentence`, `hard_cut`.
    ///
    /// ```
    /// use agentwire::gateway::card::TruncationBranch;
    /// assert_eq!(TruncationBranch::HardCut.as_str(), "hard_cut");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            TruncationBranch::Empty => "empty",
            TruncationBranch::Verbatim => "verbatim",
            TruncationBranch::Sentence => "sentence",
            TruncationBranch::HardCut => "hard_cut",
        }
    }
}

/// The result of [`truncate_description`], with the offsets it considered (code points).
///
/// ```
/// use agentwire::gateway::card::truncate_description;
/// let words = |text: &str| text.split_whitespace().count();
/// let t = truncate_description("First sentence here. Second one is longer than that.", 4, &words);
/// assert_eq!(t.output, "First sentence here.");
/// assert_eq!((t.boundary_ends, t.chosen_boundary_end, t.hard_cut_chars), (vec![21, 52], Some(21), None));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Truncation {
    /// The truncated text.
    pub output: String,
    /// The step that produced it.
    pub branch: TruncationBranch,
    /// Ends of the sentence-boundary matches (past the whitespace after the terminator).
    pub boundary_ends: Vec<usize>,
    /// The boundary used, for [`TruncationBranch::Sentence`].
    pub chosen_boundary_end: Option<usize>,
    /// The prefix length the binary search chose, for [`TruncationBranch::HardCut`].
    pub hard_cut_chars: Option<usize>,
}

/// Code-point offsets just past each match of `[.!?](?:\s|$)`.
fn sentence_boundary_ends(chars: &[char]) -> Vec<usize> {
    let mut ends = Vec::new();
    for (i, c) in chars.iter().enumerate() {
        if matches!(c, '.' | '!' | '?') {
            match chars.get(i + 1) {
                None => ends.push(i + 1),
                Some(&next) if is_space(next) => ends.push(i + 2),
                Some(_) => {}
            }
        }
    }
    ends
}

/// `truncate_description_to_tokens`: verbatim when it fits, else the longest sentence prefix that
/// fits, else the binary search over code-point prefixes for `budget − 1` tokens plus `…`.
///
/// ```
/// use agentwire::gateway::card::truncate_description;
/// let words = |text: &str| text.split_whitespace().count();
/// // No sentence fits: the longest prefix of `budget - 1` tokens, plus `…`.
/// let t = truncate_description("one two three four five six", 4, &words);
/// assert_eq!((t.output.as_str(), t.hard_cut_chars), ("one two three\u{2026}", Some(14)));
/// ```
pub fn truncate_description(text: &str, budget: i64, counter: &dyn TokenCounter) -> Truncation {
    let mut result = Truncation {
        output: String::new(),
        branch: TruncationBranch::Empty,
        boundary_ends: Vec::new(),
        chosen_boundary_end: None,
        hard_cut_chars: None,
    };
    if budget <= 0 {
        return result;
    }
    let budget = budget as usize;
    if count_tokens(counter, text) <= budget {
        result.output = text.into();
        result.branch = TruncationBranch::Verbatim;
        return result;
    }
    let chars: Vec<char> = text.chars().collect();
    // Byte offset of each code-point offset, so prefixes are slices.
    let mut offsets: Vec<usize> = text.char_indices().map(|(at, _)| at).collect();
    offsets.push(text.len());
    let prefix = |n: usize| &text[..offsets[n]];
    result.boundary_ends = sentence_boundary_ends(&chars);
    for &end in result.boundary_ends.iter().rev() {
        let candidate = rstrip(prefix(end));
        if count_tokens(counter, candidate) <= budget {
            result.output = candidate.into();
            result.branch = TruncationBranch::Sentence;
            result.chosen_boundary_end = Some(end);
            return result;
        }
    }
    let target = budget - 1;
    let (mut lo, mut hi, mut best) = (0usize, chars.len(), 0usize);
    while lo <= hi {
        let mid = (lo + hi) / 2;
        if count_tokens(counter, prefix(mid)) <= target {
            best = mid;
            lo = mid + 1;
        } else if mid == 0 {
            break;
        } else {
            hi = mid - 1;
        }
    }
    let mut output = String::from(rstrip(prefix(best)));
    output.push('\u{2026}');
    result.output = output;
    result.branch = TruncationBranch::HardCut;
    result.hard_cut_chars = Some(best);
    result
}

/// §2.7: score descending (none counts as 0.0), then id by code point; stable.
///
/// ```
/// use agentwire::gateway::card::sort_for_browse;
/// use agentwire::gateway::ChoiceCard;
/// let card = |id: &str, score: Option<f64>| ChoiceCard { score, ..ChoiceCard::internal(id, id, "", "") };
/// let mut cards = [card("b", None), card("c", Some(0.5)), card("a", None), card("d", Some(0.9))];
/// sort_for_browse(&mut cards);
/// let ids: Vec<&str> = cards.iter().map(|c| c.id.as_str()).collect();
/// assert_eq!(ids, ["d", "c", "a", "b"]);
/// ```
pub fn sort_for_browse(cards: &mut [ChoiceCard]) {
    cards.sort_by(|a, b| {
        let (sa, sb) = (a.score.unwrap_or(0.0), b.score.unwrap_or(0.0));
        sb.partial_cmp(&sa)
            .unwrap_or(Ordering::Equal)
            .then_with(|| a.id.cmp(&b.id))
    });
}

/// Python `seq[:stop]`: a negative stop counts from the end.
///
/// ```
/// use agentwire::gateway::card::python_slice_len;
/// assert_eq!(python_slice_len(10, 3), 3);
/// assert_eq!(python_slice_len(10, 30), 10);
/// assert_eq!(python_slice_len(10, -3), 7); // seq[:-3]
/// assert_eq!(python_slice_len(2, -5), 0);
/// ```
pub fn python_slice_len(len: usize, stop: i64) -> usize {
    if stop >= 0 {
        (stop as usize).min(len)
    } else {
        len.saturating_sub(stop.unsigned_abs() as usize)
    }
}

/// `make_choice_cards`: one budgeted card per item with its score, sorted when any score is
/// given, then the first `max_cards` (Python slice semantics).
///
/// ```
/// use agentwire::gateway::card::{make_choice_cards, CardBudget};
/// use agentwire::gateway::Item;
/// let read = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?;
/// let write = Item::from_value(&agentwire::json::parse(r#"{"id":"fs:write@1"}"#)?)?;
/// let scores = [("fs:write@1".to_string(), Some(0.8)), ("fs:read@1".to_string(), Some(0.3))];
/// let words = |text: &str| text.split_whitespace().count();
/// let cards = make_choice_cards(&[&read, &write], 1, &scores, &words, CardBudget::default())?;
/// assert_eq!((cards.len(), cards[0].id.as_str(), cards[0].score), (1, "fs:write@1", Some(0.8)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn make_choice_cards(
    items: &[&Item],
    max_cards: i64,
    scores: &[(String, Option<f64>)],
    counter: &dyn TokenCounter,
    budget: CardBudget,
) -> Result<Vec<ChoiceCard>> {
    let mut cards = Vec::with_capacity(items.len());
    for item in items {
        let score = scores
            .iter()
            .find(|(id, _)| *id == item.id)
            .and_then(|(_, s)| *s);
        let mut card = ChoiceCard::from_item(item, score);
        enforce_card_budget(&mut card, counter, budget).map_err(|(e, _)| e)?;
        cards.push(card);
    }
    if !scores.is_empty() {
        sort_for_browse(&mut cards);
    }
    cards.truncate(python_slice_len(cards.len(), max_cards));
    Ok(cards)
}

/// `bound_browse_response`: sorted, each card re-budgeted, tail cards dropped while the sum of
/// budget-line tokens plus 32 exceeds `80·n + 32` (with every card within the cap this never
/// drops one).
///
/// ```
/// use agentwire::gateway::card::{bound_browse_response, CardBudget};
/// use agentwire::gateway::ChoiceCard;
/// let words = |text: &str| text.split_whitespace().count();
/// let cards = vec![ChoiceCard::internal("b", "b", "Second.", ""), ChoiceCard::internal("a", "a", "First.", "")];
/// let bounded = bound_browse_response(cards, &words, CardBudget::default())?;
/// let ids: Vec<&str> = bounded.iter().map(|c| c.id.as_str()).collect();
/// assert_eq!(ids, ["a", "b"]); // sorted, none dropped
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn bound_browse_response(
    mut cards: Vec<ChoiceCard>,
    counter: &dyn TokenCounter,
    budget: CardBudget,
) -> Result<Vec<ChoiceCard>> {
    sort_for_browse(&mut cards);
    let mut tokens = Vec::with_capacity(cards.len());
    for card in &mut cards {
        tokens.push(
            enforce_card_budget(card, counter, budget)
                .map_err(|(e, _)| e)?
                .final_tokens,
        );
    }
    while !cards.is_empty()
        && tokens.iter().sum::<usize>() + BROWSE_RESPONSE_SLACK
            > response_cap_tokens(cards.len(), budget)
    {
        cards.pop();
        tokens.pop();
    }
    Ok(cards)
}

/// `hard_cap · n + 32`.
///
/// ```
/// use agentwire::gateway::card::{response_cap_tokens, CardBudget};
/// assert_eq!(response_cap_tokens(5, CardBudget::default()), 432); // 80 · 5 + 32
/// ```
pub fn response_cap_tokens(cards: usize, budget: CardBudget) -> usize {
    budget.hard_cap * cards + BROWSE_RESPONSE_SLACK
}

/// `render_cards_text`: the numbered budget lines joined with `\n`.
///
/// ```
/// use agentwire::gateway::card::render_cards_text;
/// use agentwire::gateway::ChoiceCard;
/// let cards = [ChoiceCard::internal("fs:read@1", "read", "Reads.", ""), ChoiceCard::internal("fs:write@1", "write", "Writes.", "")];
/// assert_eq!(
///     render_cards_text(&cards),
///     "[1/2] fs:read@1 (internal) \u{2014} Reads.\n[2/2] fs:write@1 (internal) \u{2014} Writes."
/// );
/// ```
pub fn render_cards_text(cards: &[ChoiceCard]) -> String {
    let total = cards.len();
    let lines: Vec<String> = cards
        .iter()
        .enumerate()
        .map(|(i, c)| c.budget_line(i + 1, total))
        .collect();
    lines.join("\n")
}

/// The `tool_browse` reply text: a JSON array of wire cards.
///
/// ```
/// use agentwire::gateway::card::cards_wire_json;
/// use agentwire::gateway::ChoiceCard;
/// assert_eq!(cards_wire_json(&[]), "[]");
/// let text = cards_wire_json(&[ChoiceCard::internal("a", "a", "", ""), ChoiceCard::internal("b", "b", "", "")]);
/// assert!(text.starts_with(r#"[{"id": "a", "#) && text.contains(r#"}, {"id": "b", "#));
/// ```
pub fn cards_wire_json(cards: &[ChoiceCard]) -> String {
    let mut out = String::from("[");
    for (i, card) in cards.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        card.write_wire_json(&mut out);
    }
    out.push(']');
    out
}
