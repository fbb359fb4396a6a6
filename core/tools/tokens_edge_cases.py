#!/usr/bin/env python3
"""The table of fixed token-counting edge cases, with the ids OpenAI's tiktoken gives them.

Writes tests/fixtures-local/tokens/edge-cases.json: for each text, its ordinary-encoding
ids in cl100k_base and o200k_base from OpenAI's `tiktoken` package (PyPI, 0.14.0), with the
current patterns from the package and the vocabularies from tiktoken-rs's assets (tiktoken
would download them, which is not possible here). `--check` fails if the committed table
differs from what tiktoken gives now. The Rust tests compare agentwire and tiktoken-rs with
this table (tests/runner/tests/tokens.rs).
"""

import argparse
import glob
import json
import os
import sys

TIKTOKEN_VERSION = "0.14.0"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "fixtures-local", "tokens", "edge-cases.json")

WHITE_SPACE = ["\t", "\n", "\x0b", "\x0c", "\r", " ", "\x85", "\xa0", "\u1680",
               *[chr(c) for c in range(0x2000, 0x200B)], "\u2028", "\u2029", "\u202f",
               "\u205f", "\u3000"]
NOT_WHITE_SPACE = ["\ufeff", "\u200b", "\u180e"]


def cases():
    out = []
    for ws in WHITE_SPACE + NOT_WHITE_SPACE:
        out += [f"a{ws}b", f"a{ws}{ws}b", ws, f"x{ws}", f"{ws}\n", f"\r\n{ws}x", f"{ws}'s",
                f"{ws}123", f"{ws}!", f"{ws}{ws}{ws}", f"!{ws}x", f"x {ws}y"]
    for n in [1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 79, 80, 81, 100, 128, 199, 200]:
        out += [" " * n + "x", "x" + " " * n, " " * n + "\n", "\n" + " " * n + "x",
                "\t" * n + "x", "a" + " " * n + "1"]
    out += ["\r\n", "\r\n\r\n", "x\r\n  y", "\r\r\n\n", "\n\r", "a\n\n\n", "x\n  ", "x \n ",
            "x\n\n", "x ", " ", "\n", "  \n  \n  ", "}\n\n  ", "\t\n\t\n"]
    out += ["don't", "DON'T", "'S", "'ſ", "'ſt", "we'LL", "'Re", "'vE", "'m", "'d", "'x",
            "can'ts", "3'ts", "''s", " 's", "'s's", "ſ'ſ", "I'M", "they're", "'ll've", "'L",
            "x'ſx", "'K", "'\u212a", "a'", "'", "''", "o'clock", "rock'n'roll", "'tis"]
    out += ["1", "12", "123", "1234", "12345678", "½²Ⅻ", "٠١٢٣٤٥٦٧٨٩", "１２３４５", "12a34",
            "1 2", "-123.456e7", "0.000001", "2026-11-26T22:25:05Z", "v1.2.3", "1,234,567",
            "३४५", "x²", "Ⅻabc"]
    out += ["camelCase", "HTTPResponse", "ABCdef", "AbcDEF", "aBC", "ǅungla", "ʰello", "中文Text",
            "Aª BCD", "AªBCDef", "xǅY", "ǅ", "ǈ", "ǋ", "HELLO world", "McDonald's", "XMLHttpRequest",
            "iPhone", "getHTTPResponseCode", "ÀÉÎõü", "ΑΒΓαβγ", "ДОМдом", "ßẞ"]
    out += ["e\u0301", "cafe\u0301s", "\u0301abc", "क्षत्रिय", "สวัสดีครับ", "שָׁלוֹם",
            "\u0301\u0302", "A\u0301B", ".\u0301x", " \u0301", "مرحبا بالعالم", "١٢٣",
            "한국어 텍스트", "日本語のテキスト", "Ελληνικά", "ᏣᎳᎩ"]
    out += ["👨‍👩‍👧‍👦", "👍🏽", "🏳️‍🌈", "😀😀😀", "a😀b", " 😀", "🇫🇷🇩🇪"]
    out += [".\n//", "//\n//", "...", "?!\n\n", " !!", "  !!", "\"name\":", "<|endoftext|>",
            "\t\"x\"", "//x", "/*\n * x\n */", "a/b/c", "=> {\n", "})\n\n", "<|fim_prefix|>",
            "\x00\x01", "\u200d", "a\u200db", "#!/usr/bin/env"]
    out += ["A" * 1000, " " * 1000, "=" * 500, "ab" * 300, "\n" * 300,
            "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODk=" * 8]
    out += [f"x{c}y" for c in ["\u1c89", "\ua7cb", "\U00010d50", "\U00010d70", "\U0001ccf0"]]
    out += ['{"id": 1, "name": "Alice",\n  "tags": ["a", "b"],\n  "ok": true, "v": null}\n']
    return out


def encodings():
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    from tiktoken_ext import openai_public

    if tiktoken.__version__ != TIKTOKEN_VERSION:
        sys.exit(f"tiktoken {tiktoken.__version__}; pip install tiktoken=={TIKTOKEN_VERSION}")
    assets = glob.glob(os.path.join(os.path.expanduser(os.environ.get("CARGO_HOME", "~/.cargo")),
                                    "registry", "src", "*", "tiktoken-rs-0.12.1", "assets"))
    if not assets:
        sys.exit("tiktoken-rs 0.12.1 is not in cargo's registry: run `cargo fetch`")
    out = {}
    for name in ["cl100k_base", "o200k_base"]:
        # Patterns from the package; its vocabulary loader downloads, so skip it.
        real = openai_public.load_tiktoken_bpe
        openai_public.load_tiktoken_bpe = lambda *a, **k: {}
        try:
            spec = getattr(openai_public, name)()
        finally:
            openai_public.load_tiktoken_bpe = real
        ranks = load_tiktoken_bpe(os.path.join(assets[0], f"{name}.tiktoken"))
        out[name] = tiktoken.Encoding(name=name, pat_str=spec["pat_str"], mergeable_ranks=ranks,
                                      special_tokens={})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed table differs")
    args = parser.parse_args()
    encs = encodings()
    table = {
        "what": "ordinary-encoding token ids from OpenAI's tiktoken " + TIKTOKEN_VERSION
                + " (core/tools/tokens_edge_cases.py)",
        "cases": [{"text": text, **{name: enc.encode_ordinary(text) for name, enc in encs.items()}}
                  for text in cases()],
    }
    # One case per line, so that a diff names the text that changed.
    content = ('{"what": ' + json.dumps(table["what"]) + ', "cases": [\n'
               + ",\n".join(json.dumps(case, ensure_ascii=True) for case in table["cases"])
               + "\n]}\n")
    if args.check:
        current = open(OUT).read() if os.path.exists(OUT) else None
        if current != content:
            sys.exit(f"{os.path.relpath(OUT)} differs from what tiktoken {TIKTOKEN_VERSION} gives "
                     "(run core/tools/tokens_edge_cases.py)")
        print(f"token edge cases: {len(table['cases'])} texts equal OpenAI's tiktoken {TIKTOKEN_VERSION}")
        return
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    open(OUT, "w").write(content)
    print(f"wrote {os.path.relpath(OUT)} ({len(table['cases'])} texts)")


if __name__ == "__main__":
    main()
