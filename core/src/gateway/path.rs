//! Browse paths (`routing/path.py`, `routing/tree.py`): the §3.2 grammar in the reference's
//! check order, the navigation tree over a catalog, and path resolution.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::card::ChoiceCard;
use super::item::Item;
use crate::json::Value;
use crate::{Error, ErrorKind, Position, Result};

/// Most children of a tree node before the tree groups them.
///
/// ```
/// use agentwire::gateway::path::{build_tree, MAX_CHILDREN};
/// use agentwire::gateway::Item;
/// use agentwire::json;
/// let items = |n: usize| {
///     (0..n)
///         .map(|i| Item::from_value(&json::parse(&format!(r#"{{"id":"t:tool{i:02}@1"}}"#))?))
///         .collect::<Result<Vec<Item>, _>>()
/// };
/// assert_eq!(build_tree(&items(MAX_CHILDREN)?).children.len(), MAX_CHILDREN);
/// // One more, and the level is cut into chunks of at most MAX_CHILDREN.
/// assert_eq!(build_tree(&items(MAX_CHILDREN + 1)?).children.len(), 2);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub const MAX_CHILDREN: usize = 20;

fn path_error(kind: ErrorKind, message: String, offset: usize, path: &str) -> Error {
    Error::at(kind, message, Position::in_text(path.as_bytes(), offset))
}

fn is_segment(text: &str, first: impl Fn(char) -> bool) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(first)
        && text.chars().count() <= 64
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// Parses a browse path: `/` is the root (no segments), otherwise `/seg(/seg)*` with `*` allowed
/// as the last segment. Errors carry the byte offset of the fault.
///
/// ```
/// use agentwire::gateway::path::parse_path;
/// assert_eq!(parse_path("/")?, Vec::<&str>::new());
/// assert_eq!(parse_path("/github/issues/*")?, ["github", "issues", "*"]);
/// let err = parse_path("/github/*/x").unwrap_err();
/// assert_eq!((err.code(), err.offset()), ("PATH_WILDCARD_NOT_FINAL", Some(8)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parse_path(path: &str) -> Result<Vec<&str>> {
    if path.is_empty() {
        return Err(Error::new(ErrorKind::PathEmpty, "path must not be empty"));
    }
    if !path.starts_with('/') {
        return Err(path_error(
            ErrorKind::PathNoLeadingSlash,
            alloc::format!("path must start with '/' (got '{path}')"),
            0,
            path,
        ));
    }
    if path == "/" {
        return Ok(Vec::new());
    }
    if path.ends_with('/') {
        return Err(path_error(
            ErrorKind::PathTrailingSlash,
            alloc::format!("path must not end with '/' (got '{path}')"),
            path.len() - 1,
            path,
        ));
    }
    let segments: Vec<&str> = path[1..].split('/').collect();
    let last = segments.len() - 1;
    let mut offset = 1;
    for (i, segment) in segments.iter().enumerate() {
        if segment.is_empty() {
            return Err(path_error(
                ErrorKind::PathEmptySegment,
                alloc::format!("empty segment at index {i} in '{path}'"),
                offset,
                path,
            ));
        }
        if *segment == "*" {
            if i != last {
                return Err(path_error(
                    ErrorKind::PathWildcardNotFinal,
                    alloc::format!("wildcard '*' may only appear as the final segment in '{path}'"),
                    offset,
                    path,
                ));
            }
        } else if i == 0 {
            if !is_segment(segment, |c| c.is_ascii_lowercase()) {
                return Err(path_error(
                    ErrorKind::PathRootSegmentGrammar,
                    alloc::format!("root segment '{segment}' must start with [a-z] (\u{a7}3.2)"),
                    offset,
                    path,
                ));
            }
        } else if !is_segment(segment, |c| c.is_ascii_lowercase() || c.is_ascii_digit()) {
            return Err(path_error(
                ErrorKind::PathSegmentGrammar,
                alloc::format!("segment '{segment}' not matching \u{a7}3.2 grammar"),
                offset,
                path,
            ));
        }
        offset += segment.len() + 1;
    }
    Ok(segments)
}

/// [`parse_path`] of a JSON value: a non-string is `PATH_NOT_A_STRING`.
///
/// ```
/// use agentwire::gateway::path::parse_path_value;
/// use agentwire::json::Value;
/// assert_eq!(parse_path_value(&Value::from("/fs"))?, ["fs"]);
/// assert_eq!(parse_path_value(&Value::Null).unwrap_err().code(), "PATH_NOT_A_STRING");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn parse_path_value(value: &Value) -> Result<Vec<&str>> {
    match value {
        Value::String(path) => parse_path(path),
        other => Err(Error::new(
            ErrorKind::PathNotAString,
            alloc::format!(
                "path must be a string, got {}",
                super::tool_id::python_type(other)
            ),
        )),
    }
}

/// The segment a node is addressed by (`_segment_label_for`): after the last `/`, else the
/// name part of a tool id, else the id; lower-cased.
///
/// ```
/// use agentwire::gateway::path::segment_label;
/// assert_eq!(segment_label("fs:read_file#7c3e638f"), "read_file");
/// assert_eq!(segment_label("everything:getTinyImage@1"), "gettinyimage");
/// assert_eq!(segment_label("root/github"), "github");
/// ```
pub fn segment_label(id: &str) -> String {
    let label = if let Some((_, tail)) = id.rsplit_once('/') {
        tail
    } else if let Some((_, rest)) = id.split_once(':') {
        rest.split(['@', '#']).next().unwrap_or(rest)
    } else {
        id
    };
    label.to_lowercase()
}

/// A node of the navigation tree.
///
/// ```
/// use agentwire::gateway::path::{build_tree, Node};
/// use agentwire::gateway::Item;
/// let items = [Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?];
/// let tree = build_tree(&items);
/// assert_eq!(tree.children, [Node::Leaf(0)]);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A catalog item (index into the catalog's items).
    Leaf(usize),
    /// A group of nodes.
    Group(Group),
}

/// An internal node: its id (`root/<ns>`), display label and hint, and children.
///
/// ```
/// use agentwire::gateway::path::{build_tree, Node};
/// use agentwire::gateway::Item;
/// // 21 tools in two namespaces: too many for one level, so one group per namespace.
/// let items: Vec<Item> = (0..21)
///     .map(|i| {
///         let ns = if i < 11 { "fs" } else { "git" };
///         Item::from_value(&agentwire::json::parse(&format!(r#"{{"id":"{ns}:t{i}@1","namespace":"{ns}"}}"#)).unwrap())
///     })
///     .collect::<Result<_, _>>()?;
/// let tree = build_tree(&items);
/// let ids: Vec<&str> = tree.children.iter().map(|n| match n { Node::Group(g) => g.id.as_str(), Node::Leaf(_) => "" }).collect();
/// assert_eq!(ids, ["root/fs", "root/git"]);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// `root/<ns>` (and deeper for split groups).
    pub id: String,
    /// Display label (keyword summary).
    pub label: String,
    /// One-line routing hint.
    pub hint: String,
    /// Children in display order.
    pub children: Vec<Node>,
}

impl Group {
    /// The internal card shown for this group.
    ///
    /// ```
    /// use agentwire::gateway::path::Group;
    /// use agentwire::gateway::Kind;
    /// let group = Group { id: "root/fs".into(), label: "fs: file read".into(), hint: "Tools related to fs: file read".into(), children: Vec::new() };
    /// let card = group.card();
    /// assert_eq!((card.id.as_str(), card.name.as_str(), card.kind), ("root/fs", "fs: file read", Kind::Internal));
    /// assert_eq!(card.description, "Tools related to fs: file read");
    /// ```
    pub fn card(&self) -> ChoiceCard {
        let namespace = self.id.split_once(':').map_or("", |(ns, _)| ns);
        ChoiceCard::internal(&self.id, &self.label, &self.hint, namespace)
    }
}

/// Builds the navigation tree (`TreeBuilder`, `max_children = 20`): flat when the catalog is
/// small, otherwise one group per namespace, alphabetical chunks where a level stays too wide.
///
/// ```
/// use agentwire::gateway::path::{build_tree, Node};
/// use agentwire::gateway::Item;
/// let items = [
///     Item::from_value(&agentwire::json::parse(r#"{"id":"fs:write@1"}"#)?)?,
///     Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?,
/// ];
/// let tree = build_tree(&items);
/// // Small catalogs are flat, in id order.
/// assert_eq!((tree.id.as_str(), tree.children.as_slice()), ("root", [Node::Leaf(1), Node::Leaf(0)].as_slice()));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn build_tree(items: &[Item]) -> Group {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| items[a].id.cmp(&items[b].id));
    let children = if order.len() <= MAX_CHILDREN {
        order.into_iter().map(Node::Leaf).collect()
    } else {
        let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for &i in &order {
            groups
                .entry(items[i].namespace.as_str())
                .or_default()
                .push(i);
        }
        if groups.len() < 2 {
            alphabetical_chunks("root", &order, items)
        } else {
            groups
                .into_iter()
                .map(|(namespace, members)| {
                    let id = alloc::format!("root/{namespace}");
                    let children = if members.len() <= MAX_CHILDREN {
                        members.iter().map(|&i| Node::Leaf(i)).collect()
                    } else {
                        alphabetical_chunks(&id, &members, items)
                    };
                    Node::Group(labelled(id, &members, items, children))
                })
                .collect()
        }
    };
    Group {
        id: "root".into(),
        label: "root".into(),
        hint: String::new(),
        children,
    }
}

/// Chunks of at most [`MAX_CHILDREN`] items in id order, labelled `first-last` by initial.
fn alphabetical_chunks(parent: &str, members: &[usize], items: &[Item]) -> Vec<Node> {
    members
        .chunks(MAX_CHILDREN)
        .map(|chunk| {
            let initial = |i: usize| {
                items[i]
                    .id
                    .chars()
                    .next()
                    .map_or('_', |c| c.to_ascii_uppercase())
            };
            let id = alloc::format!(
                "{parent}/{}-{}",
                initial(chunk[0]),
                initial(chunk[chunk.len() - 1])
            );
            Node::Group(labelled(
                id,
                chunk,
                items,
                chunk.iter().map(|&i| Node::Leaf(i)).collect(),
            ))
        })
        .collect()
}

const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "between", "by", "can", "for", "from", "has", "if",
    "in", "into", "is", "it", "its", "not", "of", "on", "one", "or", "that", "the", "this", "to",
    "use", "when", "will", "with", "you", "your",
];

/// A keyword label in the spirit of contextweaver's KeywordLabeler (informative only: the
/// vectors do not pin it): the three most frequent words across the members' names,
/// descriptions and tags, prefixed by the namespace most members share.
fn labelled(id: String, members: &[usize], items: &[Item], children: Vec<Node>) -> Group {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut namespaces: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in members {
        let item = &items[i];
        *namespaces.entry(item.namespace.as_str()).or_default() += 1;
        let mut words: Vec<String> = Vec::new();
        for text in [item.name.as_str(), item.description.as_str()]
            .into_iter()
            .chain(item.tags.iter().map(String::as_str))
        {
            for word in text.split(|c: char| !c.is_alphanumeric()) {
                let word = word.to_lowercase();
                if word.chars().count() >= 3
                    && !STOPWORDS.contains(&word.as_str())
                    && !words.contains(&word)
                {
                    words.push(word);
                }
            }
        }
        for word in words {
            *counts.entry(word).or_default() += 1;
        }
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let keywords: Vec<&str> = ranked.iter().take(3).map(|(w, _)| w.as_str()).collect();
    let keywords = keywords.join(" ");
    let dominant = namespaces
        .iter()
        .max_by_key(|(_, n)| **n)
        .filter(|(_, n)| **n * 5 >= members.len() * 3);
    let label = match dominant {
        Some((ns, _)) if !ns.is_empty() => alloc::format!("{ns}: {keywords}"),
        _ => keywords,
    };
    let hint = alloc::format!("Tools related to {label}");
    Group {
        id,
        label,
        hint,
        children,
    }
}

/// Where a path led: the nodes to show, or the walked prefix that failed.
///
/// ```
/// use agentwire::gateway::path::{build_tree, parse_path, resolve, Node};
/// use agentwire::gateway::Item;
/// let items = [
///     Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1"}"#)?)?,
///     Item::from_value(&agentwire::json::parse(r#"{"id":"fs:write@1"}"#)?)?,
/// ];
/// let tree = build_tree(&items);
/// assert_eq!(resolve(&tree, &items, &parse_path("/write")?), Ok(vec![&Node::Leaf(1)]));
/// assert_eq!(resolve(&tree, &items, &parse_path("/*")?).map(|n| n.len()), Ok(2));
/// assert_eq!(resolve(&tree, &items, &parse_path("/delete/x")?), Err("/delete".to_string()));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn resolve<'t>(
    root: &'t Group,
    items: &[Item],
    segments: &[&str],
) -> core::result::Result<Vec<&'t Node>, String> {
    let mut children: &'t [Node] = &root.children;
    let mut matched: Option<&'t Node> = None;
    let mut walked = String::new();
    for segment in segments {
        walked.push('/');
        walked.push_str(segment);
        if *segment == "*" {
            return Ok(children.iter().collect());
        }
        let found = children.iter().find(|node| match node {
            Node::Leaf(i) => segment_label(&items[*i].id) == *segment,
            Node::Group(group) => segment_label(&group.id) == *segment,
        });
        match found {
            Some(node) => {
                matched = Some(node);
                children = match node {
                    Node::Group(group) => &group.children,
                    Node::Leaf(_) => &[],
                };
            }
            None => return Err(walked),
        }
    }
    Ok(match matched {
        None => root.children.iter().collect(),
        Some(node) => match node {
            Node::Group(group) if !group.children.is_empty() => group.children.iter().collect(),
            _ => alloc::vec![node],
        },
    })
}

/// The cards of resolved nodes: item cards for leaves, internal cards for groups.
///
/// ```
/// use agentwire::gateway::path::{build_tree, node_cards, resolve};
/// use agentwire::gateway::Item;
/// let items = [Item::from_value(&agentwire::json::parse(r#"{"id":"fs:read@1","description":"Reads a file."}"#)?)?];
/// let tree = build_tree(&items);
/// let nodes = resolve(&tree, &items, &[]).unwrap();
/// let cards = node_cards(&nodes, &items);
/// assert_eq!((cards[0].id.as_str(), cards[0].description.as_str()), ("fs:read@1", "Reads a file."));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn node_cards(nodes: &[&Node], items: &[Item]) -> Vec<ChoiceCard> {
    nodes
        .iter()
        .filter_map(|node| match node {
            Node::Leaf(i) => items.get(*i).map(|item| ChoiceCard::from_item(item, None)),
            Node::Group(group) => Some(group.card()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_order_and_labels() {
        assert_eq!(parse_path("/a/b/*").unwrap(), ["a", "b", "*"]);
        assert_eq!(parse_path("//").unwrap_err().code(), "PATH_TRAILING_SLASH");
        assert_eq!(
            parse_path("/github\n").unwrap_err().code(),
            "PATH_ROOT_SEGMENT_GRAMMAR"
        );
        let e = parse_path("/a//b").unwrap_err();
        assert_eq!((e.code(), e.offset()), ("PATH_EMPTY_SEGMENT", Some(3u64)));
        assert_eq!(
            segment_label("everything:getTinyImage#1f27b247"),
            "gettinyimage"
        );
        assert_eq!(segment_label("root/time"), "time");
        assert_eq!(segment_label("x"), "x");
    }

    proptest::proptest! {
        #[test]
        fn any_text_parses_or_fails_with_a_path_kind(path in "\\PC{0,40}") {
            match parse_path(&path) {
                Ok(segments) => proptest::prop_assert!(segments.iter().all(|s| !s.is_empty())),
                Err(e) => proptest::prop_assert!(e.code().starts_with("PATH_")),
            }
            let ids = super::super::tool_id::parse_tool_id(&path);
            proptest::prop_assert!(ids.map_or_else(|e| e.code().starts_with("TOOL_ID_"), |_| true));
        }
    }
}
