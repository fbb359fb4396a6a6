//! Fuzz target `toon_roundtrip`: the check is `agentwire_fuzz::checks::toon_roundtrip` (shared with the
//! regression test tests/runner/tests/fuzz_regressions.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    agentwire_fuzz::checks::toon_roundtrip(data);
});
