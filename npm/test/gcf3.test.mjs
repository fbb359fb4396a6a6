// GCF v3 through the native addon and the wasm build: the generic round trip is lossless on
// random JSON (keys that look like numbers, deep nesting, every scalar edge case) in v3.6.0 and
// v3.5.3, both builds write the same bytes, the JavaScript number rules of SPEC §2.3.2 hold, and
// the v3.6.0 forms (constant columns, the grouped encoder) and `decodeAny`'s version report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readOrdered, sameOrdered } from '../scripts/conformance-gcf.mjs';
import { backends } from './helpers.mjs';

const { native, wasm } = await backends();

/** xorshift32, seeded, so a failure names a reproducible case. */
function rng(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

const KEYS = ['id', 'name', 'key', '_key', '0', '1', '10', '2', '01', '-1', '1e5', '', ' ', 'a b', 'a>b', 'a|b', 'a,b', '"q"', '#c', '@id', '.d', '[1]:', '~', '^', '-', 'true', 'é', '😀', 'x\ny'];
const STRINGS = ['', ' ', '-', '~', '^', '^{a,b}', 'true', 'null', '0', '-0', '01', '+1', '.5', '1e5', '1.', '1.٥', '123abc', 'a|b', 'a,b', 'a"b', 'a\\b', '#x', '@x', '.x', ' lead', 'trail ', 'ERR[404]: x', 'line\nbreak', '\u0001', '\u0085', '\u00a0', '\u2028', '\ufeff', 'é', '😀', 'plain text', 'a>b'];
const NUMBERS = ['0', '-1', '42', '9223372036854775807', '-9223372036854775808', '9007199254740993', '0.1', '-2.5', '1e-7', '0.000001', '1e+21', '5e+18', '1.5e300', '-0.0'];

/** Random JSON text (compact), with shared key pools so arrays are tabular and maps keyed. */
function randomJson(next, depth) {
  const pick = (list) => list[next(list.length)];
  const scalar = () => {
    switch (next(4)) {
      case 0: return 'null';
      case 1: return next(2) ? 'true' : 'false';
      case 2: return pick(NUMBERS);
      default: return JSON.stringify(next(4) ? pick(STRINGS) : String.fromCodePoint(32 + next(0x3000)));
    }
  };
  const record = (d) => {
    const keys = [...new Set(Array.from({ length: next(5) }, () => pick(KEYS.slice(0, 8))))];
    return `{${keys.map((k) => `${JSON.stringify(k)}:${next(4) ? scalar() : randomJson(next, d - 1)}`).join(',')}}`;
  };
  if (depth <= 0) return scalar();
  switch (next(6)) {
    case 0: return scalar();
    case 1: return `[${Array.from({ length: next(5) }, () => randomJson(next, depth - 1)).join(',')}]`;
    case 2: return `[${Array.from({ length: 1 + next(4) }, () => record(depth)).join(',')}]`;
    case 3: {
      const keys = [...new Set(Array.from({ length: 1 + next(4) }, () => pick(KEYS)))];
      return `{${keys.map((k) => `${JSON.stringify(k)}:${record(depth)}`).join(',')}}`;
    }
    default: {
      const keys = [...new Set(Array.from({ length: next(6) }, () => pick(KEYS)))];
      return `{${keys.map((k) => `${JSON.stringify(k)}:${randomJson(next, depth - 1)}`).join(',')}}`;
    }
  }
}

for (const [runtime, api] of [['native', native], ['wasm', wasm]]) {
  test(`generic round trip is lossless on random JSON (${runtime})`, () => {
    for (let seed = 1; seed <= 1500; seed += 1) {
      const json = randomJson(rng(seed), 6);
      for (const version of ['3.6.0', '3.5.3']) {
        const text = api.gcf.encodeGenericJson(json, { version, lossless: true });
        const back = api.gcf.decodeGenericToJson(text, { largeInt: 'number' });
        assert.ok(sameOrdered(readOrdered(json), readOrdered(back)), `seed ${seed} ${version}\n${json}\n${text}\n${back}`);
      }
    }
  });

  test(`v3.6.0 by default: constant columns; 3.5.3 on request (${runtime})`, () => {
    const graph = { entities: [{ name: 'Ada', type: 'entity' }, { name: 'Bo', type: 'entity' }] };
    const v3_6 = 'GCF profile=generic\n## entities [2]{name,type=entity}\nAda\nBo\n';
    const v3_5 = 'GCF profile=generic\n## entities [2]{name,type}\nAda|entity\nBo|entity\n';
    assert.equal(api.gcf.encodeGeneric(graph), v3_6);
    assert.equal(api.gcf.encodeGeneric(graph, { version: '3.6.0' }), v3_6);
    assert.equal(api.gcf.encodeGeneric(graph, { version: '3.5.3' }), v3_5);
    assert.equal(api.gcf.encodeGenericJson(JSON.stringify(graph), { version: '3.5.3' }), v3_5);
    assert.deepEqual(api.gcf.decodeGeneric(v3_6), graph);
    // `^{abc` is bare in 3.6.0 and reads back as a string.
    assert.equal(api.gcf.encodeGeneric({ k: '^{abc' }), 'GCF profile=generic\nk=^{abc\n');
    assert.equal(api.gcf.encodeGeneric({ k: '^{abc' }, { version: '3.5.3' }), 'GCF profile=generic\nk="^{abc"\n');
    assert.deepEqual(api.gcf.decodeGeneric('GCF profile=generic\nk=^{abc\n'), { k: '^{abc' });
    // The crate's unreadable corner, and `lossless`.
    const corner = [{ id: 1, f: [{ a: 1, 'x>y': 2 }] }, { id: 2, f: [{ a: 3, 'x>y': 4 }] }];
    assert.throws(() => api.gcf.decodeGeneric(api.gcf.encodeGeneric(corner)), { code: 'GCF_ROW_WIDTH_MISMATCH' });
    assert.deepEqual(api.gcf.decodeGeneric(api.gcf.encodeGeneric(corner, { lossless: true })), corner);
    assert.throws(() => api.gcf.encodeGeneric(graph, { version: '3.7' }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.gcf.encodeGeneric(graph, { lossless: 'yes' }), { code: 'INVALID_ARGUMENT' });
  });

  test(`the grouped encoder (${runtime})`, () => {
    const people = [
      { id: 1, dept: 'eng', site: 'ber' },
      { id: 2, dept: 'ops', site: 'ber' },
      { id: 3, dept: 'eng', site: 'ber' },
    ];
    const text = 'GCF profile=generic\n## [3]{@id,dept,site=ber} group=dept\ndept=eng [2]\n1\n3\ndept=ops [1]\n2\n';
    assert.equal(api.gcf.encodeGenericGrouped(people, { key: 'id', group: 'dept' }), text);
    assert.equal(api.gcf.encodeGenericGroupedJson(JSON.stringify(people), { key: 'id', group: 'dept' }), text);
    assert.deepEqual(api.gcf.decodeGeneric(text), [people[0], people[2], people[1]]);
    assert.deepEqual(api.gcf.decodeAny(text).version, '3.6.0');
    assert.throws(() => api.gcf.encodeGenericGrouped(people, { key: 'id' }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.gcf.encodeGenericGrouped(people, { key: 'id', group: 'id' }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.gcf.encodeGenericGrouped([...people, { id: 1, dept: 'x' }], { key: 'id', group: 'dept' }), {
      code: 'GCF_DUPLICATE_KEY',
    });
    assert.throws(
      () => api.gcf.decodeAny('GCF profile=generic\n## [1]{@id,dept} group=id\nid=1 [1]\na\n'),
      (e) => e.code === 'GCF_INVALID_GROUP_HEADER' && e.line === 2 && e.column === 24,
    );
  });

  test(`deep nesting and numeric-looking keys keep their order (${runtime})`, () => {
    let json = '"leaf"';
    for (let i = 0; i < 100; i += 1) json = i % 2 ? `{"${i}":${json},"0":${i}}` : `[{"id":${i},"v":${json}}]`;
    const back = api.gcf.decodeGenericToJson(api.gcf.encodeGenericJson(json), { largeInt: 'number' });
    assert.ok(sameOrdered(readOrdered(json), readOrdered(back)));
    const text = api.gcf.encodeGenericJson('{"10":1,"2":2,"01":3}');
    assert.equal(text, 'GCF profile=generic\n"10"=1\n"2"=2\n"01"=3\n');
  });

  test(`JavaScript number rules (${runtime})`, () => {
    // A JS number is a double: 1e20 is written as one, never as an int64 literal.
    assert.equal(api.gcf.encodeGeneric({ v: 1e20 }), 'GCF profile=generic\nv=1e+20\n');
    assert.equal(api.gcf.encodeGeneric({ v: 2 ** 53 + 2 }), 'GCF profile=generic\nv=9.007199254740994e+15\n');
    assert.throws(() => api.gcf.encodeGenericJson('{"v":100000000000000000000}'), { code: 'GCF_OUT_OF_RANGE' });
    const big = 'GCF profile=generic\nv=9007199254740993\n';
    assert.throws(() => api.gcf.decodeGeneric(big), { code: 'GCF_OUT_OF_RANGE' });
    assert.deepEqual(api.gcf.decodeGeneric(big, { largeInt: 'string' }), { v: '9007199254740993' });
    assert.equal(api.gcf.decodeGenericToJson(big, { largeInt: 'number' }), '{"v":9007199254740993}');
  });

  test(`decodeAny says which version and profile it read (${runtime})`, () => {
    const v1 = api.gcf.encode({ tool: 't', symbols: [{ qualifiedName: 'p.A', kind: 'function', score: 0.5, provenance: 'lsp' }] });
    assert.deepEqual(
      [api.gcf.decodeAny(v1).version, api.gcf.decodeAny(v1).profile, api.gcf.decodeAny(v1).value.symbols[0].kind],
      ['1.1', 'graph', 'function'],
    );
    const v3 = api.gcf.encodeGraph({ tool: 't', symbols: [{ qualifiedName: 'p.A', kind: 'function', score: 0.5, provenance: 'lsp' }] });
    assert.ok(v3.startsWith('GCF profile=graph tool=t symbols=1\n'), v3);
    assert.deepEqual([api.gcf.decodeAny(v3).version, api.gcf.decodeAny(v3).kind], ['3.5.3', 'graph']);
    assert.equal(api.gcf.encodeGraph({ tool: 't', symbols: [] }, { version: '1.1' }), api.gcf.encode({ tool: 't', symbols: [] }));
    const generic = api.gcf.decodeAny(new TextEncoder().encode('GCF profile=generic\n=42\n'));
    assert.deepEqual(generic, { version: '3.5.3', profile: 'generic', kind: 'generic', value: 42 });
    // A v3 payload is 3.6.0 when it uses a 3.6.0 form; either v3 version option reads both.
    const constant = 'GCF profile=generic\n## [2]{id,kind=x}\n1\n2\n';
    assert.equal(api.gcf.decodeAny(constant).version, '3.6.0');
    assert.equal(api.gcf.decodeAny(constant, { version: '3.5.3' }).version, '3.6.0');
    assert.equal(api.gcf.decodeAny('GCF profile=generic\n=42\n', { version: '3.6.0' }).version, '3.5.3');
    assert.throws(() => api.gcf.decodeAny(constant, { version: '1.1' }), { code: 'GCF_MISSING_TOOL' });
    assert.throws(() => api.gcf.decodeGraph('GCF profile=generic\n=1\n'), { code: 'GCF_UNKNOWN_PROFILE' });
  });

  test(`strict errors carry code and position (${runtime})`, () => {
    assert.throws(() => api.gcf.decodeAny('GCF profile=generic\n## rows [3]{id}\n1\n2\n'), { code: 'GCF_COUNT_MISMATCH' });
    assert.throws(() => api.gcf.decodeAny('GCF profile=generic\nv="é\\x"\n'), (e) => e.code === 'GCF_INVALID_ESCAPE' && e.line === 2);
    assert.throws(() => api.gcf.decodeAny(new Uint8Array([0x47, 0x43, 0x46, 0x20, 0xff])), { code: 'GCF_INVALID_UTF8' });
  });
}

test('the round-trip comparison sees order outside table rows and numbers exactly', () => {
  const same = (a, b) => sameOrdered(readOrdered(a), readOrdered(b));
  assert.equal(same('{"a":1,"b":2}', '{"b":2,"a":1}'), false);
  assert.equal(same('[{"a":1,"b":2},{"b":3,"a":4}]', '[{"a":1,"b":2},{"a":4,"b":3}]'), true);
  assert.equal(same('[{"a":{"x":1,"y":2}}]', '[{"a":{"y":2,"x":1}}]'), false);
  assert.equal(same('9007199254740993', '9007199254740992'), false);
  assert.equal(same('1.0', '1'), true);
});

test('native and wasm write the same bytes', () => {
  for (let seed = 5000; seed < 5300; seed += 1) {
    const json = randomJson(rng(seed), 5);
    assert.equal(native.gcf.encodeGenericJson(json), wasm.gcf.encodeGenericJson(json), json);
    const pinned = { version: '3.5.3' };
    assert.equal(native.gcf.encodeGenericJson(json, pinned), wasm.gcf.encodeGenericJson(json, pinned), json);
  }
  const records = Array.from({ length: 20 }, (_, i) => ({ id: i, team: ['a', 'b', null][i % 3], on: true }));
  const by = { key: 'id', group: 'team' };
  assert.equal(native.gcf.encodeGenericGrouped(records, by), wasm.gcf.encodeGenericGrouped(records, by));
});
