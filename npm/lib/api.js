// @ts-check
// The public JS API over a backend: the native addon, or the wasm modules. Every area calls
// its module through a boundary (boundary.js), which builds results from the transfer tape.

import { makeCompact } from './compaction.js';
import { makeEvents } from './events.js';
import { makeGateway } from './gateway.js';
import { makeGcx } from './gcx.js';
import { makeGraph } from './graph.js';
import { makeTokens } from './tokens.js';
import { makeToon } from './toon.js';

/**
 * @param {{ name: 'native' | 'wasm', area: (name: string) => Area,
 *   vocabularies: import('./tokens.js').Vocabularies,
 *   defaultValidator?: (schema: string, args: string) => string }} backend  `area(name)` gives an
 *   export area's boundary and loader (core, gcf, gateway, events, toon, tokens); `vocabularies`
 *   gives the token vocabularies' bytes; `defaultValidator` validates gateway arguments when a
 *   session is given none (Node)
 * @typedef {{ boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} Area
 */
export function createApi(backend) {
  const core = backend.area('core').boundary;
  const { gcf, gcb, codecs } = makeGraph(core, backend.area('gcf'));
  const tokens = makeTokens(() => backend.area('tokens'), backend.vocabularies);
  const gcx = makeGcx(core);
  return {
    gcx,
    gcf,
    gcb,
    codecs,
    tokens,
    gateway: makeGateway(backend.area('gateway'), { tokens, defaultValidator: backend.defaultValidator }),
    events: makeEvents(backend.area('events')),
    toon: makeToon(backend.area('toon')),
    compact: makeCompact({ gcfArea: () => backend.area('gcf'), tokensArea: () => backend.area('tokens'), tokens }),
    /** Every stable error code the core can report. */
    errorCodes: () => core.call('errorCodes', undefined),
    /** Version of the Rust core behind this backend. */
    coreVersion: () => core.call('version', undefined),
  };
}
