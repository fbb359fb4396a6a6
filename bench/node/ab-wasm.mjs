// node bench/node/ab-wasm.mjs DIR... [--suites REGEX] [--rounds N] [--native]
//
// Bench only: several builds of the wasm modules side by side in one schedule. Each DIR is a
// copy of npm/ (its lib/, *.js and wasm/; with --native its native/ addon, loaded instead)
// holding one build; every build runs the same suites as
// run.mjs, interleaved with the pure-JS peers, so a ratio between two builds compares calls at
// most a sweep apart. Prints, per task, the median time per call and each build's ratio to the
// first DIR (above 1: faster). Used to choose the core module's profile (docs/packaging.md).
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, timeInRounds } from './rounds.mjs';
import { SUITES } from './suites.mjs';

const { values: args, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: {
    suites: { type: 'string', default: 'gcxBench20|gcxSingle|graph500' },
    rounds: { type: 'string', default: '9' },
    native: { type: 'boolean', default: false },
  },
});
const builds = [];
for (const dir of dirs) {
  const runtime = args.native ? 'native' : 'wasm';
  const api = await import(pathToFileURL(resolve(dir, args.native ? 'node.js' : 'wasm-node.js')).href);
  if (api.backend !== runtime) throw new Error(`${dir}: backend ${api.backend} (${api.nativeLoadError?.message})`);
  builds.push([`node-${runtime}-${basename(dir)}`, api]);
}
const tasks = [];
for (const makeSuite of SUITES.filter((s) => new RegExp(args.suites).test(s.name))) {
  const suite = makeSuite(builds);
  tasks.push(...suite.tasks);
}
const key = (t) => `${t.bench}\0${t.op}`;
const ordered = [...tasks].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
const timing = { rounds: Number(args.rounds), sweeps: 8, sliceMs: 10, warmupSweeps: 1 };
const roundsNs = timeInRounds(ordered, timing, (line) => process.stderr.write(`${line}\n`));
const byName = new Map(ordered.map((t, i) => [t.name, roundsNs[i]]));
const first = builds[0][0];
for (const [i, t] of ordered.entries()) {
  const ns = median(roundsNs[i]);
  let vsFirst = '';
  if (t.runtime !== 'node-js' && t.runtime !== first) {
    const base = byName.get(t.name.replace(`/${t.runtime}/`, `/${first}/`));
    const r = roundsNs[i].map((x, k) => base[k] / x);
    vsFirst = `${median(r).toFixed(2)} [${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}] vs ${first}`;
  }
  console.log(`${t.name.padEnd(56)} ${(ns / 1000).toFixed(1).padStart(10)} µs  ${vsFirst}`);
}
