// MCP 2026-07-28 beside the 2025 revisions: every mode with a 2026-07-28 client (test/
// modern-client.mjs) and with a 2026-07-28 upstream (test/upstream/modern-server.mjs), the SDK's
// 2025 client beside them on the same endpoint, and what cannot cross between the eras, each
// answered with the protocol's own error rather than a hang.

import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateway as gw } from 'agentwire';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { decodeCompact, deepEqual } from '../src/index.js';
import { childrenOf, commandLine, config, eventually, httpClient, JSON_SERVER, listeningGateway, ROOT, startProcess, stopAll, textOf, tmp } from './helpers.mjs';
import { modernClient, RpcError } from './modern-client.mjs';
import { listing } from './upstream/json-server.mjs';

const MODERN_SERVER = join(ROOT, 'test/upstream/modern-server.mjs');
const CONFORMANCE_SERVER = join(ROOT, 'test/upstream/conformance-server.mjs');
const clients = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await stopAll();
});

const logs = tmp('modern-logs');
/** An upstream over HTTP: {url, log} (UPSTREAM_LOG records its cancellations). */
async function upstream(script, name) {
  const log = join(logs, `${name}.jsonl`);
  writeFileSync(log, '');
  const { match } = await startProcess(process.execPath, [script, '--listen', '0'], /(http:\/\/\S+\/mcp)\n/, { env: { UPSTREAM_LOG: log } });
  return { url: match, log };
}
const events = (/** @type {string} */ log) =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** A 2026-07-28 call of upstream tool `name` as `mode` shows it. */
async function callModern(client, mode, name, args, options) {
  if (mode === 'compact') return client.callTool(name, args, options);
  let id;
  if (mode === 'proxy') {
    const { tools } = await client.listTools();
    id = tools.find((t) => t.name.startsWith('up:') && gw.parseToolId(t.name).name === name)?.name;
  } else {
    const r = await client.callTool('tool_browse', { query: name, top_k: 50 });
    id = JSON.parse(textOf(r)).find((c) => c.name === `up.${name}`)?.id;
  }
  assert.ok(id, `no tool id for ${name} in ${mode} mode`);
  return client.callTool('tool_execute', { tool_id: id, args }, options);
}

/** The same with the SDK's 2025 client. */
async function callLegacy(client, mode, name, args, options) {
  if (mode === 'compact') return client.callTool({ name, arguments: args }, undefined, options);
  let id;
  if (mode === 'proxy') {
    const { tools } = await client.listTools();
    id = tools.find((t) => t.name.startsWith('up:') && gw.parseToolId(t.name).name === name)?.name;
  } else {
    const r = await client.callTool({ name: 'tool_browse', arguments: { query: name, top_k: 50 } });
    id = JSON.parse(textOf(r)).find((c) => c.name === `up.${name}`)?.id;
  }
  assert.ok(id, `no tool id for ${name} in ${mode} mode`);
  return client.callTool({ name: 'tool_execute', arguments: { tool_id: id, args } }, undefined, options);
}

let legacyUp;
let modernUp;
before(async () => {
  [legacyUp, modernUp] = await Promise.all([upstream(JSON_SERVER, 'json-server'), upstream(MODERN_SERVER, 'modern')]);
});

const stdioLog = join(logs, 'modern-stdio.jsonl');
writeFileSync(stdioLog, '');
/** The upstreams each mode is tested in front of: their config entry, and the log of their cancellations. */
const UPSTREAMS = {
  '2025 HTTP': () => ({ spec: { url: legacyUp.url }, log: legacyUp.log }),
  '2026-07-28 HTTP': () => ({ spec: { url: modernUp.url }, log: modernUp.log }),
  '2026-07-28 stdio': () => ({ spec: { command: process.execPath, args: [MODERN_SERVER], env: { UPSTREAM_LOG: stdioLog }, protocol: 'modern' }, log: stdioLog }),
};

for (const mode of ['compact', 'proxy', 'gateway']) {
  for (const [era, upstreamOf] of Object.entries(UPSTREAMS)) {
    describe(`--mode ${mode}, a ${era} upstream`, () => {
      let url;
      let up;
      before(async () => {
        up = upstreamOf();
        ({ url } = await listeningGateway(['--mode', mode, '--max-result-tokens', '100000', '--config', config({ up: up.spec })]));
      });

      test('a 2026-07-28 client: discover, then a JSON result compacted that decodes to the upstream JSON', async () => {
        const c = modernClient(url);
        const found = await c.discover();
        assert.ok(found.supportedVersions.includes('2026-07-28') && found.supportedVersions.includes('2025-11-25'), 'both eras served');
        assert.ok(found.capabilities.tools);
        assert.equal(found._meta['io.modelcontextprotocol/serverInfo'].name, 'agentwire-mcp');
        const listed = await c.listTools();
        assert.equal(listed.resultType, 'complete');
        assert.equal(listed.ttlMs, 0);
        assert.equal(listed.cacheScope, 'private');
        const r = await callModern(c, mode, 'json', { bytes: 4000 });
        assert.equal(r.resultType, 'complete');
        assert.equal(r.status, 200);
        const text = textOf(r);
        assert.notEqual(text, listing(4000), 'compacted');
        assert.ok(deepEqual(decodeCompact(text), JSON.parse(listing(4000))), 'the compact text decodes to the upstream JSON');
      });

      test('a 2026-07-28 client: progress on the request\'s own SSE stream, with its own token', async () => {
        const c = modernClient(url);
        const r = await callModern(c, mode, 'slow', { ms: 200, steps: 4 }, { meta: { progressToken: 'p-1' } });
        assert.equal(textOf(r), 'done');
        const progress = r.notifications.filter((n) => n.method === 'notifications/progress');
        assert.equal(progress.length, 4);
        assert.ok(progress.every((n) => n.params.progressToken === 'p-1'));
        assert.deepEqual(progress.map((n) => n.params.progress), [1, 2, 3, 4]);
      });

      test('a 2025 client beside it on the same endpoint: a session of its own, the same tools and results', async () => {
        const c = await httpClient(url);
        clients.push(c);
        assert.ok(c.sessionId, 'a legacy client gets a session');
        const progress = [];
        const r = await callLegacy(c, mode, 'json', { bytes: 4000 });
        assert.ok(deepEqual(decodeCompact(textOf(r)), JSON.parse(listing(4000))));
        const slow = await callLegacy(c, mode, 'slow', { ms: 200, steps: 4 }, { onprogress: (p) => progress.push(p.progress) });
        assert.equal(textOf(slow), 'done');
        assert.deepEqual(progress, [1, 2, 3, 4]);
      });

      test('a 2026-07-28 client that closes its request cancels the call upstream', async () => {
        const c = modernClient(url);
        const tag = `cancel-${mode}-${era}`;
        const controller = new AbortController();
        const call = callModern(c, mode, 'slow', { ms: 4000, steps: 40, tag }, { meta: { progressToken: 1 }, signal: controller.signal });
        setTimeout(() => controller.abort(), 500);
        await assert.rejects(call, { name: 'AbortError' });
        await eventually(async () => assert.ok(events(up.log).some((e) => e.event === 'cancelled' && e.tag === tag), 'the upstream saw the call cancelled'), 8000);
      });
    });
  }
}

describe('what crosses between the eras, and what does not', () => {
  let modern;
  let legacy;
  let modernStateless;
  before(async () => {
    const conformance = await upstream(CONFORMANCE_SERVER, 'conformance');
    [modern, legacy, modernStateless] = await Promise.all([
      listeningGateway(['--config', config({ up: { url: modernUp.url } })]),
      listeningGateway(['--config', config({ up: { url: conformance.url } })]),
      listeningGateway(['--stateless', '--config', config({ up: { url: modernUp.url } })]),
    ]);
  });

  test('a 2025 client with a session answers a 2026-07-28 upstream\'s input requests: the gateway asks it, and retries with the answers', async () => {
    const c = await httpClient(modern.url, { capabilities: { sampling: {} } });
    clients.push(c);
    const asked = [];
    c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.push(req.params.messages[0].content.text);
      return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test', stopReason: 'endTurn' };
    });
    const r = await c.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital of France?' } });
    assert.deepEqual(asked, ['Capital of France?']);
    assert.equal(textOf(r), 'LLM response: Paris');
  });

  test('a 2025 client without the capability, or without a session (--stateless): -32021 naming it, at once', async () => {
    const c = await httpClient(modern.url);
    clients.push(c);
    await assert.rejects(c.callTool({ name: 'test_sampling', arguments: { prompt: 'x' } }), (e) => e.code === -32021 && e.data?.requiredCapabilities?.sampling !== undefined);
    const s = await httpClient(modernStateless.url, { capabilities: { sampling: {} } });
    clients.push(s);
    const started = Date.now();
    await assert.rejects(s.callTool({ name: 'test_sampling', arguments: { prompt: 'x' } }), (e) => e.code === -32021 && /no session/.test(e.message));
    assert.ok(Date.now() - started < 5000, 'no hang');
  });

  test('a 2025 upstream\'s own sampling request cannot reach a 2026-07-28 client: refused upstream (-32601), the call answers', async () => {
    const c = modernClient(legacy.url, { capabilities: { sampling: {} } });
    const r = await c.callTool('test_sampling', { prompt: 'x' });
    assert.match(textOf(r), /^Sampling not supported or error: .*-32601.*cannot reach a client/);
  });

  test('log messages: a 2026-07-28 upstream\'s reach the request that asked (logLevel); a 2025 upstream\'s cannot be told apart by request and are not sent', async () => {
    const c = modernClient(modern.url);
    const asked = await c.callTool('test_tool_with_logging', {}, { meta: { 'io.modelcontextprotocol/logLevel': 'info' } });
    assert.equal(asked.notifications.filter((n) => n.method === 'notifications/message').length, 3);
    const silent = await c.callTool('test_tool_with_logging', {});
    assert.equal(silent.notifications.length, 0, 'no log messages without a logLevel');
    assert.match(silent.contentType, /^application\/json/, 'answered as JSON');
    const viaLegacy = await modernClient(legacy.url).callTool('test_tool_with_logging', {}, { meta: { 'io.modelcontextprotocol/logLevel': 'debug' } });
    assert.equal(textOf(viaLegacy), 'Tool with logging executed successfully');
    assert.equal(viaLegacy.notifications.filter((n) => n.method === 'notifications/message').length, 0);
    assert.equal((await modernClient(legacy.url).discover()).capabilities.logging, undefined, 'not offered in front of a 2025 upstream');
  });

  test('a 2025 client\'s logging/setLevel and resources/subscribe in front of a 2026-07-28 upstream', async () => {
    const c = await httpClient(modern.url);
    clients.push(c);
    await c.setLoggingLevel('error');
    const messages = [];
    c.fallbackNotificationHandler = async (n) => messages.push(n);
    await c.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(messages.filter((n) => n.method === 'notifications/message').length, 0, 'info messages are below the session\'s level');
    await c.setLoggingLevel('debug');
    await c.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(messages.filter((n) => n.method === 'notifications/message').length, 3);
    assert.deepEqual(await c.subscribeResource({ uri: 'test://watched-resource' }), {});
    assert.deepEqual(await c.unsubscribeResource({ uri: 'test://watched-resource' }), {});
  });

  test('a 2026-07-28 client\'s faults get the revision\'s errors and statuses', async () => {
    const c = modernClient(modern.url);
    const expect = async (promise, code, status) => {
      const e = await promise.then(() => null, (err) => err);
      assert.ok(e instanceof RpcError, `an error: ${e}`);
      assert.deepEqual([e.code, e.status], [code, status], e.message);
    };
    await expect(c.callTool('json', { bytes: 10 }, { headers: { 'Mcp-Name': 'echo' } }), -32020, 400);
    await expect(c.callTool('json', { bytes: 10 }, { headers: { 'Mcp-Method': null } }), -32020, 400);
    await expect(c.request('tools/list', {}, { headers: { 'MCP-Protocol-Version': '2026-07-29' } }), -32020, 400);
    await expect(c.request('tools/list', {}, { headers: { 'MCP-Protocol-Version': '2099-01-01' }, meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }), -32022, 400);
    await expect(c.request('ping'), -32601, 404);
    await expect(c.request('initialize'), -32601, 404);
    await expect(c.request('tools/list', {}, { meta: { 'io.modelcontextprotocol/clientCapabilities': undefined } }), -32602, 400);
    await expect(c.request('tools/list', {}, { meta: { 'io.modelcontextprotocol/logLevel': 'loud' } }), -32602, 400);
    // x-mcp-header: the argument's header must be there and equal the body.
    await c.listTools();
    assert.equal(textOf(await c.callTool('test_header_param', { region: 'eu-west 1 ü' })), 'region=eu-west 1 ü query=');
    await expect(c.callTool('test_header_param', { region: 'a' }, { headers: { 'Mcp-Param-Region': 'b' } }), -32020, 400);
    await expect(c.callTool('test_header_param', { region: 'a' }, { headers: { 'Mcp-Param-Region': null } }), -32020, 400);
    // Counted: the 400s as refusals, the requests by method.
    const metrics = await (await fetch(modern.url.replace(/\/mcp$/, '/metrics'))).text();
    const value = (/** @type {string} */ series) => Number(new RegExp(`^${series.replace(/[{}"/]/g, '\\$&')} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    assert.ok(value('agentwire_mcp_http_rejected_total{reason="bad_request"}') >= 7, metrics);
    assert.ok(value('agentwire_mcp_modern_requests_total{method="tools/call"}') >= 1);
    // A 2025 upstream's "resource not found" (-32002) is the revision's -32602 with the uri.
    const e = await modernClient(legacy.url).request('resources/read', { uri: 'test://missing' }).catch((err) => err);
    assert.deepEqual([e.code, e.data?.uri], [-32602, 'test://missing']);
  });

  test('a 2026-07-28 client in gateway mode: a large result stored (per token, in memory without --store) and read with tool_view', async () => {
    const g = await listeningGateway(['--mode', 'gateway', '--max-result-tokens', '300', '--config', config({ up: { url: modernUp.url } })]);
    const c = modernClient(g.url);
    const stored = JSON.parse(textOf(await callModern(c, 'gateway', 'json', { bytes: 8000 }))).stored;
    assert.ok(stored?.handle, 'stored, not returned whole');
    const part = await c.callTool('tool_view', { handle: stored.handle, selector: '/entries/3' });
    assert.deepEqual(decodeCompact(textOf(part)), JSON.parse(listing(8000)).entries[3]);
  });

  test('--max-inflight bounds the requests of 2026-07-28 clients on their shared connections: 503 and -32000, at once', async () => {
    const g = await listeningGateway(['--max-inflight', '1', '--config', config({ up: { url: modernUp.url } })]);
    const c = modernClient(g.url);
    await c.listTools();
    const slow = c.callTool('slow', { ms: 1500, steps: 3 });
    await new Promise((r) => setTimeout(r, 200));
    const e = await c.callTool('echo', { a: 1 }).catch((err) => err);
    assert.deepEqual([e.code, e.status], [-32000, 503]);
    assert.equal(textOf(await slow), 'done');
    assert.ok(deepEqual(decodeCompact(textOf(await c.callTool('echo', { a: 1 }))), { a: 1 }), 'served again once the first is done');
  });

  test('subscriptions/listen: acknowledged first, then the tool list changes of the upstream, tagged with the subscription id', async () => {
    const c = modernClient(modern.url);
    const controller = new AbortController();
    const frames = [];
    const res = await fetch(modern.url, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'listen-1',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://x'] }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (const m of buffer.matchAll(/^data: (.*)$/gm)) frames.push(JSON.parse(m[1]));
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
      }
    })().catch(() => {});
    await eventually(async () => assert.equal(frames.length, 1));
    assert.equal(frames[0].method, 'notifications/subscriptions/acknowledged');
    assert.deepEqual(frames[0].params.notifications, { toolsListChanged: true }, 'resource subscriptions are not offered, and not acknowledged');
    await c.callTool('test_trigger_tool_change');
    await eventually(async () => assert.ok(frames.some((f) => f.method === 'notifications/tools/list_changed')));
    assert.equal(frames.find((f) => f.method === 'notifications/tools/list_changed').params._meta['io.modelcontextprotocol/subscriptionId'], 'listen-1');
    await c.callTool('test_trigger_tool_change');
    controller.abort();
    await reading;
  });

  test('--upstream-protocol auto on stdio: a 2025 server answers the probe with an error and is initialized in the same process; a 2026-07-28 one is found', async () => {
    const g = await listeningGateway(['--log-level', 'debug', '--upstream-protocol', 'auto', '--config', config({ old: { command: process.execPath, args: [CONFORMANCE_SERVER] }, new: { command: process.execPath, args: [MODERN_SERVER] } })]);
    const c = modernClient(g.url);
    const names = (await c.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('old__test_tool_with_progress') && names.includes('new__test_tool_with_progress') && names.includes('json'), 'both upstreams\' tools');
    assert.match(g.child.output(), /upstream old: not MCP 2026-07-28 \(server\/discover: .*\); initializing/);
    assert.match(g.child.output(), /upstream new: connected \(agentwire-modern-upstream 1\.0\.0, 2026-07-28\)/);
    const spawned = g.child.output().match(/upstream old: connected/g) ?? [];
    assert.equal(spawned.length, 1);
    assert.equal(textOf(await c.callTool('old__test_simple_text')), 'This is a simple text response for testing.');
    assert.equal(textOf(await c.callTool('new__test_simple_text')), 'This is a simple text response for testing.');
  });

  test('a 2026-07-28 stdio upstream killed mid-call: the call fails naming it, it restarts, and calls work again', async () => {
    const g = await listeningGateway(['--config', config({ up: { command: process.execPath, args: [MODERN_SERVER], protocol: 'modern' } })]);
    const c = modernClient(g.url);
    await c.listTools();
    const server = () => childrenOf(g.child.pid).find((pid) => /modern-server/.test(commandLine(pid)));
    const pid = server();
    assert.ok(pid, 'the upstream process');
    const pending = c.callTool('slow', { ms: 10000, steps: 2 });
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pid, 'SIGKILL');
    const e = await pending.catch((err) => err);
    assert.ok(e instanceof RpcError, String(e));
    assert.equal(e.code, -32000);
    assert.match(e.message, /^upstream "up" closed during the call: the process killed by SIGKILL$/);
    await eventually(async () => assert.equal(textOf(await c.callTool('echo', { back: true })).length > 0, true));
    assert.notEqual(server(), pid, 'a new process');
  });

  test('--upstream-protocol: legacy or modern forced on the wrong server: it is not connected, and the log says why', async () => {
    const [wrongLegacy, wrongModern] = await Promise.all([
      listeningGateway(['--upstream-protocol', 'legacy', '--config', config({ up: { url: modernUp.url } })]),
      listeningGateway(['--config', config({ up: { url: legacyUp.url, protocol: 'modern' } })]),
    ]);
    for (const [g, why] of [
      [wrongLegacy, /upstream up: cannot connect: .*-32602/],
      [wrongModern, /upstream up: cannot connect: not an MCP 2026-07-28 server \(--upstream-protocol modern\)/],
    ]) {
      // The first modern request opens the shared connections.
      assert.deepEqual((await modernClient(g.url).listTools()).tools, [], 'no tools from an upstream that is not connected');
      await eventually(async () => assert.match(g.child.output(), why));
    }
  });
});
