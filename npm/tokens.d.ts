// Types of `agentwire/tokens`: exact tiktoken counts, loaded separately from the codec.

import type { WasmInput } from './index.js';

/** The encodings agentwire counts exactly. */
export declare const encodings: readonly ['cl100k_base', 'o200k_base'];

/** A token encoding name (the `_base` suffix may be left out). */
export type TokenEncoding = 'cl100k_base' | 'o200k_base' | 'cl100k' | 'o200k';

/**
 * Makes `count` ready for an encoding. Browsers fetch that encoding's wasm module (a few MB;
 * `input` may be a URL, Response, bytes or compiled module); Node resolves at once.
 */
export declare function load(
  encoding?: TokenEncoding,
  input?: WasmInput,
): Promise<void>;

/** Exact token count of `text` (ordinary encoding: special-token text counts as text). */
export declare function count(text: string, encoding?: TokenEncoding): number;
