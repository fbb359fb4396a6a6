#!/usr/bin/env node
// Gathers one `make bench` run into bench/results/latest.json and latest.md (every ratio), and
// copies the headline ratios (README_HEADLINES) into the README's Speed section (between the
// bench:begin/end markers).
//
// Inputs: the records of the Rust rounds (bench/results/rust.json, from `make bench-rust`:
// bench/rust/benches/rounds.rs), of the npm suites (bench/results/npm.json, from
// `make bench-npm`: bench/node/run.mjs --out), of agentwire-mcp (bench/results/mcp.json, if
// present), the streaming memory check (bench/results/memory.json, from
// bench/stream-memory.mjs) and the default wasm module.
//
// latest.json: {machine, command, date, results: [{name, runtime, impl, op, bytes, ns_per_op,
// mb_per_s, schedule, rounds_ns}], ratios: {name: {value, spread, rounds, target, bound, met, what}}}.
// A speed ratio is how many times faster agentwire is than the peer (peer time / agentwire
// time) on the same data. Both harnesses time in interleaved rounds, so a ratio is taken round
// by round: `value` is the median of the rounds, `spread` their [min, max], `rounds` how many.
// A single measurement (a size, a peak RSS) has `spread: null, rounds: 1`. `met` is true when
// every round meets the target, false when none does, and "spread-crosses" in between: then
// the run cannot say, and the row does not count as met.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'bench/results');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

function machine() {
  const cpu = cpus();
  const rustc = execSync('rustc --version', { encoding: 'utf8' }).trim();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${process.platform} ${process.arch}; ${rustc}; Node ${process.version}`;
}

const npmPath = join(results, 'npm.json');
const memoryPath = join(results, 'memory.json');
const rustPath = join(results, 'rust.json');
for (const [path, step] of [[rustPath, 'make bench-rust'], [npmPath, 'make bench-npm'], [memoryPath, 'node bench/stream-memory.mjs']]) {
  if (!existsSync(path)) throw new Error(`${path} is missing (run \`${step}\`; \`make bench\` runs every step)`);
}
const records = [...readJson(rustPath), ...readJson(npmPath)];
// agentwire-mcp's latency run (mcp/bench/latency.mjs) brings its own records and ratios.
const mcpPath = join(results, 'mcp.json');
const mcp = existsSync(mcpPath) ? readJson(mcpPath) : { records: [], ratios: {} };
records.push(...mcp.records);
// And its load run (mcp/bench/load.mjs): sessions over HTTP and stdio, saturation, soak.
const mcpLoadPath = join(results, 'mcp-load.json');
const mcpLoad = existsSync(mcpLoadPath) ? readJson(mcpLoadPath) : { records: [], ratios: {} };
records.push(...mcpLoad.records);
// The browser rows (bench/browser/run.mjs, `make bench-browser`), if that run exists.
const browserPath = join(results, 'browser.json');
const browser = existsSync(browserPath) ? readJson(browserPath) : { records: [] };
records.push(...browser.records);
// The win32-x64 addon and the wasm build in node.exe under Wine (bench/node/wine.mjs, `make
// bench-wine`), if that run exists.
const winePath = join(results, 'wine.json');
const wine = existsSync(winePath) ? readJson(winePath) : { records: [] };
records.push(...wine.records);
const memory = readJson(memoryPath);
const wasmGzip = gzipSync(readFileSync(join(root, 'npm/wasm/agentwire_core_bg.wasm')), { level: 9 }).length;

const find = (name) => {
  const record = records.find((r) => r.name === name);
  if (!record) throw new Error(`benchmark ${name} is missing from this run`);
  return record;
};
/** The per-round times of two records; a ratio takes them round by round, so both must come
 * from the same interleaved rounds. */
const pairedRounds = (a, b) => {
  const [ra, rb] = [find(a), find(b)];
  if (ra.schedule === undefined || ra.schedule !== rb.schedule || ra.rounds_ns.length !== rb.rounds_ns.length) {
    throw new Error(`${a} (${ra.schedule}) and ${b} (${rb.schedule}) were not timed in the same rounds`);
  }
  return [ra.rounds_ns, rb.rounds_ns];
};
/** How many times faster `ours` is than `peer` (peer time / our time), round by round. */
const speedup = (ours, peer) => {
  const [our, their] = pairedRounds(ours, peer);
  return our.map((ns, i) => their[i] / ns);
};
/** GB/s of one benchmark, round by round. */
const gbps = (name) => find(name).rounds_ns.map((ns) => find(name).bytes / ns);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round4 = (x) => Number(x.toPrecision(4));

const ratios = {};
/**
 * One row of the ratio table. `measured`: the per-round values (a ratio or a rate from
 * interleaved rounds) or one number (a single measurement). `bound`: the value must be at least
 * (`min`) or at most (`max`) the target; `none`: shown only.
 */
const ratio = (name, measured, target, what, bound = 'min') => {
  const values = Array.isArray(measured) ? measured : [measured];
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const meets = (x) => (bound === 'max' ? x <= target : x >= target);
  const met = bound === 'none' ? null : values.every(meets) ? true : values.some(meets) ? 'spread-crosses' : false;
  ratios[name] = {
    value: round4(median(values)),
    spread: Array.isArray(measured) ? [round4(low), round4(high)] : null,
    rounds: values.length,
    target: bound === 'none' ? null : target,
    bound,
    met,
    what,
  };
};

ratio('rust_gcx1_10mb_decode_gb_per_s', gbps('gcx1-10mb/decode/rust/agentwire'), 1, 'Rust GCX1 decode of the 10 MB corpus (in place), GB/s');
ratio('rust_gcx1_10mb_encode_gb_per_s', gbps('gcx1-10mb/encode/rust/agentwire'), 1, 'Rust GCX1 encode of the 10 MB corpus, GB/s');
ratio('rust_gcx1_bench20_decode_gb_per_s', gbps('bench-inputs-20/gcx-decode/rust/agentwire'), 1, 'Rust GCX1 decode of the 20 bench responses, GB/s');
ratio('rust_gcx1_bench20_encode_gb_per_s', gbps('bench-inputs-20/gcx-encode/rust/agentwire'), 1, 'Rust GCX1 encode of the 20 bench responses (layout + encode of parsed values), GB/s');
ratio('rust_gcx1_bench20_encode_from_json_gb_per_s', gbps('bench-inputs-20/gcx-encode-from-json/rust/agentwire'), 0, 'Rust GCX1 encode of the 20 bench responses from their JSON text (parse + layout + encode), GB/s', 'none');
ratio('rust_gcx1_decode_vs_serde_json', speedup('gcx1-10mb/decode/rust/agentwire', 'json-10mb/decode/rust/serde_json'), 1, 'Rust: GCX1 decode vs serde_json parsing the same rows as JSON objects');
ratio('rust_gcx1_encode_vs_serde_json', speedup('gcx1-10mb/encode/rust/agentwire', 'json-10mb/encode/rust/serde_json'), 1, 'Rust: GCX1 encode vs serde_json writing the same rows');
ratio('rust_gcx1_bench20_decode_vs_serde_json', speedup('bench-inputs-20/gcx-decode/rust/agentwire', 'bench-inputs-20/json-decode/rust/serde_json'), 1, 'Rust: GCX1 decode of the 20 responses vs serde_json parsing their JSON');
ratio('rust_gcx1_bench20_encode_vs_serde_json', speedup('bench-inputs-20/gcx-encode/rust/agentwire', 'bench-inputs-20/json-encode/rust/serde_json'), 1, 'Rust: GCX1 encode of the 20 responses vs serde_json writing them (both from parsed values)');
// Decode: agentwire's borrowed payload (gcf::decode_borrowed, gcb::decode_borrowed); the owned
// payload (a String per name and per edge end, like the gcf crate's) is shown for information.
for (const op of ['encode', 'decode']) {
  const how = op === 'decode' ? ' (borrowed payload)' : '';
  ratio(`rust_gcf_${op}_vs_gcf_crate`, speedup(`graph-500/gcf-${op}/rust/agentwire`, `graph-500/gcf-${op}/rust/gcf-crate`), 5, `Rust: GCF ${op} of the 500-symbol graph vs the gcf crate${how}`);
  ratio(`rust_gcb1_${op}_vs_gcf_crate`, speedup(`graph-500/gcb-${op}/rust/agentwire`, `graph-500/gcf-${op}/rust/gcf-crate`), 5, `Rust: GCB1 ${op} of the same graph vs the gcf crate's GCF ${op}${how}`);
}
ratio('rust_gcf_decode_owned_vs_gcf_crate', speedup('graph-500/gcf-decode-owned/rust/agentwire', 'graph-500/gcf-decode/rust/gcf-crate'), 0, 'Rust: GCF decode to the owned payload vs the gcf crate (for information)', 'none');
ratio('rust_gcb1_decode_owned_vs_gcf_crate', speedup('graph-500/gcb-decode-owned/rust/agentwire', 'graph-500/gcf-decode/rust/gcf-crate'), 0, "Rust: GCB1 decode to the owned payload vs the gcf crate's GCF decode (for information)", 'none');
ratio('rust_gcx1_encode_generic_vs_typed', speedup('gcx1-10mb/encode-generic/rust/agentwire', 'gcx1-10mb/encode/rust/agentwire'), 0, 'Rust: GCX1 generic fallback (encode_generic of the rows as JSON objects) vs the typed Encoder on the same rows (for information)', 'none');
for (const input of ['graph-500', 'bench-20']) {
  for (const op of ['encode', 'decode']) {
    ratio(`rust_gcf3_generic_${input.replace('-', '')}_${op}_vs_gcf_crate`, speedup(`gcf-generic-${input}/${op}/rust/agentwire`, `gcf-generic-${input}/${op}/rust/gcf-crate`), 0, `Rust: GCF v3.6.0 generic ${op} (${input}) vs the gcf crate 3.1.0, both writing v3.6.0 (for information)`, 'none');
  }
}
// Exact token counts: agentwire's counter against the other exact Rust counters (tiktoken-rs,
// bpe-openai, the `tiktoken` crate) on 1 MB of the pretty-printed corpus and on prose and code.
const mbps = (name) => find(name).rounds_ns.map((ns) => (find(name).bytes / ns) * 1000);
for (const encoding of ['cl100k', 'o200k']) {
  ratio(`rust_tokens_${encoding}_json_mb_per_s`, mbps(`tokens-json-10mb/count-${encoding}/rust/agentwire`), 300, `Rust exact ${encoding}_base count of the pretty-printed 10 MB corpus JSON, MB/s`);
  for (const [data, label] of [['json-1mb', '1 MB of the pretty-printed corpus'], ['prose-code', 'prose and code (README, docs, sources)']]) {
    const group = `tokens-${data}-${encoding}`;
    const key = data === 'json-1mb' ? 'json' : 'prose_code';
    for (const [peer, target, name] of [['tiktoken-rs', 20, 'tiktoken_rs'], ['bpe-openai', 5, 'bpe_openai'], ['tiktoken', 0, 'tiktoken_crate']]) {
      ratio(`rust_tokens_count_vs_${name}_${encoding}_${key}`, speedup(`${group}/count/rust/agentwire`, `${group}/count/rust/${peer}`), target, `Rust: agentwire's exact ${encoding}_base count vs ${peer === 'tiktoken' ? 'the tiktoken crate (goliajp)' : peer} on ${label}${target ? '' : ' (for information)'}`, target ? 'min' : 'none');
    }
  }
}
ratio('rust_compact_106kb_ms', find('compact-106kb/compact/rust/agentwire').rounds_ns.map((ns) => ns / 1e6), 0, 'Rust agentwire::compact of a 106 KB pretty-printed tool result (bench/corpus/tool-result-106kb.json), exact cl100k counts, ms (for information; compact_106kb_ms is the same call from Node)', 'none');

const node = (runtime, bench, op, impl = 'agentwire') => `${bench}/${op}/node-${runtime}/${impl}`;
const js = (bench, op, impl) => `${bench}/${op}/node-js/${impl}`;
const peer = '@blackwell-systems/gcf';
for (const bench of ['gcx1-10mb', 'gcx1-bench20', 'gcx1-1kb', 'gcx1-10kb']) {
  const label = { 'gcx1-10mb': '10 MB corpus', 'gcx1-bench20': '20 bench responses', 'gcx1-1kb': 'one ~1 KB payload', 'gcx1-10kb': 'one ~10 KB payload' }[bench];
  const key = bench.replace('gcx1-', '');
  ratio(`node_native_gcx1_${key}_decode_vs_json_parse`, speedup(node('native', bench, 'decode'), js(bench, 'decode', 'JSON')), 0.8, `Node native gcx.decode vs JSON.parse of the equivalent JSON (${label})`);
  ratio(`node_native_gcx1_${key}_encode_vs_json_stringify`, speedup(node('native', bench, 'encode'), js(bench, 'encode', 'JSON')), 0.5, `Node native GCX1 encode vs JSON.stringify of the same rows (${label})`);
  ratio(`node_wasm_gcx1_${key}_decode_vs_json_parse`, speedup(node('wasm', bench, 'decode'), js(bench, 'decode', 'JSON')), 0.5, `Node wasm gcx.decode vs JSON.parse of the equivalent JSON (${label})`);
}
for (const [runtime, target] of [['native', { encode: 4, decode: 3 }], ['wasm', { encode: 1.5, decode: 1.5 }]]) {
  for (const op of ['encode', 'decode']) {
    ratio(`node_${runtime}_gcx1_${op}_vs_toon`, speedup(node(runtime, 'gcx1-10mb', op), js('gcx1-10mb', op, '@toon-format/toon')), target[op], `Node ${runtime} GCX1 ${op} vs @toon-format/toon on the same rows`);
  }
}
// The peer implements GCF 3.5.0, whose output equals agentwire's 3.5.3 on these inputs (the
// suite checks it byte for byte): like with like. GCF v1.1 against it is for information.
for (const [runtime, target] of [['native', 1.5], ['wasm', 1]]) {
  for (const op of ['encode', 'decode']) {
    ratio(`node_${runtime}_gcf3_graph_${op}_vs_blackwell_gcf`, speedup(node(runtime, 'gcf3-graph-500', op), js('gcf3-graph-500', op, peer)), target, `Node ${runtime} GCF 3.5.3 graph ${op} (gcf.${op}Graph) vs ${peer} on the same 500-symbol graph`);
    for (const set of ['graph-500', 'bench20', '1kb', '10kb']) {
      const bench = `gcf3-generic-${set}`;
      if (!records.some((r) => r.name === js(bench, op, peer))) continue;
      ratio(`node_${runtime}_gcf3_generic_${set.replace('-', '')}_${op}_vs_blackwell_gcf`, speedup(node(runtime, bench, op), js(bench, op, peer)), target, `Node ${runtime} GCF 3.5.3 generic ${op} vs ${peer} (${set})`);
    }
    ratio(`node_${runtime}_gcf_v1_${op}_vs_blackwell_gcf`, speedup(node(runtime, 'graph-500', op), js('gcf3-graph-500', op, peer)), 0, `Node ${runtime} GCF v1.1 gcf.${op} vs ${peer}'s GCF 3.5 ${op} (different formats, for information)`, 'none');
  }
}
// Exact token counts in Node: the addon and the wasm counter against the JS peers.
for (const encoding of ['cl100k', 'o200k']) {
  for (const data of ['json-512kb', 'prose-code-512kb']) {
    const bench = `tokens-${data}-${encoding}`;
    const label = data.startsWith('json') ? '512 KB of the pretty-printed corpus' : '512 KB of prose and code';
    const key = data.startsWith('json') ? 'json' : 'prose_code';
    ratio(`node_native_tokens_count_vs_gpt_tokenizer_${encoding}_${key}`, speedup(node('native', bench, 'count'), js(bench, 'count', 'gpt-tokenizer')), 5, `Node native tokens.count vs gpt-tokenizer countTokens, ${encoding}_base, ${label}`);
    ratio(`node_native_tokens_count_vs_tiktoken_wasm_${encoding}_${key}`, speedup(node('native', bench, 'count'), js(bench, 'count', 'tiktoken')), 20, `Node native tokens.count vs the npm tiktoken package (wasm), ${encoding}_base, ${label}`);
    ratio(`node_wasm_tokens_count_vs_gpt_tokenizer_${encoding}_${key}`, speedup(node('wasm', bench, 'count'), js(bench, 'count', 'gpt-tokenizer')), 1.5, `Node wasm tokens.count vs gpt-tokenizer countTokens, ${encoding}_base, ${label}`);
  }
}
// TOON on its 8 benchmark datasets against @toon-format/toon, and the Rust codec's throughput.
for (const [runtime, target] of [['native', 3], ['wasm', 1.5]]) {
  for (const op of ['encode', 'decode']) {
    ratio(`node_${runtime}_toon_${op}_vs_toon`, speedup(node(runtime, 'toon-8', op), js('toon-8', op, '@toon-format/toon')), target, `Node ${runtime} toon.${op} vs @toon-format/toon on TOON's 8 benchmark datasets (the same bytes and values)`);
  }
}
for (const group of ['toon-8', 'toon-8-tab']) {
  for (const op of ['encode', 'decode']) {
    ratio(`rust_${group.replaceAll('-', '_')}_${op}_mb_per_s`, mbps(`${group}/${op}/rust/agentwire`), 0, `Rust TOON ${op} of TOON's 8 benchmark datasets (${group === 'toon-8' ? 'comma' : 'tab'} delimiter), MB/s of TOON text (for information)`, 'none');
  }
}
ratio('compact_106kb_ms', find(node('native', 'compact-106kb', 'compact')).rounds_ns.map((ns) => ns / 1e6), 2, 'Node native compact.json of a 106 KB pretty-printed tool result (bench/corpus/tool-result-106kb.json), exact cl100k counts, ms', 'max');
ratio('node_wasm_compact_106kb_ms', find(node('wasm', 'compact-106kb', 'compact')).rounds_ns.map((ns) => ns / 1e6), 0, 'Node wasm compact.json of the same result, ms (for information)', 'none');
ratio('node_native_gcf3_graph_decode_vs_json_parse', speedup(node('native', 'gcf3-graph-500', 'decode'), js('gcf3-graph-500', 'decode', 'JSON')), 0.8, 'Node native gcf.decodeGraph vs JSON.parse of the same payload as JSON');
ratio('node_native_gcf_v1_decode_vs_json_parse', speedup(node('native', 'graph-500', 'decode'), js('graph-500', 'decode', 'JSON')), 0, 'Node native GCF v1.1 gcf.decode vs JSON.parse of the graph JSON (for information)', 'none');
ratio('cli_stream_decode_100mb_peak_rss_mib', memory.peak_rss_bytes / 2 ** 20, 64, `Peak RSS of \`agentwire gcx decode\` streaming a ${(memory.payload_bytes / 1e6).toFixed(0)} MB payload, MiB`, 'max');
ratio('wasm_default_gzip_kb', wasmGzip / 1000, 190, 'Default wasm module (npm/wasm/agentwire_core_bg.wasm) after wasm-opt, gzip -9, KB (1000 bytes: the stricter reading of the budget)', 'max');

// The inspector in headless Chromium (npm/scripts/bench-inspector.mjs): five pastes per input.
const inspectorPath = join(results, 'inspector.json');
if (existsSync(inspectorPath)) {
  const inspector = readJson(inspectorPath);
  for (const [key, label] of [['json', 'pretty JSON, 13.6 MB'], ['gcx1', 'GCX1, 10.5 MB']]) {
    const runs = inspector[key];
    ratio(`browser_inspector_10mb_${key}_first_render_ms`, runs.map((r) => r.firstRenderMs), 1000, `Inspector in Chromium: paste of the 10 MB corpus (${label}) to its first rows painted, ms`, 'max');
    ratio(`browser_inspector_10mb_${key}_longest_task_ms`, runs.map((r) => r.longestMainThreadTaskMs), 0, `Inspector in Chromium: the longest main-thread task after that paste (${label}), ms (for information)`, 'none');
    ratio(`browser_inspector_10mb_${key}_candidates_ms`, runs.map((r) => r.costsMs), 0, `Inspector in Chromium: every candidate built and counted in the worker (${label}), ms (for information)`, 'none');
  }
}

// The same ratios in headless Chromium (bench/browser: the inspector's runtime).
if (browser.records.length > 0) {
  const inBrowser = (runtime, bench, op, impl = 'agentwire') => `${bench}/${op}/browser-${runtime}/${impl}`;
  for (const op of ['encode', 'decode']) {
    ratio(`browser_wasm_gcf3_graph_${op}_vs_blackwell_gcf`, speedup(inBrowser('wasm', 'gcf3-graph-500', op), inBrowser('js', 'gcf3-graph-500', op, peer)), 1, `Chromium wasm GCF 3.5.3 graph ${op} vs ${peer} (${browser.userAgent.match(/HeadlessChrome\/[\d.]+/)?.[0] ?? 'Chromium'})`);
    for (const set of ['graph-500', '1kb', '10kb']) {
      const bench = `gcf3-generic-${set}`;
      ratio(`browser_wasm_gcf3_generic_${set.replace('-', '')}_${op}_vs_blackwell_gcf`, speedup(inBrowser('wasm', bench, op), inBrowser('js', bench, op, peer)), 1, `Chromium wasm GCF 3.5.3 generic ${op} vs ${peer} (${set})`);
    }
  }
  for (const op of ['encode', 'decode']) {
    ratio(`browser_wasm_toon_${op}_vs_toon`, speedup(inBrowser('wasm', 'toon-8', op), inBrowser('js', 'toon-8', op, '@toon-format/toon')), 0, `Chromium wasm toon.${op} vs @toon-format/toon on TOON's 8 benchmark datasets (for information)`, 'none');
  }
  for (const set of ['1kb', '10kb']) {
    ratio(`browser_wasm_gcx1_${set}_decode_vs_json_parse`, speedup(inBrowser('wasm', `gcx1-${set}`, 'decode'), inBrowser('js', `gcx1-${set}`, 'decode', 'JSON')), 0.5, `Chromium wasm gcx.decode vs JSON.parse (${set})`);
  }
}

// Under Wine: how much the addon gains over wasm in the same node.exe (for information: Wine
// is not Windows).
for (const r of wine.records.filter((x) => x.runtime === 'wine-native')) {
  const key = `${r.name.split('/')[0]}_${r.op}`.replaceAll('-', '_');
  ratio(`wine_native_vs_wasm_${key}`, speedup(r.name, r.name.replace('/wine-native/', '/wine-wasm/')), 0, `win32-x64 addon vs wasm, ${r.name.split('/')[0]} ${r.op}, in ${wine.node} (for information)`, 'none');
}

Object.assign(ratios, mcp.ratios, mcpLoad.ratios);

// Tokens (bench/node/tokens.mjs, `make bench-tokens`): agentwire's choice against pretty and
// minified JSON, YAML, TOON and CSV, on TOON's 8 datasets and the real-world corpus. Counts are
// exact (tiktoken), so each row is one measurement.
const tokensPath = join(results, 'tokens.json');
if (!existsSync(tokensPath)) throw new Error(`${tokensPath} is missing (run \`make bench-tokens\`; \`make bench\` runs every step)`);
const tokenRun = readJson(tokensPath);
const short = (encoding) => encoding.replace('_base', '');
const sum = (rows, encoding, format) => rows.reduce((total, r) => total + (r.counts[encoding][format] ?? 0), 0);
for (const encoding of tokenRun.encodings) {
  const e = short(encoding);
  ratio(`tokens_vs_toon_total_${e}`, sum(tokenRun.toon, encoding, 'agentwire') / sum(tokenRun.toon, encoding, 'toon'), 0.75, `Tokens (${encoding}): agentwire's choice over TOON (defaults), totals of TOON's 8 benchmark datasets`, 'max');
  for (const row of tokenRun.toon) {
    const c = row.counts[encoding];
    const key = row.dataset.replaceAll('-', '_');
    ratio(`tokens_vs_toon_${key}_${e}`, c.agentwire / c.toon, 1, `Tokens (${encoding}): agentwire's choice (${row.choice[encoding]}) over TOON (defaults) on ${row.dataset}`, 'max');
    ratio(`tokens_vs_toon_tab_${key}_${e}`, c.agentwire / c['toon-tab'], 1, `Tokens (${encoding}): agentwire's choice over TOON (tab delimiter) on ${row.dataset}`, 'max');
    if (c.csv !== undefined) ratio(`tokens_vs_csv_${key}_${e}`, c.agentwire / c.csv, 0, `Tokens (${encoding}): agentwire's choice over CSV on ${row.dataset} (for information)`, 'none');
  }
  ratio(`tokens_vs_json_min_realworld_${e}`, sum(tokenRun.realworld, encoding, 'agentwire') / sum(tokenRun.realworld, encoding, 'json-min'), 0, `Tokens (${encoding}): agentwire's choice (minSavings 0) over minified JSON, totals of the ${tokenRun.realworld.length} real-world documents (tests/realworld)`, 'none');
}
const silentKeeps = tokenRun.realworld.filter((r) => tokenRun.encodings.some((e) => r.choice[e] === 'input' && r.reason[e] === null)).length;
ratio('compact_silent_keeps_realworld', silentKeeps, 0, 'Real-world documents compaction kept without saying why', 'max');

const report = {
  machine: machine(),
  command: 'make bench',
  date: new Date().toISOString(),
  results: records,
  ratios,
};
writeFileSync(join(results, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);

// ---- Markdown ---------------------------------------------------------------------------------
/** The ratios the README shows; latest.md holds them all. */
const README_HEADLINES = [
  'rust_gcx1_10mb_decode_gb_per_s',
  'rust_gcx1_decode_vs_serde_json',
  'rust_gcf_encode_vs_gcf_crate',
  'node_native_gcx1_10mb_decode_vs_json_parse',
  'node_native_gcx1_encode_vs_toon',
  'node_native_toon_encode_vs_toon',
  'node_native_toon_decode_vs_toon',
  'node_native_gcf3_generic_graph500_decode_vs_blackwell_gcf',
  'node_wasm_gcf3_generic_graph500_decode_vs_blackwell_gcf',
  'node_wasm_gcf3_graph_encode_vs_blackwell_gcf',
  'node_wasm_gcx1_1kb_decode_vs_json_parse',
  'cli_stream_decode_100mb_peak_rss_mib',
  'wasm_default_gzip_kb',
  'rust_tokens_cl100k_json_mb_per_s',
  'rust_tokens_count_vs_tiktoken_rs_cl100k_json',
  'node_native_tokens_count_vs_gpt_tokenizer_cl100k_json',
  'node_wasm_tokens_count_vs_gpt_tokenizer_cl100k_json',
  'compact_106kb_ms',
  'tokens_vs_toon_total_o200k',
  'tokens_vs_json_min_realworld_o200k',
  'mcp_added_p50_ms_64kb',
];
const fmtTime = (ns) => (ns < 1e3 ? `${ns.toFixed(0)} ns` : ns < 1e6 ? `${(ns / 1e3).toFixed(1)} µs` : `${(ns / 1e6).toFixed(2)} ms`);
/** How far the farther end of a row's spread lies from its value, as a fraction. */
const spreadWidth = (r) => (r.spread ? Math.max(r.spread[1] / r.value - 1, 1 - r.spread[0] / r.value) : 0);
// Aimed for on the targeted rows; a wider one is named on stderr.
const WIDE_SPREAD = 0.1;
const percent = (x) => `${(100 * x).toFixed(0)} %`;
const ratioTable = (rows) =>
  [
    '| ratio | measured | rounds | target | met |',
    '| --- | ---: | ---: | ---: | :---: |',
    ...rows.map((r) => {
      const target = { min: `≥ ${r.target}`, max: `≤ ${r.target}`, none: '—' }[r.bound];
      const met = r.met === null ? '' : r.met === 'spread-crosses' ? '**spread crosses**' : r.met ? 'yes' : '**no**';
      const rounds = r.spread ? `${r.spread[0]}–${r.spread[1]} (±${percent(spreadWidth(r))}, ${r.rounds})` : '—';
      return `| ${r.what} | ${r.value} | ${rounds} | ${target} | ${met} |`;
    }),
  ].join('\n');
const summary = [
  'Speed ratios are taken round by round: the two sides of a ratio run alternately (A B A B …)',
  'in the same rounds. *Measured* is the median round; *rounds* gives the lowest and highest round',
  'and how far the farther one lies from the median. A target counts as met only when every round',
  'meets it: **spread crosses** means some rounds met it and some did not, so this run cannot tell.',
  '',
  ratioTable(Object.values(ratios)),
].join('\n');
const headlines = ratioTable(README_HEADLINES.filter((name) => ratios[name]).map((name) => ratios[name]));
const roundsOf = (r) => (r.rounds_ns ? `${percent(Math.min(...r.rounds_ns) / r.ns_per_op - 1)} / +${percent(Math.max(...r.rounds_ns) / r.ns_per_op - 1)}` : '—');
const table = [
  'time/op: the median round; rounds: the fastest and the slowest round against it.',
  '',
  '| benchmark | runtime | impl | bytes | time/op | rounds | MB/s |',
  '| --- | --- | --- | ---: | ---: | ---: | ---: |',
  ...records.map((r) => `| ${r.name.split('/').slice(0, 2).join(' ')} | ${r.runtime} | ${r.impl} | ${r.bytes?.toLocaleString('en-US') ?? '—'} | ${fmtTime(r.ns_per_op)} | ${roundsOf(r)} | ${r.mb_per_s?.toFixed(1) ?? '—'} |`),
].join('\n');
const heading = `Machine: ${report.machine}. Command: \`make bench\` (${report.date.slice(0, 10)}).`;
writeFileSync(join(results, 'latest.md'), `# agentwire benchmarks\n\n${heading}\n\n## Targets\n\n${summary}\n\n## Every benchmark\n\n${table}\n`);

/** Replaces what stands between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in a file. */
function fillBlock(path, name, text) {
  const doc = readFileSync(path, 'utf8');
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  if (!doc.includes(begin) || !doc.includes(end)) throw new Error(`${path}: no ${begin} … ${end} block`);
  writeFileSync(path, `${doc.slice(0, doc.indexOf(begin) + begin.length)}\n${text}\n${doc.slice(doc.indexOf(end))}`);
}
const readmePath = join(root, 'README.md');
fillBlock(readmePath, 'bench', `${heading}\n\n${headlines}`);
// The token tables: TOON's datasets (o200k in the README; both encodings in latest.md) and the
// real-world corpus.
const FORMATS = [['json-pretty', 'JSON'], ['json-min', 'JSON min'], ['yaml', 'YAML'], ['toon', 'TOON'], ['toon-tab', 'TOON tab'], ['csv', 'CSV']];
const fewest = (c) => Math.min(...FORMATS.map(([f]) => c[f] ?? Infinity));
const tokenTable = (rows, encoding, label) => {
  const cell = (c, f) => (c[f] === undefined ? '–' : c[f] === fewest(c) && c[f] < c.agentwire ? `**${c[f].toLocaleString('en-US')}**` : c[f].toLocaleString('en-US'));
  const lines = rows.map((r) => {
    const c = r.counts[encoding];
    const best = c.agentwire <= fewest(c) ? `**${c.agentwire.toLocaleString('en-US')}**` : c.agentwire.toLocaleString('en-US');
    return `| ${r.dataset} | ${FORMATS.map(([f]) => cell(c, f)).join(' | ')} | ${best} ${r.choice[encoding]}${r.reason[encoding] ? ` (kept: ${r.reason[encoding]})` : ''} | ${(c.agentwire / c.toon).toFixed(3)} |`;
  });
  const total = (f) => rows.reduce((t, r) => t + (r.counts[encoding][f] ?? 0), 0).toLocaleString('en-US');
  return [
    `| ${label} | ${FORMATS.map(([, name]) => name).join(' | ')} | agentwire | vs TOON |`,
    `| --- | ${FORMATS.map(() => '---:').join(' | ')} | ---: | ---: |`,
    ...lines,
    `| **total** | ${FORMATS.map(([f]) => (f === 'csv' ? '–' : total(f))).join(' | ')} | ${total('agentwire')} | ${(sum(rows, encoding, 'agentwire') / sum(rows, encoding, 'toon')).toFixed(3)} |`,
  ].join('\n');
};
const notFewest = (rows, encoding) => rows.filter((r) => r.counts[encoding].agentwire > fewest(r.counts[encoding])).map((r) => {
  const c = r.counts[encoding];
  const [format] = FORMATS.find(([f]) => c[f] === fewest(c));
  return `${r.dataset} (${format} ${fewest(c).toLocaleString('en-US')} < ${c.agentwire.toLocaleString('en-US')})`;
});
const tokenSummary = (encoding) => {
  const toonMissed = notFewest(tokenRun.toon, encoding);
  const realMissed = notFewest(tokenRun.realworld, encoding);
  const rw = (f) => sum(tokenRun.realworld, encoding, f);
  return [
    `Exact ${encoding} tokens (OpenAI's tiktoken), \`make bench-tokens\`. Bold: the fewest of the row. agentwire is compact.json with minSavings 0; "kept" means it kept the input and says why.`,
    '',
    tokenTable(tokenRun.toon, encoding, "TOON's datasets"),
    '',
    `Where agentwire is not the fewest on TOON's datasets: ${toonMissed.length ? toonMissed.join('; ') : 'none'}.`,
    '',
    `Real-world corpus (${tokenRun.realworld.length} JSON documents from tests/realworld): agentwire ${rw('agentwire').toLocaleString('en-US')} tokens, minified JSON ${rw('json-min').toLocaleString('en-US')} (${(rw('agentwire') / rw('json-min')).toFixed(3)}), pretty JSON ${rw('json-pretty').toLocaleString('en-US')}, YAML ${rw('yaml').toLocaleString('en-US')}, TOON ${rw('toon').toLocaleString('en-US')} (${(rw('agentwire') / rw('toon')).toFixed(3)}), TOON tab ${rw('toon-tab').toLocaleString('en-US')}. Documents where another format has fewer tokens: ${realMissed.length ? realMissed.join('; ') : 'none'}.`,
  ].join('\n');
};
const tokensMd = tokenRun.encodings
  .map((encoding) => `### ${encoding}\n\n${tokenSummary(encoding)}\n\n${tokenTable(tokenRun.realworld, encoding, 'real-world document')}`)
  .join('\n\n');
writeFileSync(join(results, 'latest.md'), `${readFileSync(join(results, 'latest.md'), 'utf8')}\n## Tokens\n\n${tokensMd}\n`);
fillBlock(readmePath, 'tokens', tokenSummary('o200k_base'));
// agentwire-mcp's speed tables (mcp/README.md#speed), from bench/latency.mjs's rows of this run.
const mcpReadme = join(root, 'mcp/README.md');
const p50 = (name) => records.find((r) => r.name === name);
const ms = (r) => `${(r.ns_per_op / 1e6).toFixed(2)} ms`;
const sizeOf = (r) => `${r.bytes.toLocaleString('en-US')} B`;
const verdict = (name) => {
  const r = ratios[name];
  if (!r || r.met === null) return '';
  return `≤ ${r.target}: ${r.met === true ? 'met' : '**missed**'}`;
};
if (p50('mcp-tools-call-1kb/p50/node/direct')) {
  const sizes = [['1kb', '1 KB'], ['64kb', '64 KB'], ['1mb', '1 MB']];
  fillBlock(mcpReadme, 'latency', [
    '| JSON result | direct p50 | through agentwire-mcp p50 | added p50 / p95 | compactJson alone p50 | target (added p50) |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...sizes.map(([label, name]) => {
      const at = (impl) => p50(`mcp-tools-call-${label}/p50/node/${impl}`);
      return `| ${name} (${sizeOf(at('direct'))}) | ${ms(at('direct'))} | ${ms(at('agentwire-mcp'))} | ${ratios[`mcp_added_p50_ms_${label}`].value.toFixed(2)} / ${ratios[`mcp_added_p95_ms_${label}`].value.toFixed(2)} ms | ${ms(at('compactJson'))} | ${verdict(`mcp_added_p50_ms_${label}`)} |`;
    }),
    '',
    `${heading} One run; separate runs move the 64 KB row by about a millisecond on this machine.`,
  ].join('\n'));
  fillBlock(mcpReadme, 'eras', [
    '| call | JSON result | direct p50 | through agentwire-mcp p50 | added p50 / p95 |',
    '| --- | --- | ---: | ---: | ---: |',
    ...['1kb', '64kb'].flatMap((label) => ['2025', '2026'].map((era) => {
      const at = (impl) => p50(`mcp-tools-call-http-${era}-${label}/p50/node/${impl}`);
      const who = era === '2025' ? '2025 (session)' : '2026-07-28 (stateless)';
      return `| ${who} | ${label === '1kb' ? '1 KB' : '64 KB'} (${sizeOf(at('direct'))}) | ${ms(at('direct'))} | ${ms(at('agentwire-mcp'))} | ${ratios[`mcp_http_${era}_added_p50_ms_${label}`].value.toFixed(2)} / ${ratios[`mcp_http_${era}_added_p95_ms_${label}`].value.toFixed(2)} ms |`;
    })),
    '',
    `${heading}`,
  ].join('\n'));
  fillBlock(mcpReadme, 'proxies', [
    '| result | direct (stdio) p50 | added p50: agentwire-mcp | mcp-proxy | supergateway | vs mcp-proxy (target) | vs supergateway (target) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...[['1kb', '1 KB'], ['64kb', '64 KB']].map(([label, name]) => {
      const at = (impl) => p50(`mcp-proxies-${label}/p50/node/${impl}`);
      const added = (impl) => `${((at(impl).ns_per_op - at('direct').ns_per_op) / 1e6).toFixed(2)} ms`;
      const vs = (key) => `${ratios[`mcp_added_p50_vs_${key}_${label}`].value.toFixed(2)} (${verdict(`mcp_added_p50_vs_${key}_${label}`)})`;
      return `| ${name} (${sizeOf(at('direct'))}) | ${ms(at('direct'))} | ${added('agentwire-mcp')} | ${added('mcp-proxy')} | ${added('supergateway')} | ${vs('mcp_proxy')} | ${vs('supergateway')} |`;
    }),
    '',
    `${heading} One run; the four paths alternate call by call.`,
  ].join('\n'));
}
// agentwire-mcp under load (mcp/README.md#under-load), from bench/load.mjs's rows.
const loadRow = (name) => ratios[name]?.value;
if (loadRow('mcp_load_64_sessions_p99_added_ms') !== undefined) {
  const levels = ['http', 'stdio'].flatMap((transport) => [1, 16, 64].map((n) => {
    const p99 = n === 64 && transport === 'http' ? 'mcp_load_64_sessions_p99_added_ms' : `mcp_load_${transport}_${n}_sessions_p99_added_ms`;
    return `| ${transport === 'http' ? 'Streamable HTTP' : 'stdio'} | ${n} | ${loadRow(`mcp_load_${transport}_${n}_sessions_calls_per_s`)?.toFixed(1)} | ${loadRow(p99)?.toFixed(2)} |`;
  }));
  fillBlock(join(root, 'mcp/README.md'), 'load', [
    `${heading} Paced sessions (64 calls/s together; one session 10/s), 1 KB results:`,
    '',
    '| transport | sessions | calls/s | added p99, ms |',
    '| --- | ---: | ---: | ---: |',
    ...levels,
    '',
    `Failed calls at 64 sessions: ${loadRow('mcp_load_64_sessions_error_rate')}. HTTP saturation: ${loadRow('mcp_load_http_saturation_calls_per_s')?.toFixed(0)} calls/s at ${loadRow('mcp_load_http_saturation_sessions')} sessions. ` +
      `Soak of 1,000 abandoned sessions: RSS trend ${loadRow('mcp_soak_rss_growth_mb')?.toFixed(1)} MB, heap ${loadRow('mcp_soak_heap_growth_mb')?.toFixed(1)} MB. ` +
      `Replicas behind nginx: one ${loadRow('mcp_replicas1_stateless_calls_per_s')?.toFixed(0)} calls/s, three ${loadRow('mcp_replicas3_stateless_calls_per_s')?.toFixed(0)} (two cores: the third replica competes with the rest of the test for them), ${loadRow('mcp_replicas_error_rate')} failed.`,
  ].join('\n'));
}
const named = (rows) => `${rows.length}${rows.length ? `: ${rows.map(([n]) => n).join(', ')}` : ''}`;
const missed = Object.entries(ratios).filter(([, r]) => r.met === false);
const crossing = Object.entries(ratios).filter(([, r]) => r.met === 'spread-crosses');
const wide = Object.entries(ratios).filter(([, r]) => r.met !== null && spreadWidth(r) > WIDE_SPREAD);
process.stderr.write(
  `bench/results/latest.json: ${records.length} benchmarks, ${Object.keys(ratios).length} ratios\n` +
    `  below target: ${named(missed)}\n` +
    `  spread crosses the target: ${named(crossing)}\n` +
    `  targeted, spread wider than ±${percent(WIDE_SPREAD)}: ${named(wide)}\n`,
);
