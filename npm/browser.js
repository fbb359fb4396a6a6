// @ts-check
// Browser and bundler entry: the wasm build. Call `await init()` once before using the API;
// `init(urlOrModule)` loads the default module's .wasm from elsewhere (it is exported as
// `agentwire/agentwire.wasm`). The other areas (gcf v3, gateway, events, tokens) are modules of
// their own, fetched by their `load()`.
import { createApi } from './lib/api.js';
import { lazyWasm } from './lib/lazy-wasm.js';
import { argumentError } from './lib/errors.js';
import { MODULE_OF_AREA, importerOf } from './lib/modules.js';

const NOT_READY = {
  core: 'agentwire: call `await init()` before using the API',
  gcf: 'agentwire: call `await gcf.load()` before using GCF v3 (gcf.encodeGeneric, gcf.decodeAny, …)',
  gateway: 'agentwire: call `await gateway.load()` before using the gateway',
  events: 'agentwire: call `await events.load()` before using events',
  toon: 'agentwire: call `await toon.load()` before using TOON (toon.encode, toon.decode)',
  tokens: 'agentwire: call `await tokens.load("cl100k_base")` (or o200k_base) before counting',
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

/**
 * Browsers fetch a vocabulary in `tokens.load`: from `input` (a URL, a Response or bytes), else
 * from the agentwire-tokens package beside the bundle (`import 'agentwire/tokens'` provides it).
 * @type {import('./lib/tokens.js').Vocabularies}
 */
const vocabularies = {
  async later(encoding, input) {
    if (input instanceof Uint8Array) return input;
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    const source = input ?? (await importerOf('tokens_vocabulary')()).vocabularyUrl(encoding);
    const response = source instanceof Response ? source : await fetch(source);
    if (!response.ok) throw argumentError('NOT_INSTALLED', `agentwire: the ${encoding} vocabulary did not load: HTTP ${response.status} from ${response.url}`);
    return new Uint8Array(await response.arrayBuffer());
  },
};

const api = createApi({ name: 'wasm', area, vocabularies });

export { AgentwireError } from './lib/errors.js';
export const { gcx, gcf, gcb, codecs, tokens, gateway, events, toon, compact, errorCodes, coreVersion } = api;
export const backend = 'wasm';
export const nativeLoadError = null;
