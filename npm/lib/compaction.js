// @ts-check
// compact: the JS face of agentwire::compact (core/src/compact), one call into Rust per
// `compact.json`. Rust parses the input once, builds and checks every candidate and counts
// them: with an exact encoding in the module that holds its vocabulary (the addon, or the
// tokens wasm module), with `tokenizer: 'bytes'` or your own `counter` in the GCF module.

import { argumentError } from './errors.js';
import { text as textArg } from './gcx.js';

/**
 * @param {{ gcfArea: () => import('./tokens.js').Area, tokensArea: () => import('./tokens.js').Area,
 *   tokens: ReturnType<typeof import('./tokens.js').makeTokens> }} parts
 */
export function makeCompact({ gcfArea, tokensArea, tokens }) {
  /**
   * The most compact lossless form of a JSON document (see index.d.ts).
   * @param {unknown} input  JSON text (a string, or UTF-8 bytes), or a value (measured as
   *   `JSON.stringify(value)`)
   * @param {{ tool?: string, tokenizer?: string, counter?: (text: string) => number,
   *   minSavings?: number, exactCounts?: boolean, candidateTexts?: boolean }} [options]
   */
  function json(input, options = {}) {
    if (input === undefined || typeof input === 'function' || typeof input === 'symbol') {
      throw argumentError('INVALID_ARGUMENT', `input is not a JSON value or JSON text (got ${typeof input})`);
    }
    const { tool = 'result', tokenizer = 'cl100k_base', counter, minSavings = 0.1, exactCounts = false, candidateTexts = false } = options ?? {};
    if (typeof tool !== 'string') throw argumentError('INVALID_ARGUMENT', `option tool: expected a string, got ${typeof tool}`);
    if (typeof minSavings !== 'number' || !(minSavings >= 0)) {
      throw argumentError('INVALID_ARGUMENT', `option minSavings: expected a number ≥ 0, got ${String(minSavings)}`);
    }
    if (counter !== undefined && typeof counter !== 'function') {
      throw argumentError('INVALID_ARGUMENT', `option counter: expected a function (text) => number, got ${typeof counter}`);
    }
    const exact = counter === undefined && tokenizer !== 'bytes';
    const settings = { tool, minSavings, exactCounts, candidateTexts, tokenizer: exact ? tokens.ready(tokenizer) : 'bytes' };
    const { boundary } = exact ? tokensArea() : gcfArea();
    const hooks = counter === undefined ? undefined : { counter };
    return typeof input === 'string' || input instanceof Uint8Array
      ? boundary.callWithHooks('compact.json', hooks, input, settings)
      : boundary.callWithHooks('compact.json', hooks, undefined, input, settings);
  }

  /** The JSON value of a text `json` chose (undefined for a GCX1 per-tool layout). */
  function decode(value) {
    const [decoded] = gcfArea().boundary.call('compact.decode', textArg(value, 'text'));
    return decoded;
  }

  return Object.freeze({ json, decode, equal });
}

/** JSON structural equality (object member order ignored). */
export function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !equal(a[k], b[k])) return false;
  return true;
}
