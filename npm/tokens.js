// @ts-check
// `agentwire/tokens` in browsers and bundlers: exact token counts, loaded separately from the
// codec (`await load('cl100k_base')`, then `count(text)`). The counter's wasm module and the
// vocabularies are in the optional package agentwire-tokens; importing this entry is what makes
// a bundler include them, so a bundle without it needs no agentwire-tokens.
import { tokens } from './browser.js';
import { provideModules } from './lib/modules.js';

const provide = () =>
  provideModules({
    tokens: () => import('agentwire-tokens/tokens'),
    tokens_vocabulary: () => import('agentwire-tokens/vocabulary'),
  });
provide();

export const { count, countWithin, encode, decode, decodeBytes, encodings } = tokens;

/**
 * Fetches the counter and an encoding's vocabulary (`input`: `{ wasm, vocabulary }`, each a
 * URL, Response or bytes, when the files are served elsewhere).
 * @param {string} [encoding]
 * @param {{ wasm?: unknown, vocabulary?: unknown }} [input]
 */
export function load(encoding, input) {
  provide();
  return tokens.load(encoding, input);
}
