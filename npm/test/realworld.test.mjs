// Compaction on JSON that real software produced (tests/realworld), native and wasm: each
// document gets a lossless winner or a stated reason, a winner decodes to JSON.parse of the
// input, and both builds make the same choices and bytes as the Rust core
// (tests/realworld/compact.expected.json, written and checked by
// tests/runner/tests/realworld.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { backends, packageDir } from './helpers.mjs';

const corpusDir = join(packageDir, '..', 'tests', 'realworld');
const manifest = JSON.parse(readFileSync(join(corpusDir, 'manifest.json'), 'utf8'));
const expected = JSON.parse(readFileSync(join(corpusDir, 'compact.expected.json'), 'utf8'));
const { native, wasm } = await backends();

/** FNV-1a (64 bits) of the UTF-8 bytes, as tests/runner/tests/realworld.rs computes it. */
function fnv1a64(text) {
  let hash = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(b);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

test('the corpus is what its manifest says', () => {
  assert.ok(manifest.files.length >= 30);
  for (const { file, bytes, sha256 } of manifest.files) {
    const data = readFileSync(join(corpusDir, file));
    assert.equal(data.length, bytes, file);
    assert.equal(createHash('sha256').update(data).digest('hex'), sha256, file);
  }
});

for (const [runtime, api] of [['native', native], ['wasm', wasm]]) {
  test(`every real document: a lossless winner or a reason, as in Rust (${runtime})`, async () => {
    assert.equal(api.backend, runtime);
    await api.tokens.load('cl100k_base');
    await api.tokens.load('o200k_base');
    const { tool, minSavings } = expected.options;
    let compared = 0;
    for (const want of expected.results) {
      const entry = manifest.files.find((f) => f.file === want.file);
      const text = readFileSync(join(corpusDir, want.file), 'utf8');
      const input = want.line === null ? text : text.split('\n')[want.line - 1].replace(/\r$/, '');
      const out = api.compact.json(input, { tool, minSavings, tokenizer: want.encoding });
      const name = `${want.file}${want.line === null ? '' : `:${want.line}`} (${want.encoding})`;
      const got = {
        ...want,
        format: out.format,
        tokens: out.tokens,
        inputTokens: out.inputTokens,
        bytes: Buffer.byteLength(out.text),
        fnv1a64: fnv1a64(out.text),
        reason: out.reason?.code ?? null,
        candidates: out.candidates.map((c) => [c.format, c.lossless, c.tokens, c.tokensExact]),
      };
      assert.deepEqual(got, want, name);
      if (out.reason === null) {
        assert.notEqual(out.format, 'input', name);
        assert.deepStrictEqual(api.compact.decode(out.text), JSON.parse(input), name);
      } else {
        assert.equal(out.text, input, name);
        assert.equal(typeof out.reason.message, 'string');
      }
      const numeralRule = out.reason?.code === 'INEXACT_NUMBER';
      assert.equal(numeralRule, want.line === null && entry.features.includes('inexact-numerals'), name);
      if (numeralRule) {
        // The numeral is in the text where the reason says, outside a string.
        assert.equal(Buffer.from(input).subarray(out.reason.offset).toString().slice(0, out.reason.numeral.length), out.reason.numeral);
        assert.match(out.reason.path, /^\$/);
      }
      compared++;
    }
    assert.ok(compared >= 2 * manifest.files.length);
  });
}
