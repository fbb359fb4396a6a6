// @ts-check
// Node entry for `agentwire/wasm`: always the wasm build.
import { createApi } from './lib/api.js';
import { loadNodeBackend } from './lib/node-backend.js';

const backendOf = loadNodeBackend({ forceWasm: true });
const api = createApi(backendOf);

export { AgentwireError } from './lib/errors.js';
export const { gcx, gcf, gcb, codecs, tokens, gateway, events, toon, compact, errorCodes, coreVersion } = api;
export const backend = backendOf.name;
export const nativeLoadError = null;
export function init() {
  return Promise.resolve();
}
