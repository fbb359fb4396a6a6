//! Property tests of the GCX1 JSON shapes: the JSON text the in-place decode writes
//! (`write_sections_json`, the decode hot path of every binding) is the text of the value tree
//! (`sections_to_value`), on the hostile line soups of `core/tests/gcx_properties.rs`.

use agentwire::gcx::{self, DecodeOptions};
use agentwire::json::{self, WriteOptions};
use agentwire_bindings::shapes::gcx::{sections_to_value, write_sections_json};
use proptest::prelude::*;

proptest! {
    /// For every soup the one-pass decoder reads without error, the JSON writer agrees with
    /// the value tree's.
    #[test]
    fn json_writer_matches_the_value_tree((payload, options) in line_soup()) {
        if let Ok(sections) = gcx::decode(&payload, &options).into_borrowed() {
            let mut written = String::new();
            write_sections_json(&mut written, &sections).unwrap();
            let owned: Vec<_> = sections.into_iter().map(|s| s.into_owned()).collect();
            let tree = sections_to_value(&owned);
            let expected = json::to_string(&tree, WriteOptions::PLAIN).unwrap();
            prop_assert_eq!(written, expected);
        }
    }
}

/// Hostile line soups (headers, rows, comments, CR, blank lines, stray bytes, long lines) and
/// decode options, often with small limits on line length, sections, rows and values.
fn line_soup() -> impl Strategy<Value = (Vec<u8>, DecodeOptions)> {
    (
        prop::collection::vec(
            prop_oneof![
                3 => "GCX1 tool=[a-z]{1,3} fields=[a-c](,[a-c]){0,3}( [a-z]=[a-z\\\\]{0,3})?\r?",
                6 => "[a-z\t\\\\é😀\u{2028}\"<]{0,24}\r?",
                1 => "(#|GCX1|\r|)[a-z ]{0,4}",
            ],
            0..8,
        ),
        prop::option::of((any::<usize>(), any::<u8>())),
        any::<bool>(),
        prop_oneof![Just(4 << 20), 8usize..30],
        prop::option::weighted(0.75, (0usize..4, 0usize..6, 0usize..14)),
        any::<bool>(),
    )
        .prop_map(|(lines, stray, final_lf, max_line_bytes, limits, lead)| {
            // Half the soups start with a valid header, so that rows are read.
            let lead = if lead { "GCX1 tool=t fields=a,b\n" } else { "" };
            let mut payload = (String::from(lead) + &lines.join("\n")).into_bytes();
            if final_lf {
                payload.push(b'\n');
            }
            if let (Some((at, byte)), false) = (stray, payload.is_empty()) {
                let at = at % payload.len();
                payload[at] = byte;
            }
            let mut options = DecodeOptions {
                max_line_bytes,
                ..DecodeOptions::default()
            };
            if let Some((max_sections, max_rows, max_cells)) = limits {
                options.max_sections = max_sections;
                options.max_rows = max_rows;
                options.max_cells = max_cells;
            }
            (payload, options)
        })
}
