//! Property tests for the graph codecs: GCF v1.1 and GCB1 round trips, and decoders that never
//! panic on arbitrary input.

use agentwire::gcb::{self, EDGE_TYPES, KINDS, PROVENANCES};
use agentwire::gcf::{self, Components, Edge, Payload, PayloadRef, Symbol};
use agentwire::json::{BorrowedValue, TreeReader};
use proptest::prelude::*;

/// A token GCF can carry: no whitespace, not `#` (a bare session reference), not empty.
fn token() -> impl Strategy<Value = String> {
    "[a-zA-Z_][a-zA-Z0-9_.:/<>@=-]{0,12}"
}

fn gcf_payload() -> impl Strategy<Value = Payload> {
    let kinds = prop::sample::select(vec![
        "function",
        "type",
        "method",
        "interface",
        "var",
        "const",
        "resource",
        "table",
        "class",
        "selector",
        "field",
        "route_handler",
        "external",
        "file",
        "package",
        "service",
        "env_var",
        "process",
    ]);
    let symbol = (kinds, -100_000i64..100_000, token(), 0i64..8).prop_map(
        |(kind, cents, provenance, distance)| Symbol {
            kind: kind.into(),
            // Two decimals survive GCF exactly: k/100 is the double nearest to the text "k/100".
            score: cents as f64 / 100.0,
            provenance,
            distance,
            ..Symbol::default()
        },
    );
    (
        token(),
        0i64..1_000_000,
        0i64..1_000_000,
        prop::option::of(token()),
        prop::collection::vec(symbol, 0..12),
    )
        .prop_flat_map(|(tool, budget, used, pack_root, mut symbols)| {
            for (i, s) in symbols.iter_mut().enumerate() {
                s.qualified_name = format!("pkg{i}.Sym");
            }
            let n = symbols.len();
            let edge = (
                0..n.max(1),
                0..n.max(1),
                token(),
                prop::sample::select(vec!["", "added", "removed"]),
            );
            let edges = prop::collection::vec(edge, if n == 0 { 0..1 } else { 0..16 });
            (
                Just((tool, budget, used, pack_root.unwrap_or_default(), symbols)),
                edges,
            )
        })
        .prop_map(|((tool, budget, used, pack_root, symbols), edges)| {
            let edges = edges
                .into_iter()
                .map(|(s, t, edge_type, status)| Edge {
                    source: symbols[s].qualified_name.clone(),
                    target: symbols[t].qualified_name.clone(),
                    edge_type,
                    status: status.into(),
                })
                .collect();
            Payload {
                tool,
                token_budget: budget,
                tokens_used: used,
                pack_root,
                symbols,
                edges,
            }
        })
}

fn f32_value() -> impl Strategy<Value = f64> {
    any::<f32>()
        .prop_filter("finite", |v| v.is_finite())
        .prop_map(f64::from)
}

fn gcb_payload() -> impl Strategy<Value = Payload> {
    let symbol = (
        prop::sample::select(KINDS.to_vec()),
        f32_value(),
        prop::sample::select(PROVENANCES.to_vec()),
        0i64..=255,
        ".{0,20}",
        (f32_value(), f32_value(), f32_value(), f32_value()),
    )
        .prop_map(
            |(kind, score, provenance, distance, signature, (b, c, r, d))| Symbol {
                kind: kind.into(),
                score,
                provenance: provenance.into(),
                distance,
                signature,
                components: Components {
                    blast_radius: b,
                    confidence: c,
                    recency: r,
                    distance: d,
                },
                ..Symbol::default()
            },
        );
    (
        ".{0,10}",
        0i64..i64::MAX,
        0i64..i64::MAX,
        prop::collection::vec(symbol, 0..10),
    )
        .prop_flat_map(|(tool, budget, used, mut symbols)| {
            for (i, s) in symbols.iter_mut().enumerate() {
                s.qualified_name = format!("q{i}é");
            }
            let n = symbols.len();
            let edge = (
                0..n.max(1),
                0..n.max(1),
                prop::sample::select(EDGE_TYPES.to_vec()),
                prop::sample::select(vec!["", "added", "removed"]),
            );
            let edges = prop::collection::vec(edge, if n == 0 { 0..1 } else { 0..12 });
            (Just((tool, budget, used, symbols)), edges)
        })
        .prop_map(|((tool, budget, used, symbols), edges)| {
            let edges = edges
                .into_iter()
                .map(|(s, t, edge_type, status)| Edge {
                    source: symbols[s].qualified_name.clone(),
                    target: symbols[t].qualified_name.clone(),
                    edge_type: edge_type.into(),
                    status: status.into(),
                })
                .collect();
            Payload {
                tool,
                token_budget: budget,
                tokens_used: used,
                symbols,
                edges,
                ..Payload::default()
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn gcf_round_trip(payload in gcf_payload()) {
        let text = gcf::v1::encode(&payload).unwrap();
        prop_assert_eq!(gcf::v1::decode(&text, &Default::default()).unwrap().into_payload(), payload, "{}", text);
    }

    /// The bindings' path (the JSON form read with borrowed names, `encode_ref`) writes what
    /// `encode` of the owned payload writes, and fails alike.
    #[test]
    fn graph_encode_of_a_borrowed_payload_is_encode(mut payload in gcf_payload(), stray in token(), spoil in 0usize..4) {
        // An edge naming no symbol (left out), and sometimes a field the encoder refuses.
        payload.edges.push(Edge { source: stray.clone(), target: stray, edge_type: "calls".into(), status: String::new() });
        if let Some(symbol) = payload.symbols.first_mut() {
            match spoil {
                0 => symbol.provenance = "two words".into(),
                1 => symbol.distance = -1,
                _ => {}
            }
        }
        let value = payload.to_value();
        let view = BorrowedValue::of(&value);
        let borrowed = PayloadRef::from_reader(&mut TreeReader::new(&view)).unwrap();
        let outcome = |r: agentwire::Result<String>| r.map_err(|e| (e.code(), e.message().to_string()));
        prop_assert_eq!(
            outcome(gcf::v3::graph::encode_ref(&borrowed)),
            outcome(gcf::v3::graph::encode(&payload))
        );
    }

    #[test]
    fn gcb_round_trip(payload in gcb_payload()) {
        let bytes = gcb::encode(&payload);
        prop_assert_eq!(gcb::decode(&bytes, &Default::default()).unwrap().into_payload(), payload);
    }

    /// Any prefix of a valid encoding fails cleanly (or decodes, when only trailing bytes go).
    #[test]
    fn gcb_truncations_fail_cleanly(payload in gcb_payload(), cut in any::<prop::sample::Index>()) {
        let bytes = gcb::encode(&payload);
        let cut = cut.index(bytes.len() + 1);
        if let Err(e) = gcb::decode(&bytes[..cut], &Default::default()) {
            prop_assert!(e.code().starts_with("GCB_") && e.offset().is_some(), "{:?}", e);
        }
    }

    #[test]
    fn gcb_arbitrary_bytes_never_panic(mut bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if bytes.len() >= 5 && bytes[0] % 2 == 0 {
            bytes[..5].copy_from_slice(b"GCB1\x01");
        }
        if let Err(e) = gcb::decode(&bytes, &Default::default()) {
            prop_assert!(e.code().starts_with("GCB_"));
        }
    }

    #[test]
    fn gcf_arbitrary_text_never_panics(body in "(@[0-9+-]{0,3}[<@0-9]{0,4}( [a-z#0-9.]{0,4}){0,6}\n|## [a-z_0-9\\[\\]]{0,12}\n|# x\n|\r\n){0,12}") {
        let text = format!("GCF tool=t budget=1\n{body}");
        if let Err(e) = gcf::v1::decode(&text, &Default::default()) {
            prop_assert!(e.code().starts_with("GCF_") && e.line().is_some(), "{:?}", e);
        }
    }
}
