// The hostile-input corpus (tests/hostile/manifest.json, also run in Rust by
// tests/runner/tests/hostile.rs) through the native addon ('agentwire') and the wasm build
// ('agentwire/wasm'): each case's code and position (or result) in both, the two runtimes
// identical, the process alive at the end and its memory bounded. Then real Rust panics
// (`__agentwireInternalPanicForTests`) in every separately built module, in a child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { backends, packageDir } from './helpers.mjs';

const manifest = JSON.parse(readFileSync(join(packageDir, '..', 'tests', 'hostile', 'manifest.json'), 'utf8'));
const runtimes = await backends();
const encoder = new TextEncoder();

const hexBytes = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));

/** The case's input as the JS function takes it: a string, a Uint8Array or a value. */
function input(c) {
  const parts = Array.isArray(c.input) ? c.input : [c.input];
  const binary = parts.some((p) => typeof p === 'object' && ('hex' in p || 'repeatHex' in p));
  const kind = c.jsInput ?? (binary ? 'bytes' : 'string');
  const pieces = parts.map((p) => {
    if (typeof p === 'string') return p;
    if ('text' in p) return p.text;
    if ('repeat' in p) return p.repeat.repeat(p.count);
    if ('utf16' in p) return String.fromCharCode(...p.utf16);
    if ('hex' in p) return hexBytes(p.hex);
    if ('repeatHex' in p) {
      const one = hexBytes(p.repeatHex);
      const out = new Uint8Array(one.length * p.count);
      for (let i = 0; i < p.count; i++) out.set(one, i * one.length);
      return out;
    }
    throw new Error(`unknown input part ${JSON.stringify(p)}`);
  });
  if (kind === 'string') return pieces.join('');
  if (kind === 'value') return JSON.parse(pieces.join(''));
  const chunks = pieces.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Runs the case's JS function on one runtime. */
function call(api, c, arg) {
  const { options, tool = 't' } = c;
  switch (c.js) {
    case 'gcx.decode':
      return api.gcx.decode(arg, options);
    case 'gcx.Decoder': {
      const decoder = new api.gcx.Decoder(options);
      try {
        decoder.push(arg);
        decoder.finish();
        let items = 0;
        while (decoder.next() !== null) items++;
        return { items };
      } finally {
        decoder.free();
      }
    }
    case 'gcx.encode':
      return api.gcx.encode(arg, options);
    case 'gcx.encodeGeneric':
      return api.gcx.encodeGeneric(tool, arg, options);
    case 'gcx.encodeGenericJson':
      return api.gcx.encodeGenericJson(tool, arg, options);
    case 'gcx.encodeToolJson':
      return api.gcx.encodeToolJson(tool, arg, options);
    case 'gcf.decode':
      return api.gcf.decode(arg, options);
    case 'gcf.encodeJson':
      return api.gcf.encodeJson(arg);
    case 'gcf.decodeAny':
      return api.gcf.decodeAny(arg, options);
    case 'toon.decode':
      return api.toon.decode(arg, options);
    case 'gcb.decode':
      return api.gcb.decode(arg, options);
    case 'events.parse':
      return api.events.parse(arg, options);
    case 'gateway.parseToolId':
      return api.gateway.parseToolId(arg);
    case 'gateway.parsePath':
      return api.gateway.parsePath(arg);
    case 'gateway.toolId':
      return api.gateway.toolId(arg, options);
    default:
      throw new Error(`unknown JS function ${c.js}`);
  }
}

function checkOk(expect, result) {
  if (!('equals' in expect)) return;
  let at = result;
  for (const step of expect.path ?? []) {
    assert.ok(at != null && step in Object(at), `no ${step} in the result`);
    at = at[step];
  }
  assert.deepEqual(at, expect.equals);
}

function checkEvents(expect, result) {
  if ('valid' in expect) assert.equal(result.valid, expect.valid);
  for (const wanted of expect.diagnostics) {
    const found = result.diagnostics.some((d) =>
      Object.entries(wanted).every(([k, v]) => (k === 'messageIncludes' ? d.message.includes(v) : d[k] === v)),
    );
    const shown = result.diagnostics.map((d) => ({ ...d, message: d.message.slice(0, 120) }));
    assert.ok(found, `no diagnostic like ${JSON.stringify(wanted)} in ${JSON.stringify(shown)}`);
  }
}

function checkError(expect, e) {
  assert.equal(e?.name, 'AgentwireError', `not an AgentwireError: ${e?.stack ?? e}`);
  for (const [key, want] of Object.entries(expect)) {
    if (key === 'messageIncludes') assert.ok(e.message.includes(want), `message ${JSON.stringify(e.message)} lacks ${want}`);
    else assert.equal(e[key], want, `${key} of ${JSON.stringify({ code: e.code, message: e.message.slice(0, 200), line: e.line, column: e.column, columnUtf16: e.columnUtf16, offset: e.offset })}`);
  }
}

/** The outcome of one case on one runtime: what the two runtimes must share. */
function run(api, c, arg) {
  let result;
  try {
    result = call(api, c, arg);
  } catch (e) {
    if (!(e instanceof Error) || e.name !== 'AgentwireError') throw e;
    return { error: e };
  }
  return { result };
}

function check(c, outcome) {
  const expect = c.expectJs ?? c.expect;
  if ('diagnostics' in expect) {
    assert.ok(!outcome.error, `expected a verdict, got ${outcome.error?.code}: ${outcome.error?.message}`);
    return checkEvents(expect, outcome.result);
  }
  if (expect.ok) {
    assert.ok(!outcome.error, `expected success, got ${outcome.error?.code}: ${outcome.error?.message}`);
    return checkOk(expect, outcome.result);
  }
  assert.ok(outcome.error, `expected ${expect.code}, got success`);
  checkError(expect, outcome.error);
}

const summary = (o) =>
  o.error
    ? { code: o.error.code, message: o.error.message, line: o.error.line, column: o.error.column, columnUtf16: o.error.columnUtf16, offset: o.error.offset }
    : { ok: typeof o.result === 'string' ? o.result : JSON.stringify(o.result) };

const rssBefore = process.memoryUsage().rss;
let peakRss = rssBefore;

test('both backends are loaded', () => {
  assert.equal(runtimes.native.backend, 'native');
  assert.equal(runtimes.wasm.backend, 'wasm');
  assert.ok(manifest.cases.length >= 90, `${manifest.cases.length} cases`);
});

for (const c of manifest.cases) {
  test(`hostile: ${c.name}`, () => {
    const outcomes = {};
    for (const [name, api] of Object.entries(runtimes)) {
      // A fresh input per runtime (a case must not see what the other did to it).
      outcomes[name] = run(api, c, input(c));
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      check(c, outcomes[name]);
    }
    assert.deepEqual(summary(outcomes.wasm), summary(outcomes.native), 'native and wasm differ');
  });
}

test('the process survived every case with bounded memory', () => {
  // Without the limits, the bombs in the corpus ask for hundreds of GiB. The wasm memory never
  // shrinks, so this bounds the high-water mark of both runtimes together.
  const growth = peakRss - rssBefore;
  assert.ok(growth < 2 * 1024 ** 3, `RSS grew by ${(growth / 2 ** 20).toFixed(0)} MiB`);
  process.stderr.write(`hostile corpus: RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB -> peak ${(peakRss / 2 ** 20).toFixed(0)} MiB\n`);
});

test('a Rust panic is INTERNAL in the addon and every wasm module, which keep working', () => {
  const child = spawnSync(process.execPath, [join(packageDir, 'test', 'panic-child.mjs')], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  assert.equal(child.signal, null, `the child was killed by ${child.signal}:\n${child.stderr.slice(-2000)}`);
  assert.equal(child.status, 0, `the child failed:\n${child.stderr.slice(-4000)}`);
  const report = JSON.parse(child.stdout);
  const modules = ['native', 'wasm', 'events', 'gateway', 'gcf', 'schema', 'tokens'];
  assert.deepEqual(Object.keys(report).sort(), [...modules, 'repeated'].sort());
  for (const name of modules) {
    const r = report[name];
    assert.ok(r.panics >= 3, `${name}: ${r.panics} panics`);
    assert.deepEqual(r.codes, ['INTERNAL'], `${name}: ${JSON.stringify(r)}`);
    assert.equal(r.name, 'AgentwireError', name);
    assert.match(r.message, /agentwire internal error/, name);
    assert.deepEqual(r.afterwards, r.expected, `${name} after its panics`);
  }
  // The addon's message carries the panic's own text (catch_unwind); wasm reports the trap.
  assert.match(report.native.message, /deliberate panic/);
  assert.match(report.wasm.message, /unreachable/);
  // Objects made before the panics keep working (the wasm instance is kept).
  assert.deepEqual(report.native.madeBefore, { ok: 1 });
  assert.deepEqual(report.wasm.madeBefore, { ok: 1 });
  assert.deepEqual(report.events.madeBefore, { ok: 1 });
  // What docs/limits.md documents: a wasm instance that keeps trapping keeps working, because the
  // boundary gives back the shadow stack each trap left allocated (without that it failed
  // every call after about 1,400 traps); only the trapped calls' heap stays lost.
  const { traps, failure, stackKept, memoryGrowth, afterwards } = report.repeated;
  assert.equal(failure, null, JSON.stringify(failure));
  assert.equal(traps, 20_000);
  assert.equal(stackKept, true);
  assert.deepEqual(afterwards, { ok: [{ a: 'v' }] });
  assert.ok(memoryGrowth <= 20_000 * 1024, `${memoryGrowth} bytes of wasm memory for 20,000 traps`);
  process.stderr.write(`wasm: 20,000 traps on one instance grew its memory by ${memoryGrowth} bytes\n`);
});
