// The public JS API, built over a raw backend (the napi addon or the wasm module). Both
// backends export the same text-only functions (see bindings-node and bindings-wasm); this
// module converts arguments to text, makes one call, and parses the JSON result.

import { argumentError, toAgentwireError } from './errors.js';
import { toJsonText } from './json-text.js';

/**
 * @param {{ raw: () => any, name: 'native' | 'wasm' }} backend  `raw()` returns the raw module
 *   (or throws an AgentwireError when it is not ready).
 */
export function createApi(backend) {
  const call = (fn) => {
    let raw;
    try {
      raw = backend.raw();
    } catch (e) {
      throw toAgentwireError(e);
    }
    try {
      return fn(raw);
    } catch (e) {
      throw toAgentwireError(e);
    }
  };
  const optionsText = (options) => (options == null ? '' : toJsonText(options, 'options'));
  const text = (value, name) => {
    if (typeof value !== 'string') {
      throw argumentError('INVALID_ARGUMENT', `${name} must be a string, got ${describe(value)}`);
    }
    return value;
  };

  /** Streaming GCX1 encoder: sections and rows in, text out piece by piece via take(). */
  class GcxEncoder {
    #raw;
    constructor(options) {
      const opts = optionsText(options);
      this.#raw = call((raw) => new raw.GcxEncoder(opts));
    }
    /** Writes a section header (and any `rows`/`ops` the section carries). */
    beginSection(section) {
      const json = toJsonText(section, 'section');
      call(() => this.#raw.beginSection(json));
    }
    /** Writes a row: an array of cells or an object keyed by field. */
    writeRow(row) {
      const json = toJsonText(row, 'row');
      call(() => this.#raw.writeRow(json));
    }
    /** Writes `# text`. */
    writeComment(comment) {
      const t = text(comment, 'comment');
      call(() => this.#raw.writeComment(t));
    }
    /** The text written since the last take(). */
    take() {
      return call(() => this.#raw.take());
    }
    /** Releases the encoder's memory now (wasm); later calls fail. */
    free() {
      this.#raw?.free?.();
      this.#raw = null;
    }
    [Symbol.dispose]() {
      this.free();
    }
  }

  /** Push decoder: push(chunk) any number of times, finish(), and read items with next(). */
  class GcxDecoder {
    #raw;
    constructor(options) {
      const opts = optionsText(options);
      this.#raw = call((raw) => new raw.GcxDecoder(opts));
    }
    /** Appends input: a string or UTF-8 bytes (a chunk may end anywhere, even mid-character). */
    push(chunk) {
      if (typeof chunk === 'string') call(() => this.#raw.pushStr(chunk));
      else if (chunk instanceof Uint8Array) call(() => this.#raw.pushBytes(chunk));
      else throw argumentError('INVALID_ARGUMENT', `chunk must be a string or Uint8Array, got ${describe(chunk)}`);
    }
    /** Marks the end of input. */
    finish() {
      call(() => this.#raw.finish());
    }
    /**
     * The next item ({type: 'section' | 'row' | 'comment', …}), or null when the input pushed
     * so far holds no further complete item. A bad row throws and the next call continues.
     */
    next() {
      const json = call(() => this.#raw.nextItem());
      return json == null ? null : JSON.parse(json);
    }
    *[Symbol.iterator]() {
      for (let item = this.next(); item !== null; item = this.next()) yield item;
    }
    free() {
      this.#raw?.free?.();
      this.#raw = null;
    }
    [Symbol.dispose]() {
      this.free();
    }
  }

  const gcx = Object.freeze({
    /** Encodes sections ([…] or {sections: […]}) to GCX1 text. */
    encode(sections, options) {
      const json = toJsonText(sections, 'sections');
      const opts = optionsText(options);
      return call((raw) => raw.gcxEncode(json, opts));
    },
    /** The generic fallback (gcx-go EncodeAny) for any JSON-like value. */
    encodeGeneric(tool, value, options) {
      const t = text(tool, 'tool');
      const json = toJsonText(value, 'value');
      const opts = optionsText(options);
      return call((raw) => raw.gcxEncodeGeneric(t, json, opts));
    },
    /** The generic fallback for JSON text (exact for big integers; the fast path). */
    encodeGenericJson(tool, json, options) {
      const t = text(tool, 'tool');
      const j = text(json, 'json');
      const opts = optionsText(options);
      return call((raw) => raw.gcxEncodeGeneric(t, j, opts));
    },
    /** Decodes a payload (string or UTF-8 bytes) to {sections: [{tool, fields, meta, version, rows}]}. */
    decode(payload, options) {
      const opts = optionsText(options);
      if (typeof payload === 'string') return JSON.parse(call((raw) => raw.gcxDecode(payload, opts)));
      if (payload instanceof Uint8Array) return JSON.parse(call((raw) => raw.gcxDecodeBytes(payload, opts)));
      throw argumentError('INVALID_ARGUMENT', `payload must be a string or Uint8Array, got ${describe(payload)}`);
    },
    /** Decodes an (async) iterable of chunks, yielding items as they complete. */
    async *decodeStream(chunks, options) {
      const decoder = new GcxDecoder(options);
      try {
        for await (const chunk of chunks) {
          decoder.push(chunk);
          yield* decoder;
        }
        decoder.finish();
        yield* decoder;
      } finally {
        decoder.free();
      }
    },
    /** The row escaper: `\` → `\\`, TAB → `\t`, LF → `\n`, CR dropped. */
    escape(value) {
      const t = text(value, 'text');
      return call((raw) => raw.gcxEscape(t));
    },
    /** The decoder's unescaper. */
    unescape(value) {
      const t = text(value, 'text');
      return call((raw) => raw.gcxUnescape(t));
    },
    /** The text a cell is written as (before escaping), e.g. {float64: "1e6"} → "1e+06". */
    cellText(cell) {
      const json = toJsonText(cell, 'cell');
      return call((raw) => raw.gcxCellText(json));
    },
    Encoder: GcxEncoder,
    Decoder: GcxDecoder,
  });

  return {
    gcx,
    /** Every stable error code the core can report. */
    errorCodes: () => JSON.parse(call((raw) => raw.errorCodes())),
    /** Version of the Rust core behind this backend. */
    coreVersion: () => call((raw) => raw.version()),
  };
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
