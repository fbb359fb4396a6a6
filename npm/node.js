// Node entry: the native addon, with the wasm build as fallback.
import { createApi } from './lib/api.js';
import { loadNodeBackend, nodeAreaBackend, nodeTokenBackend } from './lib/node-backend.js';

const loaded = loadNodeBackend();
const api = createApi({ raw: () => loaded.raw, name: loaded.name }, nodeTokenBackend(loaded), {
  gateway: nodeAreaBackend(loaded, 'gateway'),
  events: nodeAreaBackend(loaded, 'events'),
  gcf3: nodeAreaBackend(loaded, 'gcf'),
});

export { AgentwireError } from './lib/errors.js';
export const { gcx, gcf, gcb, codecs, tokens, gateway, events, errorCodes, coreVersion } = api;
/** Which build is in use: 'native' or 'wasm'. */
export const backend = loaded.name;
/** Why the native addon was not used (null when it was). */
export const nativeLoadError = loaded.nativeLoadError;
/** Nothing to initialise in Node; present so code can call `await init()` everywhere. */
export function init() {
  return Promise.resolve();
}
