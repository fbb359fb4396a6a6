// TOON through the npm API (native and wasm) against its reference library, @toon-format/toon
// 4.4.0, in one process: byte-identical encodes and deep-equal decodes on generated values of
// every shape TOON has (tables, nested field groups, keyed tables, lists of lists, mixed
// lists, quoting traps), on TOON's 8 benchmark datasets and on the real-world corpus; strict
// decodes of mutated text fail or succeed together. The differences docs/toon.md lists are
// checked for what they are, not skipped: numbers below 1e-6 or from 1e21 up (the spec's
// canonical form has no exponent; the reference writes one), and TOON's own error codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as reference from '@toon-format/toon';
import { backends, packageDir } from './helpers.mjs';

const { native, wasm } = await backends();
const root = join(packageDir, '..');

/** xorshift32: the same values every run. */
function random(seed) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)] };
}

// Strings that exercise the quoting rules (§7.2): delimiters, colons, quotes, markers,
// numerals and literals as text, spaces at the ends, escapes, unicode.
const TRICKY = ['', ' ', 'plain', 'two words', 'a,b', 'a\tb', 'a|b', 'key: value', ':', '-', '- item', '-5', '#', '# note', '"quoted"', 'back\\slash',
  'line\nbreak', 'cr\rhere', '123', '1.5', '1e5', '-0', '0x1F', '05', 'true', 'false', 'null', ' lead', 'trail ', '[1]', '{a}', 'ünïcödé', '日本語', '😀', 'a.b', 'x=y'];
const KEYS = ['id', 'name', 'value', 'a', 'b', 'c', 'user_id', 'createdAt', 'x-y', 'a.b', 'with space', '', '123', '#k', 'ключ', '"q"', 'a:b'];

/** A value the tables and lists of TOON all apply to, drawn from `r`. */
function generate(r, depth = 0) {
  const primitive = () => {
    switch (r.int(6)) {
      case 0:
        return r.pick(TRICKY);
      case 1:
        return r.int(2000) - 1000;
      case 2:
        return Math.round((r.next() - 0.5) * 1e6) / 1e3;
      case 3:
        return r.pick([true, false, null]);
      case 4:
        return r.pick([0, 1, -1, 0.1, 1e-6, 123456789012, 2 ** 53 - 1, 0.30000000000000004, 1e20, 3.14159]);
      default:
        return `${r.pick(['item', 'user', 'v'])}${r.int(100)}`;
    }
  };
  const keys = (n) => [...new Set(Array.from({ length: n }, () => r.pick(KEYS)))];
  const object = (ks, make) => Object.fromEntries(ks.map((k) => [k, make()]));
  if (depth > 3) return primitive();
  switch (r.int(9)) {
    case 0:
      return primitive();
    case 1: // inline primitive array
      return Array.from({ length: r.int(5) }, primitive);
    case 2: {
      // table: uniform objects of primitives
      const ks = keys(1 + r.int(4));
      return Array.from({ length: 1 + r.int(5) }, () => object(ks, primitive));
    }
    case 3: {
      // table with a nested field group (§9.3)
      const ks = keys(1 + r.int(3));
      const inner = keys(1 + r.int(3));
      const group = r.pick(['address', 'plan', 'meta']);
      return Array.from({ length: 1 + r.int(4) }, () => ({ ...object(ks, primitive), [group]: object(inner, primitive) }));
    }
    case 4: {
      // keyed table: an object of uniform objects (§9.5)
      const ks = keys(1 + r.int(3));
      return object(keys(2 + r.int(3)), () => object(ks, primitive));
    }
    case 5: // list of lists
      return Array.from({ length: 1 + r.int(3) }, () => Array.from({ length: r.int(4) }, primitive));
    case 6: // mixed list
      return Array.from({ length: 1 + r.int(4) }, () => generate(r, depth + 1));
    case 7:
      return r.pick([[], {}, [{}], { a: {} }, { a: [] }]);
    default: // nested object
      return object(keys(1 + r.int(4)), () => generate(r, depth + 1));
  }
}

/** A number in the form the spec and the reference print differently (docs/toon.md). */
const exponentForm = (v) => typeof v === 'number' && v !== 0 && Number.isFinite(v) && (Math.abs(v) < 1e-6 || Math.abs(v) >= 1e21);
const exponentNumbers = (v) =>
  exponentForm(v) ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(exponentNumbers) : [];
const hasExponentForm = (v) => exponentNumbers(v).length > 0;

/** `v` in plain decimal notation (the spec's form): JavaScript's shortest digits, no exponent. */
function plainDecimal(v) {
  const [mantissa, exponent] = String(Math.abs(v)).split('e');
  if (exponent === undefined) return String(v);
  const digits = mantissa.replace('.', '');
  const point = (mantissa.includes('.') ? mantissa.indexOf('.') : mantissa.length) + Number(exponent);
  const text = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : `${digits}${'0'.repeat(point - digits.length)}`;
  return `${v < 0 ? '-' : ''}${text}`;
}

/** Our text and the reference's differ only in how numbers outside 1e-6..1e21 are written. */
function sameButExponents(ours, theirs, value, options = {}) {
  for (const n of exponentNumbers(value)) assert.ok(ours.includes(plainDecimal(n)), `${n} is written ${plainDecimal(n)}`);
  // The reference's text with its unquoted exponent numerals written plainly is ours.
  const numeral = /(?<![\w."])-?\d+(?:\.\d+)?e[+-]?\d+(?![\w".])/g;
  assert.equal(theirs.replace(numeral, (m) => plainDecimal(Number(m))), ours);
  assert.deepStrictEqual(reference.decode(ours, { indent: options.indent }), reference.decode(theirs, { indent: options.indent }));
}

const OPTIONS = [{}, { delimiter: '\t' }, { delimiter: '|' }, { indent: 4 }];

for (const [runtime, api] of [['native', native], ['wasm', wasm]]) {
  test(`encode and decode equal @toon-format/toon on 3,000 generated values x 4 options (${runtime})`, () => {
    assert.equal(api.backend, runtime);
    const r = random(20261128);
    let compared = 0;
    let exponents = 0;
    for (let i = 0; i < 3000; i++) {
      const value = { data: generate(r) };
      if (i % 50 === 0) value.extra = r.pick([1e-7, -2.5e-9, 1e21, 1.5e300]); // the documented difference
      for (const options of OPTIONS) {
        const ours = api.toon.encode(value, options);
        const theirs = reference.encode(value, options);
        if (hasExponentForm(value)) {
          // Same value, but our numbers are plain decimals (spec §2), theirs have an exponent.
          exponents++;
          sameButExponents(ours, theirs, value, options);
        } else {
          assert.equal(ours, theirs, `value ${i} ${JSON.stringify(options)}: ${JSON.stringify(value)}`);
        }
        // The value crosses into Rust on the argument tape; its JSON text, parsed in Rust, must
        // give the same bytes.
        assert.equal(api.toon.encodeJson(JSON.stringify(value), options), ours, `value ${i} as JSON text`);
        const decodeOptions = { indent: options.indent };
        assert.deepStrictEqual(api.toon.decode(theirs, decodeOptions), reference.decode(theirs, decodeOptions), `decode of value ${i}`);
        compared++;
      }
    }
    assert.equal(compared, 12000);
    assert.ok(exponents > 0 && exponents < compared / 4, `${exponents} values with exponent-form numbers`);
  });

  test(`strict decodes of mutated text fail or succeed as the reference's do (${runtime})`, () => {
    const r = random(7);
    let failedTogether = 0;
    for (let i = 0; i < 2000; i++) {
      const text = reference.encode({ data: generate(r) }, r.pick(OPTIONS));
      const lines = text.split('\n');
      const at = r.int(lines.length);
      const mutations = [
        () => lines.filter((_, n) => n !== at), // a row, item or key line gone
        () => [...lines.slice(0, at + 1), lines[at], ...lines.slice(at + 1)], // a line twice
        () => lines.map((l, n) => (n === at ? ` ${l}` : l)), // indentation off by one
        () => lines.map((l, n) => (n === at ? l.replace(/\[(\d+)/, (_, d) => `[${Number(d) + 1}`) : l)), // a declared length
        () => lines.map((l, n) => (n === at ? l.replace(',', ',,') : l)), // a row too wide
        () => [...lines, ''], // a trailing blank line
      ];
      const mutated = r.pick(mutations)().join('\n');
      let theirs;
      let ours;
      try {
        theirs = { ok: reference.decode(mutated) };
      } catch {
        theirs = { error: true };
      }
      try {
        ours = { ok: api.toon.decode(mutated) };
      } catch (e) {
        assert.match(e.code, /^TOON_/, `${e.code}: ${e.message}`);
        assert.ok(e.line >= 1 && e.column >= 1, e.message);
        ours = { error: true };
      }
      assert.deepStrictEqual(ours, theirs, `mutated text ${i}: ${JSON.stringify(mutated)}`);
      if (ours.error) failedTogether++;
    }
    assert.ok(failedTogether > 300, `${failedTogether} mutations failed in both`);
  });

  test(`TOON's benchmark datasets and the real-world corpus encode as the reference does (${runtime})`, () => {
    const texts = [
      ...readdirSync(join(root, 'bench/data/toon')).filter((f) => f.endsWith('.json')).map((f) => join(root, 'bench/data/toon', f)),
      ...JSON.parse(readFileSync(join(root, 'tests/realworld/manifest.json'), 'utf8'))
        .files.filter((f) => f.kind === 'json')
        .map((f) => join(root, 'tests/realworld', f.file)),
    ];
    assert.ok(texts.length >= 50);
    let exponents = 0;
    for (const file of texts) {
      const value = JSON.parse(readFileSync(file, 'utf8'));
      for (const options of [{}, { delimiter: '\t' }]) {
        const ours = api.toon.encode(value, options);
        const theirs = reference.encode(value, options);
        if (hasExponentForm(value)) {
          exponents++;
          sameButExponents(ours, theirs, value);
        } else {
          assert.equal(ours, theirs, file);
        }
        assert.deepStrictEqual(api.toon.decode(ours), reference.decode(ours), file);
      }
    }
    // The corpus has small floats in GeoJSON and profiles; the rest is byte for byte.
    assert.ok(exponents < texts.length, `${exponents} of ${texts.length * 2} encodes differ only in exponents`);
  });

  test(`options, JSON text input and errors (${runtime})`, () => {
    const value = { users: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Bob' }], ok: true };
    assert.equal(api.toon.encode(value), 'users[2]{id,name}:\n  1,Ada\n  2,Bob\nok: true');
    assert.equal(api.toon.encode(value, { delimiter: 'tab' }), api.toon.encode(value, { delimiter: '\t' }));
    assert.equal(api.toon.encodeJson('{"id": 12345678901234567890}'), 'id: 12345678901234567890');
    const folded = api.toon.encode({ a: { b: { c: 1 } } }, { keyFolding: 'safe' });
    assert.equal(folded, 'a.b.c: 1');
    assert.deepStrictEqual(api.toon.decode(folded, { expandPaths: 'safe' }), { a: { b: { c: 1 } } });
    assert.equal(api.toon.encode({ a: { b: { c: 1 } } }, { keyFolding: 'safe', flattenDepth: Infinity }), 'a.b.c: 1');
    assert.throws(() => api.toon.encode(value, { replacer: () => undefined }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.toon.encode(value, { delimiter: ';' }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.toon.encode(value, { indent: 0 }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.toon.decode('items[2]{id,name}:\n  1,Ada\n  2'), { code: 'TOON_COUNT_MISMATCH', line: 3, column: 3 });
    assert.deepStrictEqual(api.toon.decode('tags[3]: a,b', { strict: false }), { tags: ['a', 'b'] });
    assert.throws(() => api.toon.decode(42), { code: 'INVALID_ARGUMENT' });
    // Hostile: a declared length of 10^12 and deep indentation are errors, not allocations.
    assert.throws(() => api.toon.decode('items[1000000000000]: 1,2'), { code: 'TOON_COUNT_MISMATCH' });
    const deep = Array.from({ length: 600 }, (_, d) => `${'  '.repeat(d)}k:`).join('\n');
    assert.throws(() => api.toon.decode(deep), { code: 'TOON_DEPTH' });
    // A prototype-named key stays an own member.
    const proto = api.toon.decode('__proto__: 1');
    assert.equal(Object.getPrototypeOf(proto), Object.prototype);
    assert.deepStrictEqual(Object.keys(proto), ['__proto__']);
  });
}
