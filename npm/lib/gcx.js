// gcx: GCX1 encode/decode, streaming classes, tool layouts, workspace-scope shapes.

import { argumentError } from './errors.js';
import { describe } from './call.js';

/** The GCX1 workspace error-code constants (values come from the core). */
const ERROR_CODE_CONSTANTS = [
  'ERR_CODE_UNKNOWN_REPO',
  'ERR_CODE_MISSING_REPO_LIST',
  'ERR_CODE_MISSING_REPO',
  'ERR_CODE_REPO_NOT_ALLOWED',
  'ERR_CODE_WRONG_REPO_SHAPE',
];

export function makeGcx({ call, text, optionsText, toJsonText }) {
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
  return gcx;
}
