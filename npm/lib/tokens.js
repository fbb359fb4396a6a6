// tokens: exact tiktoken counts (the native addon counts every encoding; in wasm each
// encoding is its own module, `await tokens.load(encoding)` in browsers).

import { argumentError } from './errors.js';
import { asyncLoad } from './load.js';
import { text } from './gcx.js';

export const TOKEN_ENCODINGS = ['cl100k_base', 'o200k_base'];

/** The canonical name of a token encoding (`cl100k` → `cl100k_base`). */
export function tokenEncoding(name) {
  const canonical = typeof name === 'string' && !name.endsWith('_base') ? `${name}_base` : name;
  if (!TOKEN_ENCODINGS.includes(canonical)) {
    throw argumentError(
      'INVALID_ARGUMENT',
      `unknown token encoding ${JSON.stringify(name)} (expected cl100k_base or o200k_base)`,
    );
  }
  return canonical;
}

/** @param {(encoding: string) => { boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} areaOf */
export function makeTokens(areaOf) {
  return Object.freeze({
    /** The encodings agentwire counts exactly. */
    encodings: Object.freeze([...TOKEN_ENCODINGS]),
    /**
     * Makes `count` ready for an encoding: in browsers it fetches that encoding's wasm module
     * (`input`: a URL, Response, bytes or module, as for init()); in Node it resolves at once.
     */
    load(encoding = 'cl100k_base', input = undefined) {
      return asyncLoad((i) => areaOf(tokenEncoding(encoding)).load(i))(input);
    },
    /** Exact token count of `text` (tiktoken, ordinary encoding). */
    count(value, encoding = 'cl100k_base') {
      const t = text(value, 'text');
      const e = tokenEncoding(encoding);
      return areaOf(e).boundary.call('tokensCount', t, e);
    },
  });
}
