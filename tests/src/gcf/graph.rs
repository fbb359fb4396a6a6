//! Graph-profile operations of the GCF v3 suite. OWNER: helper "graph profile"; stubs until
//! then.

use super::Fixture;

const TODO: &str = "graph operation not implemented yet";

/// `encode` of a graph payload: byte-exact.
pub(super) fn encode(f: &Fixture, expected: &str) -> Result<(), String> {
    let _ = (f, expected);
    Err(TODO.into())
}

/// `session`: each call's output with one shared session.
pub(super) fn session(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}

/// `delta`: encode a delta (object input) or apply a wire delta to `base_snapshot`.
pub(super) fn delta(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}

/// `delta-verify`: applying the delta must fail (`root_mismatch`).
pub(super) fn delta_verify(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}

/// `pack-root`: canonical bytes and `sha256:` root.
pub(super) fn pack_root(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}

/// `graph-stream-encode`: streaming output with the trailer.
pub(super) fn stream_encode(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}
