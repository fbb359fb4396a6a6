// The package entries pick the right build, fall back to wasm, and expose the same API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageDir } from './helpers.mjs';

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

test('a copy without the native addon falls back to wasm and says why', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentwire-nonative-'));
  try {
    for (const entry of ['package.json', 'node.js', 'node.cjs', 'wasm-node.js', 'wasm-node.cjs', 'lib', 'wasm']) {
      cpSync(join(packageDir, entry), join(dir, entry), { recursive: true });
    }
    const out = node(
      `const a = await import(${JSON.stringify(pathToFileURL(join(dir, 'node.js')).href)});
       console.log(a.backend, a.nativeLoadError.message, '|', a.nativeLoadError.cause.code, a.gcx.escape('\\n'), a.tokens.count('hello world'))`,
    );
    assert.match(out, /^wasm agentwire: native addon agentwire\.\S+\.node not loaded; using wasm \| MODULE_NOT_FOUND \\n 2$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
  const rawNative = require(join(packageDir, 'native', readNativeName()));
  const rawWasm = require(join(packageDir, 'wasm', 'nodejs', 'agentwire_wasm.js'));
  const rawGateway = require(join(packageDir, 'wasm', 'gateway', 'nodejs', 'agentwire_wasm_gateway.js'));
  const rawEvents = require(join(packageDir, 'wasm', 'events', 'nodejs', 'agentwire_wasm_events.js'));
  const rawGcf3 = require(join(packageDir, 'wasm', 'gcf', 'nodejs', 'agentwire_wasm_gcf.js'));
  // Token counting, the gateway and events live in the addon, and in separately loaded wasm
  // modules (agentwire/tokens, gateway.load(), events.load()) so the default one stays small.
  const isGateway = (k) => k.startsWith('gateway') || k === 'GatewaySession';
  const isEvents = (k) => k.startsWith('events') || k === 'EventsDecoder';
  const isGcf3 = (k) => k.startsWith('gcf3') || k.startsWith('Gcf3');
  const api = (m, keep = () => true) => Object.keys(m).filter((k) => !k.startsWith('__') && keep(k)).sort();
  assert.deepEqual(api(rawWasm), api(rawNative, (k) => k !== 'tokensCount' && !isGateway(k) && !isEvents(k) && !isGcf3(k)));
  assert.deepEqual(api(rawGateway, (k) => k !== 'version'), api(rawNative, isGateway));
  assert.deepEqual(api(rawEvents, (k) => k !== 'version'), api(rawNative, isEvents));
  assert.deepEqual(api(rawGcf3, (k) => k !== 'version'), api(rawNative, isGcf3));
  assert.equal(typeof rawNative.tokensCount, 'function');
  const methods = (c) => Object.getOwnPropertyNames(c.prototype).filter((k) => k !== 'constructor' && k !== 'free' && !k.startsWith('__')).sort();
  for (const cls of ['GcxEncoder', 'GcxDecoder', 'GcfSession']) {
    assert.deepEqual(methods(rawWasm[cls]), methods(rawNative[cls]), cls);
  }
  assert.deepEqual(methods(rawGateway.GatewaySession), methods(rawNative.GatewaySession));
  assert.deepEqual(methods(rawEvents.EventsDecoder), methods(rawNative.EventsDecoder));
  for (const cls of ['Gcf3GraphSession', 'Gcf3KeyedSession']) {
    assert.deepEqual(methods(rawGcf3[cls]), methods(rawNative[cls]), cls);
  }
});

test('browser entry: API refuses before init(), works after init(bytes)', async () => {
  const browserEntry = await import(pathToFileURL(join(packageDir, 'browser.js')).href);
  assert.throws(() => browserEntry.gcx.escape('x'), { name: 'AgentwireError', code: 'NOT_INITIALIZED' });
  await browserEntry.init(readFileSync(join(packageDir, 'wasm', 'web', 'agentwire_wasm_bg.wasm')));
  assert.equal(browserEntry.gcx.encodeGeneric('t', { a: 1 }), 'GCX1 tool=t fields=a\n1\n');
  assert.throws(() => browserEntry.tokens.count('x'), { name: 'AgentwireError', code: 'NOT_INITIALIZED' });
  const tokensEntry = await import(pathToFileURL(join(packageDir, 'tokens.js')).href);
  await tokensEntry.load('cl100k', readFileSync(join(packageDir, 'wasm', 'tokens-cl100k', 'web', 'agentwire_wasm_tokens_bg.wasm')));
  assert.equal(tokensEntry.count('hello world'), 2);
  assert.equal(browserEntry.tokens.count('hello world', 'cl100k_base'), 2);
  assert.throws(() => browserEntry.gateway.parsePath('/'), { name: 'AgentwireError', code: 'NOT_INITIALIZED' });
  await browserEntry.gateway.load(readFileSync(join(packageDir, 'wasm', 'gateway', 'web', 'agentwire_wasm_gateway_bg.wasm')));
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
