// No one in who doesn't belong (--listen): Origin and Host checks, bearer tokens, tokens never
// forwarded upstream, sessions bound to their token, /health. Real agentwire-mcp processes,
// real SDK clients, the SDK upstream of the test folder (stdio and HTTP).

import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, config, eventually, httpClient, jsonServer, JSON_SERVER, listeningGateway, post, rawSession, request, startProcess, stopAll, tmp } from './helpers.mjs';
import { decodeCompact } from '../src/index.js';

after(stopAll);

const TOKEN_A = 'token-a-0123456789abcdef';
const TOKEN_B = 'token-b-0123456789abcdef';
const bearer = (t) => ({ authorization: `Bearer ${t}` });
const upstream = () => {
  const s = jsonServer();
  return ['--', s.command, ...s.args];
};
const tokenFile = (...tokens) => {
  const file = join(tmp('auth'), 'tokens');
  writeFileSync(file, `# agentwire-mcp tokens\n${tokens.join('\n')}\n`);
  return file;
};
const initialize = ({ url, headers }) => post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, { headers });
const textOf = (r) => r.content[0].text;

describe('Origin and Host', () => {
  test('no Origin and loopback origins pass; others get 403, --allow-origin adds one', async () => {
    const { url } = await listeningGateway(['--allow-origin', 'https://app.example.com', ...upstream()]);
    const port = new URL(url).port;
    for (const origin of [undefined, `http://localhost:${port}`, `http://127.0.0.1:${port}`, 'http://[::1]', 'https://app.example.com']) {
      const r = await initialize({ url, headers: origin ? { origin } : {} });
      assert.equal(r.status, 200, `Origin ${origin}`);
    }
    for (const origin of ['https://evil.example.com', 'null', 'http://localhost.evil.example.com', 'https://app.example.com.evil.example']) {
      const r = await initialize({ url, headers: { origin } });
      assert.equal(r.status, 403, `Origin ${origin}`);
      assert.equal(r.body.error.code, -32000);
      assert.match(r.body.error.message, /Origin .* is not allowed \(--allow-origin\)/);
    }
  });

  test('a Host that is not loopback gets 403 on a loopback address (DNS rebinding)', async () => {
    const { url } = await listeningGateway([...upstream()]);
    const r = await initialize({ url, headers: { host: 'evil.example.com' } });
    assert.equal(r.status, 403);
    assert.match(r.body.error.message, /Host "evil\.example\.com" is not allowed/);
  });
});

describe('bearer tokens', () => {
  test('--auth-token-file: missing or wrong token 401 with WWW-Authenticate; the right one works', async () => {
    const { url } = await listeningGateway(['--auth-token-file', tokenFile(TOKEN_A, TOKEN_B), ...upstream()]);
    const missing = await initialize({ url, headers: {} });
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="agentwire-mcp"');
    assert.match(missing.body.error.message, /a valid bearer token is required/);
    for (const wrong of ['Bearer nope', `Bearer ${TOKEN_A}x`, `Basic ${TOKEN_A}`, TOKEN_A]) {
      const r = await initialize({ url, headers: { authorization: wrong } });
      assert.equal(r.status, 401, wrong);
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="agentwire-mcp", error="invalid_token"');
    }
    for (const token of [TOKEN_A, TOKEN_B]) {
      const c = await httpClient(url, { headers: bearer(token) });
      assert.deepEqual(decodeCompact(textOf(await c.callTool({ name: 'echo', arguments: { t: 1 } }))), { t: 1 });
      await c.close();
    }
    await assert.rejects(httpClient(url), (e) => e.code === 401 && /Unauthorized/.test(e.message));
  });

  test('AGENTWIRE_MCP_TOKEN works too, and never reaches a stdio upstream', async () => {
    const { url } = await listeningGateway([...upstream()], { env: { AGENTWIRE_MCP_TOKEN: TOKEN_A } });
    assert.equal((await initialize({ url, headers: {} })).status, 401);
    const c = await httpClient(url, { headers: bearer(TOKEN_A) });
    assert.deepEqual(decodeCompact(textOf(await c.callTool({ name: 'env', arguments: { name: 'AGENTWIRE_MCP_TOKEN' } }))), { AGENTWIRE_MCP_TOKEN: null });
    assert.equal(typeof decodeCompact(textOf(await c.callTool({ name: 'env', arguments: { name: 'PATH' } }))).PATH, 'string', 'the rest of the environment does');
    await c.close();
  });

  test("the client's token is never forwarded to an HTTP upstream; the upstream's own headers are", async () => {
    const log = join(tmp('upstream'), 'events.jsonl');
    const { match: upstreamUrl } = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/, { env: { UPSTREAM_LOG: log } });
    const file = config({ web: { url: upstreamUrl, headers: { Authorization: 'Bearer upstream-secret' } } });
    const { url } = await listeningGateway(['--auth-token-file', tokenFile(TOKEN_A), '--config', file]);
    const c = await httpClient(url, { headers: bearer(TOKEN_A) });
    const seen = decodeCompact(textOf(await c.callTool({ name: 'headers', arguments: {} })));
    assert.equal(seen.authorization, 'Bearer upstream-secret');
    await c.close();
    const events = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.ok(events.length >= 3, 'the upstream logged the requests it got');
    assert.deepEqual([...new Set(events.map((e) => e.authorization))], ['Bearer upstream-secret']);
    assert.ok(!readFileSync(log, 'utf8').includes(TOKEN_A));
  });

  test('a session id is unusable with another token (404, as if it did not exist)', async () => {
    const { url } = await listeningGateway(['--auth-token-file', tokenFile(TOKEN_A, TOKEN_B), ...upstream()]);
    const session = await rawSession(url, { headers: bearer(TOKEN_A) });
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    assert.equal((await post(url, list, { session, headers: bearer(TOKEN_B) })).status, 404);
    assert.equal((await post(url, list, { session, headers: {} })).status, 401);
    const ok = await post(url, list, { session, headers: bearer(TOKEN_A) });
    assert.equal(ok.status, 200);
    assert.ok(ok.body[0].result.tools.length > 0);
  });

  test('SIGHUP re-reads the token file', async () => {
    const file = tokenFile(TOKEN_A);
    const { url, child } = await listeningGateway(['--auth-token-file', file, ...upstream()]);
    assert.equal((await initialize({ url, headers: bearer(TOKEN_A) })).status, 200);
    writeFileSync(file, `${TOKEN_B}\n`);
    child.kill('SIGHUP');
    await eventually(async () => assert.equal((await initialize({ url, headers: bearer(TOKEN_B) })).status, 200));
    assert.equal((await initialize({ url, headers: bearer(TOKEN_A) })).status, 401);
  });
});

describe('--listen beyond loopback', () => {
  test('without a token: refused at start, saying why', () => {
    const r = spawnSync(process.execPath, [BIN, '--listen', '0.0.0.0:0', ...upstream()], { encoding: 'utf8', env: { ...process.env, AGENTWIRE_MCP_TOKEN: '' } });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /refusing to listen on 0\.0\.0\.0:0 without a token: anyone who can reach that address could call every upstream tool\. Give --auth-token-file FILE or AGENTWIRE_MCP_TOKEN, or listen on 127\.0\.0\.1\./);
    assert.equal(r.stdout, '');
  });

  test('with a token: serves, and /health answers without auth and reveals nothing', async () => {
    const { match, child } = await startProcess(process.execPath, [BIN, '--listen', '0.0.0.0:0', '--auth-token-file', tokenFile(TOKEN_A), ...upstream()], /listening on (http:\/\/\S+\/mcp)/);
    assert.ok(child.pid);
    const url = match.replace('0.0.0.0', '127.0.0.1');
    assert.equal((await initialize({ url, headers: {} })).status, 401);
    const c = await httpClient(url, { headers: bearer(TOKEN_A) });
    await c.listTools();
    const base = url.replace(/\/mcp$/, '');
    for (const headers of [{}, { host: 'evil.example.com' }, { authorization: 'Bearer wrong' }]) {
      const health = await request(`${base}/health`, { headers });
      assert.equal(health.status, 200);
      assert.equal(health.text, '{"status":"ok"}');
    }
    assert.equal((await request(`${base}/health`, { method: 'POST' })).status, 405);
    assert.equal((await request(`${base}/other`, { headers: bearer(TOKEN_A) })).status, 404);
    await c.close();
  });
});
