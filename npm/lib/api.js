// The public JS API, built over a raw backend (the napi addon or the wasm module). Both
// backends export the same text-only functions (see bindings-node and bindings-wasm); each area
// converts arguments to text, makes one call, and parses the JSON result.

import { makeBoundary } from './call.js';
import { makeGcx } from './gcx.js';
import { makeGraph } from './graph.js';
import { makeTokens } from './tokens.js';

/**
 * @param {{ raw: () => any, name: 'native' | 'wasm' }} backend  `raw()` returns the raw module
 *   (or throws an AgentwireError when it is not ready).
 * @param {{ count: (text: string, encoding: string) => number, load: (encoding: string) => unknown }}
 *   tokenBackend  exact token counts (the addon, or the per-encoding wasm modules)
 */
export function createApi(backend, tokenBackend) {
  const boundary = makeBoundary(backend);
  const { call } = boundary;
  const { gcf, gcb, codecs } = makeGraph(boundary);
  return {
    gcx: makeGcx(boundary),
    gcf,
    gcb,
    codecs,
    tokens: makeTokens(boundary, tokenBackend),
    /** Every stable error code the core can report. */
    errorCodes: () => JSON.parse(call((raw) => raw.errorCodes())),
    /** Version of the Rust core behind this backend. */
    coreVersion: () => call((raw) => raw.version()),
  };
}
