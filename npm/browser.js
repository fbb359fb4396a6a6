// Browser and bundler entry: the wasm build (web target). Call `await init()` once before
// using the API; `init(urlOrModule)` loads the .wasm from elsewhere (it is exported as
// `agentwire/agentwire.wasm`).
import initWasm, * as raw from './wasm/web/agentwire_wasm.js';
import { createApi } from './lib/api.js';
import { argumentError } from './lib/errors.js';
import { browserEventsBackend } from './lib/events-browser.js';
import { browserGcf3Backend } from './lib/gcf3-browser.js';
import { browserGatewayBackend } from './lib/gateway-browser.js';
import { browserTokenBackend } from './lib/tokens-browser.js';

let ready = false;
let loading = null;

/** Loads and instantiates the wasm module (idempotent). */
export function init(input) {
  loading ??= initWasm(input === undefined ? undefined : { module_or_path: input }).then(() => {
    ready = true;
  });
  return loading;
}

const api = createApi({
  raw: () => {
    if (!ready) throw argumentError('NOT_INITIALIZED', 'agentwire: call `await init()` before using the API');
    return raw;
  },
  name: 'wasm',
}, browserTokenBackend, { gateway: browserGatewayBackend, events: browserEventsBackend, gcf3: browserGcf3Backend });

export { AgentwireError } from './lib/errors.js';
export const { gcx, gcf, gcb, codecs, tokens, gateway, events, errorCodes, coreVersion } = api;
export const backend = 'wasm';
export const nativeLoadError = null;
