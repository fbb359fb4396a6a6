#!/usr/bin/env node
// node bench/node/serde-wasm.mjs [--quick]   (after make npm-build bench-corpus bench-wasm-serde)
//
// The design card's serde-wasm-bindgen path against the transfer tape, in the same wasm
// build profile, on the calls issue 24 names: GCX1 decode and GCF 3.5.3 generic decode and
// encode. The serde path is bench/wasm-serde (never shipped): the same core calls, with the
// values built or read by serde_wasm_bindgen one JS property at a time; the tape path is the
// package's `agentwire/wasm`. Both outputs are checked equal first; timing is in interleaved
// rounds (rounds.mjs). Prints, per call, the median time of each path and the ratio
// tape speed / serde speed (above 1: the tape is faster) with its spread over the rounds.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as wasm from 'agentwire/wasm';
import assert from 'node:assert/strict';
import { median, timeInRounds } from './rounds.mjs';
import { rowsUpTo } from './rows.mjs';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path) => readFileSync(join(ROOT, path), 'utf8');
// Where `make bench-wasm-serde` puts the module.
const serdeDir = join(ROOT, 'bench/wasm-serde/pkg');

const glue = await import(join(serdeDir, 'agentwire_bench_wasm_serde.js'));
glue.initSync({ module: readFileSync(join(serdeDir, 'agentwire_bench_wasm_serde_bg.wasm')) });

const data = JSON.parse(read('bench/corpus/out/gcx-10mb.json'));
const single = (target) => rowsUpTo(data[0].rows, target);
const dir = 'tests/fixtures/gcx1/bench-inputs';
const tools = new Map(JSON.parse(read('tests/fixtures/gcx1/bench.json')).vectors.map((v) => [v.name, v.input.tool]));
const bench20 = readdirSync(join(ROOT, dir))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ tool: tools.get(f.slice(0, -5)), value: JSON.parse(read(`${dir}/${f}`)) }));
const V3_5_3 = { version: '3.5.3' };

const pairs = [];
const pair = (name, tape, serde) => pairs.push({ name, tape, serde });

// GCX1 decode.
for (const [label, inputs] of [
  ['1kb', [{ tool: data[0].tool, value: single(1000) }]],
  ['10kb', [{ tool: data[0].tool, value: single(10000) }]],
  ['bench20', bench20],
]) {
  const payloads = inputs.map((i) => wasm.gcx.encodeGeneric(i.tool, i.value));
  payloads.forEach((p) => assert.deepEqual(glue.gcxDecode(p), wasm.gcx.decode(p)));
  pair(`gcx1-${label}/decode`, () => payloads.map((p) => wasm.gcx.decode(p)), () => payloads.map((p) => glue.gcxDecode(p)));
}

// GCF 3.5.3 generic decode and encode.
for (const [label, values] of [
  ['graph-500', [JSON.parse(read('bench/corpus/out/graph-500.json'))]],
  ['bench20', bench20.map((i) => i.value)],
  ['1kb', [single(1000)]],
  ['10kb', [single(10000)]],
]) {
  const texts = values.map((v) => wasm.gcf.encodeGeneric(v, V3_5_3));
  texts.forEach((t, k) => {
    assert.ok(glue.gcfEncodeGeneric353(values[k]) === t, `gcf3-generic-${label}: serde encode differs`);
    assert.deepEqual(glue.gcfDecodeGeneric(t), wasm.gcf.decodeGeneric(t), `gcf3-generic-${label}: serde decode differs`);
  });
  pair(`gcf3-generic-${label}/decode`, () => texts.map((t) => wasm.gcf.decodeGeneric(t)), () => texts.map((t) => glue.gcfDecodeGeneric(t)));
  pair(`gcf3-generic-${label}/encode`, () => values.map((v) => wasm.gcf.encodeGeneric(v, V3_5_3)), () => values.map((v) => glue.gcfEncodeGeneric353(v)));
}

const tasks = pairs.flatMap((p) => [{ fn: p.tape }, { fn: p.serde }]);
const timing = args.quick
  ? { rounds: 3, sweeps: 2, sliceMs: 5, warmupSweeps: 0 }
  : { rounds: 9, sweeps: 16, sliceMs: 10, warmupSweeps: 1 };
const roundsNs = timeInRounds(tasks, timing, (line) => process.stderr.write(`${line}\n`));
const us = (ns) => `${(ns / 1e3).toFixed(1)} µs`;
console.log(`${'call'.padEnd(30)} ${'tape'.padStart(11)} ${'serde-wasm-bindgen'.padStart(19)}  tape speed / serde speed (min–max)`);
pairs.forEach((p, i) => {
  const tape = roundsNs[2 * i];
  const serde = roundsNs[2 * i + 1];
  const ratios = tape.map((ns, r) => serde[r] / ns);
  console.log(
    `${p.name.padEnd(30)} ${us(median(tape)).padStart(11)} ${us(median(serde)).padStart(19)}  ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  );
});
