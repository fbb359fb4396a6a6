// The package entries pick the right build, fall back to wasm, and expose the same API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageDir } from './helpers.mjs';
import { makeBoundary } from '../lib/boundary.js';
import { SELF_CHECK, loadWasmModule, wasmBoundary } from '../lib/node-backend.js';

const require = createRequire(import.meta.url);

/** Runs a snippet in a fresh Node process from `cwd` and returns its stdout. */
function node(code, { cwd = packageDir, env = {}, type = 'module' } = {}) {
  return execFileSync(process.execPath, [`--input-type=${type}`, '-e', code], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  }).trim();
}

test('ESM entry uses the native addon', async () => {
  const api = await import('agentwire');
  assert.equal(api.backend, 'native');
  assert.equal(api.nativeLoadError, null);
});

test('CommonJS entry uses the native addon, and agentwire/wasm the wasm build', () => {
  const cjs = require('agentwire');
  assert.equal(cjs.backend, 'native');
  assert.equal(cjs.gcx.escape('a\tb'), 'a\\tb');
  assert.equal(require('agentwire/wasm').backend, 'wasm');
});

test('AGENTWIRE_FORCE_WASM=1 selects the wasm build', () => {
  const out = node("const a = await import('agentwire'); console.log(a.backend, a.gcx.encodeGeneric('t', 1))", {
    env: { AGENTWIRE_FORCE_WASM: '1' },
  });
  assert.equal(out, 'wasm GCX1 tool=t fields=value\n1');
});

/**
 * A copy of the package's entries and wasm build in a temporary folder, without native/ (and
 * without node_modules, so without agentwire-tokens); `prepare(dir)` changes it. Runs
 * `fn(entryUrl)` and removes the copy.
 */
function withCopy(prepare, fn) {
  const dir = mkdtempSync(join(tmpdir(), 'agentwire-copy-'));
  try {
    for (const entry of ['package.json', 'node.js', 'node.cjs', 'wasm-node.js', 'wasm-node.cjs', 'lib', 'wasm']) {
      cpSync(join(packageDir, entry), join(dir, entry), { recursive: true });
    }
    prepare(dir);
    return fn(pathToFileURL(join(dir, 'node.js')).href, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In a fresh Node: the backend, nativeLoadError's message, its cause's code, and a wasm call. */
const FALLBACK_REPORT = (entry) => `const a = await import(${JSON.stringify(entry)});
  console.log(JSON.stringify([a.backend, a.nativeLoadError?.message, a.nativeLoadError?.cause?.code ?? null, a.gcx.escape('\\n')]));`;
const NATIVE_FILE = readNativeName();

test('a copy without the native addon falls back to wasm and says why', () => {
  withCopy(
    () => {},
    (entry) => {
      const out = node(
        `const a = await import(${JSON.stringify(entry)});
         let tokens; try { a.tokens.count('hello world'); } catch (e) { tokens = e.code; }
         console.log(a.backend, a.nativeLoadError.message, '|', a.nativeLoadError.cause.code, a.gcx.escape('\\n'), tokens)`,
      );
      // The copy has no node_modules, so no agentwire-tokens either: counting says so.
      assert.match(
        out,
        /^wasm agentwire: native addon (agentwire\.\S+\.node) not loaded; using wasm \(neither native\/\1 nor the package agentwire-\S+ is installed\) \| MODULE_NOT_FOUND \\n NOT_INSTALLED$/,
      );
    },
  );
});

// An addon that cannot load here: one built for another platform (the arm64 Linux addon, which
// `make test` builds, or any other in native/) in this platform's place.
const foreignAddon = ['agentwire.linux-arm64-gnu.node', ...(existsSync(join(packageDir, 'native')) ? readdirSync(join(packageDir, 'native')) : [])]
  .find((name) => name !== NATIVE_FILE && name.endsWith('.node') && existsSync(join(packageDir, 'native', name)));

test('an addon for another architecture fails to load: wasm, and nativeLoadError says why', { skip: foreignAddon ? false : 'no addon of another platform in native/ (make npm-platform-arm64)' }, () => {
  withCopy(
    (dir) => {
      mkdirSync(join(dir, 'native'));
      cpSync(join(packageDir, 'native', foreignAddon), join(dir, 'native', NATIVE_FILE));
    },
    (entry) => {
      const [backend, message, code, escaped] = JSON.parse(node(FALLBACK_REPORT(entry)));
      assert.equal(backend, 'wasm');
      assert.equal(code, 'ERR_DLOPEN_FAILED', message);
      assert.ok(message.startsWith(`agentwire: native addon ${NATIVE_FILE} not loaded; using wasm (native/${NATIVE_FILE} failed to load: `), message);
      assert.equal(escaped, '\\n');
      console.log(`${foreignAddon} as ${NATIVE_FILE}: ${message}`);
    },
  );
});

test('an addon of another version: wasm, and nativeLoadError names both versions', () => {
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  withCopy(
    (dir) => {
      // The addon is this build's; the copy's package says it is another release.
      mkdirSync(join(dir, 'native'));
      cpSync(join(packageDir, 'native', NATIVE_FILE), join(dir, 'native', NATIVE_FILE));
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version: '0.0.0-other' }));
    },
    (entry) => {
      const [backend, message, code] = JSON.parse(node(FALLBACK_REPORT(entry)));
      assert.deepEqual([backend, code], ['wasm', null]);
      assert.equal(message, `agentwire: native addon ${NATIVE_FILE} not loaded; using wasm (native/${NATIVE_FILE} is version ${version}, this package is 0.0.0-other)`);
    },
  );
});

// An addon that loads and reports the right version but computes wrong. No second build: the
// child Node loads the real addon through a wrapper (a `--require` hook on Node's `.node`
// loader, test/self-check-hook.cjs) whose every string result has its 7s turned into 8s,
// as a miscompiled or corrupted addon could return.
test('an addon that fails its self-check: wasm, and nativeLoadError shows the bytes', () => {
  withCopy(
    (dir) => {
      mkdirSync(join(dir, 'native'));
      cpSync(join(packageDir, 'native', NATIVE_FILE), join(dir, 'native', NATIVE_FILE));
    },
    (entry) => {
      const hook = join(packageDir, 'test', 'self-check-hook.cjs');
      const run = (extra) =>
        JSON.parse(execFileSync(process.execPath, [...extra, '--input-type=module', '-e', FALLBACK_REPORT(entry)], { cwd: packageDir, env: process.env, encoding: 'utf8' }));
      // Without the hook the copy's addon is used: the hook alone makes the difference.
      assert.deepEqual(run([]).slice(0, 2), ['native', null]);
      const [backend, message, code] = run(['--require', hook]);
      assert.deepEqual([backend, code], ['wasm', null]);
      const wrong = SELF_CHECK.gcx.replaceAll('7', '8');
      assert.equal(
        message,
        `agentwire: native addon ${NATIVE_FILE} not loaded; using wasm (native/${NATIVE_FILE} failed its self-check: ` +
          `gcx.encodeGeneric gave ${JSON.stringify(wrong)}, expected ${JSON.stringify(SELF_CHECK.gcx)})`,
      );
    },
  );
});

test('the self-check vector is what the wasm build writes and reads', async () => {
  const wasmEntry = await import('agentwire/wasm');
  assert.equal(wasmEntry.gcx.encodeGeneric(SELF_CHECK.tool, SELF_CHECK.rows), SELF_CHECK.gcx);
  assert.deepEqual(wasmEntry.gcx.decode(SELF_CHECK.gcx).sections[0].rows, SELF_CHECK.decodedRows);
});

test('native, wasm and browser entries export the same names', async () => {
  const names = (m) => Object.keys(m).sort();
  const nativeEntry = await import('agentwire');
  const wasmEntry = await import('agentwire/wasm');
  const browserEntry = await import(pathToFileURL(join(packageDir, 'browser.js')).href);
  assert.deepEqual(names(wasmEntry), names(nativeEntry));
  assert.deepEqual(names(browserEntry), names(nativeEntry));
  assert.deepEqual(Object.keys(nativeEntry.gcx).sort(), Object.keys(wasmEntry.gcx).sort());
});

test('the raw builds export the same functions and classes', () => {
  // Both runtimes dispatch through one export table (bindings/src/exports.rs): the addon holds
  // every area but schema (its wasm module serves both), each wasm module one area, plus the
  // exports every module has (compaction is in two: gcf and tokens).
  const rawNative = require(join(packageDir, 'native', readNativeName()));
  const table = (boundary) => boundary.exportNames();
  const common = ['exportTable', 'version', 'errorCodes', '__agentwireInternalPanicForTests'];
  const nativeNames = table(makeBoundary(() => rawNative));
  assert.deepEqual(nativeNames.slice(0, 4), common);
  const wasmNames = [];
  for (const module of ['core', 'gcf', 'gateway', 'events', 'toon', 'schema', 'tokens']) {
    const names = table(wasmBoundary(module));
    assert.deepEqual(names.slice(0, 4), common, module);
    for (const name of names.slice(4)) if (!wasmNames.includes(name)) wasmNames.push(name);
  }
  assert.deepEqual([...wasmNames].sort(), [...nativeNames.slice(4), 'schema.check', 'schema.validator'].sort());
  // The same raw surface in both: call(id, …) and Instance with init, call and free.
  const surface = (raw) => [typeof raw.call, Object.getOwnPropertyNames(raw.Instance.prototype).filter((k) => k !== 'constructor' && !k.startsWith('__')).sort()];
  assert.deepEqual(surface(loadWasmModule('core')), surface(rawNative));
  assert.deepEqual(surface(rawNative), ['function', ['call', 'free', 'init']]);
});

test('browser entry: API refuses before init(), works after init(bytes)', async () => {
  const browserEntry = await import(pathToFileURL(join(packageDir, 'browser.js')).href);
  assert.throws(() => browserEntry.gcx.escape('x'), { name: 'AgentwireError', code: 'NOT_INITIALIZED' });
  await browserEntry.init(readFileSync(join(packageDir, 'wasm', 'agentwire_core_bg.wasm')));
  assert.equal(browserEntry.gcx.encodeGeneric('t', { a: 1 }), 'GCX1 tool=t fields=a\n1\n');
  assert.throws(() => browserEntry.tokens.count('x'), { name: 'AgentwireError', code: 'NOT_INITIALIZED' });
  const tokensEntry = await import(pathToFileURL(join(packageDir, 'tokens.js')).href);
  const tokensPackage = join(packageDir, 'packages', 'tokens');
  await tokensEntry.load('cl100k', {
    wasm: readFileSync(join(tokensPackage, 'wasm', 'agentwire_tokens_bg.wasm')),
    vocabulary: readFileSync(join(tokensPackage, 'cl100k_base.bin')),
  });
  assert.equal(tokensEntry.count('hello world'), 2);
  assert.equal(browserEntry.tokens.count('hello world', 'cl100k_base'), 2);
  // o200k is not loaded yet: it says how.
  assert.throws(() => browserEntry.tokens.count('x', 'o200k_base'), { name: 'AgentwireError', code: 'NOT_INITIALIZED' });
  assert.throws(() => browserEntry.gateway.parsePath('/'), { name: 'AgentwireError', code: 'NOT_INITIALIZED' });
  await browserEntry.gateway.load(readFileSync(join(packageDir, 'wasm', 'agentwire_gateway_bg.wasm')));
  assert.deepEqual(browserEntry.gateway.parsePath('/a/*'), ['a', '*']);
});

test('agentwire/tokens in Node (ESM and CommonJS)', async () => {
  const tokens = await import('agentwire/tokens');
  await tokens.load();
  assert.equal(tokens.count('hello world'), 2);
  assert.equal(require('agentwire/tokens').count('hello world', 'o200k_base'), 2);
});

function readNativeName() {
  return node("import { nativeFileName } from './lib/node-backend.js'; console.log(nativeFileName())");
}
