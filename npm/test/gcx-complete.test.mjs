// GCX1 beyond the codec, in both builds: workspace-scope shapes from typed input, request
// legality, per-tool layouts and strategies, ParseFormat, and token counting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { backends, fixturesDir, outcome, packageDir } from './helpers.mjs';
import { wasmBoundary } from '../lib/node-backend.js';

const { native, wasm } = await backends();
const require = createRequire(import.meta.url);
const scopeInputs = JSON.parse(readFileSync(join(packageDir, '..', 'tests', 'scope_inputs.json'), 'utf8'));
const scopeFile = (name) => readFileSync(join(fixturesDir, 'gcx1', 'scope', name), 'utf8');
const bench = JSON.parse(readFileSync(join(fixturesDir, 'gcx1', 'bench.json'), 'utf8'));

/** Runs `fn` on both builds, asserts they agree, and returns the native outcome. */
function both(fn) {
  const fromNative = outcome(native, fn);
  assert.deepEqual(outcome(wasm, fn), fromNative, 'native and wasm differ');
  return fromNative;
}

const encoders = {
  tool_definitions: (api, v) => api.gcx.encodeToolDefinitions(v),
  tool_request: (api, v) => api.gcx.encodeToolRequest(v),
  error: (api, v) => api.gcx.encodeErrorEnvelope(v),
};
const decoders = {
  tool_definitions: (api, p) => api.gcx.decodeToolDefinitions(p),
  tool_request: (api, p) => api.gcx.decodeToolRequest(p),
  error: (api, p) => api.gcx.decodeErrorEnvelope(p),
};

test('the 7 scope files are reproduced byte for byte from typed input', () => {
  const files = Object.entries(scopeInputs.files);
  assert.equal(files.length, 7);
  for (const [name, { shape, value }] of files) {
    assert.equal(both((api) => encoders[shape](api, value)).ok, scopeFile(name), name);
    const decoded = both((api) => decoders[shape](api, scopeFile(name))).ok;
    if (shape === 'tool_definitions') {
      const sorted = [...value].sort((a, b) => (a.name < b.name ? -1 : 1));
      assert.deepEqual(decoded, sorted);
    } else if (shape === 'tool_request') {
      assert.deepEqual(decoded, { repo: null, ...value });
    } else {
      assert.deepEqual(decoded, value);
    }
  }
});

test('checkRequest returns the envelopes of the error files', () => {
  const definitions = scopeInputs.files['scope_tool_definitions.gcx'].value;
  for (const { request, workspace_repos: repos, envelope_file: file } of scopeInputs.checks) {
    const envelope = both((api) => api.gcx.checkRequest(definitions, request, repos)).ok;
    if (file === null) assert.equal(envelope, null);
    else assert.equal(both((api) => api.gcx.encodeErrorEnvelope(envelope)).ok, scopeFile(file));
  }
  const unknownTool = both((api) => api.gcx.checkRequest(definitions, { tool: 'nope', scope: 'repo' }, []));
  assert.equal(unknownTool.error.code, 'INVALID_ARGUMENT');
});

test('invalid scope shapes are refused with GCX_SCHEMA and a position', () => {
  const bad = both((api) => api.gcx.decodeToolDefinitions('GCX1 tool=tool_definitions fields=name,scope\nx\tglobal\n'));
  assert.equal(bad.error.code, 'GCX_SCHEMA');
  assert.deepEqual([bad.error.line, bad.error.column], [2, 3]);
  for (const request of [
    { tool: 't', scope: 'everywhere' },
    { tool: 't', scope: 'repo' },
    { tool: 't', scope: 'workspace', repo: 'x' },
    { tool: 't', scope: 'fan-out', repo: 'x' },
    { tool: 't', scope: 'fan-out', repo: ['*', 'a'] },
  ]) {
    assert.equal(both((api) => api.gcx.encodeToolRequest(request)).error.code, 'GCX_SCHEMA', JSON.stringify(request));
  }
  assert.equal(both((api) => api.gcx.encodeErrorEnvelope({ code: '', message: 'm' })).error.code, 'GCX_SCHEMA');
});

test('error code constants come from the core', () => {
  const rawConstants = wasmBoundary('core').call('gcx.errorCodeConstants', undefined);
  for (const api of [native, wasm]) {
    const constants = Object.fromEntries(Object.keys(api.gcx).filter((k) => k.startsWith('ERR_CODE_')).map((k) => [k, api.gcx[k]]));
    assert.deepEqual(constants, rawConstants);
  }
  assert.equal(native.gcx.ERR_CODE_UNKNOWN_REPO, 'unknown_repo');
  assert.equal(native.gcx.ERR_CODE_WRONG_REPO_SHAPE, 'wrong_repo_shape');
});

test('the bench strategy reproduces the upstream benchmark on all 20 inputs', () => {
  for (const vector of bench.vectors) {
    const { tool, json } = vector.input;
    const out = both((api) => api.gcx.encodeToolJson(tool, json, { strategy: 'bench', literalNumbers: true })).ok;
    assert.equal(out, vector.bench_encoder_output, vector.name);
    // The default strategy and the generic one give the same bytes in both builds.
    both((api) => api.gcx.encodeToolJson(tool, json));
    both((api) => api.gcx.encodeTool(tool, JSON.parse(json), { strategy: 'generic' }));
  }
});

test('layouts: built-in, custom, and the generic fallback', () => {
  const layouts = both((api) => api.gcx.layouts()).ok;
  assert.ok(layouts.some((l) => l.tool === 'search_symbols'));
  const response = [{ id: 'a', kind: 'function', name: 'A', file_path: 'a.go', start_line: 3 }];
  assert.equal(
    both((api) => api.gcx.encodeTool('search_symbols', response)).ok,
    'GCX1 tool=search_symbols fields=id,kind,name,path,line,sig\na\tfunction\tA\ta.go\t3\t\n',
  );
  assert.equal(
    both((api) => api.gcx.encodeTool('search_symbols', [{ id: 'a', surprise: true }])).ok,
    'GCX1 tool=search_symbols fields=id,surprise rows=1\na\ttrue\n',
  );
  const custom = {
    tool: 'list_files',
    sections: [{ name: '{tool}', rows: { keys: ['files'], root: true }, fields: ['path', { name: 'bytes', from: ['size'] }], meta: ['total'] }],
  };
  assert.equal(
    both((api) => api.gcx.encodeTool('list_files', { files: [{ path: 'a', size: 3 }], total: 1 }, { layouts: [custom] })).ok,
    'GCX1 tool=list_files fields=path,bytes total=1\na\t3\n',
  );
  assert.equal(both((api) => api.gcx.encodeTool('x', {}, { strategy: 'fast' })).error.code, 'INVALID_ARGUMENT');
});

test('parseFormat follows gcx-go', () => {
  const cases = { gcx: 'gcx', ' GCX1 ': 'gcx', text: 'text', Compact: 'text', '': 'json', json: 'json', yaml: 'json' };
  for (const [input, expected] of Object.entries(cases)) assert.equal(both((api) => api.gcx.parseFormat(input)).ok, expected);
});

test('token counts: both encodings, same in native and wasm', () => {
  const cases = JSON.parse(readFileSync(join(fixturesDir, 'gateway', 'token_counts.json'), 'utf8')).cases;
  for (const { input, expected } of cases) {
    assert.equal(both((api) => api.tokens.count(input)).ok, expected.tokens, JSON.stringify(input));
    both((api) => api.tokens.count(input, 'o200k_base'));
  }
  assert.equal(both((api) => api.tokens.count('hello world', 'o200k')).ok, 2);
  assert.equal(both((api) => api.tokens.count('x', 'gpt2')).error.code, 'INVALID_ARGUMENT');
  assert.deepEqual(native.tokens.encodings, ['cl100k_base', 'o200k_base']);
});

test('no module carries a vocabulary: agentwire-tokens ships them as data', () => {
  const wasmBytes = readFileSync(join(packageDir, 'wasm', 'agentwire_core_bg.wasm'));
  const gzipped = gzipSync(wasmBytes, { level: 9 }).length;
  // A vocabulary alone is over a megabyte gzipped; the codec must stay within its budget.
  assert.ok(gzipped <= 190_000, `default wasm is ${gzipped} bytes gzipped (budget 190 KB)`);
  const names = wasmBoundary('core').exportNames();
  assert.ok(names.includes('gcx.decode') && !names.includes('tokens.count'), names.join(' '));
  // The counter's module is small; the vocabularies are files beside it, read at run time.
  const tokensPackage = join(packageDir, 'packages', 'tokens');
  const counter = readFileSync(join(tokensPackage, 'wasm', 'agentwire_tokens_bg.wasm'));
  assert.ok(counter.length < 1_000_000, `the tokens module is ${counter.length} bytes`);
  assert.ok(wasmBoundary('tokens').exportNames().includes('tokens.count'));
  for (const [file, size] of [['cl100k_base.bin', 744_182], ['o200k_base.bin', 1_597_764]]) {
    assert.equal(readFileSync(join(tokensPackage, file)).length, size, file);
  }
});

test('tokens: countWithin stops at the limit, encode and decode round-trip, bad ids are refused', () => {
  const text = '{"name": "Alice", "tags": ["a", "b"]}\n  naïve café 😀';
  for (const encoding of ['cl100k_base', 'o200k_base']) {
    const count = both((api) => api.tokens.count(text, encoding)).ok;
    assert.equal(both((api) => api.tokens.countWithin(text, count, encoding)).ok, count);
    assert.equal(both((api) => api.tokens.countWithin(text, count - 1, encoding)).ok, null);
    const ids = both((api) => Array.from(api.tokens.encode(text, encoding))).ok;
    assert.equal(ids.length, count);
    assert.ok(native.tokens.encode(text, encoding) instanceof Uint32Array);
    assert.equal(both((api) => api.tokens.decode(ids, encoding)).ok, text);
    assert.equal(both((api) => api.tokens.decode(Uint32Array.from(ids), encoding)).ok, text);
    assert.deepEqual(both((api) => Array.from(api.tokens.decodeBytes(ids, encoding))).ok, Array.from(new TextEncoder().encode(text)));
  }
  assert.deepEqual(both((api) => Array.from(api.tokens.encode('hello world'))).ok, [15339, 1917]);
  assert.equal(both((api) => api.tokens.decode([300_000])).error.code, 'TOKENS_UNKNOWN_ID');
  assert.equal(both((api) => api.tokens.decode([-1])).error.code, 'INVALID_ARGUMENT');
  assert.equal(both((api) => api.tokens.countWithin('x', -1)).error.code, 'INVALID_ARGUMENT');
});

test('encodeToolDetailed says which strategy wrote the text and why a layout fell back', () => {
  const fits = { results: [{ id: 'a', kind: 'function', name: 'A', file_path: 'a.go', start_line: 3 }], total: 1 };
  const layout = both((api) => api.gcx.encodeToolDetailed('search_symbols', fits)).ok;
  assert.deepEqual(layout, { text: both((api) => api.gcx.encodeTool('search_symbols', fits)).ok, strategy: 'layout' });
  const extra = { ...fits, took_ms: 5 };
  const fallback = both((api) => api.gcx.encodeToolDetailed('search_symbols', extra)).ok;
  assert.equal(fallback.strategy, 'generic');
  assert.equal(fallback.text, both((api) => api.gcx.encodeTool('search_symbols', extra)).ok);
  assert.equal(
    fallback.fallbackReason,
    'response member "took_ms" has no section, column or metadata key in the layout of "search_symbols"',
  );
  const json = both((api) => api.gcx.encodeToolJsonDetailed('search_symbols', JSON.stringify(extra))).ok;
  assert.deepEqual(json, fallback);
  const strict = both((api) => api.gcx.encodeTool('search_symbols', extra, { strict: true })).error;
  assert.equal(strict.code, 'GCX_LAYOUT_MISMATCH');
  assert.match(strict.message, /took_ms/);
  assert.equal(both((api) => api.gcx.encodeToolDetailed('t', [1], { strategy: 'bench' })).ok.strategy, 'bench');
  assert.equal(both((api) => api.gcx.encodeTool('x', {}, { strict: 'yes' })).error.code, 'INVALID_ARGUMENT');
});

test('default encoding refuses text decoders reject; compat gcx-go writes gcx-go bytes', () => {
  const spaced = [{ tool: 'my tool', fields: ['a'], rows: [['1']] }];
  const refused = both((api) => api.gcx.encode(spaced)).error;
  assert.equal(refused.code, 'GCX_UNDECODABLE');
  assert.match(refused.message, /header of "my tool"/);
  assert.equal(both((api) => api.gcx.encode(spaced, { compat: 'gcx-go' })).ok, 'GCX1 tool=my tool fields=a\n1\n');
  assert.equal(both((api) => api.gcx.encodeGeneric('t', { 'a b': 1 })).error.code, 'GCX_UNDECODABLE');
  assert.equal(both((api) => api.gcx.encodeGeneric('t', { 'a b': 1 }, { compat: 'gcx-go' })).ok, 'GCX1 tool=t fields=a b\n1\n');
  // Decodable (if lossy) text keeps gcx-go's bytes by default.
  const lossy = [{ tool: 't', fields: ['a'], rows: [['#x'], ['']] }];
  assert.equal(both((api) => api.gcx.encode(lossy)).ok, both((api) => api.gcx.encode(lossy, { compat: 'gcx-go' })).ok);
  const streamed = both((api) => {
    const enc = new api.gcx.Encoder();
    enc.beginSection({ tool: 't', fields: ['a'] });
    enc.writeRow(['GCX1 not a header']);
  }).error;
  assert.equal(streamed.code, 'GCX_UNDECODABLE');
  assert.equal(both((api) => api.gcx.encode([], { compat: 'go' })).error.code, 'INVALID_ARGUMENT');
});

test('compact.json never returns more tokens than its input, with any counter', () => {
  const rows = Array.from({ length: 20 }, (_, i) => ({ id: `pkg.F${i}`, kind: 'function', name: `F${i}`, path: 'a.go', line: i }));
  const text = JSON.stringify({ results: rows, total: 20 }, null, 2);
  for (const api of [native, wasm]) {
    const bytes = api.compact.json(text, { tool: 'search_symbols', tokenizer: 'bytes' });
    assert.equal(bytes.inputTokens, Buffer.byteLength(text));
    assert.ok(bytes.tokens < bytes.inputTokens);
    assert.notEqual(bytes.format, 'input');
    // A candidate that could not win was not read back (lossless: null) and its count is a
    // lower bound past the winner's; with exactCounts every one is read back and counted.
    assert.ok(bytes.candidates.every((c) => (c.lossless === null ? !c.tokensExact && c.tokens > bytes.tokens : !c.lossless || c.tokens >= bytes.tokens)));
    const all = api.compact.json(text, { tool: 'search_symbols', tokenizer: 'bytes', exactCounts: true });
    assert.ok(all.candidates.some((c) => c.format === 'gcx1-layout' && c.lossless));
    assert.ok(all.candidates.every((c) => c.lossless !== null && (!c.lossless || (c.tokensExact && c.tokens >= all.tokens))));
    const words = api.compact.json(text, { tool: 'search_symbols', counter: (t) => t.split(/\s+/).length });
    assert.ok(words.tokens <= words.inputTokens);
    // A value, generic: decodes back.
    const generic = api.compact.json(rows, { tokenizer: 'bytes', minSavings: 0 });
    assert.notEqual(generic.format, 'input');
    assert.ok(api.compact.equal(api.compact.decode(generic.text), rows));
    // Nothing saves enough: the input is kept, and says why.
    const kept = api.compact.json('[1,2]', { tokenizer: 'bytes' });
    assert.equal(kept.format, 'input');
    assert.equal(kept.reason.code, 'BELOW_MIN_SAVINGS');
    assert.equal(api.compact.json('not json', { tokenizer: 'bytes' }).format, 'input');
    assert.throws(() => api.compact.json(text, { counter: 5 }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.compact.json(text, { counter: () => NaN }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.compact.json(text, { tokenizer: 'p50k' }), { code: 'INVALID_ARGUMENT' });
    // Exact counts when agentwire-tokens is installed (a devDependency here).
    const exact = api.compact.json(text, { tool: 'search_symbols' });
    assert.equal(exact.inputTokens, api.tokens.count(text));
  }
});
