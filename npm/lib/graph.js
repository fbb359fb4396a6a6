// @ts-check
// gcf, gcb, codecs: the graph payload as GCF v1.1 text, GCB1 bytes, or any codec by name.

import { bytes, text, value } from './gcx.js';
import { makeGcf3 } from './gcf3.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * @param {import('./boundary.js').Boundary} boundary  the default module's
 * @param {{ boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} gcf3Area
 */
export function makeGraph(boundary, gcf3Area) {
  const { call, construct, method } = boundary;

  /** GCF v1.1 session: symbols sent in an earlier call are written as bare references. */
  class GcfSession {
    #raw;
    constructor() {
      this.#raw = construct('GcfSession', undefined);
    }
    /** Encodes a payload with session deduplication. */
    encode(payload) {
      return method(this.#raw, 'GcfSession', 'encode', undefined, value(payload, 'payload'));
    }
    /** `encode` for payload JSON text. */
    encodeJson(json) {
      return method(this.#raw, 'GcfSession', 'encode', text(json, 'json'));
    }
    /** Number of symbols sent so far. */
    size() {
      return method(this.#raw, 'GcfSession', 'size', undefined);
    }
    /** Forgets every sent symbol. */
    reset() {
      method(this.#raw, 'GcfSession', 'reset', undefined);
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
    ...makeGcf3(gcf3Area),
    /** A graph payload to GCF v1.1 text (byte-identical to gcf-go v0.1.2). */
    encode(payload) {
      return call('gcf.encode', undefined, value(payload, 'payload'));
    },
    /** `encode` for payload JSON text. */
    encodeJson(json) {
      return call('gcf.encode', text(json, 'json'));
    },
    /** GCF v1.1 text to a payload (`{maxPayloadBytes}`: the decoded text limit, 64 MiB). */
    decode(gcfText, options) {
      return call('gcf.decode', text(gcfText, 'text'), options);
    },
    /** GCF v1.1 text to payload JSON text. */
    decodeToJson(gcfText, options) {
      return call('gcf.decodeToJson', text(gcfText, 'text'), options);
    },
    /** A delta (removed/added symbols and edges) to GCF delta text. */
    encodeDelta(delta) {
      return call('gcf.encodeDelta', undefined, value(delta, 'delta'));
    },
    encodeDeltaJson(json) {
      return call('gcf.encodeDelta', text(json, 'json'));
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
      return call('gcb.encode', undefined, value(payload, 'payload'));
    },
    encodeJson(json) {
      return call('gcb.encode', text(json, 'json'));
    },
    /** GCB1 bytes to a payload (`{maxPayloadBytes}`: the decoded text limit, 64 MiB). */
    decode(input, options) {
      return call('gcf.decode', bytes(input, 'input'), options);
    },
    decodeToJson(input, options) {
      return call('gcf.decodeToJson', bytes(input, 'input'), options);
    },
  });

  let codecList;
  const codecs = Object.freeze({
    /** The codecs: `[{name, aliases, description, text}]` (gcf, gcb, json). */
    list() {
      codecList ??= call('codecs.list', undefined);
      return codecList.map((c) => ({ ...c, aliases: [...c.aliases] }));
    },
    /** Encodes a payload with the named codec: text for text codecs, bytes for gcb. */
    encode(name, payload) {
      const out = call('codecs.encode', undefined, name, value(payload, 'payload'));
      const codec = this.list().find((c) => c.name === name || c.aliases.includes(name));
      return codec?.text ? decoder.decode(out) : out;
    },
    /** Decodes text or bytes with the named codec. */
    decode(name, input) {
      const b = typeof input === 'string' ? encoder.encode(input) : bytes(input, 'input');
      return call('codecs.decode', b, name);
    },
  });
  return { gcf, gcb, codecs };
}
