//! agentwire's token counter against tiktoken-rs and bpe-openai on more than 10 MB of varied
//! text per run (`make test-tokens-diff`, part of `make test`): the repository's fixtures,
//! specs, docs and Rust sources, the pretty-printed bench corpus, and generated text in every
//! script, the whitespace zoo, emoji sequences, combining marks, titlecase letters, digits of
//! every kind, contractions, long unbroken runs and text that ends in whitespace.
//!
//! Ids must equal tiktoken-rs's (`encode_ordinary`) and counts must equal both oracles', for
//! both encodings; `count_within` must stop exactly, and the streaming count must equal the
//! whole count for random chunkings.

use std::path::{Path, PathBuf};

use agentwire::tokens::Tokenizer;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A small deterministic generator (xorshift64*), so every run checks the same text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    fn char_in(&mut self, from: u32, to: u32) -> char {
        loop {
            if let Some(c) = char::from_u32(from + (self.next() % u64::from(to - from + 1)) as u32)
            {
                return c;
            }
        }
    }
}

/// Every UTF-8 text file under `dir` (recursively), as (name, text).
fn text_files(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if !path.ends_with("target")
                && !path.ends_with("node_modules")
                && !path.ends_with("out")
            {
                text_files(&path, out);
            }
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push((path.display().to_string(), text));
        }
    }
}

/// Words in a script: letters from its block(s), with its marks and digits where it has them.
const SCRIPTS: &[(&str, &[(u32, u32)])] = &[
    (
        "latin",
        &[(0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x1E00, 0x1EFF)],
    ),
    ("greek", &[(0x391, 0x3A9), (0x3B1, 0x3C9), (0x1F00, 0x1FFF)]),
    ("cyrillic", &[(0x400, 0x4FF)]),
    ("armenian", &[(0x531, 0x587)]),
    ("hebrew", &[(0x591, 0x5F4)]),
    ("arabic", &[(0x600, 0x6FF), (0x750, 0x77F)]),
    ("devanagari", &[(0x900, 0x97F)]),
    ("bengali", &[(0x980, 0x9FF)]),
    ("tamil", &[(0xB80, 0xBFF)]),
    ("thai", &[(0xE00, 0xE7F)]),
    ("tibetan", &[(0xF00, 0xFFF)]),
    ("georgian", &[(0x10A0, 0x10FF)]),
    ("hangul", &[(0xAC00, 0xD7A3), (0x1100, 0x11FF)]),
    ("ethiopic", &[(0x1200, 0x139F)]),
    ("cherokee", &[(0x13A0, 0x13FF), (0xAB70, 0xABBF)]),
    ("mongolian", &[(0x1800, 0x18AF)]),
    ("hiragana-katakana", &[(0x3041, 0x30FF)]),
    (
        "cjk",
        &[(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF)],
    ),
    ("fullwidth", &[(0xFF01, 0xFF5E)]),
    ("math-alphanumeric", &[(0x1D400, 0x1D7FF)]),
    (
        "new-in-unicode-16",
        &[
            (0x1C89, 0x1C8A),
            (0xA7CB, 0xA7DC),
            (0x10D40, 0x10D8F),
            (0x16100, 0x1613F),
            (0x1E5D0, 0x1E5FF),
        ],
    ),
    (
        "any-assigned-or-not",
        &[(0x80, 0x2FFFF), (0xE0000, 0xE01EF)],
    ),
];

const WHITESPACE: &[&str] = &[
    " ", "\t", "\n", "\r", "\r\n", "\u{b}", "\u{c}", "\u{85}", "\u{a0}", "\u{1680}", "\u{2000}",
    "\u{2005}", "\u{200a}", "\u{2028}", "\u{2029}", "\u{202f}", "\u{205f}", "\u{3000}", "\u{feff}",
    "\u{200b}", "\u{180e}",
];

const ODDITIES: &[&str] = &[
    "👨‍👩‍👧‍👦",
    "👍🏽",
    "🏳️‍🌈",
    "🧑🏿‍🚀",
    "🇫🇷",
    "😀",
    "e\u{301}",
    "a\u{300}\u{316}",
    "क्षि",
    "ǅ",
    "ǈ",
    "ǋ",
    "ʰ",
    "½",
    "²",
    "Ⅻ",
    "٠١٢٣",
    "۴۵۶",
    "１２３",
    "३४५",
    "๑๒๓",
    "don't",
    "WE'LL",
    "'S",
    "'ſ",
    "I'M",
    "they're",
    "can'ts",
    "3'ts",
    "'",
    "''",
    "camelCase",
    "HTTPResponse",
    "getHTTPResponseCode",
    "<|endoftext|>",
    ".\n//",
    "//\n",
    "=>",
    "::",
    "\\u00e9",
    "0x1F",
    "1e-7",
    "-0.0",
    "12345678901234567890",
];

fn generated(rng: &mut Rng, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 64);
    while out.len() < bytes {
        match rng.below(10) {
            0..=3 => {
                let (_, ranges) = rng.pick(SCRIPTS);
                for _ in 0..1 + rng.below(12) {
                    let (from, to) = rng.pick(ranges);
                    out.push(rng.char_in(from, to));
                }
            }
            4 | 5 => {
                let ws = rng.pick(WHITESPACE);
                let n = if rng.below(8) == 0 {
                    1 + rng.below(200)
                } else {
                    1 + rng.below(3)
                };
                for _ in 0..n {
                    out.push_str(ws);
                }
            }
            6 => out.push_str(rng.pick(ODDITIES)),
            7 => out.push_str(rng.pick(&[
                ".", ",", "!", "?", "\"", "(", ")", "{", "}", ":", "/", "-", "'", "#", "*",
            ])),
            8 => {
                let n = rng.below(9);
                for _ in 0..=n {
                    out.push(char::from(b'0' + rng.below(10) as u8));
                }
            }
            _ => {
                // A long unbroken run: letters, one character, or base64.
                let run = rng.pick(&["A", "a", " ", "=", "-", "ab", "Zx9+/", "日"]);
                for _ in 0..rng.below(3000) {
                    out.push_str(run);
                }
            }
        }
    }
    out
}

/// The texts, each a separate case (so that "text ending in whitespace" and friends happen).
fn corpus() -> Vec<(String, String)> {
    let root = repo();
    let mut texts = Vec::new();
    for dir in ["tests", "docs", "core/src", "npm/lib", "mcp/src"] {
        text_files(&root.join(dir), &mut texts);
    }
    for file in ["README.md", "Makefile"] {
        texts.push((
            file.into(),
            std::fs::read_to_string(root.join(file)).unwrap(),
        ));
    }
    let corpus = root.join("bench/corpus/out/gcx-10mb.json");
    let json = std::fs::read_to_string(&corpus).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run `node bench/corpus/generate.mjs`)",
            corpus.display()
        )
    });
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut pretty = serde_json::to_string_pretty(&value).unwrap();
    pretty.truncate(char_boundary_at_or_before(&pretty, 3 << 20));
    texts.push(("bench corpus, pretty, 3 MB".into(), pretty));
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..400 {
        let len = 1 + rng.below(20_000);
        let mut text = generated(&mut rng, len);
        if i % 3 == 0 {
            text.push_str(rng.pick(WHITESPACE)); // ends in whitespace
        }
        texts.push((format!("generated #{i}"), text));
    }
    texts
}

#[test]
fn ten_megabytes_equal_tiktoken_rs_and_bpe_openai() {
    let texts = corpus();
    let total: usize = texts.iter().map(|(_, t)| t.len()).sum();
    assert!(total >= 10 << 20, "only {total} bytes of text");
    let oracles = [
        (
            Tokenizer::cl100k_base(),
            tiktoken_rs::cl100k_base().unwrap(),
            bpe_openai::cl100k_base(),
        ),
        (
            Tokenizer::o200k_base(),
            tiktoken_rs::o200k_base().unwrap(),
            bpe_openai::o200k_base(),
        ),
    ];
    let mut rng = Rng(17);
    let mut failures = Vec::new();
    for (ours, tiktoken_rs, bpe_openai) in &oracles {
        let name = ours.encoding().name();
        let mut tokens = 0;
        for (what, text) in &texts {
            let expected = tiktoken_rs.encode_ordinary(text);
            tokens += expected.len();
            let ids = ours.encode(text);
            if ids != expected {
                let at = ids
                    .iter()
                    .zip(&expected)
                    .position(|(a, b)| a != b)
                    .unwrap_or(ids.len().min(expected.len()));
                failures.push(format!(
                    "{name} {what}: ids differ from tiktoken-rs at token {at}"
                ));
                continue;
            }
            let count = ours.count(text);
            if count != expected.len() || bpe_openai.count(text) != count {
                failures.push(format!(
                    "{name} {what}: count {count}, tiktoken-rs {}, bpe-openai {}",
                    expected.len(),
                    bpe_openai.count(text)
                ));
            }
            let limit = rng.below(count + 2);
            let within = ours.count_within(text, limit);
            if within != (count <= limit).then_some(count) {
                failures.push(format!(
                    "{name} {what}: count_within({limit}) = {within:?} of {count}"
                ));
            }
            let mut stream = ours.count_stream();
            let mut at = 0;
            while at < text.len() {
                let end = (at + 1 + rng.below(70_000)).min(text.len());
                stream.push(&text.as_bytes()[at..end]).unwrap();
                at = end;
            }
            let streamed = stream.finish().unwrap();
            if streamed != count {
                failures.push(format!(
                    "{name} {what}: streamed count {streamed} of {count}"
                ));
            }
        }
        eprintln!(
            "{name}: {} texts, {total} bytes, {tokens} tokens: equal",
            texts.len()
        );
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The largest char boundary of `text` at or before `at` (`str::floor_char_boundary` is newer
/// than the workspace's rust-version).
fn char_boundary_at_or_before(text: &str, at: usize) -> usize {
    (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}
