// The benchmark suites: each loads its data, checks every implementation's output once (see
// check.mjs) and returns the tasks to time. agentwire runs twice, as the native addon
// (`agentwire`) and as the wasm build (`agentwire/wasm`), on the same values.
//
// A task's `bytes` is the size of the encoded form the operation handles, in UTF-8 bytes (GCB1:
// raw bytes): for decode the encoded input, for encode the produced output. So MB/s is
// "encoded bytes per second" and differs between formats for the same data; compare
// implementations by time per op, which `group` makes comparable (same data, same op).

import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as toon from '@toon-format/toon';
import * as blackwellGcf from '@blackwell-systems/gcf';
import * as gptCl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as gptO200k from 'gpt-tokenizer/encoding/o200k_base';
import { get_encoding as tiktokenEncoding } from 'tiktoken';
import * as native from 'agentwire';
import * as wasm from 'agentwire/wasm';
import { assert, assertGcxRows, assertGraph, genericRows } from './check.mjs';
import { rowsUpTo } from './rows.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORPUS_HELP =
  'generate it from the repository root: make bench-corpus';

function read(path) {
  try {
    return readFileSync(join(ROOT, path), 'utf8');
  } catch (e) {
    throw new Error(`${path}: ${e.code ?? e.message}${path.includes('corpus/out') ? `; ${CORPUS_HELP}` : ''}`);
  }
}

const size = (encoded) => (typeof encoded === 'string' ? Buffer.byteLength(encoded) : encoded.byteLength);
const sum = (list) => list.reduce((n, encoded) => n + size(encoded), 0);

/** `group` names the data a task works on: tasks of one group and op are compared. */
const task = (bench, runtime, impl, op, bytes, fn, group = bench) => ({
  name: `${bench}/${op}/${runtime}/${impl}`,
  bench,
  group,
  runtime,
  impl,
  op,
  bytes,
  fn,
});

/**
 * Both agentwire builds; fails instead of silently measuring the wasm fallback twice.
 * `wasmOnly` (run.mjs --wasm-only): the wasm build alone, where the addon is not built.
 */
export function agentwireBuilds({ wasmOnly = false } = {}) {
  assert.equal(wasm.backend, 'wasm');
  if (wasmOnly) return [['node-wasm', wasm]];
  if (native.backend !== 'native') {
    throw new Error(`the native addon did not load (${native.nativeLoadError?.message}); run \`npm run build\``);
  }
  return [
    ['node-native', native],
    ['node-wasm', wasm],
  ];
}

/** GCX1 on the ~10 MB corpus: 6 sections of 6 fields, ~59k rows. */
function gcx10mb(builds) {
  const payload = read('bench/corpus/out/gcx-10mb.gcx');
  const jsonText = read('bench/corpus/out/gcx-10mb.json');
  const sectionsText = read('bench/corpus/out/gcx-10mb.sections.json');
  const data = JSON.parse(jsonText); // [{tool, rows: [{id, kind, name, path, line, sig}]}]
  const sections = JSON.parse(sectionsText); // [{tool, fields, meta, rows: [[cell, …]]}]
  const tasks = [];

  for (const [runtime, { gcx }] of builds) {
    assertGcxRows(gcx.decode(payload), data);
    tasks.push(task('gcx1-10mb', runtime, 'agentwire', 'decode', size(payload), () => gcx.decode(payload)));

    // "Encode these rows": the generic fallback on the same row objects JSON.stringify gets,
    // one call per section (a section per tool, as in the payload).
    const encodeRows = () => data.map((s) => gcx.encodeGeneric(s.tool, s.rows));
    const generic = encodeRows().join('');
    assertGcxRows(gcx.decode(generic), data);
    tasks.push(task('gcx1-10mb', runtime, 'agentwire', 'encode', size(generic), encodeRows));

    // The sections encoder on the sections document: must give the CLI's bytes exactly.
    assert.ok(gcx.encode(sections) === payload, `${runtime}: gcx.encode(sections) differs from gcx-10mb.gcx`);
    tasks.push(task('gcx1-10mb-sections', runtime, 'agentwire', 'encode', size(payload), () => gcx.encode(sections)));
  }

  assert.ok(JSON.stringify(data) === jsonText, 'JSON.stringify(data) differs from gcx-10mb.json');
  tasks.push(task('gcx1-10mb', 'node-js', 'JSON', 'decode', size(jsonText), () => JSON.parse(jsonText)));
  tasks.push(task('gcx1-10mb', 'node-js', 'JSON', 'encode', size(jsonText), () => JSON.stringify(data)));
  assert.ok(JSON.stringify(sections) === sectionsText, 'JSON.stringify(sections) differs from the file');
  tasks.push(task('gcx1-10mb-sections', 'node-js', 'JSON', 'encode', size(sectionsText), () => JSON.stringify(sections)));

  const toonText = toon.encode(data);
  assert.deepEqual(toon.decode(toonText), data, 'TOON round trip');
  tasks.push(task('gcx1-10mb', 'node-js', '@toon-format/toon', 'decode', size(toonText), () => toon.decode(toonText)));
  tasks.push(task('gcx1-10mb', 'node-js', '@toon-format/toon', 'encode', size(toonText), () => toon.encode(data)));

  return { title: 'GCX1, ~10 MB corpus (bench/corpus/out/gcx-10mb.*)', size: 'large', tasks };
}

/** GCX1 on the upstream benchmark's 20 tool responses; each op runs over all 20 (sum of bytes). */
function gcxBench20(builds) {
  const dir = 'tests/fixtures/gcx1/bench-inputs';
  const tools = new Map(JSON.parse(read('tests/fixtures/gcx1/bench.json')).vectors.map((v) => [v.name, v.input.tool]));
  const inputs = readdirSync(join(ROOT, dir))
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.json'.length);
      assert.ok(tools.has(name), `${file}: no vector in bench.json`);
      return { name, tool: tools.get(name), value: JSON.parse(read(`${dir}/${file}`)) };
    });
  assert.equal(inputs.length, 20, 'bench inputs');
  const tasks = [];

  for (const [runtime, { gcx }] of builds) {
    const encodeAll = () => inputs.map((i) => gcx.encodeGeneric(i.tool, i.value));
    const payloads = encodeAll();
    payloads.forEach((p, k) => {
      const { name, tool, value } = inputs[k];
      try {
        assertGcxRows(gcx.decode(p), [{ tool, rows: genericRows(value) }]);
      } catch (e) {
        e.message = `${runtime} ${name}: ${e.message}`;
        throw e;
      }
    });
    tasks.push(task('gcx1-bench20', runtime, 'agentwire', 'decode', sum(payloads), () => payloads.map((p) => gcx.decode(p))));
    tasks.push(task('gcx1-bench20', runtime, 'agentwire', 'encode', sum(payloads), encodeAll));
  }

  // Compact JSON, as the scorecard measures it (the files themselves are pretty-printed).
  const jsonTexts = inputs.map((i) => JSON.stringify(i.value));
  tasks.push(task('gcx1-bench20', 'node-js', 'JSON', 'decode', sum(jsonTexts), () => jsonTexts.map((t) => JSON.parse(t))));
  tasks.push(task('gcx1-bench20', 'node-js', 'JSON', 'encode', sum(jsonTexts), () => inputs.map((i) => JSON.stringify(i.value))));

  const toonTexts = inputs.map((i) => toon.encode(i.value));
  toonTexts.forEach((t, k) => assert.deepEqual(toon.decode(t), inputs[k].value, `TOON round trip of ${inputs[k].name}`));
  tasks.push(task('gcx1-bench20', 'node-js', '@toon-format/toon', 'decode', sum(toonTexts), () => toonTexts.map((t) => toon.decode(t))));
  tasks.push(task('gcx1-bench20', 'node-js', '@toon-format/toon', 'encode', sum(toonTexts), () => inputs.map((i) => toon.encode(i.value))));

  return { title: 'GCX1, the 20 benchmark responses (tests/fixtures/gcx1/bench-inputs)', size: 'small', tasks };
}

/**
 * Single payloads of about 1 KB and 10 KB (the first rows of the corpus's first section), as
 * MCP tool results are: per-call overhead shows here. GCX1 decode and encode against JSON.
 */
function gcxSingle(builds) {
  const data = JSON.parse(read('bench/corpus/out/gcx-10mb.json'));
  const tasks = [];
  for (const [label, target] of [['1kb', 1000], ['10kb', 10000]]) {
    const { tool } = data[0];
    const rows = rowsUpTo(data[0].rows, target);
    const jsonText = JSON.stringify(rows);
    const bench = `gcx1-${label}`;
    for (const [runtime, { gcx }] of builds) {
      const payload = gcx.encodeGeneric(tool, rows);
      assertGcxRows(gcx.decode(payload), [{ tool, rows }]);
      tasks.push(task(bench, runtime, 'agentwire', 'decode', size(payload), () => gcx.decode(payload)));
      tasks.push(task(bench, runtime, 'agentwire', 'encode', size(payload), () => gcx.encodeGeneric(tool, rows)));
    }
    tasks.push(task(bench, 'node-js', 'JSON', 'decode', size(jsonText), () => JSON.parse(jsonText)));
    tasks.push(task(bench, 'node-js', 'JSON', 'encode', size(jsonText), () => JSON.stringify(rows)));
  }
  return { title: 'GCX1, single payloads of ~1 KB and ~10 KB', size: 'small', tasks };
}

/**
 * The 500-symbol, 1000-edge graph in GCF v1.1 text, GCB1 binary and JSON. The pure-JS GCF
 * peer implements GCF 3.5.0, not v1.1: it is compared like with like in gcf3Graph.
 */
function graph500(builds) {
  const jsonText = read('bench/corpus/out/graph-500.json');
  const graph = JSON.parse(jsonText);
  const tasks = [];

  for (const [runtime, { gcf, gcb }] of builds) {
    const text = gcf.encode(graph);
    assertGraph(gcf.decode(text), graph); // GCF carries no signatures
    tasks.push(task('graph-500', runtime, 'agentwire', 'decode', size(text), () => gcf.decode(text)));
    tasks.push(task('graph-500', runtime, 'agentwire', 'encode', size(text), () => gcf.encode(graph)));

    const bytes = gcb.encode(graph);
    assertGraph(gcb.decode(bytes), graph, { signature: true, float32: true });
    tasks.push(task('graph-500-gcb', runtime, 'agentwire', 'decode', size(bytes), () => gcb.decode(bytes), 'graph-500'));
    tasks.push(task('graph-500-gcb', runtime, 'agentwire', 'encode', size(bytes), () => gcb.encode(graph), 'graph-500'));
  }

  assert.ok(JSON.stringify(graph) === jsonText, 'JSON.stringify(graph) differs from graph-500.json');
  tasks.push(task('graph-500', 'node-js', 'JSON', 'decode', size(jsonText), () => JSON.parse(jsonText)));
  tasks.push(task('graph-500', 'node-js', 'JSON', 'encode', size(jsonText), () => JSON.stringify(graph)));

  return { title: 'Graph, 500 symbols / 1000 edges, GCF v1.1 and GCB1 (bench/corpus/out/graph-500.json)', size: 'small', tasks };
}

const peer = '@blackwell-systems/gcf';

/**
 * GCF 3.5.3 graph profile against the pure-JS peer (GCF 3.5.0, whose graph output is the
 * same on this input: checked byte for byte), and against JSON of the same payload.
 */
function gcf3Graph(builds) {
  const jsonText = read('bench/corpus/out/graph-500.json');
  const graph = JSON.parse(jsonText);
  const peerText = blackwellGcf.encode(graph);
  assertGraph(blackwellGcf.decode(peerText), graph);
  const tasks = [];
  for (const [runtime, { gcf }] of builds) {
    const text = gcf.encodeGraph(graph);
    assert.ok(text === peerText, `${runtime}: gcf.encodeGraph differs from ${peer}`);
    assertGraph(gcf.decodeGraph(text), graph);
    tasks.push(task('gcf3-graph-500', runtime, 'agentwire', 'decode', size(text), () => gcf.decodeGraph(text)));
    tasks.push(task('gcf3-graph-500', runtime, 'agentwire', 'encode', size(text), () => gcf.encodeGraph(graph)));
  }
  tasks.push(task('gcf3-graph-500', 'node-js', peer, 'decode', size(peerText), () => blackwellGcf.decode(peerText)));
  tasks.push(task('gcf3-graph-500', 'node-js', peer, 'encode', size(peerText), () => blackwellGcf.encode(graph)));
  // The decoded payload as JSON: what gcf.decodeGraph builds, written as JSON.
  const decodedJson = JSON.stringify(builds[0][1].gcf.decodeGraph(peerText));
  tasks.push(task('gcf3-graph-500', 'node-js', 'JSON', 'decode', size(decodedJson), () => JSON.parse(decodedJson)));
  tasks.push(task('gcf3-graph-500', 'node-js', 'JSON', 'encode', size(jsonText), () => JSON.stringify(graph)));
  return { title: 'GCF 3.5.3 graph profile, 500 symbols / 1000 edges, against the pure-JS peer', size: 'small', tasks };
}

/** A value with Maps turned into plain objects. */
function plain(value) {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

/** GCF 3.5.3 generic profile (any JSON value) against the pure-JS peer, byte for byte: pinned,
 * since the peer writes 3.5.x and agentwire's default (3.6.0) factors constant columns. */
const V3_5_3 = { version: '3.5.3' };

function gcf3Generic(builds) {
  const dir = 'tests/fixtures/gcx1/bench-inputs';
  const inputs = readdirSync(join(ROOT, dir))
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(read(`${dir}/${file}`)));
  const data = JSON.parse(read('bench/corpus/out/gcx-10mb.json'));
  const single = (target) => [rowsUpTo(data[0].rows, target)];
  const sets = [
    ['gcf3-generic-graph-500', [JSON.parse(read('bench/corpus/out/graph-500.json'))]],
    ['gcf3-generic-bench20', inputs],
    ['gcf3-generic-1kb', single(1000)],
    ['gcf3-generic-10kb', single(10000)],
  ];
  const tasks = [];
  for (const [bench, values] of sets) {
    const peerTexts = values.map((v) => blackwellGcf.encodeGeneric(v));
    for (const [runtime, { gcf }] of builds) {
      const texts = values.map((v) => gcf.encodeGeneric(v, V3_5_3));
      texts.forEach((t, k) => {
        assert.ok(t === peerTexts[k], `${runtime} ${bench}[${k}]: gcf.encodeGeneric differs from ${peer}`);
        assert.deepEqual(gcf.decodeGeneric(t), values[k], `${runtime} ${bench}[${k}] round trip`);
      });
      tasks.push(task(bench, runtime, 'agentwire', 'decode', sum(texts), () => texts.map((t) => gcf.decodeGeneric(t))));
      tasks.push(task(bench, runtime, 'agentwire', 'encode', sum(texts), () => values.map((v) => gcf.encodeGeneric(v, V3_5_3))));
    }
    // The peer decodes objects as Maps (to keep integer-like keys in order): compared as
    // objects; a decoder that loses data would not be timed.
    const lossy = peerTexts.findIndex((t, k) => !isDeepStrictEqual(plain(blackwellGcf.decodeGeneric(t)), values[k]));
    if (lossy === -1) {
      tasks.push(task(bench, 'node-js', peer, 'decode', sum(peerTexts), () => peerTexts.map((t) => blackwellGcf.decodeGeneric(t))));
    } else {
      process.stderr.write(`  ${bench}: ${peer} decodeGeneric does not round-trip value ${lossy}; its decode is not timed\n`);
    }
    tasks.push(task(bench, 'node-js', peer, 'encode', sum(peerTexts), () => values.map((v) => blackwellGcf.encodeGeneric(v))));
    const jsonTexts = values.map((v) => JSON.stringify(v));
    tasks.push(task(bench, 'node-js', 'JSON', 'decode', sum(jsonTexts), () => jsonTexts.map((t) => JSON.parse(t))));
    tasks.push(task(bench, 'node-js', 'JSON', 'encode', sum(jsonTexts), () => values.map((v) => JSON.stringify(v))));
  }
  return { title: 'GCF 3.5.3 generic profile against the pure-JS peer (graph-500, the 20 responses, 1 KB, 10 KB)', size: 'small', tasks };
}

/** The pretty-printed corpus (`JSON.stringify(rows, null, 2)`), cut to about `bytes`. */
function prettyCorpus(bytes) {
  const text = JSON.stringify(JSON.parse(read('bench/corpus/out/gcx-10mb.json')), null, 2);
  return text.slice(0, text.lastIndexOf('\n', bytes));
}

/** Prose and code: the README, then the docs and the core's GCX1 sources, to about `bytes`. */
function proseAndCode(bytes) {
  const files = ['README.md'];
  for (const dir of ['docs', 'core/src/gcx']) {
    files.push(...readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.md') || f.endsWith('.rs')).sort().map((f) => `${dir}/${f}`));
  }
  let text = '';
  for (const file of files) {
    if (text.length >= bytes) break;
    text += read(file);
  }
  return text;
}

/**
 * Exact token counts against the JS peers, on the same texts (512 KB of the pretty corpus, and
 * of prose and code): gpt-tokenizer's `countTokens` (warmed, its piece cache at its default
 * size) and the npm `tiktoken` package (tiktoken-rs compiled to wasm). Every count is checked
 * equal first. Special-token text counts as text everywhere (gpt-tokenizer: no disallowed
 * specials; tiktoken: `encode_ordinary`).
 */
function tokenCounts(builds) {
  const texts = [
    ['tokens-json-512kb', prettyCorpus(512 << 10)],
    ['tokens-prose-code-512kb', proseAndCode(512 << 10)],
  ];
  const peers = {
    cl100k_base: { gpt: gptCl100k, tiktoken: tiktokenEncoding('cl100k_base') },
    o200k_base: { gpt: gptO200k, tiktoken: tiktokenEncoding('o200k_base') },
  };
  const asText = { disallowedSpecial: new Set() };
  const tasks = [];
  for (const [data, text] of texts) {
    const bytes = Buffer.byteLength(text);
    for (const [encoding, { gpt, tiktoken }] of Object.entries(peers)) {
      const bench = `${data}-${encoding.replace('_base', '')}`;
      const expected = tiktoken.encode_ordinary(text).length;
      assert.equal(gpt.countTokens(text, asText), expected, `${bench}: gpt-tokenizer`);
      for (const [runtime, { tokens }] of builds) {
        assert.equal(tokens.count(text, encoding), expected, `${bench}: ${runtime}`);
        tasks.push(task(bench, runtime, 'agentwire', 'count', bytes, () => tokens.count(text, encoding)));
      }
      tasks.push(task(bench, 'node-js', 'gpt-tokenizer', 'count', bytes, () => gpt.countTokens(text, asText)));
      tasks.push(task(bench, 'node-js', 'tiktoken', 'count', bytes, () => tiktoken.encode_ordinary(text).length));
    }
  }
  return { title: 'Exact token counts (cl100k, o200k) against gpt-tokenizer and the npm tiktoken package', size: 'large', tasks };
}

/** compact.json of a 106 KB pretty-printed tool result with exact cl100k counts, as agentwire-mcp calls it. */
function compact106kb(builds) {
  const text = read('bench/corpus/tool-result-106kb.json');
  const tasks = [];
  for (const [runtime, { compact }] of builds) {
    const out = compact.json(text, { tool: 'read_graph' });
    assert.notEqual(out.format, 'input', `${runtime}: compact.json kept the input`);
    assert.ok(out.tokens < out.inputTokens);
    tasks.push(task('compact-106kb', runtime, 'agentwire', 'compact', Buffer.byteLength(text), () => compact.json(text, { tool: 'read_graph' })));
  }
  return { title: 'compact.json of a 106 KB pretty-printed tool result (bench/corpus/tool-result-106kb.json)', size: 'small', tasks };
}

/** TOON's 8 benchmark datasets (bench/data/toon), together 1.2 MB of JSON: toon.encode of all
 * eight values and toon.decode of their texts, against @toon-format/toon 4.4.0 doing the same.
 * Both write the same bytes (checked first) and read the same values. */
export const TOON_DATASETS = ['analytics', 'event-logs', 'github', 'keyed', 'nested-config', 'nested-group', 'nested', 'tabular'];

function toonDatasets(builds) {
  const values = TOON_DATASETS.map((name) => JSON.parse(read(`bench/data/toon/${name}.json`)));
  const texts = values.map((value) => toon.encode(value));
  const bytes = sum(texts);
  const tasks = [];
  for (const [runtime, api] of builds) {
    values.forEach((value, i) => {
      assert.equal(api.toon.encode(value), texts[i], `${runtime}: toon.encode of ${TOON_DATASETS[i]} equals the reference's`);
      assert.deepStrictEqual(api.toon.decode(texts[i]), toon.decode(texts[i]), `${runtime}: toon.decode of ${TOON_DATASETS[i]}`);
    });
    tasks.push(task('toon-8', runtime, 'agentwire', 'encode', bytes, () => values.map((v) => api.toon.encode(v))));
    tasks.push(task('toon-8', runtime, 'agentwire', 'decode', bytes, () => texts.map((t) => api.toon.decode(t))));
  }
  tasks.push(task('toon-8', 'node-js', '@toon-format/toon', 'encode', bytes, () => values.map((v) => toon.encode(v))));
  tasks.push(task('toon-8', 'node-js', '@toon-format/toon', 'decode', bytes, () => texts.map((t) => toon.decode(t))));
  return { title: "TOON encode and decode of TOON's 8 benchmark datasets against @toon-format/toon", size: 'large', tasks };
}

/** The suites in run order; each takes the agentwire builds and checks before returning. */
export const SUITES = [gcx10mb, gcxBench20, gcxSingle, graph500, gcf3Graph, gcf3Generic, tokenCounts, compact106kb, toonDatasets];
