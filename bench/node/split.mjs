#!/usr/bin/env node
// node bench/node/split.mjs [--filter REGEX] [--ms N] [--suites REGEX] [--wasm-only]   (after make setup-bench-node, npm-build, bench-corpus)
//
// Where the time of each agentwire task of the benchmark suites goes, from V8's sampling
// profiler: the Rust work (native addon or wasm frames, including copying across the boundary),
// the JS that writes arguments into the transfer tape (TapeWriter), the JS that builds objects
// from a result tape (transfer.js readers), the boundary's own JS, garbage collection, and the
// rest. Shares of self time, one row per task; docs/js-boundary.md explains the parts.

import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { SUITES, agentwireBuilds } from './suites.mjs';

const { values: args } = parseArgs({
  options: {
    filter: { type: 'string', default: '' },
    ms: { type: 'string', default: '400' },
    'wasm-only': { type: 'boolean', default: false },
    suites: { type: 'string', default: '' },
  },
});
const filter = new RegExp(args.filter);
const budgetMs = Number(args.ms);

const PARTS = ['rust', 'args', 'objects', 'boundary', 'gc', 'other'];

// The source lines of transfer.js that hold the TapeWriter class (the argument side); the rest
// of the file reads result tapes into objects.
const transferSource = readFileSync(new URL('../../npm/lib/transfer.js', import.meta.url), 'utf8').split('\n');
const writerStart = transferSource.findIndex((line) => line.startsWith('export class TapeWriter'));
const writerEnd = transferSource.findIndex((line, i) => i > writerStart && line.startsWith('}'));

/** The part a profile node's self time belongs to. */
function partOf({ functionName, url, lineNumber }) {
  if (functionName === '(garbage collector)') return 'gc';
  if (url.startsWith('wasm://') || url === '') return 'rust';
  if (url.endsWith('/transfer.js')) return lineNumber >= writerStart && lineNumber <= writerEnd ? 'args' : 'objects';
  if (url.endsWith('/boundary.js')) return 'boundary';
  return 'other';
}

async function profile(session, fn) {
  fn(); // warm up (shapes, JIT)
  await session.post('Profiler.start');
  const start = performance.now();
  let runs = 0;
  while (performance.now() - start < budgetMs || runs < 3) {
    fn();
    runs += 1;
  }
  const { profile: p } = await session.post('Profiler.stop');
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of p.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const share = Object.fromEntries(PARTS.map((k) => [k, 0]));
  let total = 0;
  for (const [id, n] of counts) {
    const node = byId.get(id);
    if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') continue;
    share[partOf(node.callFrame)] += n;
    total += n;
  }
  for (const k of PARTS) share[k] = total === 0 ? 0 : share[k] / total;
  return { share, perRunMs: (performance.now() - start) / runs };
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });

const builds = agentwireBuilds({ wasmOnly: args['wasm-only'] });
const pct = (x) => `${(100 * x).toFixed(0)}%`.padStart(5);
console.log(`${'task'.padEnd(52)} ${'ms/op'.padStart(8)} ${PARTS.map((k) => k.padStart(8)).join(' ')}`);
for (const suite of SUITES.filter((s) => new RegExp(args.suites).test(s.name))) {
  for (const t of (await suite(builds)).tasks.filter((t) => t.impl === 'agentwire' && filter.test(t.name))) {
    const { share, perRunMs } = await profile(session, t.fn);
    console.log(`${t.name.padEnd(52)} ${perRunMs.toFixed(3).padStart(8)} ${PARTS.map((k) => pct(share[k]).padStart(8)).join(' ')}`);
  }
}
session.disconnect();
