// Node entry for `agentwire/wasm`: always the wasm build.
import { createApi } from './lib/api.js';
import { loadNodeBackend, nodeAreaBackend, nodeTokenBackend } from './lib/node-backend.js';

const loaded = loadNodeBackend({ forceWasm: true });
const api = createApi({ raw: () => loaded.raw, name: loaded.name }, nodeTokenBackend(loaded), {
  gateway: nodeAreaBackend(loaded, 'gateway'),
  events: nodeAreaBackend(loaded, 'events'),
  gcf3: nodeAreaBackend(loaded, 'gcf'),
});

export { AgentwireError } from './lib/errors.js';
export const { gcx, gcf, gcb, codecs, tokens, gateway, events, errorCodes, coreVersion } = api;
export const backend = loaded.name;
export const nativeLoadError = null;
export function init() {
  return Promise.resolve();
}
