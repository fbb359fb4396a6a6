//! Reading keyed-set payloads: delta (SPEC §10a.2), delta-participating full (§10a.1) and
//! unchanged (§10a.4). Every error carries a position.

use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::apply::apply_delta;
use super::root::{canonical, check};
use super::{GenericDelta, KeyedSet};
use crate::gcf::v3::scalar::{
    FieldDecl, Scalar, parse_count, parse_field_decl, parse_key, parse_scalar,
    split_outside_quotes, truncate,
};
use crate::gcf::v3::{Header, Line, Profile, body_lines, is_comment};
use crate::json::Value;
use crate::{Error, ErrorKind, Result};

/// A decoded keyed-set payload: one of the three outcomes of SPEC §10a.4.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedPayload};
/// use agentwire::json::Value;
/// let unchanged = "GCF profile=generic unchanged=true pack_root=sha256:ab count=3\n";
/// let expected = KeyedPayload::Unchanged { pack_root: "sha256:ab".into(), count: Some(3) };
/// assert_eq!(keyed::decode_keyed(unchanged)?, expected);
/// let text = concat!(
///     "GCF profile=generic delta=true base_root=sha256:ab new_root=sha256:cd key=id\n",
///     "## removed [1]{@id}\n",
///     "bo\n",
/// );
/// let KeyedPayload::Delta(delta) = keyed::decode_keyed(text)? else { panic!("not a delta") };
/// assert_eq!((delta.key.as_str(), delta.new_root.as_str()), ("id", "sha256:cd"));
/// assert_eq!(delta.removed, [Value::from("bo")]);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum KeyedPayload {
    /// A delta-participating full payload; `pack_root` is the set's root (the header's, which
    /// was checked against the rows).
    Full {
        /// The set.
        set: KeyedSet,
        /// Its canonical root.
        pack_root: String,
    },
    /// A delta payload.
    Delta(GenericDelta),
    /// `unchanged=true`: the consumer's set with this root is current.
    Unchanged {
        /// The root the consumer must hold.
        pack_root: String,
        /// `count=`, the number of rows, when given.
        count: Option<usize>,
    },
}

impl KeyedPayload {
    /// The consumer's new set after this payload, given the set it `held` (SPEC §10a: every
    /// outcome is applied the same way whatever came before). A full payload replaces the held
    /// set; a delta is applied atomically ([`apply_delta`]); an unchanged answer keeps the held
    /// set after checking its root and row count. A delta or unchanged answer without a held
    /// set, or for another root, is [`ErrorKind::GcfRootMismatch`]: ask for a full payload.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{self, KeyedSet};
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// set.rows = vec![vec!["ada".into(), "admin".into()]];
    /// // First contact: a full payload needs no held set.
    /// let held = keyed::decode_keyed(&keyed::encode_full(&set, None)?)?.apply_to(None)?;
    /// assert_eq!(held, set);
    /// // An unchanged answer keeps the held set once its root is checked...
    /// let unchanged = keyed::decode_keyed(&keyed::encode_unchanged(&set, None)?)?;
    /// assert_eq!(unchanged.clone().apply_to(Some(&held))?, held);
    /// // ...and without one the consumer must ask for a full payload.
    /// assert_eq!(unchanged.apply_to(None).unwrap_err().code(), "GCF_ROOT_MISMATCH");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn apply_to(self, held: Option<&KeyedSet>) -> Result<KeyedSet> {
        let no_base = || {
            Error::new(
                ErrorKind::GcfRootMismatch,
                "root_mismatch: no held set to apply this payload to; request a full payload",
            )
        };
        match self {
            KeyedPayload::Full { set, .. } => Ok(set),
            KeyedPayload::Delta(delta) => apply_delta(held.ok_or_else(no_base)?, &delta),
            KeyedPayload::Unchanged { pack_root, count } => {
                let held = held.ok_or_else(no_base)?;
                let root = held.pack_root()?;
                if root != pack_root || count.is_some_and(|n| n != held.len()) {
                    return Err(Error::new(
                        ErrorKind::GcfRootMismatch,
                        alloc::format!(
                            "root_mismatch: unchanged names {pack_root} ({count:?} rows) but the \
                             held set is {root} ({} rows)",
                            held.len()
                        ),
                    ));
                }
                Ok(held.clone())
            }
        }
    }
}

/// Decodes a generic-profile keyed-set payload of any of the three kinds: `delta=true`,
/// `unchanged=true`, or a full payload with `key=` and one `## <name> [N]{…@key…}` table
/// (also `## [N]{…}` and the keyed-map form `## [N:]{@key,…}`, SPEC §10a.7).
///
/// Full payloads: identity values must be unique ([`ErrorKind::GcfDuplicateKey`]) and a
/// `pack_root=` must be the rows' root ([`ErrorKind::GcfRootMismatch`]). Rows are flat: `~`
/// is [`ErrorKind::GcfInvalidMissing`], `^` / `^{…}` [`ErrorKind::GcfInvalidAttachmentMarker`].
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedPayload};
/// let text = "GCF profile=generic key=id\n## users [2]{@id,role}\nada|admin\nbo|dev\n";
/// let KeyedPayload::Full { set, pack_root } = keyed::decode_keyed(text)? else { panic!() };
/// assert_eq!((set.name.as_str(), set.key.as_str(), set.len()), ("users", "id", 2));
/// assert_eq!(set.rows[1][1].as_str(), Some("dev"));
/// assert_eq!(pack_root, set.pack_root()?);
/// // Identity values are unique: the second `ada` row (line 4) is rejected.
/// let err = keyed::decode_keyed(&text.replace("bo|", "ada|")).unwrap_err();
/// assert_eq!((err.code(), err.line()), ("GCF_DUPLICATE_KEY", Some(4)));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_keyed(text: &str) -> Result<KeyedPayload> {
    let header = Header::parse(text)?;
    let first = header_line(text);
    if header.profile != Profile::Generic {
        return Err(first.place(
            Error::new(
                ErrorKind::GcfUnknownProfile,
                "unknown_profile: a keyed set is a generic-profile payload, not profile=graph",
            ),
            4,
        ));
    }
    if header.get("delta") == Some("true") {
        return decode_delta(text, &header).map(KeyedPayload::Delta);
    }
    if header.get("unchanged") == Some("true") {
        return decode_unchanged(text, &header, &first);
    }
    decode_full(text, &header, &first)
}

/// The header line, for positions of header-level errors.
fn header_line(text: &str) -> Line<'_> {
    let end = text.find('\n').unwrap_or(text.len());
    let line = &text[..end];
    Line {
        number: 1,
        offset: 0,
        text: line.strip_suffix('\r').unwrap_or(line),
    }
}

/// Byte offset of `part` (a sub-slice of `line.text`) in the line.
fn offset_in(line: &Line<'_>, part: &str) -> usize {
    (part.as_ptr() as usize)
        .saturating_sub(line.text.as_ptr() as usize)
        .min(line.text.len())
}

/// The value of a required header field.
fn required<'a>(
    header: &Header<'a>,
    first: &Line<'_>,
    name: &str,
    kind: ErrorKind,
    category: &str,
    what: &str,
) -> Result<&'a str> {
    match header.get(name) {
        Some(value) if !value.is_empty() => Ok(value),
        _ => Err(first.place(
            Error::new(
                kind,
                alloc::format!("{category}: {what} needs a non-empty {name}= header field"),
            ),
            first.text.len(),
        )),
    }
}

/// Skip blank and comment lines.
fn is_filler(text: &str) -> bool {
    let trimmed = text.trim_matches(|c| c == ' ' || c == '\t');
    trimmed.is_empty() || is_comment(trimmed)
}

/// A table header `## [name ][N]{fields}` (or `[N:]`).
struct SectionHead<'a> {
    line: Line<'a>,
    name: Option<Cow<'a, str>>,
    count: usize,
    keyed: bool,
    decl: FieldDecl<'a>,
}

/// Reads a table header line. `form` is the error kind for a line of the wrong shape.
fn section_head<'a>(line: Line<'a>, form: ErrorKind, category: &str) -> Result<SectionHead<'a>> {
    let text = line.text;
    let bad = |what: &str, at: usize| {
        line.place(Error::new(form, alloc::format!("{category}: {what}")), at)
    };
    let Some(rest) = text.strip_prefix("## ") else {
        return Err(bad("a section line must be `## <name> [N]{fields}`", 0));
    };
    let mut at = 3;
    let mut name = None;
    if !rest.starts_with('[') {
        let (key, used) = parse_key(rest).map_err(|e| line.place(e, at))?;
        name = Some(key);
        at += used;
        let spaces = text[at..].bytes().take_while(|&b| b == b' ').count();
        if spaces == 0 {
            return Err(bad("expected ` [N]{fields}` after the section name", at));
        }
        at += spaces;
    }
    if !text[at..].starts_with('[') {
        return Err(bad("expected a `[N]` count", at));
    }
    let (count, used) = parse_count(&text[at..]).map_err(|e| line.place(e, at))?;
    let Some(n) = count.count else {
        return Err(bad("a deferred `[?]` count is not valid here", at));
    };
    at += used;
    if !text[at..].starts_with('{') {
        return Err(bad("expected a `{fields}` declaration after the count", at));
    }
    let (decl, used) = parse_field_decl(&text[at..]).map_err(|e| line.place(e, at))?;
    if let Some(&(_, value)) = decl.constants.first() {
        // Constant columns (SPEC §7.4.7) belong to plain tables, not to keyed sets.
        return Err(bad(
            "a keyed-set field declaration has no constant columns",
            offset_in(&line, value),
        ));
    }
    at += used;
    if !text[at..].trim_end_matches([' ', '\t']).is_empty() {
        return Err(bad("unexpected text after the field declaration", at));
    }
    Ok(SectionHead {
        line,
        name,
        count: n,
        keyed: count.keyed,
        decl,
    })
}

/// Reads one flat row of `width` cells. Leading whitespace is indentation, which keyed tables
/// do not have; `@N` row ids, `~` and attachment markers are not valid in a flat keyed row.
fn parse_row(line: &Line<'_>, width: usize, form: ErrorKind, category: &str) -> Result<Vec<Value>> {
    let text = line.text;
    match text.as_bytes().first() {
        Some(b'\t') => {
            return Err(line.place(
                Error::new(
                    ErrorKind::GcfTabIndentation,
                    "tab_indentation: a row starts with a tab",
                ),
                0,
            ));
        }
        Some(b' ') => {
            return Err(line.place(
                Error::new(
                    ErrorKind::GcfInvalidIndent,
                    "invalid_indent: keyed-set rows are not indented",
                ),
                0,
            ));
        }
        Some(b'@') => {
            return Err(line.place(
                Error::new(
                    form,
                    alloc::format!("{category}: `@N` row ids are not valid in a keyed-set row"),
                ),
                0,
            ));
        }
        _ => {}
    }
    let cells = split_outside_quotes(text, b'|');
    if cells.len() != width {
        return Err(line.place(
            Error::new(
                ErrorKind::GcfRowWidthMismatch,
                alloc::format!(
                    "row_width_mismatch: {} cells for {width} declared fields",
                    cells.len()
                ),
            ),
            0,
        ));
    }
    let mut row = Vec::with_capacity(width);
    for cell in cells {
        let at = offset_in(line, cell);
        let value = match parse_scalar(cell).map_err(|e| line.place(e, at))? {
            Scalar::Missing => {
                return Err(line.place(
                    Error::new(
                        ErrorKind::GcfInvalidMissing,
                        "invalid_missing: `~` (absent field) is not valid in a keyed-set row; \
                         every row carries every field",
                    ),
                    at,
                ));
            }
            Scalar::Attachment | Scalar::InlineSchema(_) => {
                return Err(line.place(
                    Error::new(
                        ErrorKind::GcfInvalidAttachmentMarker,
                        "invalid_attachment_marker: keyed-set rows are flat; nested values \
                         (`^`) are not valid",
                    ),
                    at,
                ));
            }
            scalar => scalar.into_value().unwrap_or_default(),
        };
        row.push(value);
    }
    Ok(row)
}

/// Fails when a section ended with fewer rows than it declared.
fn check_count(head: &SectionHead<'_>, rows: usize) -> Result<()> {
    if rows == head.count {
        return Ok(());
    }
    Err(head.line.place(
        Error::new(
            ErrorKind::GcfCountMismatch,
            alloc::format!(
                "count_mismatch: {rows} rows but [{}] declared in `{}`",
                head.count,
                truncate(head.line.text, 60)
            ),
        ),
        0,
    ))
}

fn surplus(line: &Line<'_>, head: &SectionHead<'_>) -> Error {
    line.place(
        Error::new(
            ErrorKind::GcfCountMismatch,
            alloc::format!(
                "count_mismatch: more than the [{}] rows declared in `{}`",
                head.count,
                truncate(head.line.text, 60)
            ),
        ),
        0,
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum DeltaSection {
    Added,
    Changed,
    Removed,
}

/// Decodes a generic delta payload (`delta=true`, SPEC §10a.2). The header needs `key=`,
/// `base_root=` and `new_root=`; sections are `added` / `changed` (identity `@`-marked, the
/// same fields in both) and `removed` (`{@key}`, one identity per line), each at most once, in
/// any order. Anything else is [`ErrorKind::GcfMalformedDelta`]; wrong row counts are
/// [`ErrorKind::GcfCountMismatch`], wrong row widths [`ErrorKind::GcfRowWidthMismatch`].
pub(crate) fn decode_delta(text: &str, header: &Header<'_>) -> Result<GenericDelta> {
    const FORM: ErrorKind = ErrorKind::GcfMalformedDelta;
    const CATEGORY: &str = "malformed_delta";
    let first = header_line(text);
    let need = |name| required(header, &first, name, FORM, CATEGORY, "a generic delta");
    let key = need("key")?;
    let mut delta = GenericDelta {
        tool: header.get("tool").map(ToString::to_string),
        key: key.to_string(),
        base_root: need("base_root")?.to_string(),
        new_root: need("new_root")?.to_string(),
        savings: header.get("savings").map(ToString::to_string),
        ..GenericDelta::default()
    };
    let malformed = |line: &Line<'_>, what: &str| {
        line.place(Error::new(FORM, alloc::format!("{CATEGORY}: {what}")), 0)
    };
    let mut seen: Vec<DeltaSection> = Vec::new();
    let mut have_fields = false;
    let mut open: Option<(DeltaSection, SectionHead<'_>, usize)> = None;
    for line in body_lines(text, header) {
        if is_filler(line.text) {
            continue;
        }
        if line.text.starts_with("##") {
            if let Some((_, head, rows)) = &open {
                check_count(head, *rows)?;
            }
            let head = section_head(line, FORM, CATEGORY)?;
            let section = match head.name.as_deref() {
                Some("added") => DeltaSection::Added,
                Some("changed") => DeltaSection::Changed,
                Some("removed") => DeltaSection::Removed,
                _ => {
                    return Err(malformed(
                        &line,
                        "a generic delta has only `## added`, `## changed` and `## removed` \
                         sections",
                    ));
                }
            };
            if seen.contains(&section) {
                return Err(malformed(&line, "a delta section appears twice"));
            }
            seen.push(section);
            if head.keyed {
                return Err(malformed(&line, "delta sections use `[N]`, not `[N:]`"));
            }
            let marks_key = head
                .decl
                .identity
                .is_some_and(|i| head.decl.names.get(i).is_some_and(|n| n == key));
            if !marks_key {
                return Err(malformed(
                    &line,
                    &alloc::format!("the declaration must mark the identity field `@{key}`"),
                ));
            }
            if section == DeltaSection::Removed {
                if head.decl.names.len() != 1 {
                    return Err(malformed(
                        &line,
                        &alloc::format!("`## removed` declares only `{{@{key}}}`"),
                    ));
                }
            } else if !have_fields {
                delta.fields = head.decl.names.clone();
                have_fields = true;
            } else if delta.fields != head.decl.names {
                return Err(malformed(
                    &line,
                    "`## added` and `## changed` declare different fields",
                ));
            }
            open = Some((section, head, 0));
            continue;
        }
        let Some((section, head, rows)) = &mut open else {
            return Err(malformed(&line, "a row outside any section"));
        };
        if *rows == head.count {
            return Err(surplus(&line, head));
        }
        *rows += 1;
        match section {
            DeltaSection::Removed => {
                let mut cells = parse_row(&line, 1, FORM, CATEGORY)?;
                delta.removed.append(&mut cells);
            }
            DeltaSection::Added => {
                delta
                    .added
                    .push(parse_row(&line, head.decl.names.len(), FORM, CATEGORY)?)
            }
            DeltaSection::Changed => {
                delta
                    .changed
                    .push(parse_row(&line, head.decl.names.len(), FORM, CATEGORY)?)
            }
        }
    }
    if let Some((_, head, rows)) = &open {
        check_count(head, *rows)?;
    }
    Ok(delta)
}

fn decode_unchanged(text: &str, header: &Header<'_>, first: &Line<'_>) -> Result<KeyedPayload> {
    let pack_root = required(
        header,
        first,
        "pack_root",
        ErrorKind::GcfMalformedHeaderField,
        "malformed_header_field",
        "an unchanged payload",
    )?;
    let count = match header.get("count") {
        None => None,
        Some(count) => {
            let n = parse_count(&alloc::format!("[{count}]"))
                .ok()
                .and_then(|(c, _)| c.count.filter(|_| !c.keyed));
            Some(n.ok_or_else(|| {
                first.place(
                    Error::new(
                        ErrorKind::GcfMalformedHeaderField,
                        alloc::format!(
                            "malformed_header_field: count={} is not a row count",
                            truncate(count, 24)
                        ),
                    ),
                    offset_in(first, count),
                )
            })?)
        }
    };
    if let Some(line) = body_lines(text, header).find(|l| !is_filler(l.text)) {
        return Err(line.place(
            Error::new(
                ErrorKind::GcfInvalidLine,
                "invalid_line: an unchanged payload has no body",
            ),
            0,
        ));
    }
    Ok(KeyedPayload::Unchanged {
        pack_root: pack_root.to_string(),
        count,
    })
}

fn decode_full(text: &str, header: &Header<'_>, first: &Line<'_>) -> Result<KeyedPayload> {
    const FORM: ErrorKind = ErrorKind::GcfInvalidLine;
    const CATEGORY: &str = "invalid_line";
    let key = required(
        header,
        first,
        "key",
        ErrorKind::GcfMalformedHeaderField,
        "malformed_header_field",
        "a keyed-set payload",
    )?;
    let bad = |line: &Line<'_>, what: &str| {
        line.place(Error::new(FORM, alloc::format!("{CATEGORY}: {what}")), 0)
    };
    let mut table: Option<(SectionHead<'_>, usize)> = None;
    let mut set = KeyedSet {
        key: key.to_string(),
        ..KeyedSet::default()
    };
    let mut ids = BTreeSet::new();
    for line in body_lines(text, header) {
        if is_filler(line.text) {
            continue;
        }
        if line.text.starts_with("##") {
            if table.is_some() {
                return Err(bad(&line, "a keyed-set payload has exactly one table"));
            }
            let head = section_head(line, FORM, CATEGORY)?;
            let identity = head.decl.identity.or(head.keyed.then_some(0));
            let marked = identity.and_then(|i| head.decl.names.get(i));
            match marked {
                Some(name) if name == key => {}
                Some(name) => {
                    return Err(bad(
                        &line,
                        &alloc::format!("key={key} but the table's identity field is {name:?}"),
                    ));
                }
                None => {
                    return Err(bad(
                        &line,
                        &alloc::format!("the table must mark the identity field `@{key}`"),
                    ));
                }
            }
            if head.keyed && identity != Some(0) {
                return Err(bad(&line, "a keyed map's identity is its first column"));
            }
            set.name = head.name.as_deref().unwrap_or_default().to_string();
            set.fields = head.decl.names.clone();
            table = Some((head, identity.unwrap_or_default()));
            continue;
        }
        let Some((head, key_at)) = &table else {
            return Err(bad(&line, "a row before the `## <name> [N]{…}` table"));
        };
        if set.rows.len() == head.count {
            return Err(surplus(&line, head));
        }
        let row = parse_row(&line, set.fields.len(), FORM, CATEGORY)?;
        let id = canonical(&row[*key_at]).map_err(|e| line.place(e, 0))?;
        if ids.contains(&id) {
            return Err(line.place(
                Error::new(
                    ErrorKind::GcfDuplicateKey,
                    alloc::format!(
                        "duplicate_key: identity {} appears twice (SPEC §10a.1)",
                        truncate(&id, 60)
                    ),
                ),
                0,
            ));
        }
        ids.insert(id);
        set.rows.push(row);
    }
    let Some((head, _)) = &table else {
        return Err(first.place(
            Error::new(
                FORM,
                "invalid_line: a keyed-set payload needs a `## <name> [N]{…}` table",
            ),
            first.text.len(),
        ));
    };
    check_count(head, set.rows.len())?;
    let root = check(&set)?.root();
    if let Some(declared) = header.get("pack_root")
        && declared != root
    {
        return Err(first.place(
            Error::new(
                ErrorKind::GcfRootMismatch,
                alloc::format!(
                    "root_mismatch: pack_root={} but the rows hash to {root}",
                    truncate(declared, 80)
                ),
            ),
            offset_in(first, declared),
        ));
    }
    Ok(KeyedPayload::Full {
        set,
        pack_root: root,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Number;
    use alloc::vec;

    const HEAD: &str =
        "GCF profile=generic delta=true base_root=sha256:a new_root=sha256:b key=id\n";

    fn delta(body: &str) -> Result<KeyedPayload> {
        decode_keyed(&alloc::format!("{HEAD}{body}"))
    }

    fn kind(body: &str) -> ErrorKind {
        delta(body).unwrap_err().kind()
    }

    #[test]
    fn sections_in_any_order_with_comments() {
        let got = delta(
            "# note\n## removed [2]{@id}\n1\n\"x\"\n\n## changed [1]{@id,v}\n2|\"|\"\n## added [0]{@id,v}\n",
        )
        .unwrap();
        let KeyedPayload::Delta(d) = got else {
            panic!("{got:?}")
        };
        assert_eq!(d.removed, [Value::from(Number::from_i64(1)), "x".into()]);
        assert_eq!(d.changed, [vec![Number::from_i64(2).into(), "|".into()]]);
        assert_eq!(d.fields, ["id", "v"]);
        assert_eq!((d.tool, d.savings), (None, None));
    }

    #[test]
    fn malformed_deltas() {
        assert_eq!(kind("## moved [1]{@id}\n1\n"), ErrorKind::GcfMalformedDelta);
        assert_eq!(
            kind("## removed [1]{id}\n1\n"),
            ErrorKind::GcfMalformedDelta
        );
        assert_eq!(
            kind("## removed [1]{@id,v}\n1|2\n"),
            ErrorKind::GcfMalformedDelta
        );
        assert_eq!(
            kind("## added [1]{@v,id}\n1|2\n"),
            ErrorKind::GcfMalformedDelta
        );
        assert_eq!(
            kind("## removed [1]{@id}\n1\n## removed [0]{@id}\n"),
            ErrorKind::GcfMalformedDelta
        );
        assert_eq!(kind("1\n"), ErrorKind::GcfMalformedDelta);
        assert_eq!(kind("## added [?]{@id}\n"), ErrorKind::GcfMalformedDelta);
        assert_eq!(
            kind("## added [1:]{@id}\n1\n"),
            ErrorKind::GcfMalformedDelta
        );
        assert_eq!(
            kind("## added [1]{@id} x\n1\n"),
            ErrorKind::GcfMalformedDelta
        );
        assert_eq!(
            kind("## added [1]{@id,v}\n1|2\n## changed [1]{@id,w}\n1|2\n"),
            ErrorKind::GcfMalformedDelta
        );
        assert_eq!(
            kind("## added [1]{@id,v}\n@0 1|2\n"),
            ErrorKind::GcfMalformedDelta
        );
        let no_key = decode_keyed("GCF profile=generic delta=true base_root=a new_root=b\n");
        assert_eq!(no_key.unwrap_err().kind(), ErrorKind::GcfMalformedDelta);
    }

    #[test]
    fn row_errors_have_positions() {
        let e = delta("## added [1]{@id,v}\n1|2|3\n").unwrap_err();
        assert_eq!(
            (e.kind(), e.line()),
            (ErrorKind::GcfRowWidthMismatch, Some(3))
        );
        let e = delta("## added [2]{@id,v}\n1|2\n## removed [0]{@id}\n").unwrap_err();
        assert_eq!((e.kind(), e.line()), (ErrorKind::GcfCountMismatch, Some(2)));
        let e = delta("## added [1]{@id,v}\n1|2\n3|4\n").unwrap_err();
        assert_eq!((e.kind(), e.line()), (ErrorKind::GcfCountMismatch, Some(4)));
        let e = delta("## added [1]{@id,v}\n1|~\n").unwrap_err();
        assert_eq!(
            (e.kind(), e.column()),
            (ErrorKind::GcfInvalidMissing, Some(3))
        );
        assert_eq!(
            kind("## added [1]{@id,v}\n1|^\n"),
            ErrorKind::GcfInvalidAttachmentMarker
        );
        assert_eq!(
            kind("## added [1]{@id,v}\n1|\"x\n"),
            ErrorKind::GcfUnterminatedQuote
        );
        assert_eq!(
            kind("## added [1]{@id,v}\n  1|2\n"),
            ErrorKind::GcfInvalidIndent
        );
        assert_eq!(
            kind("## added [1]{@id,v}\n\t1|2\n"),
            ErrorKind::GcfTabIndentation
        );
        assert_eq!(
            kind("## added [1]{@id,v}\n1|99999999999999999999\n"),
            ErrorKind::GcfOutOfRange
        );
        // A huge declared count allocates nothing and fails on the missing rows.
        assert_eq!(
            kind("## added [18446744073709551615]{@id,v}\n1|2\n"),
            ErrorKind::GcfCountMismatch
        );
    }

    #[test]
    fn full_payloads() {
        let set = KeyedSet {
            name: "orders".into(),
            key: "id".into(),
            fields: vec!["id".into(), "v".into()],
            rows: vec![
                vec![Number::from_i64(1).into(), "a".into()],
                vec![Number::from_i64(2).into(), Value::Null],
            ],
        };
        let text = super::super::encode_full(&set, Some("t")).unwrap();
        let root = set.pack_root().unwrap();
        assert_eq!(
            decode_keyed(&text).unwrap(),
            KeyedPayload::Full {
                set: set.clone(),
                pack_root: root.clone()
            }
        );
        let tampered = text.replace("2|-", "2|x");
        assert_eq!(
            decode_keyed(&tampered).unwrap_err().kind(),
            ErrorKind::GcfRootMismatch
        );
        let duplicate = "GCF profile=generic key=id\n## t [2]{@id,v}\n1|a\n1.0|b\n";
        let e = decode_keyed(duplicate).unwrap_err();
        assert_eq!((e.kind(), e.line()), (ErrorKind::GcfDuplicateKey, Some(4)));
        let keyed_map = "GCF profile=generic key=k\n## [1:]{k,v}\nx|1\n";
        let KeyedPayload::Full { set, .. } = decode_keyed(keyed_map).unwrap() else {
            panic!()
        };
        assert_eq!((set.name.as_str(), set.key.as_str()), ("", "k"));
        for bad in [
            "GCF profile=generic\n## t [0]{@id}\n",
            "GCF profile=generic key=id\n## t [0]{id}\n",
            "GCF profile=generic key=id\n## t [0]{@id}\n## u [0]{@id}\n",
            "GCF profile=generic key=id\n",
            "GCF profile=generic key=k\n## [1:]{v,@k}\n1|x\n",
        ] {
            assert!(decode_keyed(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn unchanged_payloads() {
        let set = KeyedSet::new("", "id", vec!["id".into()]);
        let text = super::super::encode_unchanged(&set, None).unwrap();
        let payload = decode_keyed(&text).unwrap();
        assert_eq!(
            payload,
            KeyedPayload::Unchanged {
                pack_root: set.pack_root().unwrap(),
                count: Some(0)
            }
        );
        assert_eq!(payload.clone().apply_to(Some(&set)).unwrap(), set);
        assert_eq!(
            payload.apply_to(None).unwrap_err().kind(),
            ErrorKind::GcfRootMismatch
        );
        let other = KeyedSet {
            rows: vec![vec!["x".into()]],
            ..set.clone()
        };
        let stale = decode_keyed(&text).unwrap().apply_to(Some(&other));
        assert_eq!(stale.unwrap_err().kind(), ErrorKind::GcfRootMismatch);
        let with_body = alloc::format!("{text}x=1\n");
        assert_eq!(
            decode_keyed(&with_body).unwrap_err().kind(),
            ErrorKind::GcfInvalidLine
        );
        let bad_count = "GCF profile=generic unchanged=true pack_root=sha256:a count=01\n";
        assert_eq!(
            decode_keyed(bad_count).unwrap_err().kind(),
            ErrorKind::GcfMalformedHeaderField
        );
    }

    proptest::proptest! {
        /// Hostile bodies: a typed GCF error or a payload, never a panic; an accepted delta
        /// re-encodes and decodes to the same bytes.
        #[test]
        fn any_body_decodes_or_fails_typed(
            body in "(## (added|changed|removed|x) \\[[0-3?:]{1,2}\\]\\{@?(id|v)(,@?(id|v))?\\}\n|[-~^@ \"|a-z0-9.\\\\#]{0,12}\n){0,6}"
        ) {
            match delta(&body) {
                Ok(KeyedPayload::Delta(d)) => {
                    let wire = super::super::encode_delta(&d).unwrap();
                    let again = decode_keyed(&wire).unwrap();
                    let KeyedPayload::Delta(d2) = again else { panic!("not a delta") };
                    proptest::prop_assert_eq!(super::super::encode_delta(&d2).unwrap(), wire);
                }
                Ok(other) => proptest::prop_assert!(false, "{:?}", other),
                Err(e) => {
                    proptest::prop_assert!(e.code().starts_with("GCF_"), "{}", e);
                    proptest::prop_assert!(e.line().is_some(), "no position: {}", e);
                }
            }
        }
    }
}
