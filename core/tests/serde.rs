//! The `serde` feature: model types through serde_json and back, errors as JS sees them.
#![cfg(feature = "serde")]

use agentwire::gcf::{Payload, v1};
use agentwire::gcx::{self, DecodeOptions, Section};

#[test]
fn a_decoded_graph_payload_round_trips_through_serde_json() {
    let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 fn a.A 0.90 lsp\n\
                @1 fn a.B 0.80 lsp\n## edges\n@0<@1 calls\n";
    let payload = v1::decode(text, &Default::default())
        .unwrap()
        .into_payload();
    let json = serde_json::to_value(&payload).unwrap();
    assert_eq!(json["symbols"][1]["qualified_name"], "a.B");
    let back: Payload = serde_json::from_value(json).unwrap();
    assert_eq!(back, payload);
}

#[test]
fn gcx_sections_serialize_with_their_headers() {
    let payload = "GCX1 tool=s fields=id,line total=1\na\t1\n";
    let sections = gcx::decode(payload, &DecodeOptions::default())
        .into_sections()
        .unwrap();
    let json = serde_json::to_string(&sections).unwrap();
    let back: Vec<Section> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, sections);
}

#[test]
fn errors_serialize_as_code_format_message_position() {
    let e = gcx::decode("GCX1 tool=t\n", &DecodeOptions::default())
        .into_sections()
        .unwrap_err();
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["code"], "GCX_MISSING_FIELDS");
    assert_eq!(json["format"], "gcx1");
    assert_eq!(json["position"]["line_column"]["line"], 1);
    let kind: agentwire::ErrorKind = serde_json::from_value(json["code"].clone()).unwrap();
    assert_eq!(kind, e.kind());
}
