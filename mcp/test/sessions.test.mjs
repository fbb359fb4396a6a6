// Sessions end (--listen): real agentwire-mcp processes in front of the SDK upstream of the test
// folder (stdio, so each session's upstream is a process we can watch in /proc), real SDK clients.

import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import { createEventStore } from '../src/event-store.js';
import { holdPriming, PRIMING_HOLD_MS } from '../src/transports/priming.js';
import { alive, childrenOf, config, eventually, httpClient, jsonServer, JSON_SERVER, listeningGateway, post, rawSession, sleep, startProcess, stopAll, tmp } from './helpers.mjs';
import { decodeCompact } from '../src/index.js';

after(stopAll);

const upstream = () => {
  const s = jsonServer();
  return ['--', s.command, ...s.args];
};
const textOf = (r) => r.content[0].text;
const ping = (url, session) => post(url, { jsonrpc: '2.0', id: 99, method: 'ping' }, { session });

describe('--session-idle', () => {
  test('a client that leaves without DELETE: its session expires, 404 after, its upstream process exits', async () => {
    const { url, child } = await listeningGateway(['--session-idle', '1s', ...upstream()]);
    const c = await httpClient(url);
    assert.deepEqual(decodeCompact(textOf(await c.callTool({ name: 'echo', arguments: { n: 1 } }))), {"n":1});
    const [up] = childrenOf(child.pid);
    assert.ok(up && alive(up), 'the session has its upstream process');
    const session = c.sessionId;
    await c.close(); // the TS SDK sends no DELETE
    // Freed within the idle time plus one sweep (and the GET stream's lease).
    await eventually(() => assert.ok(!alive(up), 'upstream process still running'), 5000);
    assert.equal((await ping(url, session)).status, 404);
    assert.deepEqual(childrenOf(child.pid), []);
  });

  test('a call in flight and an open GET stream keep a session; a live client keeps it past the idle time', async () => {
    const { url, child } = await listeningGateway(['--session-idle', '5s', ...upstream()]);
    const [busy, idle] = [await httpClient(url), await httpClient(url)];
    await Promise.all([
      // A call longer than the idle time.
      busy.callTool({ name: 'slow', arguments: { ms: 6000, steps: 2 } }, undefined, { timeout: 20000 }).then((r) => assert.equal(textOf(r), 'done')),
      // No calls for over two idle times: the client's GET stream (closed by the gateway every
      // 1.7 s, reopened by the SDK client) keeps the session.
      sleep(11000),
    ]);
    for (const c of [busy, idle]) assert.deepEqual(decodeCompact(textOf(await c.callTool({ name: 'echo', arguments: { still: 'here' } }))), {"still":"here"});
    assert.equal(childrenOf(child.pid).length, 2);
    for (const c of [busy, idle]) await c.close();
  });

  test('a half-open connection (a GET stream nobody reads, never closed) does not keep the session', async () => {
    const { url, child } = await listeningGateway(['--session-idle', '1s', ...upstream()]);
    const session = await rawSession(url);
    await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { session });
    const [up] = childrenOf(child.pid);
    assert.ok(up);
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${session}\r\n\r\n`);
    let head = '';
    await new Promise((resolve) => socket.on('data', (d) => ((head += d), head.includes('\r\n\r\n') && resolve())));
    assert.match(head, /^HTTP\/1\.1 200/);
    socket.pause(); // from here on, the client neither reads nor closes
    await eventually(() => assert.ok(!alive(up), 'upstream process still running'), 6000);
    assert.equal((await ping(url, session)).status, 404);
    socket.destroy();
  });

  test('DELETE ends the session and its upstream at once', async () => {
    const { url, child } = await listeningGateway([...upstream()]);
    const c = await httpClient(url);
    await c.listTools();
    const [up] = childrenOf(child.pid);
    const session = c.sessionId;
    await c.http.terminateSession();
    await eventually(() => assert.ok(!alive(up)), 6000);
    assert.equal((await ping(url, session)).status, 404);
    await c.close();
  });
});

test('a session that ends ends its sessions at HTTP upstreams too (DELETE)', async () => {
  const log = join(tmp('upstream'), 'events.jsonl');
  const { match: upstreamUrl } = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/, { env: { UPSTREAM_LOG: log } });
  const { url } = await listeningGateway(['--config', config({ web: { url: upstreamUrl } })]);
  const c = await httpClient(url);
  await c.callTool({ name: 'echo', arguments: {} });
  const deletes = () => readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('"method":"DELETE"')).length;
  assert.equal(deletes(), 0);
  await c.http.terminateSession();
  await eventually(() => assert.equal(deletes(), 1));
  await c.close();
});

describe('--max-sessions', () => {
  test('past the cap the least recently used idle session is evicted (404, upstream closed); all busy: 503', async () => {
    const { url, child } = await listeningGateway(['--max-sessions', '2', ...upstream()]);
    const a = await httpClient(url);
    const b = await httpClient(url);
    await a.callTool({ name: 'echo', arguments: {} });
    await sleep(20);
    await b.callTool({ name: 'echo', arguments: {} }); // b used after a: a is the least recent
    await eventually(() => assert.equal(childrenOf(child.pid).length, 2));
    const before = new Set(childrenOf(child.pid));
    const c = await httpClient(url);
    await c.callTool({ name: 'echo', arguments: {} });
    await assert.rejects(a.callTool({ name: 'echo', arguments: {} }), /404|Session not found/);
    assert.deepEqual(decodeCompact(textOf(await b.callTool({ name: 'echo', arguments: { b: 1 } }))), {"b":1});
    await eventually(() => assert.equal([...before].filter(alive).length, 1, 'one of the two upstreams closed'));
    // Both remaining sessions busy: a new one is refused with 503, nothing is evicted.
    const hangs = [b, c].map((x) => x.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 60000 }).catch((e) => e));
    await sleep(300);
    const refused = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.equal(refused.body.error.code, -32000);
    assert.match(refused.body.error.message, /none is idle \(--max-sessions 2\)/);
    assert.deepEqual(decodeCompact(textOf(await b.callTool({ name: 'echo', arguments: { still: 1 } }))), {"still":1});
    for (const x of [a, b, c]) await x.close();
    await Promise.all(hangs);
  });
});

test('the resumability store: bounded by count and by bytes, resumes after dropped events', async () => {
  const store = createEventStore({ maxEvents: 5, maxBytes: 1000 });
  const ids = [];
  for (let i = 0; i < 10; i++) ids.push(await store.storeEvent('s1', { jsonrpc: '2.0', method: 'm', params: { i } }));
  assert.deepEqual(store.stats(), { events: 5, bytes: store.stats().bytes, dropped: 5 });
  const replayed = [];
  // From an id whose event was dropped: the events still kept after it.
  assert.equal(await store.getStreamIdForEventId(ids[2]), 's1');
  assert.equal(await store.replayEventsAfter(ids[2], { send: async (id, m) => replayed.push(m.params.i) }), 's1');
  assert.deepEqual(replayed, [5, 6, 7, 8, 9]);
  assert.equal(await store.getStreamIdForEventId('s1::999999999999'), undefined, 'an id it never issued');
  assert.equal(await store.getStreamIdForEventId('nonsense'), undefined);
  // Bytes: one 600-byte event and a second leave only the newest.
  await store.storeEvent('s2', { data: 'x'.repeat(600) });
  await store.storeEvent('s2', { data: 'y'.repeat(600) });
  assert.equal(store.stats().events, 1);
  assert.ok(store.stats().bytes <= 1000 || store.stats().events === 1);
});

describe('SSE priming events (2025-11-25 resumability)', () => {
  /** The SSE events of `text`: their fields (id, data, ...). */
  const eventsOf = (text) =>
    text
      .split('\n\n')
      .filter(Boolean)
      .map((block) => Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)])));
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

  test('held: the SDK transport writes the priming event in the chunk of the first message, or alone 10 ms in', async () => {
    // The SDK's own transport and server, in process: each chunk the transport enqueues is one
    // chunk of the response body, so the test sees how the events were written.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 's', eventStore: createEventStore({ maxEvents: 100, maxBytes: 1e6 }) });
    assert.equal(holdPriming(transport), true, 'the pinned SDK transport has the methods holdPriming wraps');
    const server = new McpServer({ name: 'held', version: '1' });
    server.registerTool('wait', { inputSchema: { ms: z.number() } }, async ({ ms }) => {
      await sleep(ms);
      return { content: [{ type: 'text', text: `waited ${ms}` }] };
    });
    await server.connect(transport);
    const post = (message) => transport.handleRequest(new Request('http://gateway/mcp', { method: 'POST', headers: { ...headers, 'mcp-session-id': 's' }, body: JSON.stringify(message) }));
    await (await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })).text();
    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
    const firstChunk = async (/** @type {Response} */ res) => {
      const reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
      const text = new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      return eventsOf(text);
    };

    // A first call compiles what the SDK's server needs (it may take over 10 ms), then a fast one.
    await (await post({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'wait', arguments: { ms: 0 } } })).text();
    const [priming, message, ...rest] = await firstChunk(await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: { ms: 0 } } }));
    assert.ok(priming.id && priming.data === '', `priming event first: ${JSON.stringify(priming)}`);
    assert.equal(JSON.parse(message?.data ?? 'null')?.result?.content[0].text, 'waited 0', `the result in the same chunk: ${JSON.stringify([priming, message])}`);
    assert.deepEqual(rest, []);

    const started = Date.now();
    const slow = await firstChunk(await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'wait', arguments: { ms: 400 } } }));
    const waited = Date.now() - started;
    assert.ok(waited >= PRIMING_HOLD_MS - 1 && waited < 300, `the priming event alone after ${waited} ms`);
    assert.equal(slow.length, 1);
    assert.ok(slow[0].id && slow[0].data === '', JSON.stringify(slow));
    await server.close();
  });

  test('through the gateway: a call whose connection drops is resumed from the priming event', async () => {
    const { url } = await listeningGateway(upstream());
    const session = await rawSession(url);
    const aborted = new AbortController();
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: { ms: 1500, steps: 1 } } }),
      signal: aborted.signal,
    });
    const started = Date.now();
    const first = eventsOf(new TextDecoder().decode((await /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader().read()).value));
    assert.ok(Date.now() - started < 1000, `the priming event came after ${Date.now() - started} ms`);
    assert.equal(first.length, 1);
    assert.ok(first[0].id && first[0].data === '', JSON.stringify(first));
    aborted.abort();
    // 409 while the gateway has not yet seen the dropped connection (the stream is still open).
    let resumed;
    await eventually(async () => {
      resumed = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session, 'last-event-id': first[0].id } });
      assert.equal(resumed.status, 200);
    }, 1000);
    const reader = /** @type {ReadableStream<Uint8Array>} */ (resumed.body).pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('"id":3')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    const result = eventsOf(text).find((e) => e.data?.includes('"id":3'));
    assert.equal(JSON.parse(result.data).result.content[0].text, 'done');
  });
});
