#!/usr/bin/env node
// Gathers one `make bench` run into bench/results/latest.json and latest.md, and copies the
// summary table into the README's Speed section (between the bench:begin/end markers).
//
// Inputs: criterion's estimates (target/criterion/**/new/), the npm suite's records
// (bench/results/npm.json, from `make bench-npm`: bench/node/run.mjs --out), the streaming memory check
// (bench/results/memory.json, from bench/stream-memory.mjs) and the default wasm module.
//
// latest.json: {machine, command, date, results: [{name, runtime, impl, op, bytes, ns_per_op,
// mb_per_s}], ratios: {name: {value, target, bound, met, what}}}. A speed ratio is how many times
// faster agentwire is than the peer (peer time / agentwire time) on the same data.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'bench/results');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Every criterion benchmark of the last run, as records. */
function criterionRecords() {
  const records = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (!statSync(path).isDirectory()) continue;
      if (entry === 'new' && existsSync(join(path, 'benchmark.json'))) {
        const meta = readJson(join(path, 'benchmark.json'));
        const estimates = readJson(join(path, 'estimates.json'));
        const [op, impl] = meta.function_id.split('/');
        const bytes = meta.throughput?.Bytes;
        const ns = estimates.mean.point_estimate;
        if (bytes === undefined) throw new Error(`${meta.full_id}: no byte throughput`);
        records.push({
          name: `${meta.group_id}/${op}/rust/${impl}`,
          runtime: 'rust',
          impl,
          op,
          bytes,
          ns_per_op: ns,
          mb_per_s: bytes / 1e6 / (ns / 1e9),
        });
      } else if (entry !== 'report' && entry !== 'base' && entry !== 'change') {
        walk(path);
      }
    }
  };
  const dir = join(root, 'target/criterion');
  if (!existsSync(dir)) throw new Error('no criterion results: run `make bench-rust` first');
  walk(dir);
  return records.sort((a, b) => a.name.localeCompare(b.name));
}

function machine() {
  const cpu = cpus();
  const rustc = execSync('rustc --version', { encoding: 'utf8' }).trim();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${process.platform} ${process.arch}; ${rustc}; Node ${process.version}`;
}

const npmPath = join(results, 'npm.json');
const memoryPath = join(results, 'memory.json');
for (const [path, step] of [[npmPath, 'make bench-npm'], [memoryPath, 'node bench/stream-memory.mjs']]) {
  if (!existsSync(path)) throw new Error(`${path} is missing (run \`${step}\`; \`make bench\` runs every step)`);
}
const records = [...criterionRecords(), ...readJson(npmPath)];
// agentwire-mcp's latency run (mcp/bench/latency.mjs) brings its own records and ratios.
const mcpPath = join(results, 'mcp.json');
const mcp = existsSync(mcpPath) ? readJson(mcpPath) : { records: [], ratios: {} };
records.push(...mcp.records);
// And its load run (mcp/bench/load.mjs): sessions over HTTP and stdio, saturation, soak.
const mcpLoadPath = join(results, 'mcp-load.json');
const mcpLoad = existsSync(mcpLoadPath) ? readJson(mcpLoadPath) : { records: [], ratios: {} };
records.push(...mcpLoad.records);
const memory = readJson(memoryPath);
const wasmGzip = gzipSync(readFileSync(join(root, 'npm/wasm/agentwire_core_bg.wasm')), { level: 9 }).length;

const find = (name) => {
  const record = records.find((r) => r.name === name);
  if (!record) throw new Error(`benchmark ${name} is missing from this run`);
  return record;
};
/** How many times faster `ours` is than `peer` (peer time / our time). */
const speedup = (ours, peer) => find(peer).ns_per_op / find(ours).ns_per_op;
const gbps = (name) => find(name).mb_per_s / 1000;

const ratios = {};
/** `bound`: the value must be at least (`min`) or at most (`max`) the target; `none`: shown only. */
const ratio = (name, value, target, what, bound = 'min') => {
  const met = bound === 'none' ? null : bound === 'max' ? value <= target : value >= target;
  ratios[name] = { value: Number(value.toPrecision(4)), target: bound === 'none' ? null : target, bound, met, what };
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
const node = (runtime, bench, op, impl = 'agentwire') => `${bench}/${op}/node-${runtime}/${impl}`;
const js = (bench, op, impl) => `${bench}/${op}/node-js/${impl}`;
const peer = '@blackwell-systems/gcf';
for (const bench of ['gcx1-10mb', 'gcx1-bench20', 'gcx1-1kb', 'gcx1-10kb']) {
  const label = { 'gcx1-10mb': '10 MB corpus', 'gcx1-bench20': '20 bench responses', 'gcx1-1kb': 'one ~1 KB payload', 'gcx1-10kb': 'one ~10 KB payload' }[bench];
  const key = bench.replace('gcx1-', '');
  ratio(`node_native_gcx1_${key}_decode_vs_json_parse`, speedup(node('native', bench, 'decode'), js(bench, 'decode', 'JSON')), 0.8, `Node native gcx.decode vs JSON.parse of the equivalent JSON (${label})`);
  ratio(`node_native_gcx1_${key}_encode_vs_json_stringify`, speedup(node('native', bench, 'encode'), js(bench, 'encode', 'JSON')), 0.5, `Node native GCX1 encode vs JSON.stringify of the same rows (${label})`);
  ratio(`node_wasm_gcx1_${key}_decode_vs_json_parse`, speedup(node('wasm', bench, 'decode'), js(bench, 'decode', 'JSON')), 0, `Node wasm gcx.decode vs JSON.parse (${label}, for information)`, 'none');
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
ratio('node_native_gcf3_graph_decode_vs_json_parse', speedup(node('native', 'gcf3-graph-500', 'decode'), js('gcf3-graph-500', 'decode', 'JSON')), 0.8, 'Node native gcf.decodeGraph vs JSON.parse of the same payload as JSON');
ratio('node_native_gcf_v1_decode_vs_json_parse', speedup(node('native', 'graph-500', 'decode'), js('graph-500', 'decode', 'JSON')), 0, 'Node native GCF v1.1 gcf.decode vs JSON.parse of the graph JSON (for information)', 'none');
ratio('cli_stream_decode_100mb_peak_rss_mib', memory.peak_rss_bytes / 2 ** 20, 64, `Peak RSS of \`agentwire gcx decode\` streaming a ${(memory.payload_bytes / 1e6).toFixed(0)} MB payload, MiB`, 'max');
ratio('wasm_default_gzip_kb', wasmGzip / 1000, 150, 'Default wasm module (npm/wasm/agentwire_core_bg.wasm) after wasm-opt, gzip -9, KB (1000 bytes: the stricter reading of the budget)', 'max');

Object.assign(ratios, mcp.ratios, mcpLoad.ratios);

const report = {
  machine: machine(),
  command: 'make bench',
  date: new Date().toISOString(),
  results: records,
  ratios,
};
writeFileSync(join(results, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);

// ---- Markdown ---------------------------------------------------------------------------------
const fmtTime = (ns) => (ns < 1e3 ? `${ns.toFixed(0)} ns` : ns < 1e6 ? `${(ns / 1e3).toFixed(1)} µs` : `${(ns / 1e6).toFixed(2)} ms`);
const summary = [
  '| ratio | measured | target | met |',
  '| --- | ---: | ---: | :---: |',
  ...Object.values(ratios).map((r) => {
    const target = { min: `≥ ${r.target}`, max: `≤ ${r.target}`, none: '—' }[r.bound];
    const met = r.met === null ? '' : r.met ? 'yes' : '**no**';
    return `| ${r.what} | ${r.value} | ${target} | ${met} |`;
  }),
].join('\n');
const table = [
  '| benchmark | runtime | impl | bytes | time/op | MB/s |',
  '| --- | --- | --- | ---: | ---: | ---: |',
  ...records.map((r) => `| ${r.name.split('/').slice(0, 2).join(' ')} | ${r.runtime} | ${r.impl} | ${r.bytes.toLocaleString('en-US')} | ${fmtTime(r.ns_per_op)} | ${r.mb_per_s.toFixed(1)} |`),
].join('\n');
const heading = `Machine: ${report.machine}. Command: \`make bench\` (${report.date.slice(0, 10)}).`;
writeFileSync(join(results, 'latest.md'), `# agentwire benchmarks\n\n${heading}\n\n## Targets\n\n${summary}\n\n## Every benchmark\n\n${table}\n`);

const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const begin = '<!-- bench:begin -->';
const end = '<!-- bench:end -->';
if (readme.includes(begin) && readme.includes(end)) {
  const updated = `${readme.slice(0, readme.indexOf(begin) + begin.length)}\n${heading}\n\n${summary}\n${readme.slice(readme.indexOf(end))}`;
  writeFileSync(readmePath, updated);
}
const missed = Object.entries(ratios).filter(([, r]) => r.met === false);
process.stderr.write(`bench/results/latest.json: ${records.length} benchmarks, ${Object.keys(ratios).length} ratios, ${missed.length} below target${missed.length ? `: ${missed.map(([n]) => n).join(', ')}` : ''}\n`);
