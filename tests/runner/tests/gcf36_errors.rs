//! The hand-written GCF v3.6.0 error fixtures (`fixtures-local/gcf36/errors.json`): each is
//! rejected with its code at its line and column, by the v3 decoder and by `decode_any`. (The
//! differential test in bench/rust checks that the gcf crate 3.1.0 rejects each one as well.)

use agentwire::gcf::{self, v3};
use serde_json::Value as J;

#[test]
fn every_gcf36_error_fixture_fails_with_its_code_and_position() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures-local/gcf36/errors.json"
    );
    let doc: J = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let fixtures = doc["fixtures"].as_array().unwrap();
    assert!(fixtures.len() >= 30, "{} fixtures", fixtures.len());
    let mut codes = std::collections::BTreeSet::new();
    for fixture in fixtures {
        let name = fixture["name"].as_str().unwrap();
        let input = fixture["input"].as_str().unwrap().as_bytes();
        let expected = (
            fixture["code"].as_str().unwrap(),
            fixture["line"].as_u64(),
            fixture["column"].as_u64(),
        );
        for error in [
            v3::decode(input, &Default::default()).unwrap_err(),
            gcf::decode_any(input, &Default::default()).unwrap_err(),
        ] {
            assert_eq!(
                (error.code(), error.line(), error.column()),
                expected,
                "{name}: {error}"
            );
        }
        codes.insert(expected.0);
    }
    // Every v3.6.0 category the issue lists has a fixture.
    for code in [
        "GCF_INVALID_CONST_VALUE",
        "GCF_NO_BARE_COLUMN",
        "GCF_INVALID_GROUP_HEADER",
        "GCF_DUPLICATE_GROUP",
        "GCF_DUPLICATE_KEY",
        "GCF_COUNT_MISMATCH",
    ] {
        assert!(codes.contains(code), "no fixture for {code}");
    }
}
