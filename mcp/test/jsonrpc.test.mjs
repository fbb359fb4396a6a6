// What the gateway checks in client messages (jsonrpc.js) and the bounded line framing
// (lines.js): pure functions, no transport.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeClientMessage, decodeClientText, MAX_DEPTH, oversizeRequestId, scanJson } from '../src/jsonrpc.js';
import { LineReader } from '../src/lines.js';

const req = (extra) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} }, ...extra });
const errorOf = (text) => {
  const d = decodeClientText(text);
  assert.equal(d.ok, false, text.slice(0, 80));
  return d.response;
};

test('parse errors, batches, bad ids: -32700 / -32600 with id null', () => {
  assert.equal(errorOf('{"jsonrpc": "2.0",').error.code, -32700);
  assert.equal(decodeClientMessage(Buffer.from([0x7b, 0xff, 0x7d])).response.error.code, -32700);
  assert.match(decodeClientMessage(Buffer.from([0x7b, 0xff, 0x7d])).response.error.message, /not valid UTF-8/);
  const batch = errorOf(`[${req()}]`);
  assert.deepEqual([batch.id, batch.error.code], [null, -32600]);
  assert.match(batch.error.message, /batches are not supported/);
  assert.equal(errorOf('"ping"').error.code, -32600);
  for (const id of ['1.5', '1e400', '{"a":1}', 'true', '12345678901234567890']) {
    const r = errorOf(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
    assert.deepEqual([r.id, r.error.code], [null, -32600], id);
  }
  assert.match(errorOf('{"jsonrpc":"2.0","id":1e400,"method":"ping"}').error.message, /got 1e400/);
  const noVersion = errorOf('{"id":3,"method":"ping"}');
  assert.deepEqual([noVersion.id, noVersion.error.code], [3, -32600]);
});

test('ids keep their type; numbers a double would change are -32602 on requests', () => {
  assert.equal(decodeClientText('{"jsonrpc":"2.0","id":"7","method":"ping"}').message.id, '7');
  assert.equal(decodeClientText('{"jsonrpc":"2.0","id":7,"method":"ping"}').message.id, 7);
  for (const n of ['12345678901234567890', '1e400', '-1e400', '1e-400', '9007199254740993']) {
    const r = errorOf(req().replace('"arguments":{}', `"arguments":{"n":${n}}`));
    assert.deepEqual([r.id, r.error.code], [1, -32602], n);
    assert.match(r.error.message, /cannot be forwarded exactly/);
  }
  for (const n of ['9007199254740992', '0.1', '3.141592653589793238', '1e300', '-0']) {
    assert.equal(decodeClientText(req().replace('"arguments":{}', `"arguments":{"n":${n}}`)).ok, true, n);
  }
  // Inside strings, digits are text.
  assert.equal(decodeClientText(req().replace('"arguments":{}', '"arguments":{"s":"12345678901234567890 [[["}')).ok, true);
});

test('nesting beyond the limit is refused with the request id', () => {
  const deep = (n) => req().replace('"arguments":{}', `"arguments":{"a":${'['.repeat(n)}${']'.repeat(n)}}`);
  assert.equal(decodeClientText(deep(MAX_DEPTH - 4)).ok, true);
  const r = errorOf(deep(100_000));
  assert.deepEqual([r.id, r.error.code], [1, -32600]);
  assert.equal(scanJson('{"a":"[[[[","b":[[1]]}').depth, 3);
});

test('the id of an oversize request: only where it is safe to answer it', () => {
  const big = `{"method":"tools/call","params":{"arguments":{"data":"${'x'.repeat(5000)}"}},"jsonrpc":"2.0","id":42}`;
  assert.equal(oversizeRequestId(big.slice(0, 1024), big.slice(-1024)), 42);
  assert.equal(oversizeRequestId('{"jsonrpc":"2.0","id":"q-1","method":"tools/call","params":{', '…}}'), 'q-1');
  // A response is never answered (that id is one of the client's own requests).
  assert.equal(oversizeRequestId('{"result":{"content":[', '],"jsonrpc":"2.0","id":4}'), null);
  // An id at the end of nested arguments is not the request's.
  assert.equal(oversizeRequestId('{"method":"tools/call","params":{"arguments":{"x":', '{"id":5}}}}'), null);
});

test('LineReader: lines split across chunks, CRLF, empty lines; oversize lines skipped in bounded memory', () => {
  const lines = [];
  const oversize = [];
  const r = new LineReader({ maxLineBytes: 64, onLine: (l) => lines.push(l.toString()), onOversize: (i) => oversize.push({ ...i, head: i.head.toString(), tail: i.tail.toString() }) });
  r.push(Buffer.from('{"a":'));
  r.push(Buffer.from('1}\r\n\n{"b":2}\n{"c"'));
  assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  assert.equal(r.pending, 4);
  r.push(Buffer.from(':3}\n'));
  assert.deepEqual(lines.at(-1), '{"c":3}');
  for (let i = 0; i < 1000; i++) r.push(Buffer.alloc(1000, 0x61));
  assert.equal(oversize.length, 1, 'reported once when it crosses the limit');
  assert.equal(r.chunks.length, 0, 'nothing of it is kept');
  r.push(Buffer.from('zz\n{"d":4}\n'));
  assert.equal(oversize.length, 2);
  assert.equal(oversize[1].done, true);
  assert.equal(oversize[1].bytes, 1_000_002);
  assert.ok(oversize[1].tail.endsWith('zz'));
  assert.deepEqual(lines.at(-1), '{"d":4}');
  r.push(Buffer.from('{"unfinished'));
  assert.equal(r.discardPending(), 12);
  assert.equal(r.pending, 0);
});
