#!/usr/bin/env node
// Peak RSS of the CLI decoding a 100 MB GCX1 payload in streaming mode (`agentwire gcx decode`
// reads 64 KiB chunks and writes JSON as rows arrive). The payload is the 10 MB corpus written
// ten times (each copy starts with its own section header, so the whole is one valid payload).
// Writes bench/results/memory.json: {payload_bytes, peak_rss_bytes, seconds}.
//   node bench/stream-memory.mjs [path/to/agentwire]
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.argv[2] ?? join(root, 'target/release/agentwire');
const corpus = join(root, 'bench/corpus/out/gcx-10mb.gcx');
const big = join(root, 'bench/corpus/out/gcx-100mb.gcx');
for (const [path, hint] of [[cli, 'cargo build --release -p agentwire-cli'], [corpus, 'make bench-rust']]) {
  if (!existsSync(path)) throw new Error(`${path} is missing (run \`${hint}\`)`);
}
if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is missing (apt-get install time)');

const copy = readFileSync(corpus);
const out = createWriteStream(big);
for (let i = 0; i < 10; i += 1) {
  if (!out.write(copy)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
const payloadBytes = statSync(big).size;

process.stderr.write(`decoding ${(payloadBytes / 1e6).toFixed(0)} MB with ${cli} gcx decode (streaming)\n`);
const started = process.hrtime.bigint();
// GNU time writes "%M" (peak RSS in KiB) as the last line of stderr.
const run = spawnSync('/usr/bin/time', ['-f', '%M', cli, 'gcx', 'decode', big], {
  stdio: ['ignore', 'ignore', 'pipe'],
  encoding: 'utf8',
});
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
if (run.status !== 0) throw new Error(`decode failed (${run.status}): ${run.stderr}`);
const peakKib = Number(run.stderr.trim().split('\n').at(-1));
if (!Number.isFinite(peakKib)) throw new Error(`unexpected /usr/bin/time output: ${run.stderr}`);

const result = { payload_bytes: payloadBytes, peak_rss_bytes: peakKib * 1024, seconds };
writeFileSync(join(root, 'bench/results/memory.json'), `${JSON.stringify(result, null, 2)}\n`);
process.stderr.write(`peak RSS ${(peakKib / 1024).toFixed(1)} MiB in ${seconds.toFixed(2)} s\n`);
