// tokens: exact tiktoken counts through whichever backend the entry provides (the addon, or the
// per-encoding wasm modules).

import { argumentError, toAgentwireError } from './errors.js';

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

/**
 * @param {{ count: (text: string, encoding: string) => number, load: (encoding: string, input?: unknown) => unknown }}
 *   tokenBackend
 */
export function makeTokens({ text }, tokenBackend) {
  const tokens = Object.freeze({
    /** The encodings agentwire counts exactly. */
    encodings: Object.freeze([...TOKEN_ENCODINGS]),
    /**
     * Makes `count` ready for an encoding: in browsers it fetches that encoding's wasm module
     * (`input`: a URL, Response, bytes or module, as for init()); in Node it resolves at once.
     */
    load(encoding = 'cl100k_base', input = undefined) {
      try {
        return Promise.resolve(tokenBackend.load(tokenEncoding(encoding), input)).then(() => undefined);
      } catch (e) {
        return Promise.reject(toAgentwireError(e));
      }
    },
    /** Exact token count of `text` (tiktoken, ordinary encoding). */
    count(value, encoding = 'cl100k_base') {
      const t = text(value, 'text');
      const e = tokenEncoding(encoding);
      try {
        return tokenBackend.count(t, e);
      } catch (error) {
        throw toAgentwireError(error);
      }
    },
  });
  return tokens;
}
