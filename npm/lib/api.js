// The public JS API, built over a raw backend (the napi addon or the wasm module). Both
// backends export the same text-only functions (see bindings-node and bindings-wasm); each area
// converts arguments to text, makes one call, and parses the JSON result.

import { makeBoundary } from './call.js';
import { makeEvents } from './events.js';
import { makeGateway } from './gateway.js';
import { makeGcx } from './gcx.js';
import { makeGraph } from './graph.js';
import { makeTokens } from './tokens.js';

/**
 * @param {{ raw: () => any, name: 'native' | 'wasm' }} backend  `raw()` returns the raw module
 *   (or throws an AgentwireError when it is not ready).
 * @param {{ count: (text: string, encoding: string) => number, load: (encoding: string) => unknown }}
 *   tokenBackend  exact token counts (the addon, or the per-encoding wasm modules)
 * @param {{ gateway?: AreaBackend, events?: AreaBackend, gcf3?: AreaBackend }} [areas]  where the gateway, events and GCF v3
 *   functions live: the addon itself, or their separately loaded wasm modules
 * @typedef {{ raw: () => any, load: (input?: unknown) => unknown }} AreaBackend
 */
export function createApi(backend, tokenBackend, areas = {}) {
  const same = { raw: backend.raw, load: () => undefined };
  const { gateway = same, events = same, gcf3 = same } = areas;
  const boundary = makeBoundary(backend);
  const { call } = boundary;
  const { gcf, gcb, codecs } = makeGraph(boundary, makeBoundary(gcf3), { load: gcf3.load });
  const tokens = makeTokens(boundary, tokenBackend);
  return {
    gcx: makeGcx(boundary),
    gcf,
    gcb,
    codecs,
    tokens,
    gateway: makeGateway(makeBoundary(gateway), { native: backend.name === 'native', tokens, load: gateway.load }),
    events: makeEvents(makeBoundary(events), { load: events.load }),
    /** Every stable error code the core can report. */
    errorCodes: () => JSON.parse(call((raw) => raw.errorCodes())),
    /** Version of the Rust core behind this backend. */
    coreVersion: () => call((raw) => raw.version()),
  };
}
