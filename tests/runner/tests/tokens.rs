//! The token counter against its oracles: the fixed edge-case table (ids from OpenAI's
//! tiktoken, core/tools/tokens_edge_cases.py), and property tests against tiktoken-rs on random
//! text drawn per character class. The 10 MB differential run is
//! bench/rust/tests/tokens_differential.rs.

use std::sync::OnceLock;

use agentwire::tokens::{Encoding, Tokenizer};
use proptest::prelude::*;
use serde_json::Value as J;

fn tokenizers() -> &'static [(Tokenizer, tiktoken_rs::CoreBPE); 2] {
    static BOTH: OnceLock<[(Tokenizer, tiktoken_rs::CoreBPE); 2]> = OnceLock::new();
    BOTH.get_or_init(|| {
        [
            (
                Tokenizer::cl100k_base(),
                tiktoken_rs::cl100k_base().unwrap(),
            ),
            (Tokenizer::o200k_base(), tiktoken_rs::o200k_base().unwrap()),
        ]
    })
}

#[test]
fn edge_cases_equal_openai_tiktoken() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures-local/tokens/edge-cases.json"
    );
    let table: J = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = table["cases"].as_array().unwrap();
    assert!(cases.len() > 500);
    let mut failures = Vec::new();
    for case in cases {
        let text = case["text"].as_str().unwrap();
        for (tokenizer, tiktoken_rs) in tokenizers() {
            let name = tokenizer.encoding().name();
            let expected: Vec<u32> = serde_json::from_value(case[name].clone()).unwrap();
            let ours = tokenizer.encode(text);
            if ours != expected {
                failures.push(format!(
                    "{name} {text:?}: agentwire {ours:?}, tiktoken {expected:?}"
                ));
            }
            assert_eq!(tokenizer.count(text), expected.len(), "{name} {text:?}");
            // tiktoken-rs agrees on every case today; a difference is documented in docs/tokens.md.
            assert_eq!(
                tiktoken_rs.encode_ordinary(text),
                expected,
                "tiktoken-rs, {name} {text:?}"
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len() * 2,
        failures.join("\n")
    );
}

/// Characters by class, for text that hits the pre-tokenizers' rules: every class, the
/// whitespace zoo, contraction letters, marks, digits of every kind, emoji sequences.
fn character() -> impl Strategy<Value = String> {
    let pick = |set: &'static [&'static str]| proptest::sample::select(set).prop_map(str::to_owned);
    prop_oneof![
        4 => pick(&["a", "b", "s", "t", "d", "m", "l", "v", "e", "r", "x", "z"]),
        2 => pick(&["A", "S", "T", "D", "M", "L", "V", "E", "R", "X", "ſ", "K", "\u{212a}"]),
        3 => pick(&["'", "'", "\"", ",", ".", ":", "{", "}", "[", "]", "/", "-", "_", "!", "?", "#", "\\", "(", ")"]),
        3 => pick(&[" ", " ", " ", "\t", "\n", "\r", "\r\n", "\u{b}", "\u{c}"]),
        2 => pick(&["\u{85}", "\u{a0}", "\u{1680}", "\u{2000}", "\u{2009}", "\u{200a}", "\u{2028}", "\u{2029}", "\u{202f}", "\u{205f}", "\u{3000}", "\u{feff}", "\u{200b}", "\u{180e}"]),
        2 => pick(&["0", "1", "7", "9", "½", "²", "Ⅻ", "٣", "۴", "３", "३", "๓"]),
        2 => pick(&["é", "ß", "Ω", "ω", "Д", "д", "ǅ", "ǈ", "ʰ", "ª", "中", "あ", "한", "ש", "م", "\u{1c89}", "\u{a7cb}"]),
        2 => pick(&["\u{301}", "\u{302}", "\u{903}", "\u{94d}", "\u{e31}", "\u{5b8}", "\u{20dd}", "\u{fe0f}", "\u{200d}", "\u{e0100}"]),
        1 => pick(&["😀", "👍", "🏽", "👨", "🏳", "🇫", "🇷", "\u{1f9d1}"]),
        1 => any::<char>().prop_map(String::from),
    ]
}

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(character(), 0..48).prop_map(|chars| chars.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn ids_equal_tiktoken_rs(text in text()) {
        for (tokenizer, tiktoken_rs) in tokenizers() {
            let expected = tiktoken_rs.encode_ordinary(&text);
            prop_assert_eq!(tokenizer.encode(&text), expected.clone(), "{}", tokenizer.encoding().name());
            prop_assert_eq!(tokenizer.count(&text), expected.len());
            prop_assert_eq!(tokenizer.count_within(&text, expected.len().saturating_sub(1)),
                if expected.is_empty() { Some(0) } else { None });
        }
    }

    #[test]
    fn chunked_counts_equal_whole_counts(text in text(), cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6)) {
        for (tokenizer, _) in tokenizers() {
            let bytes = text.as_bytes();
            let mut at: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
            at.sort_unstable();
            let mut stream = tokenizer.count_stream();
            let mut from = 0;
            for cut in at.into_iter().chain([bytes.len()]) {
                stream.push(&bytes[from..cut]).unwrap();
                from = cut;
            }
            prop_assert_eq!(stream.finish().unwrap(), tokenizer.count(&text));
        }
    }

    /// One shared counter over several texts (as compaction counts an input and its
    /// candidates): each count is tiktoken's, whatever the texts before it left in its table,
    /// and a limit stops it exactly.
    #[test]
    fn shared_counts_equal_tiktoken_rs(texts in proptest::collection::vec(text(), 1..8), limits in proptest::collection::vec(any::<prop::sample::Index>(), 8)) {
        use agentwire::tokens::TokenCounter;
        for (tokenizer, tiktoken_rs) in tokenizers() {
            let shared = tokenizer.shared_counts();
            for (text, limit) in texts.iter().zip(&limits) {
                let expected = tiktoken_rs.encode_ordinary(text).len();
                let limit = limit.index(expected + 2);
                prop_assert_eq!(shared.count_tokens_within(text, limit), (expected <= limit).then_some(expected));
                prop_assert_eq!(shared.count_tokens(text), expected);
            }
        }
    }
}

#[test]
fn encodings_by_name() {
    assert_eq!(
        Tokenizer::new(Encoding::parse("o200k").unwrap())
            .unwrap()
            .encoding(),
        Encoding::O200kBase
    );
}
