#!/usr/bin/env node
// Where agentwire-mcp's time goes per tools/call: the gateway runs under `node --cpu-prof`
// while SDK clients call the `json` tool of test/upstream/json-server.mjs through it; the
// profile is then summed up by where the code lives (the MCP SDK, zod, the agentwire addon,
// agentwire-mcp, Node's own, GC) and by function, in ms per call.
//
//   node bench/profile.mjs --transport stdio --bytes 65536 --calls 300
//   node bench/profile.mjs --transport http --sessions 64 --bytes 1024 --calls 4000
//
// --transport stdio|http   the client side (HTTP: `--listen`; the upstream is stdio either way,
//                          or --upstream http for a Streamable HTTP upstream)
// --sessions N             concurrent sessions (HTTP; stdio runs one gateway process each, and
//                          the first one is profiled)
// --keep DIR               keep the .cpuprofile there (open it in Chrome DevTools)
// Prints the summary; the numbers in mcp/README.md ("Where the time goes") come from it.

import { mkdtempSync, readdirSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, JSON_SERVER, eventually, freePort, spawnTracked, startProcess, stopAll } from '../test/helpers.mjs';

const { values: o } = parseArgs({
  options: {
    transport: { type: 'string', default: 'stdio' },
    upstream: { type: 'string', default: 'stdio' },
    sessions: { type: 'string', default: '1' },
    bytes: { type: 'string', default: '1024' },
    calls: { type: 'string', default: '500' },
    keep: { type: 'string' },
    top: { type: 'string', default: '25' },
  },
});
const sessions = Number(o.sessions);
const bytes = Number(o.bytes);
const calls = Number(o.calls);
const dir = mkdtempSync(join(tmpdir(), 'agentwire-mcp-profile-'));
const profiled = ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100'];

let upstreamArgs = ['--', process.execPath, JSON_SERVER];
if (o.upstream === 'http') {
  const up = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/);
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { json: { url: up.match } } }));
  upstreamArgs = ['--config', file];
}

/** @type {Array<{ c: Client }>} */
const clients = [];
/** @type {import('node:child_process').ChildProcess | null} */
let gatewayChild = null;
if (o.transport === 'http') {
  const port = await freePort();
  gatewayChild = spawnTracked(process.execPath, [...profiled, BIN, '--listen', `127.0.0.1:${port}`, '--quiet', ...upstreamArgs]);
  await eventually(async () => {
    if (!(await fetch(`http://127.0.0.1:${port}/health`)).ok) throw new Error('not yet');
  }, 20000);
  for (let i = 0; i < sessions; i++) {
    const c = new Client({ name: 'profile', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    clients.push({ c });
  }
} else {
  for (let i = 0; i < sessions; i++) {
    const c = new Client({ name: 'profile', version: '1' });
    // Only the first gateway process is profiled.
    const args = [...(i === 0 ? profiled : []), BIN, '--quiet', ...upstreamArgs];
    await c.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
    clients.push({ c });
  }
}

const call = (/** @type {Client} */ c) => c.callTool({ name: 'json', arguments: { bytes } });
for (const { c } of clients) for (let i = 0; i < 20; i++) await call(c);
const started = performance.now();
// The profile's clock is the monotonic one, as hrtime's: only the calls' window is summed up.
const windowStartUs = Number(process.hrtime.bigint() / 1000n);
// Every session calls in turn, `calls` in all: with several sessions they overlap.
let left = calls;
await Promise.all(
  clients.map(async ({ c }) => {
    while (left-- > 0) await call(c);
  }),
);
const wallMs = performance.now() - started;
const windowEndUs = Number(process.hrtime.bigint() / 1000n);
for (const { c } of clients) await c.close();
if (gatewayChild) {
  const exited = new Promise((resolve) => gatewayChild?.once('exit', resolve));
  gatewayChild.kill('SIGTERM');
  await exited;
}
await stopAll();
await eventually(async () => {
  if (!readdirSync(dir).some((f) => f.endsWith('.cpuprofile'))) throw new Error('no profile yet');
}, 20000);
const file = join(dir, /** @type {string} */ (readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))));
if (o.keep) cpSync(file, o.keep);

// ---- the summary ---------------------------------------------------------------------------
const profile = JSON.parse(readFileSync(file, 'utf8'));
/** @type {Map<number, any>} */
const nodes = new Map(profile.nodes.map((/** @type {any} */ n) => [n.id, n]));
/** @type {Map<number, number>} node id → self µs */
const self = new Map();
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i];
  if (at < windowStartUs || at > windowEndUs) continue;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + profile.timeDeltas[i]);
}

/** Where a function's code lives. */
function area(/** @type {any} */ frame) {
  const { url, functionName } = frame;
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8 (program)';
  if (/node_modules\/zod\//.test(url)) return 'zod';
  if (/node_modules\/@hono\//.test(url)) return '@hono/node-server';
  if (/node_modules\/@modelcontextprotocol\/sdk\//.test(url)) return 'MCP SDK';
  if (/node_modules\/(agentwire|agentwire-tokens)\/|\/npm\/(lib|node|tokens)/.test(url)) return 'agentwire (npm: addon calls)';
  if (/\/mcp\/src\//.test(url)) return 'agentwire-mcp';
  if (url.startsWith('node:') || url === '') return url === '' ? 'native (JSON, addon, builtins)' : 'Node (streams, http, net)';
  return 'other';
}
const byArea = new Map();
const byFunction = new Map();
let totalUs = 0;
let busyUs = 0;
for (const [id, us] of self) {
  const n = nodes.get(id);
  const a = area(n.callFrame);
  totalUs += us;
  if (a !== 'idle') busyUs += us;
  byArea.set(a, (byArea.get(a) ?? 0) + us);
  if (a === 'idle') continue;
  const { functionName, url, lineNumber } = n.callFrame;
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|mcp|npm)\//, '$1/')}${url ? `:${lineNumber + 1}` : ''}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const perCall = (/** @type {number} */ us) => (us / 1000 / calls).toFixed(3);
const pctOf = (/** @type {number} */ us) => `${((100 * us) / busyUs).toFixed(1)} %`;
const out = [];
out.push(`transport ${o.transport}, upstream ${o.upstream}, ${sessions} session(s), ${bytes} B results, ${calls} calls in ${wallMs.toFixed(0)} ms (${(calls / (wallMs / 1000)).toFixed(0)} calls/s)`);
out.push(`gateway busy ${perCall(busyUs)} ms per call (of ${perCall(totalUs)} ms sampled while the calls ran)`);
out.push('');
out.push('| where | ms per call | of busy |');
out.push('| --- | ---: | ---: |');
for (const [a, us] of [...byArea].sort((x, y) => y[1] - x[1])) if (a !== 'idle') out.push(`| ${a} | ${perCall(us)} | ${pctOf(us)} |`);
out.push('');
out.push('| function (self time) | ms per call | of busy |');
out.push('| --- | ---: | ---: |');
for (const [k, us] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, Number(o.top))) out.push(`| ${k} | ${perCall(us)} | ${pctOf(us)} |`);
process.stdout.write(`${out.join('\n')}\n`);
