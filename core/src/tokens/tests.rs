//! Unit tests of the counter on its own. Exactness against tiktoken-rs and OpenAI's tiktoken
//! is tested in tests/tokens.rs (property tests and the edge-case table) and, on 10 MB of text
//! per run, in bench/rust/tests/tokens_differential.rs.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use sha2::Digest;

use super::*;

fn both() -> [Tokenizer; 2] {
    [Tokenizer::cl100k_base(), Tokenizer::o200k_base()]
}

#[test]
fn known_ids() {
    let [cl100k, o200k] = both();
    assert_eq!(cl100k.encode("hello world"), [15339, 1917]);
    assert_eq!(o200k.encode("hello world"), [24912, 2375]);
    assert_eq!(
        cl100k.encode("<|endoftext|>"),
        [27, 91, 8862, 728, 428, 91, 29]
    );
    assert_eq!(cl100k.vocabulary_size(), 100_256);
    assert_eq!(o200k.vocabulary_size(), 199_998);
}

#[test]
fn count_equals_encode_and_decode_round_trips() {
    let texts = [
        "",
        " ",
        "\n",
        "{\"name\": \"Alice\",\n  \"tags\": [\"a\", \"b\"]}\n",
        "naïve café, 東京, Привет мир! 😀👍🏽 \u{301}",
        "    fn main() {\r\n\tprintln!(\"hi\");\r\n}\r\n   ",
        "don't CAN'T we'll 'S 'ſ",
    ];
    for tokenizer in both() {
        for text in texts {
            let ids = tokenizer.encode(text);
            assert_eq!(tokenizer.count(text), ids.len(), "{text:?}");
            assert_eq!(tokenizer.decode(&ids).unwrap(), text.as_bytes());
            assert_eq!(tokenizer.count_within(text, ids.len()), Some(ids.len()));
            if !ids.is_empty() {
                assert_eq!(tokenizer.count_within(text, ids.len() - 1), None);
            }
        }
    }
}

#[test]
fn long_pieces_merge_like_the_scanning_loop() {
    // Pieces longer than the scanning loop's limit go through the heap; both must agree.
    let [cl100k, o200k] = both();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for tokenizer in [&cl100k, &o200k] {
        for _ in 0..300 {
            let len = 2 + (next() % 127) as usize;
            let alphabet = b"aAbBeEnNtT";
            let piece: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            // The scanning loop reads the piece in place, words past its end included: put it
            // between other bytes.
            let pad = (next() % 9) as usize;
            let mut text = alphabet[..pad].to_vec();
            text.extend_from_slice(&piece);
            text.extend_from_slice(&alphabet[..(next() % 9) as usize]);
            let mut scanned = Vec::new();
            bpe::merge(&tokenizer.vocab, &text, pad, pad + len, |a, b| {
                scanned.push((a, b))
            });
            let mut heaped = Vec::new();
            bpe::merge_with_heap_for_tests(&tokenizer.vocab, &piece, |a, b| heaped.push((a, b)));
            assert_eq!(scanned, heaped, "{:?}", core::str::from_utf8(&piece));
        }
    }
}

#[test]
fn long_runs_are_linear() {
    // 64 KB of one letter or of spaces: one piece each, merged with the heap.
    for tokenizer in both() {
        for c in ["A", " ", "=", "ab"] {
            let text = c.repeat(65_536 / c.len());
            let ids = tokenizer.encode(&text);
            assert_eq!(tokenizer.decode(&ids).unwrap(), text.as_bytes());
            assert_eq!(tokenizer.count(&text), ids.len());
        }
    }
}

#[test]
fn streams_count_like_the_whole_text() {
    let mut text = String::new();
    for i in 0..400 {
        text.push_str(
            [
                "{\"id\": ",
                "12345678",
                "  \n\n  ",
                "camelCase'S ",
                "日本語テキスト",
                "\u{a0}x",
                " ".repeat(i % 7).as_str(),
                "😀",
                "'ll",
                "Aª BCD",
                "ef",
            ][i % 11],
        );
    }
    for tokenizer in both() {
        let whole = tokenizer.count(&text);
        let bytes = text.as_bytes();
        for chunk in [1, 2, 3, 5, 7, 64, 4095, 10_000] {
            let mut stream = tokenizer.count_stream();
            for part in bytes.chunks(chunk) {
                stream.push(part).unwrap();
            }
            assert_eq!(stream.finish().unwrap(), whole, "chunks of {chunk}");
        }
    }
}

#[test]
fn bad_input_is_refused_with_a_position() {
    let [cl100k, _] = both();
    let err = cl100k.count_utf8(b"ok\n\xffno").unwrap_err();
    assert_eq!(
        (err.code(), err.offset(), err.line(), err.column()),
        ("INVALID_UTF8", Some(3), Some(2), Some(1))
    );
    let mut stream = cl100k.count_stream();
    stream.push(b"abc").unwrap();
    let err = stream.push(b"d\xc3(").unwrap_err();
    assert_eq!((err.code(), err.offset()), ("INVALID_UTF8", Some(4)));
    let mut stream = cl100k.count_stream();
    stream.push(b"ab\xe6\x97").unwrap();
    let err = stream.push(b"x").unwrap_err();
    assert_eq!((err.code(), err.offset()), ("INVALID_UTF8", Some(2)));
    assert_eq!(
        cl100k.decode(&[0, 200_000]).unwrap_err().code(),
        "TOKENS_UNKNOWN_ID"
    );
}

#[test]
fn vocabulary_data_is_checked() {
    let data = include_bytes!("data/cl100k_base.bin");
    assert_eq!(
        Tokenizer::from_vocabulary(data)
            .unwrap()
            .encode("hello world"),
        [15339, 1917]
    );
    let mut corrupt = data.to_vec();
    corrupt[70_000] ^= 1;
    let err = Tokenizer::from_vocabulary(&corrupt).unwrap_err();
    assert_eq!(err.code(), "TOKENS_INVALID_VOCABULARY");
    assert!(err.to_string().contains("digest"), "{err}");
    assert_eq!(
        Tokenizer::from_vocabulary(b"AWVOCAB1").unwrap_err().code(),
        "TOKENS_INVALID_VOCABULARY"
    );
    assert_eq!(
        Tokenizer::from_vocabulary(&[]).unwrap_err().code(),
        "TOKENS_INVALID_VOCABULARY"
    );
    // The built-in data is what the generator wrote: its digest holds.
    for data in [
        &include_bytes!("data/cl100k_base.bin")[..],
        &include_bytes!("data/o200k_base.bin")[..],
    ] {
        let (body, digest) = data.split_at(data.len() - 32);
        assert_eq!(sha2::Sha256::digest(body).as_slice(), digest);
    }
}

mod caches {
    use alloc::string::String;

    use proptest::prelude::*;

    use super::*;

    /// Texts that repeat their pieces, short and long, tokens and not (so that every cache of
    /// `count` hits and collides): the count is the number of ids `encode` gives.
    #[test]
    fn counts_with_cache_hits_equal_encoding() {
        let tokenizers = both();
        let word =
            "[ a-zA-Z_]{1,14}|[ ]{1,20}|[\n\t ]{1,6}|[0-9]{1,4}|[.,;:{}\"']{1,3}|é[a-z]{0,9}";
        proptest!(ProptestConfig::with_cases(300), |(
            words in proptest::collection::vec(word, 1..40),
            picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..400),
        )| {
            let text: String = picks.iter().map(|pick| pick.get(&words).as_str()).collect();
            for tokenizer in &tokenizers {
                prop_assert_eq!(tokenizer.count(&text), tokenizer.encode(&text).len(), "{:?}", text);
            }
        });
    }
}
