// Native and wasm must give identical bytes and identical errors (code, message, positions),
// including on the JS values JSON cannot carry and on hostile payloads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backends, outcome } from './helpers.mjs';

const { native, wasm } = await backends();

const FOUR_MIB = 4 * 1024 * 1024;

/** name → [call, expected outcome (a payload string, an object, or {code, line?, column?})] */
const cases = {
  'NaN cell': [(a) => a.gcx.encode([{ tool: 't', fields: ['v'], rows: [[NaN]] }]), { code: 'NON_FINITE_NUMBER' }],
  'Infinity in a generic value': [(a) => a.gcx.encodeGeneric('t', { x: [1, Infinity] }), { code: 'NON_FINITE_NUMBER' }],
  '-Infinity as a typed float': [(a) => a.gcx.cellText({ float64: -Infinity }), { code: 'NON_FINITE_NUMBER' }],
  'NaN spelled as text is a float cell': [(a) => a.gcx.cellText({ float64: 'NaN' }), 'NaN'],
  'BigInt u64 max': [(a) => a.gcx.encodeGeneric('t', { n: 2n ** 64n - 1n }), 'GCX1 tool=t fields=n\n18446744073709551615\n'],
  'BigInt i64 min': [(a) => a.gcx.cellText(-(2n ** 63n)), '-9223372036854775808'],
  'BigInt beyond 64 bits': [(a) => a.gcx.encodeGeneric('t', [2n ** 64n]), { code: 'INTEGER_OUT_OF_RANGE' }],
  'BigInt below i64': [(a) => a.gcx.cellText(-(2n ** 63n) - 1n), { code: 'INTEGER_OUT_OF_RANGE' }],
  'undefined members skipped, undefined items null': [
    (a) => a.gcx.encodeGeneric('t', { a: undefined, b: [undefined, 1], c: 'x' }),
    'GCX1 tool=t fields=b,c\n[null,1]\tx\n',
  ],
  // SAME_KEYS refers to the keys written, not to those skipped.
  'a skipped member, then an object with every key': [
    (a) => a.gcx.encodeGeneric('t', [{ a: undefined, b: 1 }, { a: 2, b: 3 }]),
    'GCX1 tool=t fields=a,b rows=2\n\t1\n2\t3\n',
  ],
  'members skipped and not, objects with the same keys': [
    (a) => a.gcx.encodeGeneric('t', [{ a: 1, b: undefined }, { a: 2, b: 3 }, { a: undefined, b: 4 }, { a: 5, b: 6 }]),
    'GCX1 tool=t fields=a,b rows=4\n1\t\n2\t3\n\t4\n5\t6\n',
  ],
  // Key lists are kept per depth: objects alternate between depths, as a graph payload's
  // symbols and their components do.
  'objects with the same keys at several depths': [
    (a) => a.gcx.encodeGeneric('t', [{ b: { c: 1, d: [{ b: 2 }] } }, { b: { c: 3, d: [] } }, { b: { c: { c: 4 }, d: null } }]),
    'GCX1 tool=t fields=b rows=3\n{"c":1,"d":[{"b":2}]}\n{"c":3,"d":[]}\n{"c":{"c":4},"d":null}\n',
  ],
  'undefined cell is empty': [(a) => a.gcx.encode([{ tool: 't', fields: ['a', 'b'], rows: [[undefined, 'x']] }]), 'GCX1 tool=t fields=a,b\n\tx\n'],
  'undefined value': [(a) => a.gcx.encodeGeneric('t', undefined), { code: 'INVALID_ARGUMENT' }],
  'safe integer stays an integer cell': [(a) => a.gcx.cellText(1e6), '1000000'],
  'non-integral number is a float cell': [(a) => a.gcx.cellText(0.1), '0.1'],
  '2^53 is a float cell (not a safe integer)': [(a) => a.gcx.cellText(2 ** 53), '9.007199254740992e+15'],
  '1e21 is a float cell': [(a) => a.gcx.cellText(1e21), '1e+21'],
  '-0 is the integer 0': [(a) => a.gcx.cellText(-0), '0'],
  'numbers in generic values print as Go encoding/json': [
    (a) => a.gcx.encodeGeneric('t', [0.1, 1e21, 2 ** 53, 5e-324, 1e-7, 123456789]),
    'GCX1 tool=t fields=value rows=6\n0.1\n1e+21\n9007199254740992\n5e-324\n1e-7\n123456789\n',
  ],
  'big integers stay exact through JSON text': [
    (a) => a.gcx.encodeGenericJson('t', '{"id":9007199254740993}'),
    'GCX1 tool=t fields=id\n9007199254740993\n',
  ],
  'lone surrogates become U+FFFD (value)': [
    (a) => a.gcx.encodeGeneric('t', { ['k\ud800']: 'v\udfff' }),
    'GCX1 tool=t fields=k\ufffd\nv\ufffd\n',
  ],
  'lone surrogates become U+FFFD (payload)': [
    (a) => a.gcx.decode('GCX1 tool=t fields=a\nx\ud800y\n').sections[0].rows[0].a,
    'x\ufffdy',
  ],
  'lone surrogates become U+FFFD (nested JSON cell)': [
    (a) => a.gcx.encodeGeneric('t', { a: ['\udc00'] }),
    'GCX1 tool=t fields=a\n["\ufffd"]\n',
  ],
  'HTML and U+2028 escaping in JSON cells': [
    (a) => a.gcx.encodeGeneric('t', { a: { h: '<b>&', s: '\u2028' } }),
    'GCX1 tool=t fields=a\n{"h":"\\\\u003cb\\\\u003e\\\\u0026","s":"\\\\u2028"}\n',
  ],
  'keys sort by UTF-8 bytes, not UTF-16': [
    (a) => a.gcx.encodeGeneric('t', { '😀': 1, '\uff5a': 2 }),
    'GCX1 tool=t fields=\uff5a,😀\n2\t1\n',
  ],
  'line of 4 MiB − 1 bytes is accepted': [
    (a) => a.gcx.decode(`GCX1 tool=t fields=v\n${'a'.repeat(FOUR_MIB - 1)}\n`).sections[0].rows[0].v.length,
    FOUR_MIB - 1,
  ],
  'line of 4 MiB is refused': [
    (a) => a.gcx.decode(`GCX1 tool=t fields=v\n${'a'.repeat(FOUR_MIB)}\n`),
    { code: 'GCX_LINE_TOO_LONG', line: 2, column: 1, offset: 21 },
  ],
  'line limit counts bytes, not characters': [
    (a) => a.gcx.decode(`GCX1 tool=t fields=v\n${'é'.repeat(FOUR_MIB / 2)}\n`),
    { code: 'GCX_LINE_TOO_LONG', line: 2 },
  ],
  'configurable line limit': [
    (a) => a.gcx.decode('GCX1 tool=t fields=v\n12345\n', { maxLineBytes: 5 }),
    { code: 'GCX_LINE_TOO_LONG', line: 1 },
  ],
  'error columns count characters and UTF-16 units': [
    (a) => a.gcx.decode('GCX1 tool=t fields=a\n😀é\tx\n'),
    { code: 'GCX_TOO_MANY_VALUES', line: 2, column: 4, columnUtf16: 5, offset: 28 },
  ],
  'bad prefix quotes like Go': [
    (a) => a.gcx.decode('\ufeffGCX1 tool=x fields=a\n'),
    { code: 'GCX_BAD_PREFIX', message: 'wire: expected header prefix "GCX1", got "\\ufeffGCX1 tool" at line 1 column 1' },
  ],
  'empty payload': [(a) => a.gcx.decode(''), { code: 'GCX_EMPTY_INPUT' }],
  'invalid UTF-8 bytes': [
    (a) => a.gcx.decode(new Uint8Array([...new TextEncoder().encode('GCX1 tool=t fields=a\nok'), 0xff, 0x0a])),
    { code: 'INVALID_UTF8', line: 2, column: 3, offset: 23 },
  ],
  'malformed JSON text': [(a) => a.gcx.encodeGenericJson('t', '{"a":\n tru}'), { code: 'JSON_SYNTAX', line: 2, column: 5 }],
  'nesting beyond the core limit': [(a) => a.gcx.encodeGeneric('t', nest(600)), { code: 'JSON_DEPTH' }],
  'nesting beyond the JS limit': [(a) => a.gcx.encodeGeneric('t', nest(5000)), { code: 'JSON_DEPTH' }],
  'cyclic value': [
    (a) => {
      const o = { a: 1 };
      o.self = o;
      return a.gcx.encodeGeneric('t', o);
    },
    { code: 'JSON_DEPTH' },
  ],
  'tool must be a string': [(a) => a.gcx.encodeGeneric(5, {}), { code: 'INVALID_ARGUMENT' }],
  'payload must be text or bytes': [(a) => a.gcx.decode(42), { code: 'INVALID_ARGUMENT' }],
  'unknown option': [(a) => a.gcx.encode([], { lossles: true }), { code: 'INVALID_ARGUMENT' }],
  'bad section shape': [(a) => a.gcx.encode([{ tool: 't', fields: 'a' }]), { code: 'INVALID_ARGUMENT' }],
  'lossless refuses a space in a meta value': [
    (a) => a.gcx.encode([{ tool: 't', fields: ['a'], meta: { m: 'two words' } }], { lossless: true }),
    { code: 'GCX_NOT_LOSSLESS' },
  ],
  'lossless protects a # first cell': [
    (a) => a.gcx.encode([{ tool: 't', fields: ['a'], rows: [['#x']] }], { lossless: true }),
    'GCX1 tool=t fields=a\n\\#x\n',
  ],
  'excess values are a sticky encoder error': [
    (a) => {
      const enc = new a.gcx.Encoder();
      enc.beginSection({ tool: 't', fields: ['a'] });
      const first = outcome(a, () => enc.writeRow(['1', '2'])).error.code;
      const later = outcome(a, () => enc.writeComment('x')).error.code;
      return [first, later, enc.take()];
    },
    ['GCX_TOO_MANY_VALUES', 'GCX_TOO_MANY_VALUES', 'GCX1 tool=t fields=a\n'],
  ],
  'decoder: row errors are not sticky': [
    (a) => {
      const dec = new a.gcx.Decoder();
      dec.push(new TextEncoder().encode('GCX1 tool=t fields=a\n1\t2\n3\n'));
      dec.finish();
      return [dec.next().type, outcome(a, () => dec.next()).error.code, dec.next().row.a, dec.next()];
    },
    ['section', 'GCX_TOO_MANY_VALUES', '3', null],
  ],
  'decoder: chunks split inside a UTF-8 character': [
    (a) => {
      const bytes = new TextEncoder().encode('GCX1 tool=t fields=a\n😀\n');
      const dec = new a.gcx.Decoder();
      for (const b of bytes) dec.push(Uint8Array.of(b));
      dec.finish();
      return [...dec].map((i) => i.row?.a ?? i.tool);
    },
    ['t', '😀'],
  ],
};

function nest(depth) {
  let v = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

for (const [name, [call, expected]] of Object.entries(cases)) {
  test(name, () => {
    const fromNative = outcome(native, call);
    const fromWasm = outcome(wasm, call);
    assert.deepEqual(fromWasm, fromNative, 'native and wasm differ');
    if (expected !== null && typeof expected === 'object' && !Array.isArray(expected) && 'code' in expected) {
      assert.ok(fromNative.error, `expected error ${expected.code}, got ${JSON.stringify(fromNative.ok)?.slice(0, 200)}`);
      assert.equal(fromNative.error.name, 'AgentwireError');
      for (const [key, value] of Object.entries(expected)) assert.equal(fromNative.error[key], value, key);
    } else {
      assert.ok(!fromNative.error, `unexpected error ${JSON.stringify(fromNative.error)}`);
      assert.deepEqual(fromNative.ok, expected);
    }
  });
}

// The argument tape (lib/transfer.js: key lists per depth, members skipped as undefined)
// against JSON text (no tape for the value): random rows of one key list with members
// undefined or not, values nested in arrays and objects of few keys, so that objects with the
// same keys meet at one depth and at several (the tape of before this test read about half of
// these rounds wrong); then a graph payload, whose symbols and components alternate.
test('values through the argument tape equal the same values through JSON text', () => {
  let seed = 7;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor(seed / 65536) % n;
  };
  const object = (keys, depth) => {
    const o = {};
    for (const key of keys) o[key] = rand(4) === 0 ? undefined : random(depth + 1);
    return o;
  };
  const random = (depth) => {
    const pick = depth > 3 ? 2 : rand(4);
    if (pick === 0) {
      const keys = ['k', 'j', 'i'].slice(0, 1 + rand(3));
      return Array.from({ length: rand(4) }, () => (rand(3) === 0 ? random(depth + 1) : object(keys, depth + 1)));
    }
    if (pick === 1) return object(['k', 'j', 'i'].slice(0, 1 + rand(3)), depth);
    return rand(10);
  };
  for (let round = 0; round < 500; round++) {
    const keys = ['a', 'b', 'c'].slice(0, 1 + rand(3));
    // Some long runs of one key list.
    const rows = Array.from({ length: 1 + rand(rand(2) === 0 ? 4 : 20) }, () => object(keys, 1));
    const viaJson = JSON.stringify(rows);
    for (const api of [native, wasm]) {
      assert.equal(api.gcx.encodeGeneric('t', rows), api.gcx.encodeGenericJson('t', viaJson), viaJson);
    }
  }
  // GCB1 carries every field of the payload (signatures, components).
  const symbols = Array.from({ length: 40 }, (_, i) => ({
    qualifiedName: `pkg.S${i}`,
    kind: ['function', 'type', 'method'][i % 3],
    score: (i % 7) / 7,
    provenance: 'lsp_resolved',
    distance: i % 3,
    signature: i % 4 === 0 ? undefined : `func S${i}()`,
    components: { blastRadius: i / 40, confidence: 1, recency: i % 2 === 0 ? undefined : 0.5, distance: i % 3 },
  }));
  const edges = symbols.slice(1).map((s, i) => ({ source: s.qualifiedName, target: symbols[i].qualifiedName, edgeType: 'calls', status: i % 5 === 0 ? undefined : '' }));
  const payload = { tool: 't', tokenBudget: 100, tokensUsed: 50, symbols, edges };
  for (const api of [native, wasm]) {
    assert.deepEqual(api.gcb.encode(payload), api.gcb.encodeJson(JSON.stringify(payload)));
  }
});

// Many objects with one key list (SAME_KEYS): members are read one at a time, in key order,
// each after the previous one was written, as JSON.stringify reads them.
test('long runs of one key list: getters, toJSON, odd keys, as JSON.stringify reads them', () => {
  const rows = () => {
    const list = Array.from({ length: 12 }, (_, i) => JSON.parse(`{"__proto__":${i},"a \\"q\\"":"x${i}","é":${i / 3},"c":[${i}]}`));
    // A getter that removes a later member: JSON.stringify then skips it.
    Object.defineProperty(list[9], 'a "q"', { enumerable: true, get() { delete this.c; return 'g'; } });
    // A toJSON that changes a later member before it is read.
    list[10]['é'] = { toJSON: () => { list[10].c = 'changed'; return 1; } };
    list[11]['a "q"'] = undefined;
    return list;
  };
  const expected = JSON.stringify(rows());
  for (const api of [native, wasm]) {
    assert.equal(api.gcf.encodeGeneric(rows()), api.gcf.encodeGenericJson(expected), expected);
  }
});

test('codes raised by the JS layer are core codes', () => {
  const codes = native.errorCodes();
  assert.deepEqual(wasm.errorCodes(), codes);
  for (const code of ['INVALID_ARGUMENT', 'NON_FINITE_NUMBER', 'INTEGER_OUT_OF_RANGE', 'JSON_DEPTH', 'INTERNAL']) {
    assert.ok(codes.includes(code), code);
  }
});

// A wasm module takes its strings as UTF-8 written by TextEncoder.encodeInto into its memory
// (lib/boundary.js putArgs): a string longer than 64 Ki units that is not ASCII takes a second
// pass, lone surrogates become U+FFFD as before, and the argument buffers are reused across
// calls of every size.
test('wasm arguments in memory: long non-ASCII strings, lone surrogates, reused buffers', () => {
  const long = 'é€😀a'.repeat(40_000); // 200k units, 1-4 bytes each, longer than one pass
  const values = [
    { s: long, t: 'ascii' },
    { s: 'lone \ud800 high', t: 'lone \udc00 low' },
    { s: 'x'.repeat(70_000) + 'ü', t: '' },
    { s: 'short', t: 'ok' },
  ];
  for (const value of values) {
    const fromNative = native.gcf.encodeGeneric(value, { version: '3.5.3' });
    assert.equal(wasm.gcf.encodeGeneric(value, { version: '3.5.3' }), fromNative);
    assert.deepEqual(wasm.gcf.decodeGeneric(fromNative), native.gcf.decodeGeneric(fromNative));
    const payload = native.gcx.encodeGeneric('t', [value]);
    assert.equal(wasm.gcx.encodeGeneric('t', [value]), payload);
    assert.deepEqual(wasm.gcx.decode(payload), native.gcx.decode(payload));
  }
  // The main input as bytes, after a long string grew the buffers.
  const bytes = native.gcb.encode({ tool: 't', symbols: [], edges: [] });
  assert.deepEqual(wasm.gcb.decode(bytes), native.gcb.decode(bytes));
});

test('wasm argument buffers that do not hold what the lengths say are INVALID_ARGUMENT', async () => {
  const glue = await import('../wasm/agentwire_core.js');
  // Export 1 is `version`; the main input's length past the buffers.
  const tooLong = glue.call(1, 0, 1, 1 << 30, 0, 0, 0);
  assert.ok(tooLong instanceof Error);
  assert.equal(tooLong.code, 'INVALID_ARGUMENT');
  // Still working afterwards.
  assert.equal(wasm.coreVersion(), native.coreVersion());
});
