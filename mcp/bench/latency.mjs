#!/usr/bin/env node
// Added latency of agentwire-mcp per tools/call: the same call to the same upstream, directly
// and through `agentwire-mcp --mode compact`, for 1 KB, 64 KB and 1 MB JSON results.
// Writes records and ratios in bench/results' shape (`--out FILE`, default
// ../bench/results/mcp.json); bench/report.mjs merges them into latest.json.

import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { compactJson } from '../src/index.js';
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
  const target = label === '64kb' ? 1 : null;
  ratio(`mcp_added_p50_ms_${label}`, added50, target, `agentwire-mcp added p50 latency per tools/call, ${label} JSON result, ms`, target === null ? 'none' : 'max');
  ratio(`mcp_added_p95_ms_${label}`, added95, null, `agentwire-mcp added p95 latency per tools/call, ${label} JSON result, ms`, 'none');
  ratio(`mcp_p50_vs_direct_${label}`, pct(g, 50) / pct(d, 50), null, `agentwire-mcp p50 / direct p50, ${label} JSON result`, 'none');
  process.stderr.write(
    `${label.padEnd(5)} ${size} B: direct p50 ${pct(d, 50).toFixed(2)} ms p95 ${pct(d, 95).toFixed(2)} ms; through agentwire-mcp p50 ${pct(g, 50).toFixed(2)} ms p95 ${pct(g, 95).toFixed(2)} ms; added p50 ${added50.toFixed(2)} ms p95 ${added95.toFixed(2)} ms; compactJson alone p50 ${pct(compactMs, 50).toFixed(2)} ms\n`,
  );
}
await direct.close();
await gateway.close();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ records, ratios }, null, 2)}\n`);
const missed = Object.entries(ratios).filter(([, r]) => r.met === false);
process.stderr.write(`${out}: ${records.length} records, ${Object.keys(ratios).length} ratios${missed.length ? `, missed: ${missed.map(([k]) => k).join(', ')}` : ''}\n`);
