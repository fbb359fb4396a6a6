//! The token counter against tiktoken-rs (target `tokens`). Not part of `checks.rs`: it needs
//! the oracle crate, which the regression test build does not carry; its fixed edge cases live
//! in tests/fixtures-local/tokens/ instead.

use std::sync::OnceLock;

use agentwire::tokens::Tokenizer;

struct Pair {
    ours: Tokenizer,
    oracle: tiktoken_rs::CoreBPE,
}

fn pairs() -> &'static [Pair; 2] {
    static PAIRS: OnceLock<[Pair; 2]> = OnceLock::new();
    PAIRS.get_or_init(|| {
        [
            Pair {
                ours: Tokenizer::cl100k_base(),
                oracle: tiktoken_rs::cl100k_base().unwrap(),
            },
            Pair {
                ours: Tokenizer::o200k_base(),
                oracle: tiktoken_rs::o200k_base().unwrap(),
            },
        ]
    })
}

/// `data`: one byte of chunk size, then the text (bytes that are not UTF-8 are replaced, and
/// the raw bytes are also counted, which must refuse them with `INVALID_UTF8` and not panic).
pub fn tokens(data: &[u8]) -> String {
    let Some((&chunk, raw)) = data.split_first() else {
        return "empty".into();
    };
    let text = String::from_utf8_lossy(raw);
    let mut total = 0;
    for pair in pairs() {
        let expected = pair.oracle.encode_ordinary(&text);
        let ids = pair.ours.encode(&text);
        assert_eq!(
            ids,
            expected,
            "{}: ids of {text:?}",
            pair.ours.encoding().name()
        );
        let count = pair.ours.count(&text);
        assert_eq!(count, expected.len());
        assert_eq!(pair.ours.count_within(&text, count), Some(count));
        if count > 0 {
            assert_eq!(pair.ours.count_within(&text, count - 1), None);
        }
        assert_eq!(pair.ours.decode(&ids).unwrap(), text.as_bytes());
        let mut stream = pair.ours.count_stream();
        let pushed = raw
            .chunks(usize::from(chunk).max(1))
            .try_for_each(|part| stream.push(part));
        match (
            std::str::from_utf8(raw),
            pushed.and_then(|()| stream.finish()),
        ) {
            (Ok(_), Ok(streamed)) => assert_eq!(streamed, count, "streamed in chunks of {chunk}"),
            (Ok(_), Err(e)) => panic!("valid UTF-8 refused: {e}"),
            (Err(_), result) => assert!(result.is_err(), "invalid UTF-8 counted"),
        }
        match pair.ours.count_utf8(raw) {
            Ok(n) => assert_eq!(n, count),
            Err(e) => assert_eq!(e.code(), "INVALID_UTF8"),
        }
        total += count;
    }
    format!("ok tokens={total}")
}
