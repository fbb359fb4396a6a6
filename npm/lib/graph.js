// gcf, gcb, codecs: the graph payload as GCF v1.1 text, GCB1 bytes, or any codec by name.

import { makeGcf3 } from './gcf3.js';

/**
 * @param {ReturnType<import('./call.js').makeBoundary>} boundary  the default module
 * @param {ReturnType<import('./call.js').makeBoundary>} gcf3Boundary  where GCF v3 lives
 * @param {{ load: (input?: unknown) => unknown }} gcf3Env
 */
export function makeGraph({ call, text, optionsText, bytes, toJsonText }, gcf3Boundary, gcf3Env) {
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
    ...makeGcf3(gcf3Boundary, gcf3Env),
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
    /** GCF v1.1 text to a payload (`{maxPayloadBytes}`: the decoded text limit, 64 MiB). */
    decode(gcfText, options) {
      return JSON.parse(this.decodeToJson(gcfText, options));
    },
    /** GCF v1.1 text to payload JSON text. */
    decodeToJson(gcfText, options) {
      const t = text(gcfText, 'text');
      const o = optionsText(options);
      return call((raw) => raw.gcfDecode(t, o));
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
    /** GCB1 bytes to a payload (`{maxPayloadBytes}`: the decoded text limit, 64 MiB). */
    decode(input, options) {
      return JSON.parse(this.decodeToJson(input, options));
    },
    decodeToJson(input, options) {
      const b = bytes(input, 'input');
      const o = optionsText(options);
      return call((raw) => raw.gcbDecode(b, o));
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
  return { gcf, gcb, codecs };
}
