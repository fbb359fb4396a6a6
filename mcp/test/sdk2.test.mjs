// agentwire-mcp against an implementation of MCP 2026-07-28 written by others: the official SDK's
// next major (@modelcontextprotocol/client and server 2.4.0) as a real 2026-07-28 client and a
// real 2026-07-28 upstream (test/upstream/sdk2-server.mjs), beside the pinned SDK's 2025 client.

import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { decodeCompact, deepEqual } from '../src/index.js';
import { config, httpClient, JSON_SERVER, listeningGateway, ROOT, startProcess, stopAll, textOf } from './helpers.mjs';
import { listing } from './upstream/json-server.mjs';

const open = [];
after(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await stopAll();
});

/** The SDK 2.4.0 client, pinned to 2026-07-28 (or `auto`), answering sampling with `reply`. */
async function sdk2(url, { mode = { pin: '2026-07-28' }, reply = 'Paris' } = {}) {
  const c = new Sdk2Client({ name: 'sdk2-test', version: '1' }, { capabilities: { sampling: {} }, versionNegotiation: { mode } });
  c.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: reply }, model: 'test', stopReason: 'endTurn' }));
  await c.connect(new Sdk2Transport(new URL(url)));
  open.push(c);
  return c;
}

describe('the SDK 2.4.0 upstream behind agentwire-mcp', () => {
  let gateway;
  let stateless;
  before(async () => {
    const { match: upstream } = await startProcess(process.execPath, [join(ROOT, 'test/upstream/sdk2-server.mjs')], /(http:\/\/\S+\/mcp)\n/);
    const file = config({ up: { url: upstream } });
    [gateway, stateless] = await Promise.all([listeningGateway(['--config', file]), listeningGateway(['--stateless', '--config', file])]);
  });

  test('a 2026-07-28 SDK client: found by server/discover (auto), tools listed, a result compacted, a sampling input request answered by the client', async () => {
    for (const g of [gateway, stateless]) {
      const c = await sdk2(g.url);
      assert.equal(c.getNegotiatedProtocolVersion(), '2026-07-28');
      assert.deepEqual((await c.listTools()).tools.map((t) => t.name).sort(), ['ask', 'json']);
      const r = await c.callTool({ name: 'json', arguments: { bytes: 4000 } });
      assert.ok(deepEqual(decodeCompact(textOf(r)), JSON.parse(listing(4000))));
      assert.equal(textOf(await c.callTool({ name: 'ask', arguments: { prompt: 'Capital of France?' } })), 'sampled: Paris');
      await c.close();
    }
    assert.match(gateway.child.output(), /upstream up: connected \(sdk2-upstream 2\.4\.0, 2026-07-28\)/);
  });

  test('a 2025 client (the pinned SDK, a session): the same results; the upstream\'s input request is asked of it on its session', async () => {
    const c = await httpClient(gateway.url, { capabilities: { sampling: {} } });
    open.push(c);
    c.setRequestHandler(CreateMessageRequestSchema, async (req) => ({ role: 'assistant', content: { type: 'text', text: `Lyon (${req.params.messages[0].content.text})` }, model: 'test', stopReason: 'endTurn' }));
    const r = await c.callTool({ name: 'json', arguments: { bytes: 4000 } });
    assert.ok(deepEqual(decodeCompact(textOf(r)), JSON.parse(listing(4000))));
    assert.equal(textOf(await c.callTool({ name: 'ask', arguments: { prompt: 'Capital?' } })), 'sampled: Lyon (Capital?)');
  });
});

test('the SDK 2.4.0 client negotiating (auto) with agentwire-mcp in front of a 2025 upstream: it speaks 2026-07-28 to the gateway', async () => {
  const { match: upstream } = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)\n/);
  const g = await listeningGateway(['--config', config({ up: { url: upstream } })]);
  const c = await sdk2(g.url, { mode: 'auto' });
  assert.equal(c.getNegotiatedProtocolVersion(), '2026-07-28');
  const r = await c.callTool({ name: 'json', arguments: { bytes: 4000 } });
  assert.ok(deepEqual(decodeCompact(textOf(r)), JSON.parse(listing(4000))));
});
