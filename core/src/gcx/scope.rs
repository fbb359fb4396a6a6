//! The workspace-aware MCP shapes of the GCX1 spec: the `tool_definitions` registry, the
//! `tool_request` envelope and the `error` envelope, with validation on encode and decode, and
//! [`check_request`], which decides whether a call is legal.
//!
//! gcx-go has no such code; these follow the spec and are checked against the scope fixtures
//! (`tests/fixtures/gcx1/scope/*.gcx`) byte for byte.
//!
//! ```
//! use agentwire::gcx::scope::{decode_tool_definitions, encode_tool_definitions, Scope, ToolDefinition};
//! let definitions = [ToolDefinition { name: "search".into(), scope: Scope::FanOut }];
//! let payload = encode_tool_definitions(&definitions, &Default::default())?;
//! assert_eq!(decode_tool_definitions(&payload)?, definitions);
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::decode::{DecodeOptions, Decoder, Item};
use super::encode::{Cell, EncodeOptions, Encoder};
use super::header::Header;
use crate::json::{self, Value, WriteOptions};
use crate::text::quote;
use crate::{Error, ErrorKind, Position, Result};

/// How a tool relates to the repos of a workspace.
///
/// ```
/// use agentwire::gcx::scope::Scope;
/// let scope = Scope::parse("fan-out")?;
/// assert_eq!(scope, Scope::FanOut);
/// assert_eq!(Scope::ALL.map(Scope::as_str), ["repo", "workspace", "fan-out"]);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Scope {
    /// Works on one repo: the request names it.
    Repo,
    /// Works on the workspace as a whole: the request has no repo.
    Workspace,
    /// Runs over several repos: the request lists them (`["*"]` = every repo).
    FanOut,
}

impl Scope {
    /// Every scope.
    pub const ALL: [Scope; 3] = [Scope::Repo, Scope::Workspace, Scope::FanOut];

    /// `repo`, `workspace` or `fan-out`.
    ///
    /// ```
    /// use agentwire::gcx::scope::Scope;
    /// assert_eq!(Scope::Workspace.as_str(), "workspace");
    /// assert_eq!(Scope::parse(Scope::Repo.as_str())?, Scope::Repo);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Repo => "repo",
            Scope::Workspace => "workspace",
            Scope::FanOut => "fan-out",
        }
    }

    /// Reads exactly `repo`, `workspace` or `fan-out`.
    ///
    /// ```
    /// use agentwire::gcx::scope::Scope;
    /// assert_eq!(Scope::parse("repo")?, Scope::Repo);
    /// assert_eq!(Scope::parse("Repo").unwrap_err().code(), "GCX_SCHEMA");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Scope> {
        match text {
            "repo" => Ok(Scope::Repo),
            "workspace" => Ok(Scope::Workspace),
            "fan-out" => Ok(Scope::FanOut),
            "" => Err(schema(
                "missing scope (expected repo, workspace or fan-out)",
            )),
            _ => Err(schema(alloc::format!(
                "unknown scope {text} (expected repo, workspace or fan-out)",
                text = quote(text)
            ))),
        }
    }
}

/// One entry of the `tool_definitions` registry.
///
/// ```
/// use agentwire::gcx::scope::{encode_tool_definitions, Scope, ToolDefinition};
/// let definition = ToolDefinition { name: "grep".into(), scope: Scope::Repo };
/// let payload = encode_tool_definitions(&[definition], &Default::default())?;
/// assert_eq!(payload, "GCX1 tool=tool_definitions fields=name,scope\ngrep\trepo\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolDefinition {
    /// MCP tool name.
    pub name: String,
    /// Its scope.
    pub scope: Scope,
}

/// The `repo` parameter of a request, in any shape a client may send.
///
/// ```
/// use agentwire::gcx::scope::{decode_tool_request, RepoParam};
/// let request = decode_tool_request(
///     "GCX1 tool=tool_request fields=tool,scope,repo\nsearch\tfan-out\t[\"a\",\"b\"]\n",
/// )?;
/// assert_eq!(request.repo, RepoParam::List(vec!["a".into(), "b".into()]));
/// assert_eq!(RepoParam::default(), RepoParam::Absent);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RepoParam {
    /// No `repo` parameter.
    #[default]
    Absent,
    /// A single repo name.
    Name(String),
    /// A list of repo names (`["*"]` = every repo of the workspace).
    List(Vec<String>),
}

/// The wildcard repo list entry: `["*"]` fans out over every repo.
pub const WILDCARD: &str = "*";

/// One inbound MCP call (`tool_request` section).
///
/// ```
/// use agentwire::gcx::scope::{encode_tool_request, RepoParam, Scope, ToolRequest};
/// let request = ToolRequest {
///     tool: "grep".into(),
///     scope: Scope::Repo,
///     repo: RepoParam::Name("core".into()),
/// };
/// let payload = encode_tool_request(&request, &Default::default())?;
/// assert_eq!(
///     payload,
///     "GCX1 tool=tool_request fields=tool,scope,repo\ngrep\trepo\tcore\n"
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolRequest {
    /// The tool called.
    pub tool: String,
    /// The scope the request is shaped for.
    pub scope: Scope,
    /// The `repo` parameter.
    pub repo: RepoParam,
}

/// A protocol-level rejection (`error` section).
///
/// ```
/// use agentwire::gcx::scope::{
///     decode_error_envelope, encode_error_envelope, ErrorEnvelope,
/// };
/// let envelope = ErrorEnvelope {
///     code: "missing_repo".into(),
///     message: "repo tool requires a repo".into(),
///     detail: String::new(),
/// };
/// let payload = encode_error_envelope(&envelope, &Default::default())?;
/// assert_eq!(decode_error_envelope(&payload)?, envelope);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ErrorEnvelope {
    /// Machine-readable code (non-empty), one of [`ErrorCode`] for scope errors.
    pub code: String,
    /// Human-readable message.
    pub message: String,
    /// Free-form detail.
    pub detail: String,
}

/// The error codes of the GCX1 spec's workspace shapes.
///
/// ```
/// use agentwire::gcx::scope::ErrorCode;
/// // Reading a wire code back.
/// let code = ErrorCode::ALL.into_iter().find(|c| c.as_str() == "missing_repo");
/// assert_eq!(code, Some(ErrorCode::MissingRepo));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ErrorCode {
    /// A fan-out request lists a repo that is not in the active workspace.
    UnknownRepo,
    /// A `fan-out` request has no `repo` list.
    MissingRepoList,
    /// A `repo` request has no `repo`.
    MissingRepo,
    /// A `workspace` request has a `repo`.
    RepoNotAllowed,
    /// The `repo` parameter has the wrong shape for the tool's scope.
    WrongRepoShape,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: [ErrorCode; 5] = [
        ErrorCode::UnknownRepo,
        ErrorCode::MissingRepoList,
        ErrorCode::MissingRepo,
        ErrorCode::RepoNotAllowed,
        ErrorCode::WrongRepoShape,
    ];

    /// The wire text, e.g. `unknown_repo`.
    ///
    /// ```
    /// use agentwire::gcx::scope::ErrorCode;
    /// assert_eq!(ErrorCode::RepoNotAllowed.as_str(), "repo_not_allowed");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownRepo => "unknown_repo",
            ErrorCode::MissingRepoList => "missing_repo_list",
            ErrorCode::MissingRepo => "missing_repo",
            ErrorCode::RepoNotAllowed => "repo_not_allowed",
            ErrorCode::WrongRepoShape => "wrong_repo_shape",
        }
    }

    /// The JS constant name, e.g. `ERR_CODE_UNKNOWN_REPO`.
    ///
    /// ```
    /// use agentwire::gcx::scope::ErrorCode;
    /// assert_eq!(ErrorCode::MissingRepoList.constant_name(), "ERR_CODE_MISSING_REPO_LIST");
    /// ```
    pub fn constant_name(self) -> String {
        alloc::format!("ERR_CODE_{}", self.as_str().to_ascii_uppercase())
    }
}

fn schema(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::GcxSchema, message)
}

const DEFINITIONS: &str = "tool_definitions";
const REQUEST: &str = "tool_request";
const ERROR: &str = "error";

// ---- encoding -------------------------------------------------------------------------------

fn encode_section(
    tool: &str,
    fields: [&str; 3],
    rows: &[[&str; 3]],
    width: usize,
    options: &EncodeOptions,
) -> Result<String> {
    let mut encoder = Encoder::new(String::new(), options.clone());
    encoder.begin_section(&Header::new(tool, fields.iter().take(width).copied()))?;
    for row in rows {
        let cells: Vec<Cell<'_>> = row.iter().take(width).map(|v| Cell::Str(v)).collect();
        encoder.write_row(&cells)?;
    }
    encoder.finish()
}

/// The `tool_definitions` section: rows sorted by name (bytes), whatever the input order.
/// Empty or duplicate names are schema errors.
///
/// ```
/// use agentwire::gcx::scope::{encode_tool_definitions, Scope, ToolDefinition};
/// let definitions = [
///     ToolDefinition { name: "search".into(), scope: Scope::FanOut },
///     ToolDefinition { name: "list_repos".into(), scope: Scope::Workspace },
/// ];
/// let payload = encode_tool_definitions(&definitions, &Default::default())?;
/// let head = "GCX1 tool=tool_definitions fields=name,scope\n";
/// assert_eq!(payload, format!("{head}list_repos\tworkspace\nsearch\tfan-out\n"));
/// let twice = [definitions[0].clone(), definitions[0].clone()];
/// let err = encode_tool_definitions(&twice, &Default::default()).unwrap_err();
/// assert_eq!(err.code(), "GCX_SCHEMA");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_tool_definitions(
    definitions: &[ToolDefinition],
    options: &EncodeOptions,
) -> Result<String> {
    let mut order = crate::text::indices(definitions.len());
    crate::text::sort_by_text(&mut order, &|i| &definitions[i].name);
    let sorted: Vec<&ToolDefinition> = order.iter().map(|&i| &definitions[i as usize]).collect();
    for (i, d) in sorted.iter().enumerate() {
        if d.name.is_empty() {
            return Err(schema("tool definition with an empty name"));
        }
        if i > 0 && sorted[i - 1].name == d.name {
            return Err(schema(alloc::format!(
                "tool {} is defined twice",
                quote(&d.name)
            )));
        }
    }
    let rows: Vec<[&str; 3]> = sorted
        .iter()
        .map(|d| [d.name.as_str(), d.scope.as_str(), ""])
        .collect();
    encode_section(DEFINITIONS, ["name", "scope", ""], &rows, 2, options)
}

/// The `repo` cell of a request: the name, empty, or a compact JSON array.
fn repo_cell(request: &ToolRequest) -> Result<String> {
    check_repo_shape(request.scope, &request.repo)?;
    Ok(match &request.repo {
        RepoParam::Absent => String::new(),
        RepoParam::Name(name) => name.clone(),
        RepoParam::List(names) => {
            let list = Value::Array(names.iter().map(|n| Value::from(n.as_str())).collect());
            json::to_string(&list, WriteOptions::GO)?
        }
    })
}

/// The repo parameter must have the shape its scope prescribes.
fn check_repo_shape(scope: Scope, repo: &RepoParam) -> Result<()> {
    match (scope, repo) {
        (Scope::Repo, RepoParam::Name(name)) if !name.is_empty() => Ok(()),
        (Scope::Repo, _) => Err(schema("scope repo needs a non-empty repo name")),
        (Scope::Workspace, RepoParam::Absent) => Ok(()),
        (Scope::Workspace, _) => Err(schema("scope workspace takes no repo")),
        (Scope::FanOut, RepoParam::List(names)) => check_repo_list(names),
        (Scope::FanOut, _) => Err(schema("scope fan-out needs a repo list")),
    }
}

fn check_repo_list(names: &[String]) -> Result<()> {
    if names.is_empty() {
        return Err(schema("scope fan-out needs a non-empty repo list"));
    }
    if names.len() > 1 && names.iter().any(|n| n == WILDCARD) {
        return Err(schema("\"*\" must be the only entry of a repo list"));
    }
    if names.iter().any(String::is_empty) {
        return Err(schema("empty repo name in the repo list"));
    }
    Ok(())
}

/// The `tool_request` section (one row); the repo parameter must match the scope.
///
/// ```
/// use agentwire::gcx::scope::{encode_tool_request, RepoParam, Scope, ToolRequest};
/// let request = ToolRequest {
///     tool: "search".into(),
///     scope: Scope::FanOut,
///     repo: RepoParam::List(vec!["*".into()]),
/// };
/// let payload = encode_tool_request(&request, &Default::default())?;
/// assert_eq!(
///     payload,
///     "GCX1 tool=tool_request fields=tool,scope,repo\nsearch\tfan-out\t[\"*\"]\n"
/// );
/// let wrong = ToolRequest { repo: RepoParam::Absent, ..request };
/// assert_eq!(
///     encode_tool_request(&wrong, &Default::default()).unwrap_err().code(),
///     "GCX_SCHEMA"
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_tool_request(request: &ToolRequest, options: &EncodeOptions) -> Result<String> {
    if request.tool.is_empty() {
        return Err(schema("tool_request with an empty tool name"));
    }
    let repo = repo_cell(request)?;
    let row = [request.tool.as_str(), request.scope.as_str(), repo.as_str()];
    encode_section(REQUEST, ["tool", "scope", "repo"], &[row], 3, options)
}

/// The `error` section (one row); `code` must be non-empty.
///
/// ```
/// use agentwire::gcx::scope::{encode_error_envelope, ErrorCode, ErrorEnvelope};
/// let envelope = ErrorEnvelope {
///     code: ErrorCode::UnknownRepo.as_str().into(),
///     message: "repo not in the active workspace".into(),
///     detail: "repo=x".into(),
/// };
/// let payload = encode_error_envelope(&envelope, &Default::default())?;
/// let head = "GCX1 tool=error fields=code,message,detail\n";
/// assert_eq!(payload, format!("{head}unknown_repo\trepo not in the active workspace\trepo=x\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_error_envelope(envelope: &ErrorEnvelope, options: &EncodeOptions) -> Result<String> {
    if envelope.code.is_empty() {
        return Err(schema("error envelope with an empty code"));
    }
    let row = [
        envelope.code.as_str(),
        envelope.message.as_str(),
        envelope.detail.as_str(),
    ];
    encode_section(ERROR, ["code", "message", "detail"], &[row], 3, options)
}

// ---- decoding -------------------------------------------------------------------------------

/// The rows of the single section of a shape, with the position of each row's cells.
struct ShapeRows {
    rows: Vec<(Vec<String>, Vec<Position>)>,
}

fn read_shape(payload: &str, tool: &str, fields: &[&str]) -> Result<ShapeRows> {
    let mut decoder = Decoder::from_slice(payload.as_bytes(), DecodeOptions::default());
    let mut rows = Vec::new();
    let mut sections = 0;
    while let Some(item) = decoder.next()? {
        let values: Vec<String> = match item {
            Item::Section(header) => {
                sections += 1;
                let problem = if sections > 1 {
                    Some(alloc::format!("a {tool} payload has exactly one section"))
                } else if header.tool != tool {
                    Some(alloc::format!(
                        "expected a {tool} section, got {}",
                        quote(&header.tool)
                    ))
                } else if header.fields != fields {
                    Some(alloc::format!(
                        "{tool} fields must be {}, got {}",
                        fields.join(","),
                        header.fields.join(",")
                    ))
                } else {
                    None
                };
                if let Some(message) = problem {
                    let error = schema(message);
                    return Err(match decoder.last_line() {
                        Some((line, offset, text)) => {
                            error.with_position(Position::in_line(text, line, offset, 0))
                        }
                        None => error,
                    });
                }
                continue;
            }
            Item::Row(values) => values.into_iter().map(|v| v.into_owned()).collect(),
            Item::Comment(_) => continue,
        };
        let positions = match decoder.last_line() {
            Some((line, offset, text)) => cell_positions(text, line, offset, values.len()),
            None => Vec::new(),
        };
        rows.push((values, positions));
    }
    Ok(ShapeRows { rows })
}

/// The position of the start of each TAB-separated cell of a row line.
fn cell_positions(text: &[u8], line: u64, offset: u64, cells: usize) -> Vec<Position> {
    let mut starts = alloc::vec![0usize];
    starts.extend(
        text.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\t')
            .map(|(i, _)| i + 1),
    );
    (0..cells)
        .map(|i| {
            Position::in_line(
                text,
                line,
                offset,
                starts.get(i).copied().unwrap_or(text.len()),
            )
        })
        .collect()
}

fn at(error: Error, positions: &[Position], cell: usize) -> Error {
    match positions.get(cell) {
        Some(p) => error.with_position(*p),
        None => error,
    }
}

fn single_row(shape: ShapeRows, tool: &str) -> Result<(Vec<String>, Vec<Position>)> {
    let count = shape.rows.len();
    let mut rows = shape.rows.into_iter();
    match (rows.next(), count) {
        (Some(row), 1) => Ok(row),
        _ => Err(schema(alloc::format!(
            "a {tool} section has exactly one row, got {count}"
        ))),
    }
}

/// Reads a `tool_definitions` section, validating every scope and refusing duplicates.
///
/// ```
/// use agentwire::gcx::scope::{decode_tool_definitions, Scope};
/// let payload = "GCX1 tool=tool_definitions fields=name,scope\ngrep\trepo\nls\tworkspace\n";
/// let definitions = decode_tool_definitions(payload)?;
/// assert_eq!((definitions[1].name.as_str(), definitions[1].scope), ("ls", Scope::Workspace));
/// let bad = "GCX1 tool=tool_definitions fields=name,scope\ngrep\tall\n";
/// let err = decode_tool_definitions(bad).unwrap_err();
/// assert_eq!((err.code(), err.line(), err.column()), ("GCX_SCHEMA", Some(2), Some(6)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_tool_definitions(payload: &str) -> Result<Vec<ToolDefinition>> {
    let shape = read_shape(payload, DEFINITIONS, &["name", "scope"])?;
    let mut definitions: Vec<ToolDefinition> = Vec::with_capacity(shape.rows.len());
    for (values, positions) in shape.rows {
        let name = values[0].clone();
        if name.is_empty() {
            return Err(at(
                schema("tool definition with an empty name"),
                &positions,
                0,
            ));
        }
        if definitions.iter().any(|d| d.name == name) {
            return Err(at(
                schema(alloc::format!(
                    "tool {name} is defined twice",
                    name = quote(&name)
                )),
                &positions,
                0,
            ));
        }
        let scope = Scope::parse(&values[1]).map_err(|e| at(e, &positions, 1))?;
        definitions.push(ToolDefinition { name, scope });
    }
    Ok(definitions)
}

/// Reads a `tool_request` section; the repo cell must have the shape its scope prescribes
/// (plain name, empty, or a compact JSON array of names).
///
/// ```
/// use agentwire::gcx::scope::{decode_tool_request, RepoParam, Scope};
/// let request = decode_tool_request(
///     "GCX1 tool=tool_request fields=tool,scope,repo\ngrep\trepo\tcore\n",
/// )?;
/// assert_eq!((request.tool.as_str(), request.scope), ("grep", Scope::Repo));
/// assert_eq!(request.repo, RepoParam::Name("core".into()));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_tool_request(payload: &str) -> Result<ToolRequest> {
    let (values, positions) = single_row(
        read_shape(payload, REQUEST, &["tool", "scope", "repo"])?,
        REQUEST,
    )?;
    let [tool, scope, repo] = [&values[0], &values[1], &values[2]];
    if tool.is_empty() {
        return Err(at(
            schema("tool_request with an empty tool name"),
            &positions,
            0,
        ));
    }
    let scope = Scope::parse(scope).map_err(|e| at(e, &positions, 1))?;
    let repo = match scope {
        Scope::Workspace if repo.is_empty() => RepoParam::Absent,
        Scope::FanOut if repo.starts_with('[') => {
            RepoParam::List(parse_repo_list(repo).map_err(|e| at(e, &positions, 2))?)
        }
        _ if repo.is_empty() => RepoParam::Absent,
        _ => RepoParam::Name(repo.clone()),
    };
    check_repo_shape(scope, &repo).map_err(|e| at(e, &positions, 2))?;
    Ok(ToolRequest {
        tool: tool.clone(),
        scope,
        repo,
    })
}

fn parse_repo_list(cell: &str) -> Result<Vec<String>> {
    let bad = || {
        schema(alloc::format!(
            "repo cell {cell} is not a JSON array of repo names",
            cell = quote(cell)
        ))
    };
    match json::parse(cell).map_err(|_| bad())? {
        Value::Array(items) => items
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s),
                _ => Err(bad()),
            })
            .collect(),
        _ => Err(bad()),
    }
}

/// Reads an `error` section; the code must be non-empty.
///
/// ```
/// use agentwire::gcx::scope::decode_error_envelope;
/// let envelope = decode_error_envelope(
///     "GCX1 tool=error fields=code,message,detail\nmissing_repo\tno repo\t\n",
/// )?;
/// assert_eq!(
///     (envelope.code.as_str(), envelope.message.as_str(), envelope.detail.as_str()),
///     ("missing_repo", "no repo", "")
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_error_envelope(payload: &str) -> Result<ErrorEnvelope> {
    let (values, positions) = single_row(
        read_shape(payload, ERROR, &["code", "message", "detail"])?,
        ERROR,
    )?;
    if values[0].is_empty() {
        return Err(at(
            schema("error envelope with an empty code"),
            &positions,
            0,
        ));
    }
    let mut values = values.into_iter();
    let mut next = || values.next().unwrap_or_default();
    Ok(ErrorEnvelope {
        code: next(),
        message: next(),
        detail: next(),
    })
}

// ---- legality -------------------------------------------------------------------------------

fn envelope(code: ErrorCode, message: &str, detail: String) -> Option<ErrorEnvelope> {
    Some(ErrorEnvelope {
        code: code.as_str().into(),
        message: message.into(),
        detail,
    })
}

/// Decides whether `request` is legal for the tool's declared scope in a workspace holding
/// `workspace_repos`: `Ok(None)` when it is, `Ok(Some(envelope))` with the spec's error code
/// when it is not. The declared scope is authoritative (the request's own `scope` is not
/// trusted). A tool absent from `definitions` is an [`ErrorKind::InvalidArgument`] error.
///
/// ```
/// use agentwire::gcx::scope::{
///     check_request, ErrorCode, RepoParam, Scope, ToolDefinition, ToolRequest,
/// };
/// let definitions = [ToolDefinition { name: "grep".into(), scope: Scope::Repo }];
/// let repos = ["core".to_string(), "web".to_string()];
/// let ok = ToolRequest {
///     tool: "grep".into(),
///     scope: Scope::Repo,
///     repo: RepoParam::Name("web".into()),
/// };
/// assert_eq!(check_request(&definitions, &ok, &repos)?, None);
/// let unknown = ToolRequest { repo: RepoParam::Name("docs".into()), ..ok };
/// let envelope = check_request(&definitions, &unknown, &repos)?.unwrap();
/// assert_eq!(envelope.code, ErrorCode::UnknownRepo.as_str());
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn check_request(
    definitions: &[ToolDefinition],
    request: &ToolRequest,
    workspace_repos: &[String],
) -> Result<Option<ErrorEnvelope>> {
    let tool = &request.tool;
    let declared = definitions
        .iter()
        .find(|d| d.name == *tool)
        .ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!("tool {tool} has no definition", tool = quote(tool)),
            )
        })?
        .scope;
    let known = |name: &String| workspace_repos.contains(name);
    Ok(match (declared, &request.repo) {
        (Scope::Workspace, RepoParam::Absent) => None,
        (Scope::Workspace, _) => envelope(
            ErrorCode::RepoNotAllowed,
            "workspace tool takes no repo",
            alloc::format!("tool={tool}; omit repo"),
        ),
        (Scope::Repo, RepoParam::Absent) => envelope(
            ErrorCode::MissingRepo,
            "repo tool requires a repo",
            alloc::format!("tool={tool}; pass repo=<name>"),
        ),
        (Scope::Repo, RepoParam::List(_)) => envelope(
            ErrorCode::WrongRepoShape,
            "repo tool takes a single repo name",
            alloc::format!("tool={tool}; pass repo=<name>"),
        ),
        (Scope::Repo, RepoParam::Name(name)) if !known(name) => envelope(
            ErrorCode::UnknownRepo,
            "repo not in the active workspace",
            name.clone(),
        ),
        (Scope::Repo, RepoParam::Name(_)) => None,
        (Scope::FanOut, RepoParam::Absent) => envelope(
            ErrorCode::MissingRepoList,
            "fan-out tool requires a repo list",
            alloc::format!("tool={tool}; pass repo=[\"*\"] to fan out across every repo"),
        ),
        (Scope::FanOut, RepoParam::List(names)) if names.is_empty() => envelope(
            ErrorCode::MissingRepoList,
            "fan-out tool requires a repo list",
            alloc::format!("tool={tool}; pass repo=[\"*\"] to fan out across every repo"),
        ),
        (Scope::FanOut, RepoParam::Name(_)) => envelope(
            ErrorCode::WrongRepoShape,
            "fan-out tool takes a repo list",
            alloc::format!("tool={tool}; pass repo=[\"name\", ...] or [\"*\"]"),
        ),
        (Scope::FanOut, RepoParam::List(names))
            if names.len() > 1 && names.iter().any(|n| n == WILDCARD) =>
        {
            envelope(
                ErrorCode::WrongRepoShape,
                "\"*\" must be the only entry of a repo list",
                alloc::format!("tool={tool}"),
            )
        }
        (Scope::FanOut, RepoParam::List(names)) => {
            let unknown: Vec<&str> = names
                .iter()
                .filter(|n| n.as_str() != WILDCARD && !known(n))
                .map(String::as_str)
                .collect();
            if unknown.is_empty() {
                None
            } else {
                envelope(
                    ErrorCode::UnknownRepo,
                    "repo not in the active workspace",
                    unknown.join(","),
                )
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn defs() -> Vec<ToolDefinition> {
        vec![
            ToolDefinition {
                name: "search_symbols".into(),
                scope: Scope::FanOut,
            },
            ToolDefinition {
                name: "list_repos".into(),
                scope: Scope::Workspace,
            },
            ToolDefinition {
                name: "find_usages".into(),
                scope: Scope::Repo,
            },
        ]
    }

    #[test]
    fn definitions_sort_and_validate() {
        let out = encode_tool_definitions(&defs(), &EncodeOptions::default()).unwrap();
        assert_eq!(
            out,
            "GCX1 tool=tool_definitions fields=name,scope\nfind_usages\trepo\nlist_repos\tworkspace\nsearch_symbols\tfan-out\n"
        );
        assert_eq!(decode_tool_definitions(&out).unwrap().len(), 3);
        let bad = "GCX1 tool=tool_definitions fields=name,scope\nx\trepo\ny\tglobal\n";
        let e = decode_tool_definitions(bad).unwrap_err();
        assert_eq!(
            (e.code(), e.line(), e.column()),
            ("GCX_SCHEMA", Some(3), Some(3))
        );
        let missing = decode_tool_definitions("GCX1 tool=tool_definitions fields=name,scope\nx\n")
            .unwrap_err();
        assert_eq!(
            missing.message(),
            "missing scope (expected repo, workspace or fan-out)"
        );
    }

    #[test]
    fn requests_round_trip_with_their_repo_shape() {
        let req = ToolRequest {
            tool: "search_symbols".into(),
            scope: Scope::FanOut,
            repo: RepoParam::List(vec!["a<b".into(), "c".into()]),
        };
        let out = encode_tool_request(&req, &EncodeOptions::default()).unwrap();
        assert_eq!(
            out,
            "GCX1 tool=tool_request fields=tool,scope,repo\nsearch_symbols\tfan-out\t[\"a\\\\u003cb\",\"c\"]\n"
        );
        assert_eq!(decode_tool_request(&out).unwrap(), req);
        let wild = ToolRequest {
            repo: RepoParam::List(vec!["*".into(), "a".into()]),
            ..req
        };
        assert_eq!(
            encode_tool_request(&wild, &EncodeOptions::default())
                .unwrap_err()
                .code(),
            "GCX_SCHEMA"
        );
        let ws = decode_tool_request(
            "GCX1 tool=tool_request fields=tool,scope,repo\nlist_repos\tworkspace\tgortex\n",
        );
        assert_eq!(ws.unwrap_err().column(), Some(22));
    }

    #[test]
    fn legality() {
        let repos = vec!["gortex".into(), "gortex-cloud".into()];
        let check = |tool: &str, repo: RepoParam| {
            let req = ToolRequest {
                tool: tool.into(),
                scope: Scope::Repo,
                repo,
            };
            check_request(&defs(), &req, &repos)
                .unwrap()
                .map(|e| e.code)
        };
        assert_eq!(
            check("search_symbols", RepoParam::List(vec!["*".into()])),
            None
        );
        assert_eq!(
            check("search_symbols", RepoParam::Absent).as_deref(),
            Some("missing_repo_list")
        );
        assert_eq!(
            check("search_symbols", RepoParam::List(vec!["nope".into()])).as_deref(),
            Some("unknown_repo")
        );
        assert_eq!(
            check("search_symbols", RepoParam::Name("gortex".into())).as_deref(),
            Some("wrong_repo_shape")
        );
        assert_eq!(
            check("find_usages", RepoParam::Absent).as_deref(),
            Some("missing_repo")
        );
        assert_eq!(check("find_usages", RepoParam::Name("gortex".into())), None);
        assert_eq!(
            check("list_repos", RepoParam::Name("gortex".into())).as_deref(),
            Some("repo_not_allowed")
        );
        let unknown_tool = ToolRequest {
            tool: "nope".into(),
            scope: Scope::Repo,
            repo: RepoParam::Absent,
        };
        assert!(check_request(&defs(), &unknown_tool, &repos).is_err());
    }
}
