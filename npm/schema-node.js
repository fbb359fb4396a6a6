// @ts-check
// `agentwire/schema` in Node: the schema wasm module, loaded on first use.
import { loadWasmModule, wasmBoundary } from './lib/node-backend.js';
import { makeSchema } from './lib/schema.js';

export const { load, check, validator } = makeSchema({
  boundary: wasmBoundary('schema'),
  load: () => void loadWasmModule('schema'),
});
