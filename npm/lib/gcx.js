// @ts-check
// gcx: GCX1 encode/decode, streaming classes, tool layouts, workspace-scope shapes.

import { argumentError } from './errors.js';

/** The GCX1 workspace error-code constants (values come from the core). */
const ERROR_CODE_CONSTANTS = [
  'ERR_CODE_UNKNOWN_REPO',
  'ERR_CODE_MISSING_REPO_LIST',
  'ERR_CODE_MISSING_REPO',
  'ERR_CODE_REPO_NOT_ALLOWED',
  'ERR_CODE_WRONG_REPO_SHAPE',
];

export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return 'Uint8Array';
  return typeof value;
}

/** A value argument: what JSON.stringify would write something for. */
export function value(v, name) {
  const t = typeof v;
  if (v === undefined || t === 'function' || t === 'symbol') {
    throw argumentError('INVALID_ARGUMENT', `${name} is not a JSON value (got ${t})`);
  }
  return v;
}

/** A main input that is text: a string. */
export function text(value, name) {
  if (typeof value !== 'string') {
    throw argumentError('INVALID_ARGUMENT', `${name} must be a string, got ${describe(value)}`);
  }
  return value;
}

/** A main input that is text or UTF-8 bytes. */
export function textOrBytes(value, name) {
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw argumentError('INVALID_ARGUMENT', `${name} must be a string or Uint8Array, got ${describe(value)}`);
}

/** A main input that is bytes. */
export function bytes(value, name) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw argumentError('INVALID_ARGUMENT', `${name} must be a Uint8Array or ArrayBuffer, got ${describe(value)}`);
}

/** @param {import('./boundary.js').Boundary} boundary  the default module's */
export function makeGcx(boundary) {
  const { call, construct, method } = boundary;

  /** Streaming GCX1 encoder: sections and rows in, text out piece by piece via take(). */
  class GcxEncoder {
    #raw;
    constructor(options) {
      this.#raw = construct('GcxEncoder', undefined, options);
    }
    /** Writes a section header (and any `rows`/`ops` the section carries). */
    beginSection(section) {
      method(this.#raw, 'GcxEncoder', 'beginSection', undefined, value(section, 'section'));
    }
    /** Writes a row: an array of cells or an object keyed by field. */
    writeRow(row) {
      method(this.#raw, 'GcxEncoder', 'writeRow', undefined, value(row, 'row'));
    }
    /** Writes `# text`. */
    writeComment(comment) {
      method(this.#raw, 'GcxEncoder', 'writeComment', text(comment, 'comment'));
    }
    /** The text written since the last take(). */
    take() {
      return method(this.#raw, 'GcxEncoder', 'take', undefined);
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
      this.#raw = construct('GcxDecoder', undefined, options);
    }
    /** Appends input: a string or UTF-8 bytes (a chunk may end anywhere, even mid-character). */
    push(chunk) {
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
        throw argumentError('INVALID_ARGUMENT', `chunk must be a string or Uint8Array, got ${describe(chunk)}`);
      }
      method(this.#raw, 'GcxDecoder', 'push', chunk);
    }
    /** Marks the end of input. */
    finish() {
      method(this.#raw, 'GcxDecoder', 'finish', undefined);
    }
    /**
     * The next item ({type: 'section' | 'row' | 'comment', …}), or null when the input pushed
     * so far holds no further complete item. A bad row throws and the next call continues.
     */
    next() {
      return method(this.#raw, 'GcxDecoder', 'next', undefined);
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
      return call('gcx.encode', undefined, options, value(sections, 'sections'));
    },
    /** The generic fallback (gcx-go EncodeAny) for any JSON-like value. */
    encodeGeneric(tool, generic, options) {
      return call('gcx.encodeGeneric', undefined, tool, options, value(generic, 'value'));
    },
    /** The generic fallback for JSON text (exact for big integers). */
    encodeGenericJson(tool, json, options) {
      return call('gcx.encodeGeneric', text(json, 'json'), tool, options);
    },
    /**
     * Decodes a payload (string or UTF-8 bytes) to {sections: [{tool, fields, meta, version, rows}]}.
     * Cells are slices of the payload string where they hold no escape, so a kept cell keeps
     * the payload's memory alive.
     */
    decode(payload, options) {
      return call('gcx.decode', textOrBytes(payload, 'payload'), options);
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
      return call('gcx.escape', text(value, 'text'));
    },
    /** The decoder's unescaper. */
    unescape(value) {
      return call('gcx.unescape', text(value, 'text'));
    },
    /** The text a cell is written as (before escaping), e.g. {float64: "1e6"} → "1e+06". */
    cellText(cell) {
      return call('gcx.cellText', undefined, value(cell, 'cell'));
    },
    /**
     * Encodes a tool response by its layout (falling back to the generic encoder when it does
     * not fit), or with `strategy: 'generic' | 'bench'`.
     */
    encodeTool(tool, response, options) {
      return call('gcx.encodeTool', undefined, tool, options, value(response, 'response'));
    },
    /** encodeTool for JSON text. */
    encodeToolJson(tool, json, options) {
      return call('gcx.encodeTool', text(json, 'json'), tool, options);
    },
    /**
     * encodeTool, also saying which strategy wrote the text: {text, strategy, fallbackReason?}
     * (`fallbackReason` when the layout strategy fell back to the generic encoder).
     */
    encodeToolDetailed(tool, response, options) {
      return call('gcx.encodeToolDetailed', undefined, tool, options, value(response, 'response'));
    },
    /** encodeToolDetailed for JSON text. */
    encodeToolJsonDetailed(tool, json, options) {
      return call('gcx.encodeToolDetailed', text(json, 'json'), tool, options);
    },
    /** The built-in per-tool layouts (the form custom layouts take). */
    layouts() {
      return call('gcx.layouts', undefined);
    },
    /** gcx-go ParseFormat: 'gcx' for gcx/gcx1, 'text' for text/compact, else 'json'. */
    parseFormat(value) {
      return call('gcx.parseFormat', text(value, 'format'));
    },
    /** The tool_definitions section (rows sorted by name). */
    encodeToolDefinitions(definitions, options) {
      return call('gcx.encodeToolDefinitions', undefined, value(definitions, 'definitions'), options);
    },
    decodeToolDefinitions(payload) {
      return call('gcx.decodeToolDefinitions', text(payload, 'payload'));
    },
    /** The tool_request section; `repo` is a name (repo), absent (workspace) or a list (fan-out). */
    encodeToolRequest(request, options) {
      return call('gcx.encodeToolRequest', undefined, value(request, 'request'), options);
    },
    decodeToolRequest(payload) {
      return call('gcx.decodeToolRequest', text(payload, 'payload'));
    },
    /** The error section. */
    encodeErrorEnvelope(envelope, options) {
      return call('gcx.encodeErrorEnvelope', undefined, value(envelope, 'envelope'), options);
    },
    decodeErrorEnvelope(payload) {
      return call('gcx.decodeErrorEnvelope', text(payload, 'payload'));
    },
    /** null when the request is legal for the tool's declared scope, else the error envelope. */
    checkRequest(definitions, request, workspaceRepos) {
      return call('gcx.checkRequest', undefined, value(definitions, 'definitions'), value(request, 'request'), value(workspaceRepos, 'workspaceRepos'));
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
        errorCodeConstants ??= call('gcx.errorCodeConstants', undefined);
        return errorCodeConstants[name];
      },
    });
  }
  Object.freeze(gcx);
  return gcx;
}
