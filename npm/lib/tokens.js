// @ts-check
// tokens: exact cl100k_base / o200k_base counts and ids (agentwire::tokens::Tokenizer). The
// counter runs in the native addon when it is loaded, else in the tokens wasm module of the
// optional package agentwire-tokens; both read the vocabularies from that package's files
// (cl100k_base.bin, o200k_base.bin) the first time an encoding is used. Node reads them at
// once; browsers fetch them in `await tokens.load(encoding)`.

import { argumentError } from './errors.js';
import { text, textOrBytes } from './gcx.js';

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
 * @typedef {{ boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} Area
 * @typedef {{
 *   now?: (encoding: string) => Uint8Array,
 *   later: (encoding: string, input?: unknown) => Promise<Uint8Array>,
 * }} Vocabularies  how a runtime gets a vocabulary's bytes: at once (Node), or fetched
 */

/**
 * @param {() => Area} area  the tokens export area (the addon, or the tokens wasm module)
 * @param {Vocabularies} vocabularies
 */
export function makeTokens(area, vocabularies) {
  const loaded = new Set();

  /** Makes `encoding` countable now, or says how (browsers: `await tokens.load`). */
  function ready(encoding) {
    const e = tokenEncoding(encoding);
    if (!loaded.has(e)) {
      if (vocabularies.now === undefined) {
        throw argumentError('NOT_INITIALIZED', `agentwire: call \`await tokens.load("${e}")\` before counting`);
      }
      area().boundary.call('tokens.load', vocabularies.now(e));
      loaded.add(e);
    }
    return e;
  }

  /** The ids as a Uint32Array, from the little-endian bytes Rust returns. */
  const ids = (bytes) =>
    bytes.byteOffset % 4 === 0
      ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
      : new Uint32Array(bytes.slice().buffer);

  const idBytes = (value) => {
    const array = value instanceof Uint32Array ? value : Array.isArray(value) ? Uint32Array.from(value) : null;
    if (array === null || (Array.isArray(value) && value.some((id) => !Number.isInteger(id) || id < 0 || id > 0xffffffff))) {
      throw argumentError('INVALID_ARGUMENT', 'ids must be a Uint32Array or an array of integers from 0 to 2^32 - 1');
    }
    return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  };

  return Object.freeze({
    /** The encodings agentwire counts exactly. */
    encodings: Object.freeze([...TOKEN_ENCODINGS]),
    /**
     * Makes an encoding countable: loads the counter (browsers fetch the tokens wasm module) and
     * the vocabulary. `input`: `{ wasm, vocabulary }`, where each may be a URL, a Response or
     * bytes, for pages that serve the files elsewhere.
     * @param {string} [encoding]
     * @param {{ wasm?: unknown, vocabulary?: unknown }} [input]
     */
    async load(encoding = 'cl100k_base', input = {}) {
      const e = tokenEncoding(encoding);
      await area().load(input?.wasm);
      if (!loaded.has(e)) {
        const bytes = vocabularies.now !== undefined && input?.vocabulary === undefined ? vocabularies.now(e) : await vocabularies.later(e, input?.vocabulary);
        area().boundary.call('tokens.load', bytes);
        loaded.add(e);
      }
    },
    /** Exact token count of `text`, a string or UTF-8 bytes (special-token text counts as text). */
    count(value, encoding = 'cl100k_base') {
      const t = textOrBytes(value, 'text');
      return area().boundary.call('tokens.count', t, ready(encoding));
    },
    /**
     * The count of `text` if it is at most `limit`, else `null`; counting stops as soon as it
     * passes the limit (exact: a sum of whole pieces only grows).
     */
    countWithin(value, limit, encoding = 'cl100k_base') {
      const t = text(value, 'text');
      if (!Number.isSafeInteger(limit) || limit < 0) {
        throw argumentError('INVALID_ARGUMENT', `limit must be a non-negative integer, got ${String(limit)}`);
      }
      return area().boundary.call('tokens.countWithin', t, limit, ready(encoding));
    },
    /** The token ids of `text`. */
    encode(value, encoding = 'cl100k_base') {
      const t = text(value, 'text');
      return ids(area().boundary.call('tokens.encode', t, ready(encoding)));
    },
    /** The bytes of token ids (a character may span tokens, so a slice of ids need not be UTF-8). */
    decodeBytes(value, encoding = 'cl100k_base') {
      const e = ready(encoding);
      return area().boundary.call('tokens.decodeBytes', idBytes(value), e);
    },
    /** The text of token ids (bytes that are not UTF-8 become U+FFFD). */
    decode(value, encoding = 'cl100k_base') {
      const e = ready(encoding);
      return new TextDecoder().decode(area().boundary.call('tokens.decodeBytes', idBytes(value), e));
    },
    /** For compact.json: makes `encoding` countable in the tokens area and gives its name. */
    ready,
  });
}
