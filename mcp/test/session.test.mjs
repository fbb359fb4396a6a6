// The session, relay and modes in process: an SDK client and SDK upstream servers linked to the
// gateway by the SDK's InMemoryTransport. Protocol cases only; the spawned-process tests
// (modes.test.mjs, faults.test.mjs) cover stdio, HTTP and restarts.

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ToolListChangedNotificationSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { decodeCompact, deepEqual } from '../src/index.js';
import { eventually } from './helpers.mjs';
import { connectedGateway, inMemoryUpstream, upstreamServer } from './inprocess.mjs';

const textOf = (r) => r.content.find((b) => b.type === 'text').text;

describe('session over InMemoryTransport', () => {
  test('initialize: the capabilities and instructions of the upstreams, the server info of the package', async () => {
    const { client, gateway } = await connectedGateway({ upstreams: { up: inMemoryUpstream(() => upstreamServer('up')).spec } });
    const caps = client.getServerCapabilities();
    assert.deepEqual(Object.keys(caps).sort(), ['logging', 'resources', 'tools']);
    assert.equal(caps.prompts, undefined, 'the upstream has no prompts: neither has the gateway');
    assert.equal(client.getInstructions(), 'up instructions');
    const info = client.getServerVersion();
    assert.equal(info.name, 'agentwire-mcp');
    assert.match(info.version, /^\d+\.\d+\.\d+/);
    await gateway.close();
  });

  test('compact mode: a JSON result is compacted and decodes to the upstream JSON; stats and metrics count it', async () => {
    const up = inMemoryUpstream(() => upstreamServer('up'));
    const { client, gateway } = await connectedGateway({ upstreams: { up: up.spec } });
    const r = await client.callTool({ name: 'graph', arguments: { n: 30 } });
    assert.throws(() => JSON.parse(textOf(r)), 'compacted: no longer JSON');
    const entities = Array.from({ length: 30 }, (_, i) => ({ name: `e${i}`, entityType: i % 3 ? 'person' : 'org', score: (i * 37) % 101 }));
    assert.ok(deepEqual(decodeCompact(textOf(r)), { entities }));
    assert.equal(gateway.stats.toJSON().tools.graph.calls, 1);
    const metrics = gateway.metrics.render();
    assert.match(metrics, /^agentwire_mcp_tool_calls_total\{upstream="up",tool="graph"\} 1$/m);
    assert.match(metrics, /^agentwire_mcp_tool_call_duration_seconds_count\{upstream="up"\} 1$/m);
    assert.ok(gateway.metrics.tokensAfter.get({ upstream: 'up', tool: 'graph' }) < gateway.metrics.tokensBefore.get({ upstream: 'up', tool: 'graph' }));
    await gateway.close();
  });

  test('progress reaches the client with its own token, before the result', async () => {
    const up = inMemoryUpstream(() => upstreamServer('up'));
    const { client, gateway } = await connectedGateway({ upstreams: { up: up.spec } });
    const seen = [];
    const r = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, undefined, { onprogress: (p) => seen.push(p.progress) });
    assert.equal(textOf(r), 'done');
    assert.deepEqual(seen, [1, 2, 3]);
    // The upstream got the gateway's own token, not the client's.
    const call = up.made[0].events.find((e) => e.call === 'slow');
    assert.equal(typeof call.meta.progressToken, 'number');
    await gateway.close();
  });

  test('cancellation by the client reaches the upstream; the session has nothing in flight after', async () => {
    const up = inMemoryUpstream(() => upstreamServer('up'));
    const { client, gateway, session } = await connectedGateway({ upstreams: { up: up.spec } });
    const ac = new AbortController();
    const pending = client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: ac.signal });
    await waitFor(() => up.made[0].events.some((e) => e.call === 'hang'));
    assert.equal(session.busy, true);
    ac.abort('user gave up');
    await assert.rejects(pending, /user gave up/);
    await waitFor(() => up.made[0].events.some((e) => e.cancelled === 'hang'));
    await waitFor(() => !session.busy);
    await gateway.close();
  });

  test('a sampling request from an upstream reaches the client that made the call', async () => {
    const make = () => upstreamServer('up');
    const a = await connectedGateway({ upstreams: { up: inMemoryUpstream(make).spec }, clientName: 'alice' });
    const b = await connectedGateway({ upstreams: { up: inMemoryUpstream(make).spec }, clientName: 'bob' });
    const [ra, rb] = await Promise.all([a.client.callTool({ name: 'ask', arguments: { prompt: 'x' } }), b.client.callTool({ name: 'ask', arguments: { prompt: 'y' } })]);
    assert.equal(textOf(ra), 'sampled: sampled-by-alice');
    assert.equal(textOf(rb), 'sampled: sampled-by-bob');
    await a.gateway.close();
    await b.gateway.close();
  });

  test('a log message the upstream sends during a call reaches the client', async () => {
    const { client, gateway } = await connectedGateway({ upstreams: { up: inMemoryUpstream(() => upstreamServer('up')).spec } });
    const logs = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params.data));
    assert.equal(textOf(await client.callTool({ name: 'log', arguments: {} })), 'logged');
    assert.deepEqual(logs, ['from up']);
    await gateway.close();
  });

  test('an upstream that changes its tools: the catalog is re-read and the client told', async () => {
    const { client, gateway } = await connectedGateway({ upstreams: { up: inMemoryUpstream(() => upstreamServer('up')).spec } });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed++);
    const before = (await client.listTools()).tools.map((t) => t.name);
    await client.callTool({ name: 'grow', arguments: {} });
    await waitFor(() => changed === 1);
    const after = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(after.slice(0, before.length), before);
    assert.equal(after.length, before.length + 1);
    await gateway.close();
  });

  test('two upstreams: shared tool names get the server prefix; resources merged and read from their owner', async () => {
    const { client, gateway } = await connectedGateway({
      upstreams: { alpha: inMemoryUpstream(() => upstreamServer('alpha')).spec, beta: inMemoryUpstream(() => upstreamServer('beta')).spec },
    });
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('alpha__echo') && names.includes('beta__echo'));
    assert.deepEqual(decodeCompact(textOf(await client.callTool({ name: 'beta__echo', arguments: { who: 'b' } }))), { who: 'b' });
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ['test://alpha/a', 'test://beta/a']);
    const read = await client.readResource({ uri: 'test://beta/a' });
    assert.equal(read.contents[0].text, 'read by beta');
    assert.equal(client.getInstructions(), 'alpha instructions\n\nbeta instructions');
    await gateway.close();
  });

  test('proxy mode: cards and meta-tools; tool_execute validates before the upstream sees anything', async () => {
    const up = inMemoryUpstream(() => upstreamServer('up'));
    const { client, gateway } = await connectedGateway({ upstreams: { up: up.spec }, mode: 'proxy' });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.slice(-2).map((t) => t.name), ['tool_hydrate', 'tool_execute']);
    const ask = tools.find((t) => t.name.startsWith('up:ask#'));
    const bad = await client.callTool({ name: 'tool_execute', arguments: { tool_id: ask.name, args: {} } });
    assert.equal(bad.isError, true);
    assert.equal(JSON.parse(textOf(bad)).error, 'ARGS_INVALID');
    assert.equal(up.made[0].events.length, 0, 'nothing reached the upstream');
    const echo = tools.find((t) => t.name.startsWith('up:echo#'));
    assert.deepEqual(decodeCompact(textOf(await client.callTool({ name: 'tool_execute', arguments: { tool_id: echo.name, args: { a: 1 } } }))), { a: 1 });
    await gateway.close();
  });

  test('gateway mode: exactly the three meta-tools; a large result is stored and read back', async () => {
    const { client, gateway } = await connectedGateway({ upstreams: { up: inMemoryUpstream(() => upstreamServer('up')).spec }, mode: 'gateway', maxResultTokens: 100 });
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['tool_browse', 'tool_execute', 'tool_view']);
    const cards = JSON.parse(textOf(await client.callTool({ name: 'tool_browse', arguments: { query: 'graph json' } })));
    const id = cards.find((c) => c.name === 'up.graph').id;
    const stored = JSON.parse(textOf(await client.callTool({ name: 'tool_execute', arguments: { tool_id: id, args: { n: 40 } } })));
    assert.ok(stored.stored.tokens > 100);
    const one = await client.callTool({ name: 'tool_view', arguments: { handle: stored.stored.handle, selector: '/entities/3' } });
    assert.deepEqual(decodeCompact(textOf(one)), { name: 'e3', entityType: 'org', score: 10 });
    await gateway.close();
  });

  test('--max-inflight: a request past the limit gets JSON-RPC -32000, the others complete', async () => {
    const up = inMemoryUpstream(() => upstreamServer('up'));
    const { client, gateway } = await connectedGateway({ upstreams: { up: up.spec }, maxInflight: 2 });
    const acs = [new AbortController(), new AbortController()];
    const hanging = acs.map((ac) => client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: ac.signal }));
    await waitFor(() => up.made[0].events.filter((e) => e.call === 'hang').length === 2);
    await assert.rejects(client.callTool({ name: 'echo', arguments: {} }), (e) => e.code === -32000 && /--max-inflight 2/.test(e.message));
    for (const ac of acs) ac.abort('done');
    await Promise.allSettled(hanging);
    assert.deepEqual(decodeCompact(textOf(await client.callTool({ name: 'echo', arguments: { ok: true } }))), {"ok":true});
    await gateway.close();
  });

  test('an upstream that goes away: calls get an error naming it, then it is reconnected', async () => {
    const up = inMemoryUpstream(() => upstreamServer('up'));
    const { client, gateway } = await connectedGateway({ upstreams: { up: up.spec } });
    assert.deepEqual(decodeCompact(textOf(await client.callTool({ name: 'echo', arguments: { n: 1 } }))), {"n":1});
    await up.made[0].server.close();
    await assert.rejects(client.callTool({ name: 'echo', arguments: { n: 2 } }), /upstream "up" is unavailable \(restarting\): connection closed/);
    await waitFor(() => up.made.length === 2);
    const r = await eventually(() => client.callTool({ name: 'echo', arguments: { n: 3 } }), 5000);
    assert.deepEqual(decodeCompact(textOf(r)), {"n":3});
    assert.match(gateway.metrics.render(), /^agentwire_mcp_upstream_restarts_total\{upstream="up"\} 1$/m);
    await gateway.close();
  });

  test('closing the gateway closes the upstream connections of every session', async () => {
    const up = inMemoryUpstream(() => upstreamServer('up'));
    const { gateway, session } = await connectedGateway({ upstreams: { up: up.spec } });
    let closed = false;
    up.made[0].server.onclose = () => (closed = true);
    await gateway.close();
    assert.equal(closed, true);
    assert.equal(gateway.sessions.size, 0);
    assert.equal(session.closeReason, 'shutdown');
    assert.match(gateway.metrics.render(), /^agentwire_mcp_sessions_closed_total\{reason="shutdown"\} 1$/m);
  });
});

async function waitFor(predicate, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${predicate}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
