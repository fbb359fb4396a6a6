// `agentwire/tokens` in browsers and bundlers: exact token counts, loaded separately from the
// codec (`await load('cl100k_base')`, then `count(text)`).
import { tokens } from './browser.js';

export const { load, count, encodings } = tokens;
