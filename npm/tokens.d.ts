// Types of `agentwire/tokens`: exact token counts and ids, loaded separately from the codec.

import type { TokenEncoding, WasmInput } from './index.js';

export type { TokenEncoding };

/** The encodings agentwire counts exactly. */
export declare const encodings: readonly ['cl100k_base', 'o200k_base'];

/**
 * Makes an encoding countable. Browsers fetch the counter's wasm module and the vocabulary
 * (0.7 MB for cl100k, 1.6 MB for o200k; `input` gives their URLs, Responses or bytes when they
 * are served elsewhere); Node reads them on first use anyway.
 */
export declare function load(
  encoding?: TokenEncoding,
  input?: { wasm?: WasmInput; vocabulary?: string | URL | Response | Uint8Array | ArrayBuffer },
): Promise<void>;

/**
 * Exact token count of `text` (ordinary encoding: special-token text counts as text). UTF-8
 * bytes are counted as their text; invalid UTF-8 throws `INVALID_UTF8` at its position.
 */
export declare function count(text: string | Uint8Array, encoding?: TokenEncoding): number;

/** The count if it is at most `limit`, else `null`: counting stops as soon as it passes. */
export declare function countWithin(text: string, limit: number, encoding?: TokenEncoding): number | null;

/** The token ids of `text`. */
export declare function encode(text: string, encoding?: TokenEncoding): Uint32Array;

/** The text of token ids (bytes that are not UTF-8 become U+FFFD). */
export declare function decode(ids: Uint32Array | readonly number[], encoding?: TokenEncoding): string;

/** The bytes of token ids. */
export declare function decodeBytes(ids: Uint32Array | readonly number[], encoding?: TokenEncoding): Uint8Array;
