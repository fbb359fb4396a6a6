// Run in its own process by hostile.test.mjs (so an abort fails that test instead of the test
// runner): provokes real Rust panics through `__agentwireInternalPanicForTests` in the native
// addon and in every separately loaded wasm module, through the package's own error boundary
// (lib/boundary.js), then checks that each module still gives the right answers. Prints a JSON
// report: {module: {panics, codes, name, message, afterwards, expected}}.
//
// The addon catches the panic (`#[napi(catch_unwind)]`). A wasm module is built with
// panic=abort, so the panic is a trap (`RuntimeError: unreachable`); the instance is kept, the
// boundary puts its shadow-stack pointer back, and what the trapped call held on the heap is
// not given back. Objects made before the panics keep working in both. Last, a fresh instance of the default module is
// panicked 20,000 times: the boundary gives back the shadow stack each trap left behind.
import { readFileSync } from 'node:fs';
import { makeBoundary } from '../lib/boundary.js';
import { loadNativeModule, wasmBoundary } from '../lib/node-backend.js';

const native = await import('agentwire');
const wasm = await import('agentwire/wasm');
const schema = await import('agentwire/schema');

// The same instances the package entries use (the loaders cache them).
const nativeRaw = loadNativeModule();
const boundaries = {
  native: makeBoundary(() => nativeRaw),
  wasm: wasmBoundary('core'),
  events: wasmBoundary('events'),
  gcf: wasmBoundary('gcf'),
  gateway: wasmBoundary('gateway'),
  schema: wasmBoundary('schema'),
  tokens: wasmBoundary('tokens'),
};

const decodeOk = (api) => api.gcx.decode('GCX1 tool=x fields=a\nv\n').sections[0].rows[0].a;
const decodeError = (api) => {
  try {
    api.gcx.decode('GCX1 tool=x fields=a\né\t2\n');
    return null;
  } catch (e) {
    return [e.code, e.line, e.column, e.offset];
  }
};
const schemaText = '{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}';
const sessionCheck = (api, options) => {
  const tool = { name: 'gh.create_issue', description: 'Create an issue.', inputSchema: JSON.parse(schemaText) };
  const session = new api.gateway.BrowseSession(options);
  session.register([tool]);
  const toolId = api.gateway.toolId(tool).tool_id;
  session.view(toolId);
  const bad = session.execute(toolId, { n: 'x' });
  const good = session.execute(toolId, { n: 1 }, { dryRun: true });
  session.free();
  return [toolId, bad.isError, bad.text, good.isError];
};

/** What each module must still answer after its panics (computed before them too). */
const probes = {
  native: () => [decodeOk(native), decodeError(native), native.tokens.count('hello world'), sessionCheck(native, {})],
  wasm: () => [decodeOk(wasm), decodeError(wasm), wasm.gcf.decode(wasm.gcf.encode({ tool: 't', symbols: [] })).tool],
  events: () => {
    const verdict = wasm.events.parse('{"type":"response.output_text.delta","delta":"hi"}\nnot json\n');
    return [verdict.valid, verdict.result.text, verdict.diagnostics.map((d) => [d.line, d.code])];
  },
  gateway: () => [wasm.gateway.parseToolId('gh:x@1').name, wasm.gateway.parsePath('/a/b')],
  gcf: () => [wasm.gcf.encodeGenericJson('{"a":[1,2]}'), wasm.gcf.decodeAny('GCF profile=generic\n=1\n').value],
  schema: () => [
    schema.check(JSON.parse(schemaText), { n: 1 }).valid,
    schema.check(JSON.parse(schemaText), { n: 'x' }).valid,
    sessionCheck(wasm, { validator: schema.validator }),
  ],
  tokens: () => [wasm.tokens.count('hello world, agentwire', 'cl100k_base'), wasm.tokens.count('hello world, agentwire', 'o200k_base')],
};

const PANICS = { native: 20, wasm: 1000, events: 20, gateway: 20, gcf: 20, schema: 20, tokens: 20 };

/** An object made before the panics, and what using it afterwards gives. */
const madeBefore = {
  native: () => {
    const session = native.gcf.createSession();
    session.encode({ tool: 't', symbols: [{ qualifiedName: 'a', kind: 'function', score: 1, provenance: 'x', distance: 0 }] });
    return () => session.size();
  },
  wasm: () => {
    const session = wasm.gcf.createSession();
    session.encode({ tool: 't', symbols: [{ qualifiedName: 'a', kind: 'function', score: 1, provenance: 'x', distance: 0 }] });
    return () => session.size();
  },
  events: () => {
    const decoder = wasm.events.createDecoder();
    return () => decoder.push('{"type":"response.created"}\n').length;
  },
};

const outcome = (fn) => {
  try {
    return { ok: fn() };
  } catch (e) {
    return { code: e.code, name: e.name, message: e.message };
  }
};

const report = {};
for (const [name, { call }] of Object.entries(boundaries)) {
  const expected = probes[name]();
  const useOld = madeBefore[name]?.();
  const codes = new Set();
  let last = null;
  for (let i = 0; i < PANICS[name]; i++) {
    try {
      call('__agentwireInternalPanicForTests', undefined);
      codes.add('no error');
    } catch (e) {
      codes.add(e.code);
      last = e;
    }
  }
  report[name] = {
    panics: PANICS[name],
    codes: [...codes],
    name: last?.name,
    message: last?.message,
    afterwards: probes[name](),
    expected,
    madeBefore: useOld ? outcome(useOld) : null,
  };
}
// Repeated traps, on a separate instance of the default module (the package's stays as it
// is): the boundary puts back the shadow stack each trapped call left allocated, so the
// instance keeps answering; what a trapped call had on the heap stays lost, and is measured.
// A second copy of the glue (another URL) is a second instance.
const fresh = await import('../wasm/agentwire_core.js?repeated');
const freshExports = fresh.initSync({ module: readFileSync(new URL('../wasm/agentwire_core_bg.wasm', import.meta.url)) });
const { call } = makeBoundary(() => fresh, () => freshExports);
const TRAPS = 20_000;
const stackBefore = freshExports.__stack_pointer.value;
const memoryBefore = freshExports.memory.buffer.byteLength;
let traps = 0;
let failure = null;
for (let k = 0; k < TRAPS && !failure; k++) {
  try {
    call('__agentwireInternalPanicForTests', undefined);
    failure = { message: 'no panic' };
  } catch (e) {
    if (e.code === 'INTERNAL' && /unreachable/.test(e.message)) traps++;
    else failure = { code: e.code, name: e.name, message: e.message };
  }
}
report.repeated = {
  traps,
  failure,
  stackKept: freshExports.__stack_pointer.value === stackBefore,
  memoryGrowth: freshExports.memory.buffer.byteLength - memoryBefore,
  afterwards: outcome(() => call('gcx.decode', 'GCX1 tool=x fields=a\nv\n', undefined).sections[0].rows),
};
process.stdout.write(JSON.stringify(report));
