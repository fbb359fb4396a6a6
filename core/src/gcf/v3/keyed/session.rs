//! The producer side of SPEC §10a.4 / §10a.7 / §10a.8: answering a consumer's echoed root
//! ([`respond`]) and a session that streams deltas and re-anchors on a policy
//! ([`DeltaSession`]).
//!
//! Size is measured in bytes of the encoded payloads: deterministic everywhere, no tokenizer
//! needed, and what the conformance fixtures pin. In `generic-delta-session/002_size_guard`
//! (full payload 585 bytes) the deltas are 265 and 285 bytes and the third turn re-anchors:
//! 265 + 285 = 550 < 585 keeps the second delta, 550 + ~285 ≥ 585 re-anchors. Neither a 60%
//! cumulative budget (the second turn would already be full) nor a per-payload 60% guard
//! (the third delta alone is under 60%) gives that sequence; "cumulative delta bytes, this
//! turn's included, reach the full payload's bytes" does. `FixedN` applies no size test at
//! all: in `001_fixed_n` every delta (about 265 bytes) is larger than the 241-byte full
//! payload and is still sent. The per-payload 60% guard of SPEC §10a.7 is what [`respond`]
//! applies to a single answer.

use alloc::string::String;

use super::apply::{diff_checked, same_schema};
use super::encode::{check_header_value, encode_delta, encode_full, encode_unchanged};
use super::root::check;
use super::{KeyedSet, invalid};
use crate::Result;

/// The default [`ReanchorPolicy::FixedN`] cadence (SPEC §10a.8: N = 15).
pub const DEFAULT_REANCHOR_TURNS: usize = 15;

/// The per-payload size guard of SPEC §10a.2 / §10a.7 used by [`respond`]: a delta is sent
/// only when it is smaller than this percentage of the full payload.
pub const SIZE_GUARD_PERCENT: usize = 60;

/// Which of the three payloads was produced.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedSet, PayloadKind};
/// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// set.rows = vec![vec!["ada".into(), "admin".into()]];
/// let root = set.pack_root()?;
/// assert_eq!(keyed::respond(&set, None, None, None)?.kind, PayloadKind::Full);
/// assert_eq!(keyed::respond(&set, Some(&root), None, None)?.kind, PayloadKind::Unchanged);
/// // A root the producer no longer holds: full again.
/// assert_eq!(keyed::respond(&set, Some("sha256:00"), None, None)?.kind, PayloadKind::Full);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PayloadKind {
    /// A full payload (`pack_root=`, `key=`, the whole table).
    Full,
    /// A delta payload (`delta=true`).
    Delta,
    /// The header-only `unchanged=true` answer.
    Unchanged,
}

/// One payload to send.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, Emission, KeyedSet, PayloadKind};
/// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// set.rows = vec![vec!["ada".into(), "admin".into()]];
/// let emission = keyed::respond(&set, None, None, Some("list_users"))?;
/// let wire = keyed::encode_full(&set, Some("list_users"))?;
/// assert_eq!(emission, Emission { wire, kind: PayloadKind::Full });
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Emission {
    /// The payload text.
    pub wire: String,
    /// What it is.
    pub kind: PayloadKind,
}

impl Emission {
    /// True for a full payload (an anchor).
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{self, KeyedSet};
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// set.rows = vec![vec!["ada".into(), "admin".into()]];
    /// assert!(keyed::respond(&set, None, None, None)?.is_full());
    /// let root = set.pack_root()?;
    /// assert!(!keyed::respond(&set, Some(&root), None, None)?.is_full());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn is_full(&self) -> bool {
        self.kind == PayloadKind::Full
    }
}

/// Answers a consumer that echoed `echoed_root` (SPEC §10a.4, three outcomes):
///
/// 1. the echoed root is `current`'s root → `unchanged=true pack_root=… count=N`;
/// 2. the producer still holds that snapshot (`known_base`, whose root is the echoed one)
///    with the same schema, and the delta is smaller than [`SIZE_GUARD_PERCENT`] of the full
///    payload (bytes) → the delta (with `tool`, without `savings`);
/// 3. otherwise (no echo, unknown or expired root, schema change, delta too large) → full.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedSet, PayloadKind};
/// use agentwire::json::Number;
/// let mut base = KeyedSet::new("orders", "id", vec!["id".into(), "status".into()]);
/// for id in 0..60 {
///     base.rows.push(vec![Number::from_i64(id).into(), "open".into()]);
/// }
/// let mut current = base.clone();
/// current.rows[7][1] = "shipped".into();
/// // The consumer echoes the root of `base`, which the producer still holds.
/// let answer = keyed::respond(&current, Some(&base.pack_root()?), Some(&base), None)?;
/// assert_eq!(answer.kind, PayloadKind::Delta);
/// assert!(answer.wire.ends_with("\n## changed [1]{@id,status}\n7|shipped\n"));
/// // Echoing the current root: unchanged. No echo: the full payload.
/// let same = keyed::respond(&current, Some(&current.pack_root()?), None, None)?;
/// assert_eq!(same.kind, PayloadKind::Unchanged);
/// let first = keyed::respond(&current, None, None, None)?;
/// assert_eq!(first.wire, keyed::encode_full(&current, None)?);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn respond(
    current: &KeyedSet,
    echoed_root: Option<&str>,
    known_base: Option<&KeyedSet>,
    tool: Option<&str>,
) -> Result<Emission> {
    let current_checked = check(current)?;
    let root = current_checked.root();
    let emission = |wire, kind| Ok(Emission { wire, kind });
    if echoed_root == Some(root.as_str()) {
        return emission(encode_unchanged(current, tool)?, PayloadKind::Unchanged);
    }
    let full = encode_full(current, tool)?;
    if let (Some(echoed), Some(base)) = (echoed_root, known_base) {
        let base_checked = check(base)?;
        if same_schema(base, current) && base_checked.root() == echoed {
            let mut delta = diff_checked(base, &base_checked, current, &current_checked)?;
            delta.tool = tool.map(String::from);
            let wire = encode_delta(&delta)?;
            if wire.len() * 100 < full.len() * SIZE_GUARD_PERCENT {
                return emission(wire, PayloadKind::Delta);
            }
        }
    }
    emission(full, PayloadKind::Full)
}

/// When a [`DeltaSession`] re-anchors with a full payload (SPEC §10a.8, informative). Both
/// count from the last full payload the session sent (the initial one or any re-anchor,
/// including one forced by a schema change); `unchanged` turns add nothing. (gcf 3.1.0 counts
/// `FixedN` turns from the session start instead, and sends an empty delta rather than
/// `unchanged`; the two agree until a schema change or an unchanged turn.)
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, DeltaSession, KeyedSet, ReanchorPolicy};
/// assert_eq!(ReanchorPolicy::default(), ReanchorPolicy::FixedN(keyed::DEFAULT_REANCHOR_TURNS));
/// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// set.rows = vec![vec!["ada".into(), "dev".into()]];
/// let mut guarded = DeltaSession::new(set.clone(), None, ReanchorPolicy::SizeGuard)?;
/// let mut fixed = DeltaSession::new(set.clone(), None, ReanchorPolicy::FixedN(3))?;
/// set.rows[0][1] = "ops".into();
/// // On a one-row set the delta (two roots in its header) outweighs the full payload:
/// // `SizeGuard` re-anchors at once, `FixedN` sends the delta anyway.
/// assert!(guarded.emit(set.clone())?.is_full());
/// assert!(!fixed.emit(set)?.is_full());
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReanchorPolicy {
    /// Every `n`-th changed turn is a full payload (`n` ≥ 1; `FixedN(3)`: delta, delta,
    /// full, delta, delta, full, …). Deltas are sent whatever their size.
    FixedN(usize),
    /// Re-anchor when the bytes of all deltas since the last full payload, this turn's
    /// included, reach the byte size of this turn's full payload: the §10a.7 size guard
    /// applied across turns, at 100% of a full payload (the drift budget is about one full
    /// payload per anchor; under heavy churn this anchors often, under light churn rarely).
    SizeGuard,
}

impl Default for ReanchorPolicy {
    /// `FixedN(15)`.
    fn default() -> ReanchorPolicy {
        ReanchorPolicy::FixedN(DEFAULT_REANCHOR_TURNS)
    }
}

/// A producer's delta session over one keyed set: it holds the snapshot the consumer has and
/// turns each new snapshot into a delta or, on the policy's schedule, a full re-anchor.
/// Deltas carry no `tool` and no `savings`; full payloads carry `tool`, `pack_root` and `key`,
/// and `unchanged` answers `tool` too, as [`respond`]'s do.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, DeltaSession, KeyedSet, PayloadKind, ReanchorPolicy};
/// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// set.rows = vec![vec!["ada".into(), "dev".into()], vec!["bo".into(), "dev".into()]];
/// let tool = Some("list_users".into());
/// let mut session = DeltaSession::new(set.clone(), tool, ReanchorPolicy::default())?;
/// // The consumer starts from the full payload...
/// let mut held = keyed::decode_keyed(&session.full()?)?.apply_to(None)?;
/// // ...and applies whatever each later turn sends.
/// set.rows[1][1] = "ops".into();
/// let emission = session.emit(set.clone())?;
/// assert_eq!(emission.kind, PayloadKind::Delta);
/// held = keyed::decode_keyed(&emission.wire)?.apply_to(Some(&held))?;
/// assert_eq!(held, set);
/// // The same rows again: unchanged, named like `respond`'s answer.
/// let same = session.emit(set.clone())?;
/// assert_eq!(same.wire, keyed::respond(&set, Some(&set.pack_root()?), None, Some("list_users"))?.wire);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DeltaSession {
    base: KeyedSet,
    base_root: String,
    tool: Option<String>,
    policy: ReanchorPolicy,
    turns_since_anchor: usize,
    delta_bytes_since_anchor: usize,
}

impl DeltaSession {
    /// A session anchored on `base`; send [`full`](Self::full) first. An invalid set or
    /// `FixedN(0)` is [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument).
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{DeltaSession, KeyedSet, ReanchorPolicy};
    /// use agentwire::ErrorKind;
    /// let set = KeyedSet::new("users", "id", vec!["id".into()]);
    /// let session = DeltaSession::new(set.clone(), None, ReanchorPolicy::SizeGuard)?;
    /// assert_eq!(session.base(), &set);
    /// let zero = DeltaSession::new(set.clone(), None, ReanchorPolicy::FixedN(0));
    /// assert_eq!(zero.unwrap_err().kind(), ErrorKind::InvalidArgument);
    /// // The tool goes into the header, where a value has no spaces.
    /// let spaced = DeltaSession::new(set, Some("list users".into()), ReanchorPolicy::SizeGuard);
    /// assert_eq!(spaced.unwrap_err().kind(), ErrorKind::InvalidArgument);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn new(base: KeyedSet, tool: Option<String>, policy: ReanchorPolicy) -> Result<Self> {
        if policy == ReanchorPolicy::FixedN(0) {
            return Err(invalid("ReanchorPolicy::FixedN needs n >= 1"));
        }
        if let Some(tool) = &tool {
            check_header_value("tool", tool)?;
        }
        let base_root = check(&base)?.root();
        Ok(DeltaSession {
            base,
            base_root,
            tool,
            policy,
            turns_since_anchor: 0,
            delta_bytes_since_anchor: 0,
        })
    }

    /// The full payload of the held snapshot (the initial payload; also a manual re-anchor).
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{self, DeltaSession, KeyedSet, ReanchorPolicy};
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// set.rows = vec![vec!["ada".into(), "admin".into()]];
    /// let tool = Some("list_users".into());
    /// let session = DeltaSession::new(set.clone(), tool, ReanchorPolicy::default())?;
    /// assert_eq!(session.full()?, keyed::encode_full(&set, Some("list_users"))?);
    /// assert!(session.full()?.ends_with(" key=id\n## users [1]{@id,role}\nada|admin\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn full(&self) -> Result<String> {
        encode_full(&self.base, self.tool.as_deref())
    }

    /// The snapshot the consumer holds.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{DeltaSession, KeyedSet, ReanchorPolicy};
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// set.rows = vec![vec!["ada".into(), "dev".into()]];
    /// let mut session = DeltaSession::new(set.clone(), None, ReanchorPolicy::default())?;
    /// assert_eq!(session.base(), &set);
    /// set.rows[0][1] = "admin".into();
    /// session.emit(set.clone())?;
    /// assert_eq!(session.base().rows[0][1].as_str(), Some("admin"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn base(&self) -> &KeyedSet {
        &self.base
    }

    /// Its root.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{DeltaSession, KeyedSet, ReanchorPolicy};
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// set.rows = vec![vec!["ada".into(), "dev".into()]];
    /// let mut session = DeltaSession::new(set.clone(), None, ReanchorPolicy::default())?;
    /// assert_eq!(session.root(), set.pack_root()?);
    /// // A failed emit (here a duplicate identity) leaves the session as it was.
    /// let mut twice = set.clone();
    /// twice.rows.push(vec!["ada".into(), "ops".into()]);
    /// assert!(session.emit(twice).is_err());
    /// assert_eq!(session.root(), set.pack_root()?);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn root(&self) -> &str {
        &self.base_root
    }

    /// The payload that brings the consumer from the held snapshot to `next`, which becomes
    /// the held snapshot: `unchanged` when the root is the same; a full payload on a schema
    /// change (other key or fields, SPEC §10a.7) or when the policy re-anchors; a delta
    /// otherwise. An invalid `next` (duplicate identities, nested cells, …) is an error and
    /// leaves the session as it was.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{DeltaSession, KeyedSet, PayloadKind, ReanchorPolicy};
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// set.rows = vec![vec!["ada".into(), "dev".into()]];
    /// let mut session = DeltaSession::new(set.clone(), None, ReanchorPolicy::FixedN(2))?;
    /// set.rows[0][1] = "ops".into();
    /// let delta = session.emit(set.clone())?;
    /// assert_eq!(delta.kind, PayloadKind::Delta);
    /// assert!(delta.wire.ends_with(" key=id\n## changed [1]{@id,role}\nada|ops\n"));
    /// // The same rows again: unchanged, which does not count as a turn.
    /// assert_eq!(session.emit(set.clone())?.kind, PayloadKind::Unchanged);
    /// // The second changed turn under `FixedN(2)` re-anchors.
    /// set.rows[0][1] = "admin".into();
    /// assert_eq!(session.emit(set)?.kind, PayloadKind::Full);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn emit(&mut self, next: KeyedSet) -> Result<Emission> {
        let next_checked = check(&next)?;
        let next_root = next_checked.root();
        let tool = self.tool.as_deref();
        let (wire, kind) = if next_root == self.base_root && same_schema(&self.base, &next) {
            (encode_unchanged(&next, tool)?, PayloadKind::Unchanged)
        } else if !same_schema(&self.base, &next) {
            (encode_full(&next, tool)?, PayloadKind::Full)
        } else {
            let base_checked = check(&self.base)?;
            let delta = diff_checked(&self.base, &base_checked, &next, &next_checked)?;
            let wire = encode_delta(&delta)?;
            let reanchor = match self.policy {
                ReanchorPolicy::FixedN(n) => self.turns_since_anchor + 1 >= n,
                ReanchorPolicy::SizeGuard => {
                    let full = encode_full(&next, tool)?;
                    if self.delta_bytes_since_anchor + wire.len() >= full.len() {
                        return Ok(self.anchor(next, next_root, full));
                    }
                    false
                }
            };
            if reanchor {
                (encode_full(&next, tool)?, PayloadKind::Full)
            } else {
                (wire, PayloadKind::Delta)
            }
        };
        Ok(match kind {
            PayloadKind::Full => self.anchor(next, next_root, wire),
            PayloadKind::Delta => {
                self.turns_since_anchor += 1;
                self.delta_bytes_since_anchor += wire.len();
                self.base = next;
                self.base_root = next_root;
                Emission { wire, kind }
            }
            PayloadKind::Unchanged => {
                self.base = next;
                Emission { wire, kind }
            }
        })
    }

    fn anchor(&mut self, next: KeyedSet, root: String, wire: String) -> Emission {
        self.base = next;
        self.base_root = root;
        self.turns_since_anchor = 0;
        self.delta_bytes_since_anchor = 0;
        Emission {
            wire,
            kind: PayloadKind::Full,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Number, Value};
    use alloc::vec;
    use alloc::vec::Vec;

    fn set(n: i64, changed: &[i64]) -> KeyedSet {
        let mut s = KeyedSet::new("rows", "id", vec!["id".into(), "status".into()]);
        for i in 0..n {
            let status = if changed.contains(&i) {
                "shipped"
            } else {
                "pending"
            };
            s.rows
                .push(vec![Number::from_i64(i).into(), Value::from(status)]);
        }
        s
    }

    fn kinds(policy: ReanchorPolicy, updates: &[KeyedSet]) -> Vec<PayloadKind> {
        let mut session = DeltaSession::new(set(20, &[]), None, policy).unwrap();
        updates
            .iter()
            .map(|u| session.emit(u.clone()).unwrap().kind)
            .collect()
    }

    #[test]
    fn fixed_n_counts_changed_turns_since_the_last_full() {
        use PayloadKind::*;
        let updates: Vec<KeyedSet> = (1..=7).map(|i| set(20, &[i])).collect();
        assert_eq!(
            kinds(ReanchorPolicy::FixedN(3), &updates),
            [Delta, Delta, Full, Delta, Delta, Full, Delta]
        );
        assert_eq!(
            kinds(ReanchorPolicy::FixedN(1), &updates[..2]),
            [Full, Full]
        );
        // An unchanged turn neither counts nor re-anchors.
        let same = [set(20, &[1]), set(20, &[1]), set(20, &[2]), set(20, &[3])];
        assert_eq!(
            kinds(ReanchorPolicy::FixedN(3), &same),
            [Delta, Unchanged, Delta, Full]
        );
        assert!(DeltaSession::new(set(1, &[]), None, ReanchorPolicy::FixedN(0)).is_err());
    }

    #[test]
    fn size_guard_budgets_one_full_payload_of_deltas() {
        let mut session = DeltaSession::new(set(20, &[]), None, ReanchorPolicy::SizeGuard).unwrap();
        let mut spent = 0;
        for i in 1..=12 {
            let next = set(20, &[i]);
            let full = encode_full(&next, None).unwrap().len();
            let emission = session.emit(next).unwrap();
            if emission.is_full() {
                assert!(spent > 0, "the first delta fits");
                spent = 0;
            } else {
                spent += emission.wire.len();
                assert!(spent < full, "turn {i}: {spent} bytes of deltas >= {full}");
            }
        }
        // A delta larger than the full payload re-anchors at once.
        let mut small = DeltaSession::new(set(1, &[]), None, ReanchorPolicy::SizeGuard).unwrap();
        assert!(small.emit(set(1, &[0])).unwrap().is_full());
    }

    #[test]
    fn schema_change_and_invalid_sets() {
        let mut session =
            DeltaSession::new(set(3, &[]), Some("t".into()), ReanchorPolicy::default()).unwrap();
        let mut wider = set(3, &[]);
        wider.fields.push("extra".into());
        for row in &mut wider.rows {
            row.push(Value::Null);
        }
        let emission = session.emit(wider).unwrap();
        assert!(emission.is_full());
        assert!(
            emission
                .wire
                .starts_with("GCF profile=generic tool=t pack_root=")
        );
        let root = String::from(session.root());
        let mut duplicate = session.base().clone();
        let first = duplicate.rows[0].clone();
        duplicate.rows.push(first);
        assert!(session.emit(duplicate).is_err());
        assert_eq!(
            session.root(),
            root,
            "a failed emit leaves the session as it was"
        );
        assert!(
            DeltaSession::new(set(1, &[]), Some("a b".into()), ReanchorPolicy::SizeGuard).is_err()
        );
    }

    #[test]
    fn respond_three_outcomes() {
        // Big enough that one changed row is well under 60% of the full payload.
        let base = set(60, &[]);
        let current = set(60, &[4]);
        let root = current.pack_root().unwrap();
        let base_root = base.pack_root().unwrap();
        let same = respond(&current, Some(&root), None, Some("t")).unwrap();
        assert_eq!(same.kind, PayloadKind::Unchanged);
        assert!(same.wire.ends_with(&alloc::format!(
            "unchanged=true pack_root={root} count=60\n"
        )));
        let delta = respond(&current, Some(&base_root), Some(&base), Some("t")).unwrap();
        assert_eq!(delta.kind, PayloadKind::Delta);
        assert!(
            delta
                .wire
                .starts_with("GCF profile=generic tool=t delta=true")
        );
        let unknown = respond(&current, Some("sha256:0"), Some(&base), None).unwrap();
        assert_eq!(unknown.kind, PayloadKind::Full);
        assert_eq!(
            respond(&current, None, None, None).unwrap().kind,
            PayloadKind::Full
        );
        // Most rows changed: the delta is not under 60% of the full payload.
        let churn = set(60, &(0..60).collect::<Vec<_>>());
        let big = respond(&churn, Some(&base_root), Some(&base), None).unwrap();
        assert_eq!(big.kind, PayloadKind::Full);
    }
}
