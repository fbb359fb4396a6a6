#!/usr/bin/env node
// node bench/node/run.mjs [--out FILE] [--quick]   (`make bench-npm`; BENCH_NPM_FLAGS=--quick)
//
// agentwire (native addon and wasm build) against JSON.parse/stringify, @toon-format/toon and
// @blackwell-systems/gcf on the same data in one process. Every implementation's output is
// checked to round-trip before it is timed. Progress goes to stderr, the table to stdout;
// --out writes the records as JSON: [{name, runtime, impl, op, bytes, ns_per_op, mb_per_s}],
// where bytes is the encoded size the op handles (decode: its input, encode: its output; see
// suites.mjs) and mb_per_s = bytes / 1e6 / (ns_per_op / 1e9).
// --quick: a few iterations per task, for smoke tests (the numbers mean little).
//
// Inputs: bench/corpus/out/ (node bench/corpus/generate.mjs, then the CLI's `gcx encode` of the
// sections document, as `make bench-corpus` does) and tests/fixtures/gcx1/bench-inputs/.

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { SUITES, agentwireBuilds } from './suites.mjs';

const { values: args } = parseArgs({
  options: { out: { type: 'string' }, quick: { type: 'boolean', default: false } },
});

// tinybench runs each task for at least `time` ms and `iterations` calls. One op on the 10 MB
// corpus takes tens of ms to seconds, so large suites get a few iterations instead of the
// default minimum of 64 (which would take minutes per task).
const TIMING = args.quick
  ? {
      large: { time: 0, iterations: 1, warmupTime: 0, warmupIterations: 1 },
      small: { time: 20, iterations: 5, warmupTime: 10, warmupIterations: 2 },
    }
  : {
      large: { time: 2000, iterations: 5, warmupTime: 500, warmupIterations: 2 },
      small: { time: 1000, iterations: 64, warmupTime: 250, warmupIterations: 16 },
    };

const log = (line) => process.stderr.write(`${line}\n`);

function formatTime(ns) {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

/** Runs one suite's tasks; returns its rows (task fields + timing), grouped by bench and op. */
async function runSuite(suite) {
  const bench = new Bench({ ...TIMING[suite.size], throws: true });
  for (const t of suite.tasks) bench.add(t.name, t.fn);
  bench.addEventListener('cycle', ({ task }) => {
    const { latency } = task.result;
    log(`  ${task.name.padEnd(58)} ${formatTime(latency.mean * 1e6).padStart(10)} ±${latency.rme.toFixed(1)}% (${latency.samplesCount} runs)`);
  });
  await bench.run();
  const rows = suite.tasks.map((t) => {
    const { latency } = bench.getTask(t.name).result;
    const ns = latency.mean * 1e6;
    return { ...t, ns, rme: latency.rme, mbps: t.bytes / 1e6 / (ns / 1e9) };
  });
  const key = (r) => `${r.bench}\0${r.op}`;
  const order = [...new Set(rows.map(key))].sort();
  return order.flatMap((k) => rows.filter((r) => key(r) === k));
}

/** Time relative to JSON on the same data and op (below 1: faster than JSON). */
function withJsonRatio(rows) {
  const json = new Map(rows.filter((r) => r.impl === 'JSON').map((r) => [`${r.group}\0${r.op}`, r.ns]));
  return rows.map((r) => ({ ...r, vsJson: r.ns / json.get(`${r.group}\0${r.op}`) }));
}

function printTable(rows) {
  const header = ['bench', 'op', 'runtime', 'impl', 'bytes', 'time/op', '±', 'MB/s', 'time/JSON'];
  const cells = rows.map((r) => [
    r.bench,
    r.op,
    r.runtime,
    r.impl,
    r.bytes.toLocaleString('en-US'),
    formatTime(r.ns),
    `${r.rme.toFixed(1)}%`,
    r.mbps.toFixed(1),
    Number.isFinite(r.vsJson) ? `${r.vsJson.toFixed(2)}×` : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const rightAligned = new Set([4, 5, 6, 7, 8]);
  const line = (c) => c.map((v, i) => (rightAligned.has(i) ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  let previous;
  for (const [i, c] of cells.entries()) {
    if (previous !== undefined && rows[i].bench !== previous) console.log('');
    previous = rows[i].bench;
    console.log(line(c));
  }
  console.log('\nbytes: encoded size (decode: input, encode: output); ±: relative margin of error of the mean;');
  console.log('time/JSON: time per op relative to JSON.parse/JSON.stringify of the same data (below 1: faster).');
}

const started = performance.now();
const builds = agentwireBuilds();
log(`agentwire ${builds[0][1].coreVersion()}, node ${process.version}${args.quick ? ', --quick' : ''}`);
const rows = [];
for (const makeSuite of SUITES) {
  log(`== ${makeSuite.name}: loading and checking round trips`);
  const suite = makeSuite(builds);
  log(`== ${suite.title}: ${suite.tasks.length} tasks`);
  rows.push(...withJsonRatio(await runSuite(suite)));
}
log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
printTable(rows);

if (args.out) {
  const records = rows.map((r) => ({
    name: r.name,
    runtime: r.runtime,
    impl: r.impl,
    op: r.op,
    bytes: r.bytes,
    ns_per_op: Math.round(r.ns),
    mb_per_s: Number(r.mbps.toFixed(2)),
  }));
  writeFileSync(args.out, `${JSON.stringify(records, null, 2)}\n`);
  log(`wrote ${records.length} records to ${args.out}`);
}
