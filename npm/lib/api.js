// The public JS API, built over a raw backend (the napi addon or the wasm module). Both
// backends export the same text-only functions (see bindings-node and bindings-wasm); this
// module converts arguments to text, makes one call, and parses the JSON result.

import { argumentError, toAgentwireError } from './errors.js';
import { toJsonText } from './json-text.js';

/** The GCX1 workspace error-code constants (values come from the core). */
const ERROR_CODE_CONSTANTS = [
  'ERR_CODE_UNKNOWN_REPO',
  'ERR_CODE_MISSING_REPO_LIST',
  'ERR_CODE_MISSING_REPO',
  'ERR_CODE_REPO_NOT_ALLOWED',
  'ERR_CODE_WRONG_REPO_SHAPE',
];

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
 * @param {{ raw: () => any, name: 'native' | 'wasm' }} backend  `raw()` returns the raw module
 *   (or throws an AgentwireError when it is not ready).
 * @param {{ count: (text: string, encoding: string) => number, load: (encoding: string) => unknown }}
 *   tokenBackend  exact token counts (the addon, or the per-encoding wasm modules)
 */
export function createApi(backend, tokenBackend) {
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

  const gcx = {
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
    /**
     * Encodes a tool response by its layout (falling back to the generic encoder when it does
     * not fit), or with `strategy: 'generic' | 'bench'`.
     */
    encodeTool(tool, response, options) {
      const t = text(tool, 'tool');
      const json = toJsonText(response, 'response');
      const opts = optionsText(options);
      return call((raw) => raw.gcxEncodeTool(t, json, opts));
    },
    /** encodeTool for JSON text. */
    encodeToolJson(tool, json, options) {
      const t = text(tool, 'tool');
      const j = text(json, 'json');
      const opts = optionsText(options);
      return call((raw) => raw.gcxEncodeTool(t, j, opts));
    },
    /** The built-in per-tool layouts (the form custom layouts take). */
    layouts() {
      return JSON.parse(call((raw) => raw.gcxLayouts()));
    },
    /** gcx-go ParseFormat: 'gcx' for gcx/gcx1, 'text' for text/compact, else 'json'. */
    parseFormat(value) {
      const t = text(value, 'format');
      return call((raw) => raw.gcxParseFormat(t));
    },
    /** The tool_definitions section (rows sorted by name). */
    encodeToolDefinitions(definitions, options) {
      const json = toJsonText(definitions, 'definitions');
      const opts = optionsText(options);
      return call((raw) => raw.gcxEncodeToolDefinitions(json, opts));
    },
    decodeToolDefinitions(payload) {
      const p = text(payload, 'payload');
      return JSON.parse(call((raw) => raw.gcxDecodeToolDefinitions(p)));
    },
    /** The tool_request section; `repo` is a name (repo), absent (workspace) or a list (fan-out). */
    encodeToolRequest(request, options) {
      const json = toJsonText(request, 'request');
      const opts = optionsText(options);
      return call((raw) => raw.gcxEncodeToolRequest(json, opts));
    },
    decodeToolRequest(payload) {
      const p = text(payload, 'payload');
      return JSON.parse(call((raw) => raw.gcxDecodeToolRequest(p)));
    },
    /** The error section. */
    encodeErrorEnvelope(envelope, options) {
      const json = toJsonText(envelope, 'envelope');
      const opts = optionsText(options);
      return call((raw) => raw.gcxEncodeErrorEnvelope(json, opts));
    },
    decodeErrorEnvelope(payload) {
      const p = text(payload, 'payload');
      return JSON.parse(call((raw) => raw.gcxDecodeErrorEnvelope(p)));
    },
    /** null when the request is legal for the tool's declared scope, else the error envelope. */
    checkRequest(definitions, request, workspaceRepos) {
      const d = toJsonText(definitions, 'definitions');
      const r = toJsonText(request, 'request');
      const w = toJsonText(workspaceRepos, 'workspaceRepos');
      return JSON.parse(call((raw) => raw.gcxCheckRequest(d, r, w)));
    },
    Encoder: GcxEncoder,
    Decoder: GcxDecoder,
  };
  // ERR_CODE_UNKNOWN_REPO, …: read from the core on first use.
  let errorCodeConstants;
  for (const name of ERROR_CODE_CONSTANTS) {
    Object.defineProperty(gcx, name, {
      enumerable: true,
      get: () => {
        errorCodeConstants ??= JSON.parse(call((raw) => raw.gcxErrorCodeConstants()));
        return errorCodeConstants[name];
      },
    });
  }
  Object.freeze(gcx);

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

  const bytes = (value, name) => {
    if (value instanceof Uint8Array) return value;
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    throw argumentError('INVALID_ARGUMENT', `${name} must be a Uint8Array or ArrayBuffer, got ${describe(value)}`);
  };

  /** GCF v1.1 session: symbols sent in an earlier call are written as bare references. */
  class GcfSession {
    #raw;
    constructor() {
      this.#raw = call((raw) => new raw.GcfSession());
    }
    /** Encodes a payload with session deduplication. */
    encode(payload) {
      const json = toJsonText(payload, 'payload');
      return call(() => this.#raw.encode(json));
    }
    /** `encode` for payload JSON text. */
    encodeJson(json) {
      const j = text(json, 'json');
      return call(() => this.#raw.encode(j));
    }
    /** Number of symbols sent so far. */
    size() {
      return call(() => this.#raw.size());
    }
    /** Forgets every sent symbol. */
    reset() {
      call(() => this.#raw.reset());
    }
    free() {
      this.#raw?.free?.();
      this.#raw = null;
    }
    [Symbol.dispose]() {
      this.free();
    }
  }

  const gcf = Object.freeze({
    /** A graph payload to GCF v1.1 text (byte-identical to gcf-go v0.1.2). */
    encode(payload) {
      const json = toJsonText(payload, 'payload');
      return call((raw) => raw.gcfEncode(json));
    },
    /** `encode` for payload JSON text. */
    encodeJson(json) {
      const j = text(json, 'json');
      return call((raw) => raw.gcfEncode(j));
    },
    /** GCF v1.1 text to a payload. */
    decode(gcfText) {
      return JSON.parse(this.decodeToJson(gcfText));
    },
    /** GCF v1.1 text to payload JSON text. */
    decodeToJson(gcfText) {
      const t = text(gcfText, 'text');
      return call((raw) => raw.gcfDecode(t));
    },
    /** A delta (removed/added symbols and edges) to GCF delta text. */
    encodeDelta(delta) {
      const json = toJsonText(delta, 'delta');
      return call((raw) => raw.gcfEncodeDelta(json));
    },
    encodeDeltaJson(json) {
      const j = text(json, 'json');
      return call((raw) => raw.gcfEncodeDelta(j));
    },
    /** A new session for `session.encode(payload)`. */
    createSession() {
      return new GcfSession();
    },
    Session: GcfSession,
  });

  const gcb = Object.freeze({
    /** A graph payload to GCB1 bytes. */
    encode(payload) {
      const json = toJsonText(payload, 'payload');
      return call((raw) => raw.gcbEncode(json));
    },
    encodeJson(json) {
      const j = text(json, 'json');
      return call((raw) => raw.gcbEncode(j));
    },
    /** GCB1 bytes to a payload. */
    decode(input) {
      return JSON.parse(this.decodeToJson(input));
    },
    decodeToJson(input) {
      const b = bytes(input, 'input');
      return call((raw) => raw.gcbDecode(b));
    },
  });

  let codecList;
  const codecs = Object.freeze({
    /** The codecs: `[{name, aliases, description, text}]` (gcf, gcb, json). */
    list() {
      codecList ??= JSON.parse(call((raw) => raw.codecsList()));
      return codecList.map((c) => ({ ...c, aliases: [...c.aliases] }));
    },
    /** Encodes a payload with the named codec: text for text codecs, bytes for gcb. */
    encode(name, payload) {
      const n = text(name, 'name');
      const json = toJsonText(payload, 'payload');
      const out = call((raw) => raw.codecEncode(n, json));
      const codec = this.list().find((c) => c.name === n || c.aliases.includes(n));
      return codec?.text ? new TextDecoder().decode(out) : out;
    },
    /** Decodes text or bytes with the named codec. */
    decode(name, input) {
      const n = text(name, 'name');
      const b = typeof input === 'string' ? new TextEncoder().encode(input) : bytes(input, 'input');
      return JSON.parse(call((raw) => raw.codecDecode(n, b)));
    },
  });

  return {
    gcx,
    gcf,
    gcb,
    codecs,
    tokens,
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
