// MCP 2026-07-28 conformance: the revision's server scenarios (@modelcontextprotocol/conformance
// 0.2.0-alpha.12, `--spec-version 2026-07-28`) against a 2026-07-28 upstream
// (test/upstream/modern-server.mjs) directly, then through agentwire-mcp in front of it (a
// stateful endpoint, a --stateless one, with --auth-token-file, and the same server as a stdio
// upstream); and through agentwire-mcp
// in front of a 2025 upstream, where what a 2025 server cannot do is listed, line by line, in
// test/conformance/2026-07-28-through-a-2025-upstream.yml. Then the 2025 suite (0.1.16) through
// agentwire-mcp in front of the 2026-07-28 upstream: a client of either revision is served by an
// upstream of either.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runSuite, scenariosOf, start as startIn, suite, summaryOf, SUITE_2025, SUITE_2026 } from './conformance-run.mjs';
import { BIN, ROOT, config, tmp } from './helpers.mjs';

/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
after(() => children.forEach((c) => c.kill()));
const start = (/** @type {string} */ command, /** @type {string[]} */ args, /** @type {RegExp} */ pattern) => startIn(children, command, args, pattern);
const MODERN = ['--suite', 'all', '--spec-version', '2026-07-28'];
const EXPECTED_THROUGH_LEGACY = join(ROOT, 'test/conformance/2026-07-28-through-a-2025-upstream.yml');

const gateway = (/** @type {string} */ file, /** @type {string[]} */ extra = []) =>
  start(process.execPath, [BIN, '--mode', 'compact', '--listen', '127.0.0.1:0', '--config', file, ...extra], /listening on (http:\/\/\S+\/mcp)/);

test('conformance 2026-07-28: every scenario passes directly and through agentwire-mcp, of either era, in front of an upstream of either era', { timeout: 600000 }, async () => {
  const scenarios = scenariosOf(SUITE_2026, ['--server', '--spec-version', '2026-07-28']);
  assert.ok(scenarios.length >= 40, `2026-07-28 server scenarios listed: ${scenarios.length}`);
  const scenarios2025 = scenariosOf(SUITE_2025);

  const modernUrl = await start(process.execPath, [join(ROOT, 'test/upstream/modern-server.mjs'), '--listen', '0'], /(http:\/\/\S+\/mcp)\n/);
  const legacyUrl = await start(process.execPath, [join(ROOT, 'test/upstream/conformance-server.mjs'), '--listen', '0'], /(http:\/\/\S+\/mcp)\n/);
  const modernFile = config({ modern: { url: modernUrl } });
  const modernStdioFile = config({ modern: { command: process.execPath, args: [join(ROOT, 'test/upstream/modern-server.mjs')], protocol: 'modern' } });
  const legacyFile = config({ legacy: { url: legacyUrl } });
  const token = 'conformance-token-0123456789';
  const tokens = join(tmp('conformance-2026-token'), 'tokens');
  writeFileSync(tokens, `${token}\n`);
  const [stateful, stateless, authed, overStdio, overLegacy] = await Promise.all([
    gateway(modernFile),
    gateway(modernFile, ['--stateless']),
    gateway(modernFile, ['--auth-token-file', tokens]),
    gateway(modernStdioFile),
    gateway(legacyFile),
  ]);
  const withToken = await start(process.execPath, [join(ROOT, 'test/upstream/auth-proxy.mjs'), authed, token], /(http:\/\/\S+\/mcp)\n/);

  const work = tmp('conformance-2026');
  const runs = {
    direct: suite(SUITE_2026, modernUrl, work, scenarios, MODERN),
    gateway: suite(SUITE_2026, stateful, work, scenarios, MODERN),
    gatewayStateless: suite(SUITE_2026, stateless, work, scenarios, MODERN),
    gatewayWithToken: suite(SUITE_2026, withToken, work, scenarios, MODERN),
    gatewayStdioUpstream: suite(SUITE_2026, overStdio, work, scenarios, MODERN),
  };
  // In front of a 2025 upstream, the suite itself compares the failures with the list: exit 0
  // only when every failure is listed and every listed failure fails.
  const overLegacyRun = runSuite(SUITE_2026, overLegacy, work, [...MODERN, '--expected-failures', EXPECTED_THROUGH_LEGACY]);
  const overLegacyResults = summaryOf(overLegacyRun.output);
  // The 2025 revisions' suite, through the gateway in front of the 2026-07-28 upstream.
  const legacyClients = suite(SUITE_2025, stateful, work, scenarios2025);

  const report = {
    scenarios2026: scenarios.map((s) => ({
      scenario: s,
      ...Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, r.get(s) ?? null])),
      gatewayIn2025Upstream: overLegacyResults.get(s) ?? null,
    })),
    scenarios2025ThroughGatewayIn2026Upstream: scenarios2025.map((s) => ({ scenario: s, passed: legacyClients.get(s) ?? null })),
  };
  mkdirSync(join(ROOT, 'test-output'), { recursive: true });
  writeFileSync(join(ROOT, 'test-output/conformance-2026.json'), `${JSON.stringify(report, null, 2)}\n`);
  const count = (/** @type {Map<string, boolean>} */ r, /** @type {string[]} */ list) => list.filter((s) => r.get(s)).length;
  console.log(
    `conformance 2026-07-28: ${count(runs.direct, scenarios)}/${scenarios.length} directly; through agentwire-mcp: ${count(runs.gateway, scenarios)}, ` +
      `--stateless ${count(runs.gatewayStateless, scenarios)}, with --auth-token-file ${count(runs.gatewayWithToken, scenarios)}, in front of it on stdio ${count(runs.gatewayStdioUpstream, scenarios)}; ` +
      `in front of a 2025 upstream ${count(overLegacyResults, scenarios)} (the rest expected: ${relative(ROOT, EXPECTED_THROUGH_LEGACY)}); ` +
      `2025 suite through agentwire-mcp in front of the 2026-07-28 upstream: ${count(legacyClients, scenarios2025)}/${scenarios2025.length}`,
  );
  for (const r of report.scenarios2026) {
    const mark = (/** @type {boolean | null} */ v) => (v ? '✓' : '✗');
    console.log(`  ${mark(r.direct)} direct  ${mark(r.gateway)} gateway  ${mark(r.gatewayStateless)} stateless  ${mark(r.gatewayWithToken)} with token  ${mark(r.gatewayStdioUpstream)} stdio upstream  ${mark(r.gatewayIn2025Upstream)} 2025 upstream  ${r.scenario}`);
  }

  for (const [name, results] of Object.entries(runs)) {
    assert.deepEqual(scenarios.filter((s) => !results.get(s)), [], `2026-07-28 scenarios that fail (${name})`);
  }
  assert.equal(overLegacyRun.status, 0, `in front of a 2025 upstream, the failures are exactly the expected ones:\n${overLegacyRun.output.split('=== SUMMARY ===')[1] ?? overLegacyRun.output.slice(-3000)}`);
  assert.ok(count(overLegacyResults, scenarios) >= 28, 'in front of a 2025 upstream, the scenarios a 2025 server can serve pass');
  assert.deepEqual(scenarios2025.filter((s) => !legacyClients.get(s)), [], '2025 scenarios that fail through agentwire-mcp in front of the 2026-07-28 upstream');
});
