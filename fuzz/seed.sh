#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the fixtures in tests/fixtures and
# tests/fixtures-local (read only, never changed).
#
# The payloads are pulled out of the JSON vectors with jq (GCX1 and GCF texts, GCB1 hex as
# bytes, tool ids, browse paths); the events streams and SSE files are copied as they are.
# Without jq the fixture files themselves are copied. Files are named by a hash of their
# content, so re-running adds nothing twice and keeps what the fuzzer added to the corpus.
#
# Targets that read `[flags][cuts][payload]` (gcx1_decode, events_push; see
# fuzz/src/checks.rs) get their seeds behind two zero bytes: default options, no cuts.
set -euo pipefail
cd "$(dirname "$0")/.."

FIXTURES=tests/fixtures
CORPUS=fuzz/corpus
# libFuzzer's -max_len in `make fuzz-smoke`: larger seeds would only be cut.
MAX_SEED_BYTES=65536

# put TARGET PREFIX: stores stdin, behind the printf-escaped PREFIX, as one seed of TARGET.
put() {
  local dir="$CORPUS/$1" tmp
  mkdir -p "$dir"
  tmp=$(mktemp)
  { printf "$2"; cat; } > "$tmp"
  if [ "$(wc -c < "$tmp")" -le "$MAX_SEED_BYTES" ]; then
    mv "$tmp" "$dir/seed-$(sha1sum < "$tmp" | cut -c1-16)"
  else
    rm -f "$tmp"
  fi
}

# strings TARGET PREFIX JQ_FILTER FILE...: one seed per distinct string the filter selects.
strings() {
  local target="$1" prefix="$2" filter="$3" b64
  shift 3
  for file in "$@"; do
    jq -r "[$filter] | unique | .[] | @base64" "$file"
  done | sort -u | while read -r b64; do
    printf '%s' "$b64" | base64 -d | put "$target" "$prefix"
  done
}

# files TARGET PREFIX FILE...: one seed per file.
files() {
  local target="$1" prefix="$2"
  shift 2
  for file in "$@"; do
    put "$target" "$prefix" < "$file"
  done
}

gcx1_json=("$FIXTURES"/gcx1/*.json)
gcf_json=("$FIXTURES"/gcf/conformance-v1.1/*/*.json "$FIXTURES"/gcf/conformance-v1/*/*.json)
gcb1_json=("$FIXTURES"/gcb1/vectors/*.json)
gateway_json=("$FIXTURES"/gateway/*.json)
streams=("$FIXTURES"/events/streams/*.jsonl)
sse_files=("$FIXTURES"/events/sse/*.sse)
json_files=("$FIXTURES"/events/*.json "$FIXTURES"/events/*/*.json "${gcb1_json[@]}" \
  "$FIXTURES"/gcf/conformance-v1.1/*/*.json "$FIXTURES"/gateway/paths.json \
  "$FIXTURES"/gateway/tool_id_parse.json "$FIXTURES"/gateway/catalog_ingest.json)

files events_push '\0\0' "${streams[@]}"
files sse '' "${sse_files[@]}"
files json_parse '' "${json_files[@]}" "${streams[@]}"
# Compaction: the JSON fixtures and the real-world documents (those under the size limit).
files compact '' "${json_files[@]}" tests/realworld/*.json tests/realworld/*.jsonl
# The token counter: text of every kind, in chunks of 7 bytes.
files tokens '\7' "${streams[@]}" "$FIXTURES"/gcx1/*.json tests/fixtures-local/tokens/edge-cases.json
# TOON round trips of the benchmark datasets (the smaller ones; put() drops seeds over 64 KiB).
files toon_roundtrip '\0' bench/data/toon/*.json

if ! command -v jq >/dev/null 2>&1; then
  echo "seed.sh: jq not found, copying whole fixture files only" >&2
  files gcx1_decode '\0\0' "${gcx1_json[@]}" "$FIXTURES"/gcx1/scope/*
  files gcx1_header '' "${gcx1_json[@]}"
  files gcf_decode '' "${gcf_json[@]}"
  files gcb1_decode '' "${gcb1_json[@]}"
  files tool_id_parse '' "$FIXTURES"/gateway/tool_id_parse.json
  files path_parse '' "$FIXTURES"/gateway/paths.json
else
  gcx1_payloads='(.. | strings | select(startswith("GCX1"))), (.. | objects | .payload? | strings)'
  strings gcx1_decode '\0\0' "$gcx1_payloads" "${gcx1_json[@]}"
  files gcx1_decode '\0\0' "$FIXTURES"/gcx1/scope/*
  strings gcx1_header '' '.. | strings | split("\n") | .[] | select(startswith("GCX1"))' \
    "${gcx1_json[@]}"
  strings gcx1_roundtrip '' "$gcx1_payloads" "$FIXTURES"/gcx1/roundtrip.json

  gcf_texts='(.. | strings | select(startswith("GCF "))), (.input? | strings)'
  strings gcf_decode '' "$gcf_texts" "${gcf_json[@]}"
  strings gcf3_decode '' '(.. | strings | select(startswith("GCF ")))' \
    "$FIXTURES"/gcf/conformance/*/*.json tests/fixtures-local/gcf36/*.json
  strings gcf_roundtrip '' '.. | strings | select(startswith("GCF "))' \
    "$FIXTURES"/gcf/conformance-v1.1/encode/*.json

  # GCB1 vectors hold bytes as hex (inputHex, expectedHex).
  for file in "${gcb1_json[@]}"; do
    jq -r '(.inputHex?, .expectedHex?) | strings' "$file"
  done | sort -u | while read -r hex; do
    printf '%s' "$hex" | xxd -r -p | put gcb1_decode ''
    printf '%s' "$hex" | xxd -r -p | put gcb1_roundtrip ''
  done

  strings tool_id_parse '' \
    '.. | strings | select(test("^[^ \n]{1,250}$") and contains(":"))' "${gateway_json[@]}"
  strings path_parse '' '.. | strings | select(startswith("/") and length < 200)' \
    "${gateway_json[@]}"
  strings tokens '\7' '.cases[].text' tests/fixtures-local/tokens/edge-cases.json
  # Invalid paths of the vectors that do not start with "/".
  strings path_parse '' '.cases[].input | strings' "$FIXTURES"/gateway/paths.json

  # TOON: the decode inputs and encode outputs as text, the encode inputs and decode results as
  # JSON, behind a zero flags byte (indent 2, no path expansion; comma, no key folding).
  toon_json=("$FIXTURES"/toon/tests/fixtures/*/*.json)
  strings toon_decode '\0' '.tests[] | (.input, .expected) | strings' "${toon_json[@]}"
  strings toon_roundtrip '\0' '.tests[] | select(.shouldError | not) | (.input, .expected) | tojson' \
    "${toon_json[@]}"
fi

for target in $(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^agentwire-fuzz$'); do
  mkdir -p "$CORPUS/$target"
  printf '%-16s %5d seeds\n' "$target" "$(find "$CORPUS/$target" -type f | wc -l)"
done
