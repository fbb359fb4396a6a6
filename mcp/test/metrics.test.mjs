// Observability: GET /metrics (Prometheus text) behind the same auth as /mcp, counting calls,
// errors, tokens, sessions, upstream restarts and latency; --stats-file with --listen. Real
// agentwire-mcp processes, real SDK clients, the SDK upstream of the test folder.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childrenOf, eventually, httpClient, jsonServer, listeningGateway, request, stopAll, tmp } from './helpers.mjs';

after(stopAll);

const TOKEN = 'metrics-token-0123456789';
const upstream = () => {
  const s = jsonServer();
  return ['--', s.command, ...s.args];
};

/** The samples of a Prometheus text exposition, checked line by line: {name{labels}: value}. */
function parse(text) {
  const samples = {};
  const declared = new Set();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const type = /^# TYPE ([a-z_:][a-z0-9_:]*) (counter|gauge|histogram)$/.exec(line);
    if (type) {
      declared.add(type[1]);
      continue;
    }
    if (/^# HELP [a-z_:][a-z0-9_:]* \S/.test(line)) continue;
    const m = /^([a-z_:][a-z0-9_:]*)(\{(?:[a-z_]+="(?:[^"\\\n]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|\+Inf)$/.exec(line);
    assert.ok(m, `not exposition format: ${JSON.stringify(line)}`);
    const family = m[1].replace(/_(bucket|sum|count)$/, '');
    assert.ok(declared.has(m[1]) || declared.has(family), `${m[1]} has no TYPE line before it`);
    samples[`${m[1]}${m[2] ?? ''}`] = Number(m[3]);
  }
  return samples;
}

const scrape = async (url, headers = { authorization: `Bearer ${TOKEN}` }) => {
  const r = await request(url.replace(/\/mcp$/, '/metrics'), { headers });
  return { ...r, samples: r.status === 200 ? parse(r.text) : null };
};

test('/metrics: behind the token; calls, errors, tokens, sessions, restarts and latency counted', async () => {
  const file = join(tmp('metrics'), 'tokens');
  writeFileSync(file, `${TOKEN}\n`);
  const { url, child } = await listeningGateway(['--auth-token-file', file, '--call-timeout', '1s', '--name', 'up', ...upstream()]);
  const bearer = { authorization: `Bearer ${TOKEN}` };
  assert.equal((await scrape(url, {})).status, 401);
  assert.equal((await scrape(url, { authorization: 'Bearer wrong-token-0123456789' })).status, 401);
  const empty = await scrape(url);
  assert.equal(empty.status, 200);
  assert.equal(empty.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(empty.samples.agentwire_mcp_sessions, 0);
  assert.equal(empty.samples['agentwire_mcp_http_rejected_total{reason="unauthorized"}'], 2);
  assert.match(empty.text, /^agentwire_mcp_info\{version="\d+\.\d+\.\d+[^"]*"\} 1$/m);

  const c = await httpClient(url, { headers: bearer });
  for (let i = 0; i < 3; i++) await c.callTool({ name: 'json', arguments: { bytes: 2048 } });
  await assert.rejects(c.callTool({ name: 'hang', arguments: {} }), /did not answer/);
  let s = (await scrape(url)).samples;
  assert.equal(s.agentwire_mcp_sessions, 1);
  assert.equal(s.agentwire_mcp_sessions_opened_total, 1);
  assert.equal(s['agentwire_mcp_tool_calls_total{upstream="up",tool="json"}'], 3);
  assert.equal(s['agentwire_mcp_tool_errors_total{upstream="up",tool="hang",kind="timeout"}'], 1);
  assert.equal(s['agentwire_mcp_requests_total{method="tools/call"}'], 4);
  const before = s['agentwire_mcp_tokens_before_total{upstream="up",tool="json"}'];
  const afterCompaction = s['agentwire_mcp_tokens_after_total{upstream="up",tool="json"}'];
  assert.ok(before > 0 && afterCompaction > 0 && afterCompaction < before, `tokens ${before} -> ${afterCompaction}`);
  assert.ok(s['agentwire_mcp_bytes_after_total{upstream="up",tool="json"}'] < s['agentwire_mcp_bytes_before_total{upstream="up",tool="json"}']);
  assert.equal(s['agentwire_mcp_tool_call_duration_seconds_count{upstream="up"}'], 3);
  assert.equal(s['agentwire_mcp_tool_call_duration_seconds_bucket{upstream="up",le="+Inf"}'], 3);
  assert.ok(s['agentwire_mcp_tool_call_duration_seconds_sum{upstream="up"}'] > 0);
  assert.equal(s.agentwire_mcp_compact_duration_seconds_count, 3);
  // What compaction sends as the upstream wrote it is counted with the reason: a minified echo
  // of a few bytes saves less than 10 %, and prose is not JSON.
  await c.callTool({ name: 'echo', arguments: { a: [1, 2] } });
  await c.callTool({ name: 'slow', arguments: { ms: 1, steps: 1 } });
  s = (await scrape(url)).samples;
  assert.equal(s['agentwire_mcp_compact_kept_total{upstream="up",tool="echo",reason="BELOW_MIN_SAVINGS"}'], 1);
  assert.equal(s['agentwire_mcp_compact_kept_total{upstream="up",tool="slow",reason="NOT_JSON"}'], 1);
  assert.equal(s['agentwire_mcp_compact_kept_total{upstream="up",tool="json",reason="BELOW_MIN_SAVINGS"}'], undefined);
  assert.equal(s['agentwire_mcp_upstream_connections{upstream="up",status="up"}'], 1);
  assert.ok(s.process_resident_memory_bytes > 10e6);

  // An upstream restart is counted.
  const [up] = childrenOf(child.pid);
  process.kill(up, 'SIGKILL');
  await eventually(async () => {
    const after = (await scrape(url)).samples;
    assert.equal(after['agentwire_mcp_upstream_restarts_total{upstream="up"}'], 1);
    assert.equal(after['agentwire_mcp_upstream_connections{upstream="up",status="up"}'], 1, 'back up');
  });

  // A session that ends is counted with its reason.
  await c.http.terminateSession();
  await eventually(async () => assert.equal((await scrape(url)).samples.agentwire_mcp_sessions, 0));
  s = (await scrape(url)).samples;
  assert.equal(s['agentwire_mcp_sessions_closed_total{reason="deleted"}'], 1);
  assert.equal(s['agentwire_mcp_upstream_connections{upstream="up",status="up"}'], undefined);
  await c.close();
});

test('/metrics on loopback without a token is open; POST is 405', async () => {
  const { url } = await listeningGateway([...upstream()]);
  const r = await scrape(url, {});
  assert.equal(r.status, 200);
  assert.equal(r.samples.agentwire_mcp_sessions, 0);
  assert.equal((await request(url.replace(/\/mcp$/, '/metrics'), { method: 'POST' })).status, 405);
});

test('--stats-file with --listen: written at SIGTERM', async () => {
  const file = join(tmp('stats'), 'stats.json');
  const { url, child } = await listeningGateway(['--stats-file', file, ...upstream()]);
  const c = await httpClient(url);
  await c.callTool({ name: 'json', arguments: { bytes: 2048 } });
  await c.close();
  child.kill('SIGTERM');
  await eventually(() => assert.ok(existsSync(file)));
  const { tools } = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(tools.json.calls, 1);
  assert.ok(tools.json.tokensAfter < tools.json.tokensBefore);
});
