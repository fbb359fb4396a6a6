// Faults survived, and reported by name: upstreams killed mid-call, restarted behind HTTP,
// hanging, writing garbage; the gateway itself killed. Real agentwire-mcp processes, real SDK
// clients, real upstreams (the SDK upstream of the test folder, server-memory through npx),
// /proc for what is still running.

import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCompact } from '../src/index.js';
import {
  alive,
  childrenOf,
  commandLine,
  config,
  descendantsOf,
  eventually,
  freePort,
  gateway,
  httpClient,
  jsonServer,
  JSON_SERVER,
  listeningGateway,
  procStatus,
  ROOT,
  sleep,
  startProcess,
  stopAll,
  tmp,
  upstreams,
} from './helpers.mjs';

const open = [];
after(async () => {
  await Promise.all(open.map((c) => c.close().catch((e) => console.log(`closing a test client: ${e.message}`))));
  await stopAll();
});
const track = async (p) => {
  const c = await p;
  open.push(c);
  return c;
};
const textOf = (r) => r.content[0].text;
const events = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('stdio upstream killed mid-call', () => {
  test('the caller gets an error naming the upstream; it restarts; other upstreams are unaffected', async () => {
    const file = config({ a: jsonServer(), mem: upstreams.memory(join(tmp('memory'), 'm.jsonl')) });
    const c = await track(gateway(['--config', file]));
    const byName = () => Object.fromEntries(childrenOf(c.pid).map((pid) => [/server-memory/.test(commandLine(pid)) ? 'mem' : 'a', pid]));
    await eventually(() => assert.equal(Object.keys(byName()).length, 2));
    const { a, mem } = byName();
    const pending = c.callTool({ name: 'slow', arguments: { ms: 10000, steps: 2 } });
    await sleep(300);
    process.kill(a, 'SIGKILL');
    await assert.rejects(pending, (e) => /^MCP error -32000: upstream "a" closed during the call: the process killed by SIGKILL$/.test(e.message));
    // Meanwhile the other upstream answers as before.
    assert.match(textOf(await c.callTool({ name: 'read_graph', arguments: {} })), /entities/);
    assert.equal(byName().mem, mem);
    // And the killed one is back.
    assert.deepEqual(decodeCompact(textOf(await eventually(() => c.callTool({ name: 'echo', arguments: { back: true } })))), {"back":true});
    assert.notEqual(byName().a, a);
  });
});

describe('HTTP upstream restarted', () => {
  test('its 404 for the old session: re-initialized transparently and the call retried; down: a clear error', async () => {
    const port = await freePort();
    const startUpstream = () => startProcess(process.execPath, [JSON_SERVER, '--listen', String(port)], /(http:\/\/\S+\/mcp)/);
    const first = await startUpstream();
    const { url, child } = await listeningGateway(['--config', config({ web: { url: first.match } })]);
    const c = await track(httpClient(url));
    assert.deepEqual(decodeCompact(textOf(await c.callTool({ name: 'echo', arguments: { n: 1 } }))), { n: 1 });
    first.child.kill('SIGKILL');
    await eventually(() => assert.ok(!alive(first.child.pid)));
    // Down: the call fails, naming the upstream.
    await assert.rejects(c.callTool({ name: 'echo', arguments: { n: 2 } }), /upstream "web"/);
    // Back, with no memory of our session: it answers 404, and the gateway starts a new one.
    await startUpstream();
    assert.deepEqual(decodeCompact(textOf(await c.callTool({ name: 'echo', arguments: { n: 3 } }))), { n: 3 });
    assert.match(child.output(), /upstream web: its session is gone \(HTTP 404, the server restarted\?\); initializing a new one/);
  });
});

describe('--call-timeout', () => {
  test('an upstream that hangs: the error names it, and the call is cancelled upstream', async () => {
    const log = join(tmp('hang'), 'events.jsonl');
    const c = await track(gateway(['--call-timeout', '1s'], jsonServer({ UPSTREAM_LOG: log })));
    const started = Date.now();
    await assert.rejects(c.callTool({ name: 'hang', arguments: {} }), (e) => {
      assert.equal(e.code, -32001);
      assert.match(e.message, /upstream "up" did not answer tools\/call within 1 s \(--call-timeout\); the call was cancelled there/);
      return true;
    });
    assert.ok(Date.now() - started < 8000);
    await eventually(() => assert.deepEqual(events(log).filter((e) => e.event === 'cancelled').map((e) => e.tool), ['hang']));
  });

  test('progress resets it: a call longer than the timeout that reports progress completes', async () => {
    // Progress every 0.4 s, a 2 s timeout: the call takes twice the timeout.
    const c = await track(gateway(['--call-timeout', '2s'], jsonServer()));
    const seen = [];
    const r = await c.callTool({ name: 'slow', arguments: { ms: 4000, steps: 10 } }, undefined, { onprogress: (p) => seen.push(p.progress), timeout: 20000 });
    assert.equal(textOf(r), 'done');
    // In order, none twice. The last one may be missing: when a progress notification and the
    // result arrive in one read, the SDK's Client runs notification handlers a microtask late,
    // after the result has removed the call's progress handler. The gateway's own upstream
    // transport hands over one message per event-loop turn for this reason; this test's
    // client is the SDK's, as a user's would be.
    assert.ok(seen.length >= 9, `progress seen: ${seen}`);
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].slice(0, seen.length));
  });
});

describe('an upstream that writes garbage on stdout', () => {
  const cases = [
    ['text', /upstream "up" wrote a line that is not JSON-RPC: "this is not JSON-RPC" on stdout/],
    ['utf8', /upstream "up" wrote a line of invalid UTF-8 \(6 bytes\) on stdout/],
    ['partial', /upstream "up" wrote an unfinished line \(\d+ bytes, no newline\) and nothing after it for 5 s on stdout/],
    ['huge', /upstream "up" wrote a line over the 1048576-byte limit \(--max-upstream-message\); skipping it on stdout/],
  ];
  for (const [kind, message] of cases) {
    test(`${kind}: an error for the call in flight, no crash, and the next call works`, async () => {
      const c = await track(gateway(['--max-upstream-message', '1m'], jsonServer()));
      assert.deepEqual(decodeCompact(textOf(await c.callTool({ name: 'echo', arguments: {} }))), {});
      const before = procStatus(c.pid, 'VmRSS');
      await assert.rejects(c.callTool({ name: 'garbage', arguments: { kind } }, undefined, { timeout: 30000 }), message);
      assert.ok(alive(c.pid), 'the gateway runs');
      if (kind === 'huge') {
        // 50 MB went through, in bounded memory: the peak stays far below the line's size.
        const grew = (procStatus(c.pid, 'VmHWM') - before) / 1024;
        console.log(`a 50 MB line skipped with --max-upstream-message 1m: peak RSS +${grew.toFixed(1)} MB`);
        assert.ok(grew < 30, `peak RSS grew ${grew.toFixed(1)} MB while a 50 MB line was skipped`);
      }
      assert.deepEqual(decodeCompact(textOf(await eventually(() => c.callTool({ name: 'echo', arguments: { after: kind } })))), { after: kind });
    });
  }
});

describe('the gateway killed', () => {
  // server-memory through npx: npx → sh → node, the grandchildren a plain kill would orphan.
  const npxMemory = () => ({ command: 'npx', args: ['--no-install', 'mcp-server-memory'], env: { MEMORY_FILE_PATH: join(tmp('memory'), 'm.jsonl') } });

  for (const signal of ['SIGTERM', 'SIGKILL']) {
    test(`${signal} (stdio): no upstream process or grandchild is left`, async () => {
      const spec = npxMemory();
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const transport = new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'bin/agentwire-mcp.js'), '--', spec.command, ...spec.args], env: { ...process.env, ...spec.env }, cwd: ROOT, stderr: 'pipe' });
      const c = new Client({ name: 'kill-test', version: '1' });
      await c.connect(transport);
      await c.callTool({ name: 'read_graph', arguments: {} });
      const below = descendantsOf(transport.pid);
      assert.ok(below.some((pid) => /mcp-server-memory|server-memory/.test(commandLine(pid))), `the upstream runs: ${below.map(commandLine).join(' | ')}`);
      assert.ok(below.length >= 3, `npx and what it started: ${below.map(commandLine).join(' | ')}`);
      process.kill(transport.pid, signal);
      await eventually(() => assert.deepEqual(below.filter(alive).map(commandLine), []), 10000);
    });
  }

  test('SIGKILL (--listen, two sessions): no upstream process or grandchild is left', async () => {
    const { url, child } = await listeningGateway(['--', 'npx', '--no-install', 'mcp-server-memory']);
    for (let i = 0; i < 2; i++) await (await track(httpClient(url))).callTool({ name: 'read_graph', arguments: {} });
    const below = descendantsOf(child.pid);
    assert.ok(below.filter((pid) => /server-memory/.test(commandLine(pid))).length >= 2, below.map(commandLine).join(' | '));
    child.kill('SIGKILL');
    await eventually(() => assert.deepEqual(below.filter(alive).map(commandLine), []), 10000);
  });
});
