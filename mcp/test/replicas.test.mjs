// agentwire-mcp on more than one machine, with the real parts: three replicas behind Debian's
// nginx and HAProxy running deploy/nginx.conf and deploy/haproxy.cfg (the files the README
// shows), Debian's redis-server for --store, real SDK clients with a bearer token, real
// upstreams (server-memory over stdio, the SDK upstream of the test folder over HTTP).
//
// Stateless replicas behind nginx round robin; stateful ones behind nginx (a map from the id's
// replica to its server) and HAProxy (a stick table learnt from the response header); a replica
// killed under load; gateway mode's stored results in Redis, written through one replica and
// read through another; Redis stopped and started again.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { decodeCompact, deepEqual } from '../src/index.js';
import { createStore } from '../src/store.js';
import { DEPLOY_FILES, startHaproxy, startNginx, startRedis, startReplicas } from './deploy.mjs';
import { config, direct, eventually, httpClient, JSON_SERVER, ROOT, sampleGraph, sleep, startProcess, stopAll, textOf, tmp, upstreams } from './helpers.mjs';
import { listing } from './upstream/json-server.mjs';

const TOKEN = 'replicas-test-token-0123456789abcdef';
const OTHER_TOKEN = 'replicas-test-token-fedcba9876543210';
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const tokenFile = join(tmp('tokens'), 'tokens');
writeFileSync(tokenFile, `${TOKEN}\n${OTHER_TOKEN}\n`);

const clients = [];
const connect = async (url, headers = AUTH) => {
  const c = await httpClient(url, { headers });
  clients.push(c);
  return c;
};
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch((e) => console.log(`closing a test client: ${e.message}`))));
  await stopAll();
});

/** The value a result's text stands for: compacted text decoded, or the JSON as sent. */
const valueOf = (result) => decodeCompact(textOf(result));

/** Runs `n` clients' `calls` at once; each client's calls one after the other. */
async function everyClient(n, body) {
  const outcomes = await Promise.allSettled(Array.from({ length: n }, (_, i) => body(i)));
  const failed = outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason?.message ?? o.reason));
  return { failed };
}

/** A replica's counter from its /metrics (behind the token). */
async function metric(url, pattern) {
  const text = await (await fetch(url.replace(/\/mcp$/, '/metrics'), { headers: AUTH })).text();
  return Number(pattern.exec(text)?.[1] ?? 0);
}

let upstreamUrl;
let memorySpec;
before(async () => {
  ({ match: upstreamUrl } = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/));
  memorySpec = upstreams.memory(join(tmp('memory'), 'graph.jsonl'));
  const up = await direct(memorySpec);
  const { entities, relations } = sampleGraph();
  await up.callTool({ name: 'create_entities', arguments: { entities } });
  await up.callTool({ name: 'create_relations', arguments: { relations } });
  await up.close();
});

test('the README shows deploy/nginx.conf and deploy/haproxy.cfg exactly', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const [lang, file] of [['nginx', DEPLOY_FILES.nginx], ['haproxy', DEPLOY_FILES.haproxy]]) {
    const blocks = [...readme.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]);
    assert.equal(blocks.length, 1, `README has one ${lang} block`);
    assert.equal(blocks[0], readFileSync(file, 'utf8'), `the README's ${lang} block is ${file}`);
  }
});

describe('three stateless replicas behind nginx round robin', () => {
  let replicas;
  let lb;
  before(async () => {
    replicas = await startReplicas(3, ['--stateless', '--auth-token-file', tokenFile, '--config', config({ memory: memorySpec, json: { url: upstreamUrl } })]);
    lb = await startNginx(replicas.ports);
  });

  test('50 SDK clients x 20 calls: every call succeeds, each result equals a direct call', async () => {
    const up = await direct(memorySpec);
    /** @type {Map<string, Promise<unknown>>} the direct call's JSON, by call */
    const expected = new Map();
    const want = (name, args) => {
      const key = JSON.stringify([name, args]);
      if (!expected.has(key)) expected.set(key, up.callTool({ name, arguments: args }).then((r) => JSON.parse(textOf(r))));
      return expected.get(key);
    };
    const callsOf = (i, j) =>
      [
        ['read_graph', {}],
        ['search_nodes', { query: `project ${(i + j) % 7}` }],
        ['open_nodes', { names: [`person_${i % 40}`, `person_${(i * 3 + j) % 40}`] }],
        ['echo', { client: i, call: j }],
      ][j % 4];
    let calls = 0;
    const { failed } = await everyClient(50, async (i) => {
      const c = await connect(lb.url);
      assert.equal(c.sessionId, undefined, 'stateless: no Mcp-Session-Id');
      for (let j = 0; j < 20; j++) {
        const [name, args] = callsOf(i, j);
        const got = valueOf(await c.callTool({ name, arguments: args }));
        const reference = name === 'echo' ? args : await want(name, args);
        assert.ok(deepEqual(got, reference), `client ${i} call ${j} ${name}: ${JSON.stringify(got).slice(0, 200)}`);
        calls++;
      }
    });
    await up.close();
    assert.deepEqual(failed, []);
    assert.equal(calls, 1000);
    // Round robin: every replica served calls.
    for (const url of replicas.urls) assert.ok((await metric(url, /^agentwire_mcp_requests_total\{method="tools\/call"\} (\d+)$/m)) > 100, url);
  });

  test('proxy mode works stateless too: cards, tool_hydrate, tool_execute', async () => {
    const proxy = await startReplicas(1, ['--stateless', '--mode', 'proxy', '--auth-token-file', tokenFile, '--config', config({ json: { url: upstreamUrl } })]);
    const c = await connect(proxy.urls[0]);
    const { tools } = await c.listTools();
    const card = tools.find((t) => t.name.startsWith('json:echo'));
    assert.ok(card, tools.map((t) => t.name).join(', '));
    assert.equal(JSON.parse(textOf(await c.callTool({ name: 'tool_hydrate', arguments: { tool_id: card.name } }))).tool_id, card.name);
    assert.deepEqual(valueOf(await c.callTool({ name: 'tool_execute', arguments: { tool_id: card.name, args: { stateless: 'proxy' } } })), { stateless: 'proxy' });
    proxy.children[0].kill('SIGKILL');
  });

  test('a client that closes its POST cancels its call upstream', async () => {
    const log = join(tmp('upstream-log'), 'events.jsonl');
    const { match: url } = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/, { env: { UPSTREAM_LOG: log } });
    const replica = await startReplicas(1, ['--stateless', '--config', config({ json: { url } })]);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hang', arguments: {} } });
    const req = httpRequest(replica.urls[0], { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
    req.on('error', () => {}); // the socket is destroyed on purpose
    req.end(body);
    await sleep(500);
    req.destroy();
    await eventually(() => assert.match(readFileSync(log, 'utf8'), /"event":"cancelled","tool":"hang"/));
    replica.children[0].kill('SIGKILL');
  });

  test('what needs a session is refused, never half done: GET 405; subscribe and setLevel -32601', async () => {
    const get = await fetch(lb.url, { headers: { ...AUTH, Accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    const c = await connect(lb.url);
    assert.equal(c.getServerCapabilities().logging, undefined);
    await assert.rejects(c.setLoggingLevel('debug'), /-32601.*logging\/setLevel needs a session/);
  });
});

describe('three stateful replicas behind the README nginx and HAProxy configs', () => {
  let replicas;
  const lbs = {};
  before(async () => {
    replicas = await startReplicas(3, ['--auth-token-file', tokenFile, '--config', config({ json: { url: upstreamUrl } })]);
    lbs.nginx = await startNginx(replicas.ports);
    lbs.haproxy = await startHaproxy(replicas.ports);
  });

  for (const kind of ['nginx', 'haproxy']) {
    test(`${kind}: 50 SDK clients x 20 calls, no Session not found; ids name their replica`, async () => {
      const expected = JSON.parse(listing(2048));
      const prefixes = new Set();
      const { failed } = await everyClient(50, async (i) => {
        const c = await connect(lbs[kind].url);
        assert.match(c.sessionId, /^[abc]\.[0-9a-f-]{36}$/);
        prefixes.add(c.sessionId[0]);
        for (let j = 0; j < 20; j++) {
          if (j % 5 === 4) assert.ok(deepEqual(valueOf(await c.callTool({ name: 'json', arguments: { bytes: 2048 } })), expected));
          else assert.deepEqual(valueOf(await c.callTool({ name: 'echo', arguments: { client: i, call: j } })), { client: i, call: j });
        }
        await c.http.terminateSession();
      });
      assert.deepEqual(failed, []);
      assert.deepEqual([...prefixes].sort(), ['a', 'b', 'c'], 'initialize went round robin');
      // A session id another replica made is not found there: the balancer did route every request.
      for (const url of replicas.urls) assert.equal(await metric(url, /^agentwire_mcp_http_rejected_total\{reason="session_not_found"\} (\d+)$/m), 0);
    });
  }
});

describe('a replica killed under load', () => {
  let stateless;
  let stateful;
  const lbs = {};
  before(async () => {
    const flags = ['--auth-token-file', tokenFile, '--config', config({ json: { url: upstreamUrl } })];
    stateless = await startReplicas(3, ['--stateless', ...flags]);
    stateful = await startReplicas(3, flags);
    lbs.stateless = await startNginx(stateless.ports);
    lbs.nginx = await startNginx(stateful.ports);
    lbs.haproxy = await startHaproxy(stateful.ports);
  });

  test('only the calls in flight on it fail, each with the balancer\'s 502; new sessions and stateless calls go on; nothing is cross-delivered', async () => {
    // Stateful sessions through both balancers, spread over a, b and c.
    const sessions = [];
    for (const kind of ['nginx', 'haproxy']) for (let i = 0; i < 9; i++) sessions.push({ kind, c: await connect(lbs[kind].url) });
    for (const kind of ['nginx', 'haproxy']) assert.ok(sessions.some((s) => s.kind === kind && s.c.sessionId.startsWith('c.')), `${kind}: a session on c`);

    // Stateless load: 30 clients calling a 200 ms echo, each checking its own answer.
    const loaders = await Promise.all(Array.from({ length: 30 }, () => connect(lbs.stateless.url)));
    const calls = [];
    let running = true;
    const load = Promise.all(
      loaders.map(async (c, i) => {
        for (let n = 0; running; n++) {
          const args = { client: i, n, delay_ms: 200 };
          const call = { client: i, started: performance.now(), ended: 0, error: null };
          calls.push(call);
          try {
            assert.deepEqual(valueOf(await c.callTool({ name: 'echo', arguments: args })), args, 'each answer is its own call\'s');
          } catch (e) {
            call.error = e;
          }
          call.ended = performance.now();
        }
      }),
    );
    await sleep(1000);
    // From the signal to the exit the replica may still take connections (the kernel queues them):
    // a call sent then was sent to it.
    const killedAt = performance.now();
    const exited = [stateless, stateful].map(({ children }) => new Promise((resolve) => children[2].once('exit', resolve)));
    stateless.children[2].kill('SIGKILL');
    stateful.children[2].kill('SIGKILL');
    await Promise.all(exited);
    const exitedAt = performance.now();
    await sleep(3000);
    running = false;
    await load;

    const failures = calls.filter((c) => c.error);
    assert.ok(failures.length > 0, 'calls were in flight on the killed replica');
    for (const f of failures) {
      assert.ok(f.started < exitedAt && f.ended > killedAt, `a call that failed was in flight at the kill (started ${(f.started - killedAt).toFixed(0)} ms from it, ended ${(f.ended - killedAt).toFixed(0)} ms; the replica exited at ${(exitedAt - killedAt).toFixed(0)} ms: ${f.error.message})`);
      assert.match(f.error.message, /HTTP 502|502 Bad Gateway/, 'the balancer says the replica went away');
    }
    // Every client went on calling, and every call that started after the kill succeeded.
    const after = calls.filter((c) => c.started > exitedAt + 50);
    assert.equal(new Set(after.filter((c) => !c.error).map((c) => c.client)).size, loaders.length, 'every client went on');
    assert.deepEqual(after.filter((c) => c.error).map((c) => c.error.message), []);

    // Stateful: a session of the dead replica gets 404 from one that stands in; the client starts
    // a new session, which works; sessions on live replicas are unaffected.
    for (const { kind, c } of sessions) {
      const args = { session: c.sessionId };
      if (c.sessionId.startsWith('c.')) {
        await assert.rejects(c.callTool({ name: 'echo', arguments: args }), (e) => e.code === 404 && /Session not found/.test(e.message), `${kind}: ${c.sessionId}`);
        const fresh = await connect(lbs[kind].url);
        assert.match(fresh.sessionId, /^[ab]\./);
        assert.deepEqual(valueOf(await fresh.callTool({ name: 'echo', arguments: { fresh: true } })), { fresh: true });
      } else {
        assert.deepEqual(valueOf(await c.callTool({ name: 'echo', arguments: args })), args, `${kind}: ${c.sessionId}`);
      }
    }
  });
});

describe('gateway mode with --store redis://: replicas share stored results', () => {
  let redis;
  let replicas;
  const BYTES = 40_000;
  const expected = JSON.parse(listing(BYTES));
  before(async () => {
    redis = await startRedis();
    replicas = await startReplicas(2, ['--stateless', '--mode', 'gateway', '--max-result-tokens', '400', '--store', redis.url, '--store-ttl', '10m', '--auth-token-file', tokenFile, '--config', config({ json: { url: upstreamUrl } })]);
  });

  const jsonToolId = async (c) => {
    const cards = JSON.parse(textOf(await c.callTool({ name: 'tool_browse', arguments: { query: 'json listing', top_k: 50 } })));
    const card = cards.find((x) => x.name === 'json.json');
    assert.ok(card, `no card for json: ${JSON.stringify(cards)}`);
    return card.id;
  };
  const execute = async (c, bytes) => c.callTool({ name: 'tool_execute', arguments: { tool_id: await jsonToolId(c), args: { bytes } } });
  const view = (c, handle, selector) => c.callTool({ name: 'tool_view', arguments: { handle, selector } });

  test('a large result stored through replica A is viewed through replica B; another token cannot see it', async () => {
    const [a, b] = [await connect(replicas.urls[0]), await connect(replicas.urls[1])];
    const { stored } = JSON.parse(textOf(await execute(a, BYTES)));
    assert.match(stored.handle, /^r-[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(JSON.parse(textOf(await view(b, stored.handle, 'info'))), stored);
    assert.deepEqual(decodeCompact(textOf(await view(b, stored.handle, '/entries/17'))), expected.entries[17]);
    const parts = [];
    for (let from = 1; from <= stored.lines; from += 10) {
      const part = await view(b, stored.handle, `lines:${from}-${Math.min(from + 9, stored.lines)}`);
      assert.equal(part.isError, undefined, textOf(part));
      parts.push(textOf(part));
    }
    assert.ok(deepEqual(decodeCompact(parts.join('\n')), expected), 'the stored text, read in parts through B, is the whole result');
    // In Redis with the TTL given (--store-ttl 10m).
    const ttl = Number(spawnSync('redis-cli', ['-p', String(redis.port), 'TTL', `agentwire-mcp:result:${stored.handle}`], { encoding: 'utf8' }).stdout);
    assert.ok(ttl > 500 && ttl <= 600, `TTL ${ttl}`);
    // A handle belongs to the token that stored it.
    const other = await connect(replicas.urls[1], { Authorization: `Bearer ${OTHER_TOKEN}` });
    const refused = await view(other, stored.handle, 'info');
    assert.equal(refused.isError, true);
    assert.match(JSON.parse(textOf(refused)).message, /unknown or expired handle/);
  });

  test('store.js: an owner\'s results are bounded by --store-max-bytes, oldest deleted first, the newest kept', async () => {
    const store = createStore({ url: redis.url, ttlMs: 60_000, maxBytes: 250_000 });
    await store.start();
    try {
      const mine = store.forOwner('session:bound-test');
      const entry = (n) => ({ tool: 'json', format: 'text', tokens: n, text: String(n).repeat(100_000) });
      const handles = [];
      for (const n of [1, 2, 3]) handles.push(await mine.put(entry(n)));
      // 3 x ~100 KB > 250 KB: the first is gone, the two newest stay.
      await assert.rejects(mine.get(handles[0]), /unknown or expired handle/);
      assert.equal((await mine.get(handles[1])).text, entry(2).text);
      assert.equal((await mine.get(handles[2])).text, entry(3).text);
      const cli = (...args) => spawnSync('redis-cli', ['-p', String(redis.port), ...args], { encoding: 'utf8' }).stdout.trim();
      const bytes = Number(cli('GET', 'agentwire-mcp:owner-bytes:session:bound-test'));
      assert.ok(bytes > 200_000 && bytes <= 250_000, `owner bytes ${bytes}`);
      assert.equal(Number(cli('ZCARD', 'agentwire-mcp:owner:session:bound-test')), 2);
      // One result above the bound alone is still kept (the newest stays), and evicts the rest.
      const big = await mine.put({ ...entry(4), text: '4'.repeat(300_000) });
      assert.equal((await mine.get(big)).text.length, 300_000);
      await assert.rejects(mine.get(handles[2]), /unknown or expired handle/);
      // Another owner neither sees these nor is bounded by them.
      await assert.rejects(store.forOwner('session:other').get(big), /unknown or expired handle/);
    } finally {
      await store.close();
    }
  });

  test('Redis stopped mid-run: a clear error for the calls that need the store; calls that do not go on; back when it returns', async () => {
    const [a, b] = [await connect(replicas.urls[0]), await connect(replicas.urls[1])];
    const { stored } = JSON.parse(textOf(await execute(a, BYTES)));
    redis.child.kill('SIGKILL');
    await eventually(() => assert.notEqual(redis.child.exitCode ?? redis.child.signalCode, null));
    const storeError = (e) => e.code === -32000 && new RegExp(`the result store redis://127\\.0\\.0\\.1:${redis.port}/0 is unavailable: `).test(e.message);
    await assert.rejects(execute(a, BYTES), storeError);
    await assert.rejects(view(b, stored.handle, 'info'), storeError);
    // A result small enough to return whole needs no store.
    assert.ok(deepEqual(valueOf(await execute(b, 500)), JSON.parse(listing(500))));

    redis = await startRedis(redis.port);
    const again = await eventually(async () => JSON.parse(textOf(await execute(a, BYTES))).stored, 10000);
    assert.deepEqual(decodeCompact(textOf(await view(b, again.handle, '/entries/3'))), expected.entries[3]);
    // The restarted Redis kept nothing (no persistence here): the old handle is unknown, said so.
    const gone = await view(b, stored.handle, 'info');
    assert.equal(gone.isError, true);
    assert.equal(JSON.parse(textOf(gone)).error, 'VIEW_FAILED');
  });
});
