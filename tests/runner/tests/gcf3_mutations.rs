//! Every generic payload of the GCF v3.5.3 conformance fixtures, mutated many ways: the
//! decoder returns a value or a positioned error, and never panics. (The fixtures themselves
//! run through the runner: `fixtures.rs`.)

use std::path::{Path, PathBuf};

use agentwire::gcf::v3;
use agentwire::json::{self, Value};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/gcf/conformance")
}

fn fixture_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(fixtures_dir()).expect("fixtures directory") {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|x| x == "json") {
                files.push(file);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn mutated_payloads_never_panic() {
    let mut payloads = Vec::new();
    for path in fixture_files() {
        let fixture = json::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for key in ["input", "expected"] {
            if let Some(text) = fixture.get(key).and_then(Value::as_str) {
                let header = text.lines().next().unwrap_or("");
                if text.starts_with("GCF profile=generic") && !header.contains("delta=") {
                    payloads.push(text.to_string());
                }
            }
        }
    }
    assert!(payloads.len() > 200);
    const PIECES: &[&str] = &[
        "|",
        "^",
        "~",
        "\"",
        "\\",
        "\n",
        "\n  ",
        "\n    ",
        "  ",
        "\t",
        "[",
        "]",
        "{",
        "}",
        ".",
        "@",
        ">",
        ":",
        ",",
        "=",
        "-",
        "#",
        "## ",
        "##! summary counts=1",
        "[?]",
        "[0:]",
        "^{a}",
        "@0 ",
        "é",
        "\u{0bd7}",
        "\r",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |bound: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % bound as u64) as usize
    };
    const ROUNDS: usize = 300;
    let mut decoded = 0;
    for payload in &payloads {
        let bytes = payload.as_bytes();
        let lines: Vec<&str> = payload.split_inclusive('\n').collect();
        for _ in 0..ROUNDS {
            let mut mutated: Vec<u8> = bytes.to_vec();
            match next(5) {
                0 => {
                    let at = next(mutated.len() + 1);
                    let piece = PIECES[next(PIECES.len())];
                    mutated.splice(at..at, piece.bytes());
                }
                1 if !mutated.is_empty() => {
                    let at = next(mutated.len());
                    let len = 1 + next(4.min(mutated.len() - at));
                    mutated.drain(at..at + len);
                }
                2 => mutated.truncate(next(mutated.len() + 1)),
                3 if lines.len() > 1 => {
                    // Repeat, drop or re-indent a line.
                    let i = 1 + next(lines.len() - 1);
                    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    match next(3) {
                        0 => out.insert(i, lines[i].to_string()),
                        1 => {
                            out.remove(i);
                        }
                        _ => out[i] = format!("{}{}", "  ".repeat(next(3)), lines[i].trim_start()),
                    }
                    mutated = out.concat().into_bytes();
                }
                _ => {
                    let at = next(mutated.len().max(1));
                    if let Some(b) = mutated.get_mut(at) {
                        *b = [b'|', b'"', b' ', b'\n', 0xff, b'^', b'~', b'@'][next(8)];
                    }
                }
            }
            let header = mutated.split(|&b| b == b'\n').next().unwrap_or(&[]);
            if header.windows(6).any(|w| w == b"delta=") {
                continue; // another decoder's input
            }
            match v3::decode(&mutated, &Default::default()) {
                Ok(_) => decoded += 1,
                Err(e) => assert!(
                    e.position().is_some(),
                    "error without a position for {:?}: {e}",
                    String::from_utf8_lossy(&mutated)
                ),
            }
        }
    }
    assert!(decoded > 0);
}
