// GCF v1.1, GCB1 and the codec registry through the npm API, native and wasm side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backends, outcome } from './helpers.mjs';

const { native, wasm } = await backends();

/** Runs `fn` on both builds, asserts identical outcomes (bytes compared as arrays). */
function both(fn) {
  const normalize = (o) => (o.ok instanceof Uint8Array ? { bytes: [...o.ok] } : o);
  const fromNative = normalize(outcome(native, fn));
  assert.deepEqual(normalize(outcome(wasm, fn)), fromNative, 'native and wasm differ');
  return fromNative;
}

const payload = {
  tool: 'context_for_task',
  tokenBudget: 5000,
  tokensUsed: 1847,
  symbols: [
    { qualifiedName: 'pkg.Auth', kind: 'function', score: 0.78, provenance: 'lsp_resolved', distance: 0, signature: 'func Auth()', components: { blastRadius: 0.4, confidence: 0.25, recency: 0.06, distance: 0.15 } },
    { qualifiedName: 'pkg.Server', kind: 'service', score: 0.54, provenance: 'ast_inferred', distance: 1 },
  ],
  edges: [{ source: 'pkg.Server', target: 'pkg.Auth', edgeType: 'calls', status: 'added' }],
};

test('gcf encode/decode', () => {
  const text = both((api) => api.gcf.encode(payload)).ok;
  assert.equal(
    text,
    'GCF tool=context_for_task budget=5000 tokens=1847 symbols=2\n## targets\n@0 fn pkg.Auth 0.78 lsp_resolved\n## related\n@1 svc pkg.Server 0.54 ast_inferred\n## edges\n@0<@1 calls added\n',
  );
  const decoded = both((api) => api.gcf.decode(text)).ok;
  assert.equal(decoded.symbols[1].kind, 'service');
  assert.equal(decoded.edges[0].status, 'added');
  assert.equal(both((api) => api.gcf.encodeJson(JSON.stringify(payload))).ok, text);
  assert.deepEqual(JSON.parse(both((api) => api.gcf.decodeToJson(text)).ok), decoded);
});

test('gcf session and delta', () => {
  const calls = both((api) => {
    const session = api.gcf.createSession();
    const out = [session.encode(payload), session.encode(payload), session.size()];
    session.reset();
    out.push(session.size());
    return out;
  }).ok;
  assert.match(calls[1], /^GCF tool=context_for_task budget=5000 tokens=1847 symbols=2 session=true\n## targets\n@0 {2}# previously transmitted\n/);
  assert.deepEqual(calls.slice(2), [2, 0]);
  const delta = { tool: 't', baseRoot: 'a', newRoot: 'b', added: payload.symbols.slice(0, 1), deltaTokens: 5, fullTokens: 8 };
  assert.equal(
    both((api) => api.gcf.encodeDelta(delta)).ok,
    'GCF tool=t delta=true base_root=a new_root=b tokens=5 savings=38%\n## added\n@0 fn pkg.Auth 0.78 lsp_resolved\n',
  );
});

test('gcf decode errors carry code and line', () => {
  const e = both((api) => api.gcf.decode('GCF tool=t\n## targets\n@0 fn pkg.A high lsp\n')).error;
  assert.deepEqual([e.code, e.line, e.column, e.format], ['GCF_INVALID_SCORE', 3, 13, 'gcf']);
  assert.equal(both((api) => api.gcf.encode({ ...payload, symbols: [{ ...payload.symbols[0], distance: -1 }] })).error.code, 'GCF_NEGATIVE_DISTANCE');
  assert.equal(both((api) => api.gcf.encode({ tool: 't', symbols: 'none' })).error.code, 'INVALID_ARGUMENT');
});

test('gcb encode/decode as bytes', () => {
  const bytes = native.gcb.encode(payload);
  assert.ok(bytes instanceof Uint8Array);
  assert.deepEqual(both((api) => api.gcb.encode(payload)).bytes, [...bytes]);
  const decoded = both((api) => api.gcb.decode(bytes)).ok;
  assert.equal(decoded.symbols[0].score, Math.fround(0.78));
  assert.equal(decoded.packRoot, '');
  assert.deepEqual(both((api) => api.gcb.decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))).ok, decoded);
  assert.deepEqual(both((api) => api.gcb.encodeJson(JSON.stringify(payload))).bytes, [...bytes]);
});

test('gcb rejects hostile input with codes and offsets, without allocating', () => {
  // 2^40 symbols declared in 14 bytes.
  const huge = Uint8Array.from([0x47, 0x43, 0x42, 0x31, 1, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0]);
  const e = both((api) => api.gcb.decode(huge)).error;
  assert.deepEqual([e.code, e.offset, e.line], ['GCB_TRUNCATED', 8, null]);
  assert.equal(both((api) => api.gcb.decode(Uint8Array.from([0x47, 0x43, 0x42, 0x32, 1]))).error.code, 'GCB_BAD_MAGIC');
  assert.equal(both((api) => api.gcb.decode(new Uint8Array())).error.code, 'GCB_TRUNCATED');
  assert.equal(both((api) => api.gcb.decode('GCB1')).error.code, 'INVALID_ARGUMENT');
});

test('codec registry: list, encode and decode by name', () => {
  const names = both((api) => api.codecs.list().map((c) => c.name)).ok;
  assert.deepEqual(names, ['gcf', 'gcb', 'json']);
  const text = both((api) => api.codecs.encode('gcf', payload)).ok;
  assert.equal(typeof text, 'string');
  assert.equal(both((api) => api.codecs.decode('gcf', text).symbols.length).ok, 2);
  const binary = both((api) => api.codecs.encode('binary', payload)).bytes;
  assert.equal(both((api) => api.codecs.decode('gcb', Uint8Array.from(binary)).tool).ok, 'context_for_task');
  const json = both((api) => api.codecs.encode('json', payload)).ok;
  assert.equal(JSON.parse(json).symbols[0].qualifiedName, 'pkg.Auth');
  assert.equal(both((api) => api.codecs.encode('xml', payload)).error.code, 'INVALID_ARGUMENT');
});
