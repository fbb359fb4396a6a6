// Bad input from the client side, on stdio and over HTTP: each message gets its JSON-RPC error
// (-32700 / -32600 / -32601 / -32602, or 413 past --max-body), stdout carries nothing but
// protocol, and the gateway keeps serving. Real agentwire-mcp processes in front of the SDK
// upstream of the test folder.

import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, eventually, jsonServer, listeningGateway, post, rawSession, stopAll } from './helpers.mjs';
import { decodeCompact } from '../src/index.js';

after(stopAll);

const MB = 1024 * 1024;
const call = (id, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'size', arguments: args } });
const line = (m) => JSON.stringify(m);
const deep = (id, depth) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;

/**
 * Each case: what is sent (text, or bytes), the id to find the answer by, and the error code it
 * must get (null: a result).
 */
const CASES = [
  { what: 'invalid JSON', raw: '{"jsonrpc":"2.0","id":1,"method":', id: null, code: -32700 },
  { what: 'invalid UTF-8', raw: Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]), id: null, code: -32700 },
  { what: 'a batch', raw: `[${line({ jsonrpc: '2.0', id: 3, method: 'ping' })}]`, id: null, code: -32600 },
  { what: 'not JSON-RPC', raw: '{"hello":"world"}', id: null, code: -32600 },
  { what: 'an unknown method', raw: line({ jsonrpc: '2.0', id: 4, method: 'no/such/method' }), id: 4, code: -32601 },
  { what: 'an id of 1e400', raw: '{"jsonrpc":"2.0","id":1e400,"method":"ping"}', id: null, code: -32600 },
  { what: 'an argument of 12345678901234567890', raw: '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"n":12345678901234567890}}}', id: 5, code: -32602 },
  { what: 'an argument of -1e999', raw: '{"jsonrpc":"2.0","id":"five","method":"tools/call","params":{"name":"echo","arguments":{"n":-1e999}}}', id: 'five', code: -32602 },
  { what: 'nesting 100000 deep', raw: deep(6, 100_000), id: 6, code: -32600 },
  { what: 'tools/call of an unknown tool', raw: line({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }), id: 7, code: -32602 },
  { what: 'string id "8"', raw: line({ jsonrpc: '2.0', id: '8', method: 'ping' }), id: '8', code: null },
  { what: 'number id 8', raw: line({ jsonrpc: '2.0', id: 8, method: 'ping' }), id: 8, code: null },
  { what: '1 MB of arguments', raw: line(call(9, { data: 'x'.repeat(MB) })), id: 9, code: null, result: { bytes: MB } },
];

describe('stdio', () => {
  test('every bad message gets its JSON-RPC error; 10 MB gets -32600 with its id; stdout is only protocol; the gateway keeps serving', async (t) => {
    const spec = jsonServer();
    const child = spawn(process.execPath, [BIN, '--', spec.command, ...spec.args], { stdio: ['pipe', 'pipe', 'pipe'] });
    // A failing assertion must not leave the gateway running (the test file would never end).
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const messages = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const send = (raw) => child.stdin.write(Buffer.concat([Buffer.isBuffer(raw) ? raw : Buffer.from(raw), Buffer.from('\n')]));
    const reply = (id, index) =>
      eventually(() => {
        const found = messages().filter((m) => m.id === id && !('method' in m));
        assert.ok(found.length > (index ?? 0), `a reply to ${JSON.stringify(id)}`);
        return found[index ?? 0];
      }, 20000);
    send(line({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    await reply(0);
    send(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    let nullReplies = 0;
    for (const c of CASES) {
      send(c.raw);
      const r = await reply(c.id, c.id === null ? nullReplies++ : 0);
      if (c.code === null) {
        assert.equal(r.error, undefined, `${c.what}: ${JSON.stringify(r.error)}`);
        if (c.result) assert.deepEqual(decodeCompact(r.result.content[0].text), c.result, c.what);
      } else {
        assert.equal(r.error?.code, c.code, `${c.what}: ${JSON.stringify(r)}`);
      }
    }
    // 10 MB: over --max-body (4m); the message is skipped, its id found at its start.
    send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"size","arguments":{"data":"${'x'.repeat(10 * MB)}"}}}`);
    const big = await reply(10);
    assert.equal(big.error.code, -32600);
    assert.match(big.error.message, /over the 4194304-byte limit \(--max-body\)/);
    send(line(call(11, { data: 'still serving' })));
    assert.deepEqual(decodeCompact((await reply(11)).result.content[0].text), { bytes: 13 });
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
    for (const m of messages()) assert.equal(m.jsonrpc, '2.0');
    assert.ok(out.endsWith('\n'));
  });
});

describe('HTTP', () => {
  test('every bad message gets its status and JSON-RPC error; 10 MB gets 413; the gateway keeps serving', async () => {
    const spec = jsonServer();
    const { url } = await listeningGateway(['--', spec.command, ...spec.args]);
    const session = await rawSession(url);
    for (const c of CASES) {
      const r = await post(url, undefined, { session, raw: c.raw });
      const body = Array.isArray(r.body) ? r.body.find((m) => m.id === c.id) : r.body;
      if (c.code === null) {
        assert.equal(r.status, 200, c.what);
        assert.equal(body.error, undefined, `${c.what}: ${JSON.stringify(body)}`);
        if (c.result) assert.deepEqual(decodeCompact(body.result.content[0].text), c.result, c.what);
      } else {
        // Unreadable messages: 400 with id null; a request's own error: 200 with its id.
        assert.equal(r.status, c.id === null ? 400 : 200, `${c.what}: HTTP ${r.status}`);
        assert.equal(body.error?.code, c.code, `${c.what}: ${JSON.stringify(body)}`);
        assert.equal(body.id, c.id, c.what);
      }
    }
    const big = await post(url, undefined, { session, raw: line(call(10, { data: 'x'.repeat(10 * MB) })) });
    assert.equal(big.status, 413);
    assert.match(big.body.error.message, /over 4194304 bytes \(--max-body\)/);
    const after = await post(url, call(11, { data: 'still serving' }), { session });
    assert.deepEqual(decodeCompact(after.body.find((m) => m.id === 11).result.content[0].text), { bytes: 13 });
  });

  // 6 MB, not 10: the SDK's own stdio server transport (the upstream's) reads at most 10 MB a line.
  test('--max-body is an option: 6 MB passes with --max-body 8m, 10 MB still gets 413', async () => {
    const spec = jsonServer();
    const { url } = await listeningGateway(['--max-body', '8m', '--', spec.command, ...spec.args]);
    const session = await rawSession(url);
    const r = await post(url, call(1, { data: 'x'.repeat(6 * MB) }), { session });
    assert.equal(r.status, 200);
    assert.deepEqual(decodeCompact(r.body.find((m) => m.id === 1).result.content[0].text), { bytes: 6 * MB });
    const big = await post(url, call(2, { data: 'x'.repeat(10 * MB) }), { session });
    assert.equal(big.status, 413);
    assert.match(big.body.error.message, /over 8388608 bytes \(--max-body\)/);
  });
});
