// @ts-check
// Node entry: the native addon, with the wasm build as fallback.
import { createApi } from './lib/api.js';
import { loadNodeBackend } from './lib/node-backend.js';

const backendOf = loadNodeBackend();
const api = createApi(backendOf);

export { AgentwireError } from './lib/errors.js';
export const { gcx, gcf, gcb, codecs, tokens, gateway, events, toon, compact, errorCodes, coreVersion } = api;
/** Which build is in use: 'native' or 'wasm'. */
export const backend = backendOf.name;
/** Why the native addon was not used (null when it was). */
export const nativeLoadError = backendOf.nativeLoadError;
/** Nothing to initialise in Node; present so code can call `await init()` everywhere. */
export function init() {
  return Promise.resolve();
}
