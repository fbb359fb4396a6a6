// @ts-check
// Browser and bundler entry: the wasm build. Call `await init()` once before using the API;
// `init(urlOrModule)` loads the default module's .wasm from elsewhere (it is exported as
// `agentwire/agentwire.wasm`). The other areas (gcf v3, gateway, events, tokens) are modules of
// their own, fetched by their `load()`.
import { createApi } from './lib/api.js';
import { lazyWasm } from './lib/lazy-wasm.js';
import { MODULE_OF_AREA } from './lib/modules.js';

const NOT_READY = {
  core: 'agentwire: call `await init()` before using the API',
  gcf: 'agentwire: call `await gcf.load()` before using GCF v3 (gcf.encodeGeneric, gcf.decodeAny, …)',
  gateway: 'agentwire: call `await gateway.load()` before using the gateway',
  events: 'agentwire: call `await events.load()` before using events',
  cl100k_base: 'agentwire: call `await tokens.load("cl100k_base")` before counting',
  o200k_base: 'agentwire: call `await tokens.load("o200k_base")` before counting',
};

const areas = new Map();
function area(name) {
  if (!areas.has(name)) areas.set(name, lazyWasm(MODULE_OF_AREA[name], NOT_READY[name]));
  return areas.get(name);
}

/** Loads and instantiates the default wasm module (idempotent). */
export function init(input) {
  return area('core').load(input);
}

const api = createApi({ name: 'wasm', area });

export { AgentwireError } from './lib/errors.js';
export const { gcx, gcf, gcb, codecs, tokens, gateway, events, compact, errorCodes, coreVersion } = api;
export const backend = 'wasm';
export const nativeLoadError = null;
