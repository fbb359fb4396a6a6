//! Generic keyed-set operations (delta, pack root, sessions) of the GCF v3 suite. OWNER:
//! helper "generic delta"; stubs until then.

use super::Fixture;

const TODO: &str = "generic delta operation not implemented yet";

/// `generic-delta`: byte-exact delta encoding.
pub(super) fn delta(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}

/// `generic-delta-verify`: apply a delta object to a base; root or error.
pub(super) fn delta_verify(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}

/// `generic-delta-decode`: decode a wire delta, apply it, check the root or error.
pub(super) fn delta_decode(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}

/// `generic-delta-session`: the producer session's full and delta emissions.
pub(super) fn delta_session(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}

/// `generic-pack-root`: the canonical root of a keyed set.
pub(super) fn pack_root(f: &Fixture) -> Result<(), String> {
    let _ = f;
    Err(TODO.into())
}
