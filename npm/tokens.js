// `agentwire/tokens` in browsers and bundlers: exact token counts, loaded separately from the
// codec (`await load('cl100k_base')`, then `count(text)`). The vocabularies are wasm modules
// of the optional package agentwire-tokens; importing this entry is what makes a bundler
// include them, so a bundle without it needs no agentwire-tokens.
import { tokens } from './browser.js';
import { provideModules } from './lib/modules.js';

const provide = () =>
  provideModules({
    tokens_cl100k: () => import('agentwire-tokens/cl100k'),
    tokens_o200k: () => import('agentwire-tokens/o200k'),
  });
provide();

export const { count, encodings } = tokens;

/** Fetches an encoding's module (`input`: its URL, Response, bytes or compiled module). */
export function load(encoding, input) {
  provide();
  return tokens.load(encoding, input);
}
