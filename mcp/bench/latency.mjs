#!/usr/bin/env node
// Added latency of agentwire-mcp per tools/call: the same call to the same upstream, directly
// and through `agentwire-mcp --mode compact`, for 1 KB, 64 KB and 1 MB JSON results (stdio).
// Then the two protocol eras over Streamable HTTP, 1 KB and 64 KB: a 2025 call (the SDK's
// client, in a session) directly to a 2025 upstream (test/upstream/json-server.mjs) and through
// `agentwire-mcp --listen` in front of it, beside a 2026-07-28 call (test/modern-client.mjs, no
// session) directly to a 2026-07-28 upstream (test/upstream/modern-server.mjs, the same `json`
// listing) and through `agentwire-mcp --listen` in front of that.
// Then the proxies users run today, in one topology: an SDK client over Streamable HTTP → the
// proxy (agentwire-mcp --listen, npm mcp-proxy, supergateway --stateful) → a stdio
// @modelcontextprotocol/server-memory, whose search_nodes answers about 1 KB or 64 KB of JSON
// text; beside the same client calling the same server directly over stdio.
// Writes records and ratios in bench/results' shape (`--out FILE`, default
// ../bench/results/mcp.json); bench/report.mjs merges them into latest.json.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { compactJson } from '../src/index.js';
import { BIN, eventually, freePort, spawnTracked, stopAll, upstreams } from '../test/helpers.mjs';
import { modernClient } from '../test/modern-client.mjs';
import { listing } from '../test/upstream/json-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--out');
const out = at > 0 ? process.argv[at + 1] : join(root, '../bench/results/mcp.json');
const upstream = [process.execPath, join(root, 'test/upstream/json-server.mjs')];
const SIZES = [
  ['1kb', 1024, 400],
  ['64kb', 65536, 100],
  ['1mb', 1 << 20, 12],
];

async function connect(command, args) {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return c;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const direct = await connect(upstream[0], upstream.slice(1));
const gateway = await connect(process.execPath, [join(root, 'bin/agentwire-mcp.js'), '--quiet', '--', ...upstream]);
const records = [];
const ratios = {};
const ratio = (name, value, target, what, bound = 'max') => {
  const met = bound === 'none' ? null : bound === 'max' ? value <= target : value >= target;
  ratios[name] = { value: Number(value.toPrecision(4)), target: bound === 'none' ? null : target, bound, met, what };
};

for (const [label, bytes, n] of SIZES) {
  const call = async (c) => {
    const t = process.hrtime.bigint();
    await c.callTool({ name: 'json', arguments: { bytes } });
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  for (let i = 0; i < Math.min(20, n); i++) {
    await call(direct);
    await call(gateway);
  }
  const d = [];
  const g = [];
  for (let i = 0; i < n; i++) {
    // Alternating keeps machine noise fair to both.
    d.push(await call(direct));
    g.push(await call(gateway));
  }
  // The compaction step alone (candidates, exact token counts, verification).
  const text = listing(bytes);
  const compactMs = [];
  for (let i = 0; i < Math.min(n, 30); i++) {
    const t = process.hrtime.bigint();
    compactJson(text, { tool: 'json' });
    compactMs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const size = Buffer.byteLength(text);
  for (const [impl, xs] of [['direct', d], ['agentwire-mcp', g], ['compactJson', compactMs]]) {
    const ms = pct(xs, 50);
    records.push({ name: `mcp-tools-call-${label}/p50/node/${impl}`, runtime: 'node', impl, op: 'tools-call', bytes: size, ns_per_op: ms * 1e6, mb_per_s: size / 1e6 / (ms / 1e3) });
  }
  const added50 = pct(g, 50) - pct(d, 50);
  const added95 = pct(g, 95) - pct(d, 95);
  // Issue 33's targets.
  const target = { '1kb': 0.5, '64kb': 2, '1mb': 30 }[label];
  ratio(`mcp_added_p50_ms_${label}`, added50, target, `agentwire-mcp added p50 latency per tools/call over stdio (p50 through agentwire-mcp --mode compact − p50 of the same SDK client calling the upstream directly, calls alternated), ${label} JSON result, ms`);
  ratio(`mcp_added_p95_ms_${label}`, added95, null, `agentwire-mcp added p95 latency per tools/call, ${label} JSON result, ms`, 'none');
  ratio(`mcp_p50_vs_direct_${label}`, pct(g, 50) / pct(d, 50), null, `agentwire-mcp p50 / direct p50, ${label} JSON result`, 'none');
  process.stderr.write(
    `${label.padEnd(5)} ${size} B: direct p50 ${pct(d, 50).toFixed(2)} ms p95 ${pct(d, 95).toFixed(2)} ms; through agentwire-mcp p50 ${pct(g, 50).toFixed(2)} ms p95 ${pct(g, 95).toFixed(2)} ms; added p50 ${added50.toFixed(2)} ms p95 ${added95.toFixed(2)} ms; compactJson alone p50 ${pct(compactMs, 50).toFixed(2)} ms\n`,
  );
}
await direct.close();
await gateway.close();

// ---- the eras over Streamable HTTP ----------------------------------------------------------
/** A process of ours that prints its URL; killed at the end. */
const processes = [];
function startHttp(/** @type {string[]} */ args, /** @type {RegExp} */ pattern) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  processes.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const on = (/** @type {Buffer} */ d) => {
      seen += d;
      const m = pattern.exec(seen);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${seen}`)));
  });
}
const URL_LINE = /(http:\/\/\S+\/mcp)\n/;
const LISTENING = /listening on (http:\/\/\S+\/mcp)/;
const gatewayIn = (/** @type {string} */ url, /** @type {string} */ file) => {
  writeFileSync(file, JSON.stringify({ mcpServers: { up: { url } } }));
  return startHttp([join(root, 'bin/agentwire-mcp.js'), '--listen', '127.0.0.1:0', '--config', file], LISTENING);
};
const legacyUp = await startHttp([join(root, 'test/upstream/json-server.mjs'), '--listen', '0'], URL_LINE);
const modernUp = await startHttp([join(root, 'test/upstream/modern-server.mjs'), '--listen', '0'], URL_LINE);
const configDir = mkdtempSync(join(tmpdir(), 'agentwire-mcp-bench-'));
const legacyGw = await gatewayIn(legacyUp, join(configDir, 'eras-2025.json'));
const modernGw = await gatewayIn(modernUp, join(configDir, 'eras-2026.json'));
const httpLegacy = async (/** @type {string} */ url) => {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { call: (/** @type {number} */ bytes) => c.callTool({ name: 'json', arguments: { bytes } }), close: () => c.close() };
};
const httpModern = (/** @type {string} */ url) => {
  const c = modernClient(url);
  return { call: (/** @type {number} */ bytes) => c.callTool('json', { bytes }), close: async () => {} };
};
const eras = {
  '2025': { direct: await httpLegacy(legacyUp), gateway: await httpLegacy(legacyGw) },
  '2026': { direct: httpModern(modernUp), gateway: httpModern(modernGw) },
};
const added = {};
for (const [label, bytes, n] of [['1kb', 1024, 400], ['64kb', 65536, 100]]) {
  /** era → {direct: ms[], gateway: ms[]} */
  const times = { '2025': { direct: [], gateway: [] }, '2026': { direct: [], gateway: [] } };
  const time = async (/** @type {{ call: (b: number) => Promise<unknown> }} */ c) => {
    const t = process.hrtime.bigint();
    await c.call(bytes);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  for (let i = 0; i < n + 20; i++) {
    // All four alternate, so that machine noise falls on each alike; the first 20 warm up.
    for (const era of ['2025', '2026']) {
      for (const side of ['direct', 'gateway']) {
        const ms = await time(eras[era][side]);
        if (i >= 20) times[era][side].push(ms);
      }
    }
  }
  const size = Buffer.byteLength(listing(bytes));
  for (const era of ['2025', '2026']) {
    const { direct: d, gateway: g } = times[era];
    for (const [impl, xs] of [['direct', d], ['agentwire-mcp', g]]) {
      const ms = pct(xs, 50);
      records.push({ name: `mcp-tools-call-http-${era}-${label}/p50/node/${impl}`, runtime: 'node', impl, op: `tools-call-http-${era}`, bytes: size, ns_per_op: ms * 1e6, mb_per_s: size / 1e6 / (ms / 1e3) });
    }
    const a50 = pct(g, 50) - pct(d, 50);
    const a95 = pct(g, 95) - pct(d, 95);
    added[`${era}-${label}`] = a50;
    const who = era === '2025' ? 'a 2025 call (SDK client, session) to a 2025 upstream' : 'a 2026-07-28 call (no session) to a 2026-07-28 upstream';
    ratio(`mcp_http_${era}_added_p50_ms_${label}`, a50, null, `agentwire-mcp added p50 latency over Streamable HTTP, ${who}, ${label} JSON result, ms`, 'none');
    ratio(`mcp_http_${era}_added_p95_ms_${label}`, a95, null, `agentwire-mcp added p95 latency over Streamable HTTP, ${who}, ${label} JSON result, ms`, 'none');
    process.stderr.write(
      `http ${era} ${label.padEnd(5)} ${size} B: direct p50 ${pct(d, 50).toFixed(2)} ms p95 ${pct(d, 95).toFixed(2)} ms; through agentwire-mcp p50 ${pct(g, 50).toFixed(2)} ms p95 ${pct(g, 95).toFixed(2)} ms; added p50 ${a50.toFixed(2)} ms p95 ${a95.toFixed(2)} ms\n`,
    );
  }
  // The stateless era should cost the gateway less (no session, one POST per call): ≤ 1 means it does.
  ratio(`mcp_http_2026_vs_2025_added_p50_${label}`, added[`2026-${label}`] / added[`2025-${label}`], 1, `agentwire-mcp added p50 latency of a 2026-07-28 call / of a 2025 call, over Streamable HTTP, ${label} JSON result`);
}
for (const era of Object.values(eras)) for (const c of Object.values(era)) await c.close();
for (const child of processes) child.kill();

// ---- the proxies users run today, in one topology ---------------------------------------------
// An SDK client over Streamable HTTP (a session) → the proxy → a stdio server-memory (from npm),
// beside the same SDK client calling the same server directly over stdio. "Added" is a path's
// p50 minus the direct p50, all four paths alternating call by call. Both peers only relay;
// agentwire-mcp also compacts (its client reads the compacted text, the structuredContent kept).
const versionOf = (/** @type {string} */ name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
/** A server-memory graph file whose search_nodes answers about `bytes` of JSON text for each query word. */
function memoryGraph(/** @type {Array<[string, number]>} */ groups) {
  const lines = [];
  for (const [word, bytes] of groups) {
    const entities = [];
    const relations = [];
    // search_nodes answers JSON.stringify({entities, relations}, null, 2) of the matches.
    for (let i = 0; JSON.stringify({ entities, relations }, null, 2).length < bytes; i++) {
      const name = `${word}-service-${i}`;
      entities.push({ name, entityType: 'service', observations: [`listens on port ${8000 + i}`, `owned by team ${i % 7}`, `deployed 2026-11-${String(1 + (i % 28)).padStart(2, '0')}`] });
      if (i > 0) relations.push({ from: name, to: `${word}-service-${i - 1}`, relationType: 'depends_on' });
    }
    for (const e of entities) lines.push(JSON.stringify({ type: 'entity', ...e }));
    for (const r of relations) lines.push(JSON.stringify({ type: 'relation', ...r }));
  }
  const file = join(configDir, 'memory.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
const PROXY_SIZES = /** @type {const} */ ([['1kb', 'alpha', 1024, 400], ['64kb', 'omega', 65536, 100]]);
const memory = upstreams.memory(memoryGraph(PROXY_SIZES.map(([, word, bytes]) => [word, bytes])));
const memoryCommand = [memory.command, ...memory.args];
/** A proxy process on a free port, ready when its endpoint answers HTTP at all. */
async function startProxy(/** @type {(port: number) => string[]} */ args, /** @type {string} */ path = '/mcp') {
  const port = await freePort();
  const child = spawnTracked(process.execPath, args(port), { env: memory.env });
  const url = `http://127.0.0.1:${port}${path}`;
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`exited: ${child.output()}`);
    await fetch(url, { method: 'GET' });
  }, 60000);
  return url;
}
const proxies = {
  'agentwire-mcp': await startProxy((port) => [BIN, '--listen', `127.0.0.1:${port}`, '--quiet', '--', ...memoryCommand]),
  'mcp-proxy': await startProxy((port) => [join(root, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs'), '--host', '127.0.0.1', '--port', String(port), '--server', 'stream', '--', ...memoryCommand]),
  supergateway: await startProxy((port) => [join(root, 'node_modules/supergateway/dist/index.js'), '--stdio', memoryCommand.map((a) => `'${a}'`).join(' '), '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none']),
};
const viaProxy = {};
for (const [name, url] of Object.entries(proxies)) {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  viaProxy[name] = c;
}
const memoryDirect = new Client({ name: 'bench', version: '1' });
await memoryDirect.connect(new StdioClientTransport({ command: memory.command, args: memory.args, env: { ...process.env, ...memory.env }, stderr: 'ignore' }));
const paths = { direct: memoryDirect, ...viaProxy };
for (const [label, word, , n] of PROXY_SIZES) {
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  let size = 0;
  for (let i = 0; i < n + 20; i++) {
    // All paths alternate, so that machine noise falls on each alike; the first 20 warm up.
    for (const [name, c] of Object.entries(paths)) {
      const t = process.hrtime.bigint();
      const r = await c.callTool({ name: 'search_nodes', arguments: { query: word } });
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (!r.content?.[0]?.text || r.isError) throw new Error(`${name}: search_nodes failed: ${JSON.stringify(r).slice(0, 200)}`);
      if (name === 'direct') size = Buffer.byteLength(r.content[0].text);
      if (i >= 20) times[name].push(ms);
    }
  }
  const direct50 = pct(times.direct, 50);
  const added = {};
  for (const [name, xs] of Object.entries(times)) {
    records.push({ name: `mcp-proxies-${label}/p50/node/${name}`, runtime: 'node', impl: name, op: 'tools-call-http-proxy', bytes: size, ns_per_op: pct(xs, 50) * 1e6, mb_per_s: size / 1e6 / (pct(xs, 50) / 1e3) });
    added[name] = pct(xs, 50) - direct50;
  }
  process.stderr.write(
    `proxies ${label.padEnd(5)} ${size} B: direct (stdio) p50 ${direct50.toFixed(2)} ms; added p50 ${Object.keys(proxies).map((k) => `${k} ${added[k].toFixed(2)} ms`).join(', ')}\n`,
  );
  for (const [peer, key] of [['mcp-proxy', 'mcp_proxy'], ['supergateway', 'supergateway']]) {
    ratio(
      `mcp_added_p50_vs_${key}_${label}`,
      added['agentwire-mcp'] / added[peer],
      label === '1kb' ? 1 : 1.5,
      `agentwire-mcp (--listen, --mode compact) added p50 / ${peer} ${versionOf(peer)} added p50, per tools/call: an SDK client over Streamable HTTP → the proxy → a stdio server-memory ${versionOf('@modelcontextprotocol/server-memory')} (search_nodes, ${size} B of JSON text and its structuredContent); added = p50 through the proxy − p50 of the same client calling the server directly over stdio, the four paths alternated call by call`,
    );
  }
}
for (const c of Object.values(paths)) await c.close();
await stopAll();

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ records, ratios }, null, 2)}\n`);
const missed = Object.entries(ratios).filter(([, r]) => r.met === false);
process.stderr.write(`${out}: ${records.length} records, ${Object.keys(ratios).length} ratios${missed.length ? `, missed: ${missed.map(([k]) => k).join(', ')}` : ''}\n`);
