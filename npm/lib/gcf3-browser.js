// GCF v3.5.3 in browsers: its own wasm module, fetched by `gcf.load()`.
import { lazyWasm } from './lazy-wasm.js';

export const browserGcf3Backend = lazyWasm(
  () => import('../wasm/gcf/web/agentwire_wasm_gcf.js'),
  'agentwire: call `await gcf.load()` before using GCF v3 (gcf.encodeGeneric, gcf.decodeAny, …)',
);
