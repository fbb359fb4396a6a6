// GCF v3.5.3 on the `gcf` namespace: the generic profile (any JSON value, lossless), the graph
// profile (sessions, streaming, deltas, pack roots), keyed-set deltas, and `decodeAny`, which
// reads GCF v1.1 and v3 and says which it read. In wasm it is its own module
// (`await gcf.load()` in browsers; Node loads it on first use).

import { asyncLoad } from './call.js';

const encoder = new TextEncoder();

/**
 * @param {ReturnType<import('./call.js').makeBoundary>} boundary
 * @param {{ load: (input?: unknown) => unknown }} env
 */
export function makeGcf3({ call, text, optionsText, bytes, toJsonText }, { load }) {
  const json = (fn) => JSON.parse(call(fn));
  const input = (value) => (typeof value === 'string' ? encoder.encode(value) : bytes(value, 'input'));
  // JavaScript numbers are doubles: integers past 2^53 − 1 are encoded as the doubles they are.
  const hostNumbers = JSON.stringify({ numbers: 'host' });
  const decodeOptions = (options) => optionsText({ largeInt: 'error', ...options });

  /** GCF v3.5.3 graph session: stable ids across calls, sent symbols as bare references. */
  class GraphSession {
    #raw;
    constructor() {
      this.#raw = call((raw) => new raw.Gcf3GraphSession());
    }
    /** Encodes a payload in this session. */
    encode(payload) {
      const j = toJsonText(payload, 'payload');
      return call(() => this.#raw.encode(j));
    }
    /** Number of symbols with a session id. */
    size() {
      return call(() => this.#raw.size());
    }
    /** Forgets every id. */
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

  /** A producer's keyed-set delta session: full payload or delta per `emit`, by policy. */
  class KeyedSession {
    #raw;
    constructor(options) {
      const o = optionsText(options);
      this.#raw = call((raw) => new raw.Gcf3KeyedSession(o));
    }
    /** The next payload for the current set: `{isFull, wire}`. */
    emit(set) {
      const j = toJsonText(set, 'set');
      return json(() => this.#raw.emit(j));
    }
    free() {
      this.#raw?.free?.();
      this.#raw = null;
    }
    [Symbol.dispose]() {
      this.free();
    }
  }

  const keyed = Object.freeze({
    /** `{root: 'sha256:…', canonical}` of a keyed set `{key, fields, rows}`. */
    packRoot(set) {
      const j = toJsonText(set, 'set');
      return json((raw) => raw.gcf3KeyedPackRoot(j));
    },
    /** The full payload of a keyed set, with `pack_root` and `key` (`{tool}`). */
    encodeFull(set, options) {
      const j = toJsonText(set, 'set');
      const o = optionsText(options);
      return call((raw) => raw.gcf3KeyedEncodeFull(j, o));
    },
    /** A generic delta `{key, fields, baseRoot, newRoot, added, changed, removed, …}` as GCF. */
    encodeDelta(delta) {
      const j = toJsonText(delta, 'delta');
      return call((raw) => raw.gcf3KeyedEncodeDelta(j));
    },
    /** Applies a delta (GCF text or object) to a base set atomically: `{set, root}`. */
    applyDelta(base, delta) {
      const b = toJsonText(base, 'base');
      const d = typeof delta === 'string' ? delta : toJsonText(delta, 'delta');
      return json((raw) => raw.gcf3KeyedApplyDelta(b, d));
    },
    createSession(options) {
      return new KeyedSession(options);
    },
    Session: KeyedSession,
  });

  const api = {
    /** Browsers: fetches the GCF v3 wasm module (Node: resolves at once). */
    load: asyncLoad(load),
    /** Any JSON value → GCF v3.5.3 generic text (key order kept). */
    encodeGeneric(value) {
      const j = toJsonText(value, 'value');
      return call((raw) => raw.gcf3EncodeGeneric(j, hostNumbers));
    },
    /** JSON text → generic text; integer lexemes are int64 (`out_of_range` beyond). */
    encodeGenericJson(jsonText) {
      const j = text(jsonText, 'json');
      return call((raw) => raw.gcf3EncodeGeneric(j, ''));
    },
    /** Generic text → the JSON value (`{largeInt: 'error' | 'string' | 'number'}`). */
    decodeGeneric(gcfText, options) {
      return JSON.parse(this.decodeGenericToJson(gcfText, options));
    },
    /** Generic text → JSON text, members in payload order. */
    decodeGenericToJson(gcfText, options) {
      const b = input(gcfText);
      const o = decodeOptions({ ...options, expect: 'generic' });
      return call((raw) => raw.gcf3Decode(b, o));
    },
    /** GCF v1.1 or v3 (text or bytes) → `{version, profile, kind, value}`. */
    decodeAny(gcf, options) {
      return JSON.parse(this.decodeAnyToJson(gcf, options));
    },
    /** `decodeAny` as JSON text (numbers exactly as decoded). */
    decodeAnyToJson(gcf, options) {
      const b = input(gcf);
      const o = decodeOptions(options);
      return call((raw) => raw.gcf3Decode(b, o));
    },
    /** A graph payload → GCF (`{version: '3.5.3' | '1.1', stream, labeledCounts}`; 3.5.3 by default). */
    encodeGraph(payload, options) {
      const j = toJsonText(payload, 'payload');
      const o = optionsText(options);
      return call((raw) => raw.gcf3EncodeGraph(j, o));
    },
    /** GCF v3.5.3 graph text → the payload. */
    decodeGraph(gcfText, options) {
      const b = input(gcfText);
      const o = decodeOptions({ ...options, expect: 'graph' });
      return json((raw) => raw.gcf3Decode(b, o));
    },
    /** A graph delta (added symbols with their distance) → GCF v3.5.3 delta text. */
    encodeGraphDelta(delta) {
      const j = toJsonText(delta, 'delta');
      return call((raw) => raw.gcf3EncodeGraphDelta(j));
    },
    /** Applies a graph delta (GCF text) to a base snapshot atomically, verifying `new_root`. */
    applyGraphDelta(base, deltaText) {
      const b = toJsonText(base, 'base');
      const d = text(deltaText, 'delta');
      return json((raw) => raw.gcf3ApplyGraphDelta(b, d));
    },
    /** `{root: 'sha256:…', canonical}` of a graph snapshot `{symbols, edges}`. */
    graphPackRoot(snapshot) {
      const j = toJsonText(snapshot, 'snapshot');
      return json((raw) => raw.gcf3GraphPackRoot(j));
    },
    createGraphSession() {
      return new GraphSession();
    },
    GraphSession,
    keyed,
  };
  return api;
}
