#!/usr/bin/env node
// node bench/node/tokens.mjs [--out FILE]   (`make bench-tokens`, part of `make bench`)
//
// Tokens, not time: the same data in every format users weigh, counted exactly with OpenAI's
// tiktoken (the npm `tiktoken` package: its wasm build of the Rust tokenizer) in o200k_base and
// cl100k_base. Formats: pretty JSON (2 spaces), minified JSON, YAML (`yaml`), TOON
// (`@toon-format/toon`, defaults and tab delimiter), CSV where the data is flat (as TOON's
// benchmark writes it: `csv-stringify`, under a line with the array's key), and
// agentwire's choice (compact.json, minSavings 0) with each of its candidates.
//
// Datasets: TOON's own 8 benchmark datasets (bench/data/toon: the published counts are checked
// before anything is written), and the real-world corpus (tests/realworld: every .json document
// as it was produced; the .jsonl logs are not one document and are listed apart).
//
// --out writes {encodings, toon: [{dataset, counts: {encoding: {format: tokens}}, choice:
// {encoding: format}, candidates: {encoding: {format: tokens}}}], realworld: [...same, plus
// reason: {encoding: code}], jsonl: [{file, reason}]}; bench/report.mjs turns it into the rows
// of bench/results/latest.json and the README's token table.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encode as toonEncode } from '@toon-format/toon';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { get_encoding } from 'tiktoken';
import YAML from 'yaml';
import { compact, tokens as agentwireTokens } from 'agentwire';

const { values: args } = parseArgs({ options: { out: { type: 'string' } } });
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENCODINGS = ['o200k_base', 'cl100k_base'];
const log = (line) => process.stderr.write(`${line}\n`);

// TOON's published o200k counts for these files (bench/data/toon/README.md): the datasets are
// the benchmark's only if these come out equal.
const PUBLISHED_O200K = {
  nested: { 'json-pretty': 108611, 'json-min': 68944, toon: 72832 },
  'event-logs': { 'json-pretty': 181201, 'json-min': 128529, toon: 154084 },
  'nested-config': { 'json-pretty': 905, 'json-min': 552, toon: 589 },
  keyed: { 'json-pretty': 23141, 'json-min': 15635, toon: 10503 },
  'nested-group': { 'json-pretty': 79779, 'json-min': 46791, toon: 26726 },
  tabular: { 'json-pretty': 127061, 'json-min': 79057, toon: 49978, csv: 47153 },
  analytics: { 'json-pretty': 22245, 'json-min': 14211, toon: 9115, csv: 8383 },
  github: { 'json-pretty': 15337, 'json-min': 11640, toon: 8937, csv: 8711 },
};
const TOON_DATASETS = Object.keys(PUBLISHED_O200K);

const counters = Object.fromEntries(ENCODINGS.map((e) => [e, get_encoding(e)]));
const count = (encoding, text) => counters[encoding].encode_ordinary(text).length;

const isPrimitive = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** CSV of flat data, as TOON's benchmark writes it: the root's one key on a line, then
 * csv-stringify's rows with a header. Flat: an array of objects that share their keys and hold
 * only primitives (what CSV can carry); null for other data. */
function csv(data) {
  const entries = data && typeof data === 'object' && !Array.isArray(data) ? Object.entries(data) : [];
  if (entries.length !== 1 || !Array.isArray(entries[0][1]) || entries[0][1].length === 0) return null;
  const [label, rows] = entries[0];
  const keys = rows[0] && typeof rows[0] === 'object' && !Array.isArray(rows[0]) ? Object.keys(rows[0]) : null;
  if (!keys) return null;
  const flat = (row) => row && typeof row === 'object' && !Array.isArray(row) && Object.keys(row).length === keys.length && keys.every((k) => k in row && isPrimitive(row[k]));
  return rows.every(flat) ? `${label}\n${stringifyCsv(rows, { header: true })}` : null;
}

/** Every format of one JSON text, counted in every encoding, and agentwire's choice for `input`
 * (the text a tool returned). */
function measure(name, text, input = text) {
  const data = JSON.parse(text);
  const texts = {
    'json-pretty': JSON.stringify(data, null, 2),
    'json-min': JSON.stringify(data),
    yaml: YAML.stringify(data),
    toon: toonEncode(data),
    'toon-tab': toonEncode(data, { delimiter: '\t' }),
  };
  const table = csv(data);
  if (table !== null) texts.csv = table;
  const row = { dataset: name, bytes: Buffer.byteLength(text), counts: {}, choice: {}, candidates: {}, reason: {} };
  for (const encoding of ENCODINGS) {
    const counts = Object.fromEntries(Object.entries(texts).map(([format, t]) => [format, count(encoding, t)]));
    const out = compact.json(input, { minSavings: 0, exactCounts: true, candidateTexts: true, tokenizer: encoding });
    // agentwire's counts are its own counter's: they must be tiktoken's.
    const ours = count(encoding, out.text);
    if (ours !== out.tokens) throw new Error(`${name} ${encoding}: agentwire counted ${out.tokens} tokens, tiktoken ${ours}`);
    counts.agentwire = out.tokens;
    if (out.format === 'input') counts.input = out.tokens;
    row.counts[encoding] = counts;
    row.choice[encoding] = out.format;
    row.reason[encoding] = out.reason?.code ?? null;
    row.candidates[encoding] = Object.fromEntries(out.candidates.filter((c) => c.lossless).map((c) => [c.format, c.tokens]));
  }
  return row;
}

for (const encoding of ENCODINGS) await agentwireTokens.load(encoding);

log('== tokens: TOON benchmark datasets (bench/data/toon)');
const toon = [];
for (const dataset of TOON_DATASETS) {
  // The data as a tool returns it, pretty-printed (the benchmark's JSON baseline).
  const text = readFileSync(join(root, 'bench/data/toon', `${dataset}.json`), 'utf8');
  const row = measure(dataset, text, JSON.stringify(JSON.parse(text), null, 2));
  for (const [format, published] of Object.entries(PUBLISHED_O200K[dataset])) {
    const ours = row.counts.o200k_base[format];
    if (ours !== published) throw new Error(`${dataset} ${format}: ${ours} o200k tokens, TOON published ${published}: not the benchmark's data`);
  }
  toon.push(row);
  const c = row.counts.o200k_base;
  log(`${dataset.padEnd(14)} o200k: json ${c['json-pretty']}, min ${c['json-min']}, toon ${c.toon}, toon-tab ${c['toon-tab']}${c.csv ? `, csv ${c.csv}` : ''}, agentwire ${c.agentwire} (${row.choice.o200k_base})`);
}

log('== tokens: the real-world corpus (tests/realworld)');
const manifest = JSON.parse(readFileSync(join(root, 'tests/realworld/manifest.json'), 'utf8'));
const realworld = [];
const jsonl = [];
for (const { file, kind } of manifest.files) {
  const text = readFileSync(join(root, 'tests/realworld', file), 'utf8');
  if (kind === 'jsonl') {
    jsonl.push({ file, reason: compact.json(text, { minSavings: 0 }).reason?.code ?? null });
    continue;
  }
  const row = measure(file, text);
  realworld.push(row);
  const c = row.counts.o200k_base;
  log(`${file.padEnd(52)} o200k: min ${c['json-min']}, toon ${c.toon}, agentwire ${c.agentwire} (${row.choice.o200k_base}${row.reason.o200k_base ? `: ${row.reason.o200k_base}` : ''})`);
}

const result = { encodings: ENCODINGS, counter: 'tiktoken (npm) 1.0.22', toon, realworld, jsonl };
if (args.out) writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
for (const c of Object.values(counters)) c.free();
