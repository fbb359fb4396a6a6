// Correct under concurrency (--listen): many clients at once, all using the same JSON-RPC ids,
// in front of one shared HTTP upstream (the SDK upstream of the test folder), which therefore
// also sees the same ids from every gateway session. Every response, progress notification and
// cancellation must reach its own request: no cross-delivery, no hang.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { config, httpClient, JSON_SERVER, listeningGateway, post, rawSession, request, startProcess, stopAll, tmp } from './helpers.mjs';

const CLIENTS = 50;
const CALLS = 20;
let url;
let upstreamLog;

before(async () => {
  upstreamLog = join(tmp('concurrency'), 'upstream.jsonl');
  const { match: upstreamUrl } = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/, { env: { UPSTREAM_LOG: upstreamLog } });
  ({ url } = await listeningGateway(['--config', config({ shared: { url: upstreamUrl } })]));
});
after(stopAll);

test(`${CLIENTS} clients x ${CALLS} calls, every request id 1, per-client arguments: each answer reaches its own request`, async () => {
  const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => rawSession(url)));
  const wrong = [];
  await Promise.all(
    sessions.map(async (session, client) => {
      for (let call = 0; call < CALLS; call++) {
        const args = { client, call };
        const r = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: args } }, { session });
        const reply = Array.isArray(r.body) ? r.body.filter((m) => m.id === 1) : [];
        if (r.status !== 200 || reply.length !== 1 || reply[0].result?.content?.[0]?.text !== JSON.stringify(args)) {
          wrong.push({ client, call, status: r.status, body: JSON.stringify(r.body).slice(0, 200) });
        }
      }
    }),
  );
  assert.deepEqual(wrong, []);
  const deleted = await Promise.all(sessions.map((session) => request(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } })));
  assert.deepEqual([...new Set(deleted.map((r) => r.status))], [200]);
});

test(`${CLIENTS} SDK clients with the same request ids and progress tokens: each gets its own progress and result`, async () => {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => httpClient(url)));
  const outcomes = await Promise.all(
    clients.map(async (c, i) => {
      const progress = [];
      const r = await c.callTool({ name: 'slow', arguments: { ms: 300, steps: 4, tag: `c${i}` } }, undefined, { onprogress: (p) => progress.push(p.progress) });
      return { text: r.content[0].text, progress };
    }),
  );
  outcomes.forEach((o, i) => {
    assert.equal(o.text, `done c${i}`);
    assert.deepEqual(o.progress, [1, 2, 3, 4], `client ${i}'s progress`);
  });
  await Promise.all(clients.map((c) => c.close()));
});

test(`${CLIENTS} clients, half cancel their call: exactly those calls are cancelled upstream, the others complete`, async () => {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => httpClient(url)));
  const results = await Promise.all(
    clients.map(async (c, i) => {
      const ac = new AbortController();
      const progress = [];
      const pending = c.callTool({ name: 'slow', arguments: { ms: 2000, steps: 4, tag: `x${i}` } }, undefined, {
        signal: ac.signal,
        onprogress: (p) => {
          progress.push(p.progress);
          if (i % 2 === 0) ac.abort(`client ${i} gave up`);
        },
      });
      return pending.then(
        (r) => ({ i, text: r.content[0].text, progress }),
        (e) => ({ i, error: String(e.message ?? e), progress }),
      );
    }),
  );
  for (const r of results) {
    if (r.i % 2 === 0) assert.match(r.error, new RegExp(`client ${r.i} gave up`), `client ${r.i}`);
    else assert.deepEqual([r.text, r.progress], [`done x${r.i}`, [1, 2, 3, 4]], `client ${r.i}`);
  }
  const cancelledTags = () =>
    readFileSync(upstreamLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.event === 'cancelled' && e.tag?.startsWith('x'))
      .map((e) => e.tag)
      .sort();
  const expected = results.filter((r) => r.i % 2 === 0).map((r) => `x${r.i}`).sort();
  // The upstream notices a cancellation at its next step (within 500 ms).
  const end = Date.now() + 5000;
  while (cancelledTags().length < expected.length && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(cancelledTags(), expected);
  await Promise.all(clients.map((c) => c.close()));
});
