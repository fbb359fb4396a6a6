// @ts-check
// GCF v3 on the `gcf` namespace: the generic profile (any JSON value, lossless; v3.6.0 by
// default, `{version: '3.5.3'}` for the previous bytes; the v3.6.0 grouped form), the graph
// profile (sessions, streaming, deltas, pack roots), keyed-set deltas, and `decodeAny`, which
// reads GCF v1.1 and v3 and says which version it read. In wasm it is its own module
// (`await gcf.load()` in browsers; Node loads it on first use).

import { asyncLoad } from './load.js';
import { text, textOrBytes, value } from './gcx.js';

/** @param {{ boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} area */
export function makeGcf3({ boundary, load }) {
  const { call, construct, method } = boundary;
  // JavaScript numbers are doubles: integers past 2^53 − 1 fail unless asked for otherwise.
  const decodeOptions = (options) => ({ largeInt: 'error', ...options });

  /** GCF v3 graph session: stable ids across calls, sent symbols as bare references. */
  class GraphSession {
    #raw;
    constructor() {
      this.#raw = construct('Gcf3GraphSession', undefined);
    }
    /** Encodes a payload in this session. */
    encode(payload) {
      return method(this.#raw, 'Gcf3GraphSession', 'encode', undefined, value(payload, 'payload'));
    }
    /** Number of symbols with a session id. */
    size() {
      return method(this.#raw, 'Gcf3GraphSession', 'size', undefined);
    }
    /** Forgets every id. */
    reset() {
      method(this.#raw, 'Gcf3GraphSession', 'reset', undefined);
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
      this.#raw = construct('Gcf3KeyedSession', undefined, options);
    }
    /** The next payload for the current set: `{isFull, kind, wire}`. */
    emit(set) {
      return method(this.#raw, 'Gcf3KeyedSession', 'emit', undefined, value(set, 'set'));
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
      return call('gcf.keyed.packRoot', undefined, value(set, 'set'));
    },
    /** The full payload of a keyed set, with `pack_root` and `key` (`{tool}`). */
    encodeFull(set, options) {
      return call('gcf.keyed.encodeFull', undefined, value(set, 'set'), options);
    },
    /** A generic delta `{key, fields, baseRoot, newRoot, added, changed, removed, …}` as GCF. */
    encodeDelta(delta) {
      return call('gcf.keyed.encodeDelta', undefined, value(delta, 'delta'));
    },
    /** Applies a delta (GCF text or object) to a base set atomically: `{set, root}`. */
    applyDelta(base, delta) {
      return typeof delta === 'string'
        ? call('gcf.keyed.applyDelta', delta, value(base, 'base'))
        : call('gcf.keyed.applyDelta', undefined, value(base, 'base'), value(delta, 'delta'));
    },
    createSession(options) {
      return new KeyedSession(options);
    },
    Session: KeyedSession,
  });

  return {
    /** Browsers: fetches the GCF v3 wasm module (Node: resolves at once). */
    load: asyncLoad(load),
    /** Any JSON value → GCF v3 generic text (key order kept; `{version, lossless}`). */
    encodeGeneric(generic, options) {
      return call('gcf.encodeGeneric', undefined, value(generic, 'value'), options);
    },
    /** JSON text → generic text; integer lexemes are int64 (`out_of_range` beyond). */
    encodeGenericJson(jsonText, options) {
      return call('gcf.encodeGeneric', text(jsonText, 'json'), options);
    },
    /** Records → the v3.6.0 grouped form (`{key, group}`: the unique key and the group field). */
    encodeGenericGrouped(records, options) {
      return call('gcf.encodeGenericGrouped', undefined, value(records, 'value'), options);
    },
    /** `encodeGenericGrouped` of JSON text (integer lexemes are int64). */
    encodeGenericGroupedJson(jsonText, options) {
      return call('gcf.encodeGenericGrouped', text(jsonText, 'json'), options);
    },
    /** Generic text → the JSON value (`{largeInt: 'error' | 'string' | 'number'}`). */
    decodeGeneric(gcfText, options) {
      return call('gcf.decodeAny', textOrBytes(gcfText, 'input'), decodeOptions({ ...options, expect: 'generic' }));
    },
    /** Generic text → JSON text, members in payload order. */
    decodeGenericToJson(gcfText, options) {
      return call('gcf.decodeAnyToJson', textOrBytes(gcfText, 'input'), decodeOptions({ ...options, expect: 'generic' }));
    },
    /** GCF v1.1 or v3 (text or bytes) → `{version, profile, kind, value}` (a v3 payload is
     * '3.6.0' when it uses a constant column or a grouped section, '3.5.3' otherwise). */
    decodeAny(gcf, options) {
      return call('gcf.decodeAny', textOrBytes(gcf, 'input'), decodeOptions(options));
    },
    /** `decodeAny` as JSON text (numbers exactly as decoded). */
    decodeAnyToJson(gcf, options) {
      return call('gcf.decodeAnyToJson', textOrBytes(gcf, 'input'), decodeOptions(options));
    },
    /** A graph payload → GCF (`{version: '3.6.0' | '3.5.3' | '1.1', stream, labeledCounts}`;
     * v3 by default, whose graph profile is the same in 3.5.3 and 3.6.0). */
    encodeGraph(payload, options) {
      return call('gcf.encodeGraph', undefined, value(payload, 'payload'), options);
    },
    /** GCF v3 graph text → the payload. */
    decodeGraph(gcfText, options) {
      return call('gcf.decodeAny', textOrBytes(gcfText, 'input'), decodeOptions({ ...options, expect: 'graph' }));
    },
    /** A graph delta (added symbols with their distance) → GCF v3 delta text. */
    encodeGraphDelta(delta) {
      return call('gcf.encodeGraphDelta', undefined, value(delta, 'delta'));
    },
    /** Applies a graph delta (GCF text) to a base snapshot atomically, verifying `new_root`. */
    applyGraphDelta(base, deltaText) {
      return call('gcf.applyGraphDelta', text(deltaText, 'delta'), value(base, 'base'));
    },
    /** `{root: 'sha256:…', canonical}` of a graph snapshot `{symbols, edges}`. */
    graphPackRoot(snapshot) {
      return call('gcf.graphPackRoot', undefined, value(snapshot, 'snapshot'));
    },
    createGraphSession() {
      return new GraphSession();
    },
    GraphSession,
    keyed,
  };
}
