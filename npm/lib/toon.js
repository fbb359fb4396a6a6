// @ts-check
// TOON on the `toon` namespace (agentwire::toon, spec 4.0): a JSON value (or JSON text) to TOON
// and back, byte for byte what @toon-format/toon writes. The options are that library's:
// encode {indent, delimiter, keyFolding, flattenDepth}, decode {indent, strict, expandPaths}.
// In wasm it is its own module (`await toon.load()` in browsers; Node loads it on first use).

import { argumentError } from './errors.js';
import { asyncLoad } from './load.js';
import { text, value } from './gcx.js';

/** The encode options as the core reads them: `flattenDepth: Infinity` is no limit. */
function encodeOptions(options) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object') throw argumentError('INVALID_ARGUMENT', `options must be an object, got ${typeof options}`);
  if (options.replacer !== undefined) {
    throw argumentError('INVALID_ARGUMENT', 'options.replacer is not supported: transform the value before encoding it');
  }
  const { flattenDepth, ...rest } = options;
  return flattenDepth === Infinity || flattenDepth === undefined ? rest : { ...rest, flattenDepth };
}

/** @param {{ boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} area */
export function makeToon({ boundary, load }) {
  const { call } = boundary;
  return Object.freeze({
    /** Browsers: fetches the TOON wasm module (Node: resolves at once). */
    load: asyncLoad(load),
    /** A JSON value → TOON text. */
    encode(input, options) {
      return call('toon.encode', undefined, value(input, 'value'), encodeOptions(options));
    },
    /** JSON text → TOON text (numbers exactly as written, integers past 2^53 too). */
    encodeJson(json, options) {
      return call('toon.encode', text(json, 'json'), encodeOptions(options));
    },
    /** TOON text → the JSON value (strict by default; errors carry a TOON_ code, line and column). */
    decode(toonText, options) {
      return call('toon.decode', text(toonText, 'text'), options);
    },
  });
}
