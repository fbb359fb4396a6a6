//! Generic keyed-set operations (delta, pack root, sessions) of the GCF v3 suite (SPEC §10a).

use agentwire::Error;
use agentwire::gcf::v3::keyed::{self, DeltaSession, GenericDelta, KeyedSet, ReanchorPolicy};
use agentwire::gcf::v3::{self, Document};
use agentwire::json::Value;

use super::{Fixture, expect_error};
use crate::support::same_text;

fn fail(e: Error) -> String {
    format!("{}: {e}", e.code())
}

/// Member `name` of the fixture's `input` object.
fn member<'v>(input: &'v Value, name: &str) -> Result<&'v Value, String> {
    input
        .get(name)
        .ok_or_else(|| format!("input has no {name:?}"))
}

fn string_member(input: &Value, name: &str) -> Result<String, String> {
    member(input, name)?
        .as_str()
        .map(String::from)
        .ok_or_else(|| format!("input.{name} is not a string"))
}

fn set(input: &Value, name: &str) -> Result<KeyedSet, String> {
    KeyedSet::from_value(member(input, name)?).map_err(|e| format!("input.{name}: {}", fail(e)))
}

fn same_root(what: &str, expected: &str, got: &str) -> Result<(), String> {
    if expected == got {
        Ok(())
    } else {
        Err(format!("{what}: expected {expected}, got {got}"))
    }
}

/// Passes when the fixture expects an error and `outcome` is it, or expects the root
/// `expected` and `outcome` is a set with that root.
fn expect_root(f: &Fixture, outcome: Result<KeyedSet, Error>) -> Result<(), String> {
    if f.has("expectedError") {
        return expect_error(&f.string("expectedError")?, outcome);
    }
    let set = outcome.map_err(fail)?;
    let root = set.pack_root().map_err(fail)?;
    same_root("new root", &f.string("expected")?, &root)
}

/// `generic-delta`: byte-exact delta encoding.
pub(super) fn delta(f: &Fixture) -> Result<(), String> {
    let input = f.literal_value("input")?;
    let delta = GenericDelta::from_value(&input).map_err(fail)?;
    let text = keyed::encode_delta(&delta).map_err(fail)?;
    same_text("encode", &f.string("expected")?, &text)?;
    // The wire reads back to a delta that writes the same bytes.
    match v3::decode(text.as_bytes(), &Default::default())
        .map_err(|e| format!("decode back: {}", fail(e)))?
    {
        Document::GenericDelta(back) => same_text(
            "re-encode",
            &text,
            &keyed::encode_delta(&back).map_err(fail)?,
        ),
        other => Err(format!("decode back: got {other:?}")),
    }
}

/// `generic-delta-verify`: apply a delta object to a base; the result's root must be
/// `expectedNewRoot` (the root the consumer verifies against).
pub(super) fn delta_verify(f: &Fixture) -> Result<(), String> {
    let input = f.literal_value("input")?;
    let base = set(&input, "base")?;
    let mut delta = GenericDelta::from_value(member(&input, "delta")?).map_err(fail)?;
    delta.new_root = string_member(&input, "expectedNewRoot")?;
    expect_root(f, keyed::apply_delta(&base, &delta))
}

/// `generic-delta-decode`: decode a wire delta, apply it to the base, check the root or error.
pub(super) fn delta_decode(f: &Fixture) -> Result<(), String> {
    let input = f.literal_value("input")?;
    let wire = string_member(&input, "wire")?;
    let base = set(&input, "base")?;
    let expected_new_root = string_member(&input, "expectedNewRoot")?;
    let outcome =
        v3::decode(wire.as_bytes(), &Default::default()).and_then(|document| match document {
            Document::GenericDelta(delta) => keyed::apply_delta(&base, &delta),
            other => Err(Error::new(
                agentwire::ErrorKind::InvalidArgument,
                format!("not a generic delta: {other:?}"),
            )),
        });
    if let Ok(set) = &outcome {
        let root = set.pack_root().map_err(fail)?;
        same_root("expectedNewRoot", &expected_new_root, &root)?;
    }
    expect_root(f, outcome)
}

/// `generic-delta-session`: the producer session's initial full payload and each emission.
pub(super) fn delta_session(f: &Fixture) -> Result<(), String> {
    let input = f.literal_value("input")?;
    let expected = f.value("expected")?;
    let base = set(&input, "base")?;
    let tool = string_member(&input, "tool")?;
    let policy = member(&input, "policy")?;
    let policy = match policy.get("mode").and_then(Value::as_str) {
        Some("fixedN") => {
            let n = policy
                .get("n")
                .and_then(|n| match n {
                    Value::Number(n) => n
                        .as_u64()
                        .and_then(|n| usize::try_from(n).ok())
                        .or_else(|| n.as_literal().and_then(|t| t.parse().ok())),
                    _ => None,
                })
                .ok_or("policy.n is not a count")?;
            ReanchorPolicy::FixedN(n)
        }
        Some("sizeGuard") => ReanchorPolicy::SizeGuard,
        other => return Err(format!("unknown policy mode {other:?}")),
    };
    let tool = (!tool.is_empty()).then_some(tool);
    let mut session = DeltaSession::new(base, tool, policy).map_err(fail)?;
    same_text(
        "initialFull",
        &string_member(&expected, "initialFull")?,
        &session.full().map_err(fail)?,
    )?;
    let updates = member(&input, "updates")?
        .as_array()
        .ok_or("input.updates is not an array")?;
    let emissions = member(&expected, "emissions")?
        .as_array()
        .ok_or("expected.emissions is not an array")?;
    if updates.len() != emissions.len() {
        return Err(format!(
            "{} updates but {} expected emissions",
            updates.len(),
            emissions.len()
        ));
    }
    for (turn, (update, want)) in updates.iter().zip(emissions).enumerate() {
        let next = KeyedSet::from_value(update).map_err(fail)?;
        let emission = session
            .emit(next)
            .map_err(|e| format!("turn {turn}: {}", fail(e)))?;
        let want_full = matches!(want.get("isFull"), Some(Value::Bool(true)));
        if emission.is_full() != want_full {
            return Err(format!(
                "turn {turn}: expected isFull={want_full}, got {:?}:\n{}",
                emission.kind, emission.wire
            ));
        }
        same_text(
            &format!("turn {turn}"),
            &string_member(want, "wire")?,
            &emission.wire,
        )?;
    }
    Ok(())
}

/// `generic-pack-root`: the canonical root of a keyed set, also with its rows reversed.
pub(super) fn pack_root(f: &Fixture) -> Result<(), String> {
    let mut set = KeyedSet::from_value(&f.literal_value("input")?).map_err(fail)?;
    let expected = f.string("expected")?;
    same_root("pack root", &expected, &set.pack_root().map_err(fail)?)?;
    set.rows.reverse();
    same_root(
        "pack root (rows reversed)",
        &expected,
        &set.pack_root().map_err(fail)?,
    )
}
