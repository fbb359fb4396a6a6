// `agentwire/tokens` in Node: the same functions as the main entry's `tokens`.
import { tokens } from './node.js';

export const { load, count, countWithin, encode, decode, decodeBytes, encodings } = tokens;
