// A small app bundled by esbuild (test/pack/esbuild.test.mjs, docs/bundlers.md). Each .wasm is
// imported as a URL (esbuild's `file` loader copies it beside the bundle under a hashed name)
// and handed to its module's load.
import { backend, gcf, gcx, init } from 'agentwire';
import { count, load } from 'agentwire/tokens';
import coreWasm from 'agentwire/core.wasm';
import gcfWasm from 'agentwire/gcf.wasm';
import cl100kWasm from 'agentwire-tokens/cl100k.wasm';

try {
  await init(coreWasm);
  await gcf.load(gcfWasm);
  await load('cl100k_base', cl100kWasm);
  window.agentwireResult = {
    backend,
    gcx: gcx.encodeGeneric('t', { a: 1 }),
    gcf: gcf.encodeGeneric({ rows: [{ id: 1, name: 'Ada' }] }),
    tokens: count('hello world'),
    urls: [coreWasm, gcfWasm, cl100kWasm],
  };
} catch (e) {
  window.agentwireResult = { error: String(e?.stack ?? e) };
}
