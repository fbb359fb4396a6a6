#!/usr/bin/env node
// node bench/node/run.mjs [--out FILE] [--quick] [--filter REGEX]   (`make bench-npm`; BENCH_NPM_FLAGS=--quick)
//
// agentwire (native addon and wasm build) against JSON.parse/stringify, @toon-format/toon and
// @blackwell-systems/gcf on the same data in one process. Every implementation's output is
// checked to round-trip before it is timed. Timing is in interleaved rounds (rounds.mjs): the
// 10 MB suite is one schedule, every other suite together another, so any two tasks that a
// ratio compares ran side by side. Progress goes to stderr, the table to stdout; --out writes
// the records as JSON: [{name, runtime, impl, op, bytes, ns_per_op, mb_per_s, schedule,
// rounds_ns}], where bytes is the encoded size the op handles (decode: its input, encode: its
// output; see suites.mjs), ns_per_op is the median of rounds_ns (each round's time per call),
// mb_per_s = bytes / 1e6 / (ns_per_op / 1e9), and schedule names the rounds the record was
// timed in (node-large, node-small).
// --quick: fewer, shorter rounds, for smoke tests (the numbers mean little).
// --filter: only the tasks whose name matches (a ratio needs both of its tasks).
// --wasm-only: agentwire's wasm build alone (where the addon is not built).
// --suites: only the suites whose function name matches (gcf3Graph, gcxSingle, …).
//
// Inputs: bench/corpus/out/ (node bench/corpus/generate.mjs, then the CLI's `gcx encode` of the
// sections document, as `make bench-corpus` does) and tests/fixtures/gcx1/bench-inputs/.

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { median, timeInRounds } from './rounds.mjs';
import { SUITES, agentwireBuilds } from './suites.mjs';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string' },
    quick: { type: 'boolean', default: false },
    filter: { type: 'string', default: '' },
    'wasm-only': { type: 'boolean', default: false },
    suites: { type: 'string', default: '' },
  },
});

// One call on the 10 MB corpus takes 20 ms to 1.3 s (toon decode), so a slice there is one
// call; the small suites' calls take 2 µs to 3 ms and are batched into 10 ms slices, which
// hold young-generation collections too. Short slices and many sweeps: on a busy machine,
// 10 ms × 16 sweeps gave a median spread of ±10 % on the targeted rows where 20 ms × 8 gave
// ±25 %, in the same time. Nine rounds: the median is a middle round.
const TIMING = args.quick
  ? {
      large: { rounds: 3, sweeps: 1, sliceMs: 0, warmupSweeps: 0 },
      small: { rounds: 3, sweeps: 2, sliceMs: 5, warmupSweeps: 0 },
    }
  : {
      large: { rounds: 9, sweeps: 3, sliceMs: 0, warmupSweeps: 1 },
      small: { rounds: 9, sweeps: 16, sliceMs: 10, warmupSweeps: 1 },
    };

const log = (line) => process.stderr.write(`${line}\n`);

function formatTime(ns) {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

/**
 * Times the tasks of some suites in one schedule; returns their rows (task fields, the median
 * ns per call, its rounds), those of one bench and op together.
 */
function runSchedule(schedule, tasks, timing) {
  const key = (t) => `${t.bench}\0${t.op}`;
  // Tasks that are compared sit side by side in every sweep.
  const ordered = [...tasks].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const roundsNs = timeInRounds(ordered, timing, log);
  return ordered.map((t, i) => {
    const ns = median(roundsNs[i]);
    const spread = [Math.min(...roundsNs[i]) / ns - 1, Math.max(...roundsNs[i]) / ns - 1];
    log(`  ${t.name.padEnd(58)} ${formatTime(ns).padStart(10)} ${spread.map((x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`).join(' ')}`);
    return { ...t, schedule, ns, roundsNs: roundsNs[i], spread, mbps: t.bytes / 1e6 / (ns / 1e9) };
  });
}

/** Time relative to JSON on the same data and op (below 1: faster than JSON). */
function withJsonRatio(rows) {
  const json = new Map(rows.filter((r) => r.impl === 'JSON').map((r) => [`${r.group}\0${r.op}`, r.ns]));
  return rows.map((r) => ({ ...r, vsJson: r.ns / json.get(`${r.group}\0${r.op}`) }));
}

function printTable(rows) {
  const header = ['bench', 'op', 'runtime', 'impl', 'bytes', 'time/op', 'rounds', 'MB/s', 'time/JSON'];
  const cells = rows.map((r) => [
    r.bench,
    r.op,
    r.runtime,
    r.impl,
    r.bytes.toLocaleString('en-US'),
    formatTime(r.ns),
    r.spread.map((x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(0)}%`).join('/'),
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
  console.log('\nbytes: encoded size (decode: input, encode: output); time/op: the median of the rounds;');
  console.log('rounds: the fastest and slowest round against that median;');
  console.log('time/JSON: time per op relative to JSON.parse/JSON.stringify of the same data (below 1: faster).');
}

const started = performance.now();
const builds = agentwireBuilds({ wasmOnly: args['wasm-only'] });
const filter = new RegExp(args.filter);
log(`agentwire ${builds[0][1].coreVersion()}, node ${process.version}${args.quick ? ', --quick' : ''}`);
const schedules = { large: [], small: [] };
for (const makeSuite of SUITES.filter((s) => new RegExp(args.suites).test(s.name))) {
  log(`== ${makeSuite.name}: loading and checking round trips`);
  const suite = makeSuite(builds);
  const tasks = suite.tasks.filter((t) => filter.test(t.name));
  log(`== ${suite.title}: ${tasks.length} tasks`);
  schedules[suite.size].push(...tasks);
}
const rows = [];
for (const [size, tasks] of Object.entries(schedules)) {
  if (tasks.length === 0) continue;
  const { rounds, sweeps, sliceMs } = TIMING[size];
  log(`== timing the ${size} suites: ${tasks.length} tasks, ${rounds} rounds of ${sweeps} sweeps${sliceMs ? `, ${sliceMs} ms slices` : ', one call per slice'}`);
  rows.push(...withJsonRatio(runSchedule(`node-${size}`, tasks, TIMING[size])));
}
log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
printTable(rows);

/** One decimal below a microsecond, whole nanoseconds above: enough for a ratio. */
function roundNs(ns) {
  return ns < 1000 ? Math.round(ns * 10) / 10 : Math.round(ns);
}

if (args.out) {
  const records = rows.map((r) => ({
    name: r.name,
    runtime: r.runtime,
    impl: r.impl,
    op: r.op,
    bytes: r.bytes,
    ns_per_op: roundNs(r.ns),
    mb_per_s: Number(r.mbps.toFixed(2)),
    schedule: r.schedule,
    rounds_ns: r.roundsNs.map(roundNs),
  }));
  writeFileSync(args.out, `${JSON.stringify(records, null, 2)}\n`);
  log(`wrote ${records.length} records to ${args.out}`);
}
