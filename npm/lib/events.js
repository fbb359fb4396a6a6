// events: the JSONL event protocol of `godex exec --json` (a Responses-API subset): parse and
// validate streams (whole, pushed in chunks, or through a TransformStream), accumulate,
// serialize, mock streams, SSE conversion, `--tool` specs and follow-up items. In wasm it is
// its own module (`await events.load()` in browsers).

import { asyncLoad } from './call.js';

const encoder = new TextEncoder();

/**
 * @param {ReturnType<import('./call.js').makeBoundary>} boundary
 * @param {{ load: (input?: unknown) => unknown }} env
 */
export function makeEvents({ call, text, optionsText, bytes, toJsonText }, { load }) {
  const json = (fn) => JSON.parse(call(fn));

  /** Parses a JSONL stream pushed in chunks (bytes or text, split anywhere). */
  class EventStreamDecoder {
    #raw;
    // A high surrogate at the end of a text chunk waits for its pair.
    #pendingSurrogate = '';
    constructor(options) {
      const o = optionsText(options);
      this.#raw = call((raw) => new raw.EventsDecoder(o));
    }
    #bytes(chunk) {
      if (typeof chunk !== 'string') return bytes(chunk, 'chunk');
      let t = this.#pendingSurrogate + chunk;
      this.#pendingSurrogate = '';
      const last = t.charCodeAt(t.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        this.#pendingSurrogate = t.slice(-1);
        t = t.slice(0, -1);
      }
      return encoder.encode(t);
    }
    /** Feeds a chunk; returns `[{kind: 'event', line, event} | {kind: 'diagnostic', diagnostic}]`. */
    push(chunk) {
      const b = this.#bytes(chunk);
      return json(() => this.#raw.push(b));
    }
    /** End of input: `{items, valid, result, diagnostics}`. */
    finish() {
      if (this.#pendingSurrogate) {
        const b = encoder.encode(this.#pendingSurrogate);
        this.#pendingSurrogate = '';
        const items = json(() => this.#raw.push(b));
        const end = json(() => this.#raw.finish());
        return { ...end, items: [...items, ...end.items] };
      }
      return json(() => this.#raw.finish());
    }
    free() {
      this.#raw?.free?.();
      this.#raw = null;
    }
    [Symbol.dispose]() {
      this.free();
    }
  }

  return Object.freeze({
    /** Browsers: fetch the events wasm module first (`input` as for init()); Node resolves at once. */
    load: asyncLoad(load),
    /** A whole stream (text or bytes): `{valid, result, diagnostics, events: [{line, event}]}`. */
    parse(input, options) {
      const b = typeof input === 'string' ? encoder.encode(input) : bytes(input, 'input');
      const o = optionsText(options);
      return json((raw) => raw.eventsParse(b, o));
    },
    /** A decoder for `push(chunk)` / `finish()`. */
    createDecoder(options) {
      return new EventStreamDecoder(options);
    },
    EventStreamDecoder,
    /**
     * A WHATWG TransformStream: text or byte chunks in; decoded items out, then
     * `{kind: 'end', valid, result, diagnostics}`.
     */
    transformStream(options) {
      let decoder;
      return new TransformStream({
        start() {
          decoder = new EventStreamDecoder(options);
        },
        transform(chunk, controller) {
          for (const item of decoder.push(chunk)) controller.enqueue(item);
        },
        flush(controller) {
          const { items, ...verdict } = decoder.finish();
          for (const item of items) controller.enqueue(item);
          controller.enqueue({ kind: 'end', ...verdict });
          decoder.free();
        },
      });
    },
    /** The stream rules over event objects (index + 1 stands for the line). */
    accumulate(events) {
      const e = toJsonText(events, 'events');
      return json((raw) => raw.eventsAccumulate(e));
    },
    /** Event objects as JSONL: `form` 'godex' (byte-identical to godex) or 'spec'. */
    serialize(events, { form = 'godex' } = {}) {
      const e = toJsonText(events, 'events');
      const f = text(form, 'form');
      return call((raw) => raw.eventsSerialize(e, f));
    },
    /** The JSONL of `godex exec --mock --mock-mode mode --json`. */
    mock(mode = 'echo', { echoText = '' } = {}) {
      const m = text(mode, 'mode');
      const t = text(echoText, 'echoText');
      return call((raw) => raw.eventsMock(m, t));
    },
    /** An upstream Responses SSE text: `{frames, framing_diagnostics, converted, valid, result, diagnostics}`. */
    fromSse(sse) {
      const t = text(sse, 'sse');
      return json((raw) => raw.eventsFromSse(t));
    },
    /** A `--tool` value: `{kind: 'web_search', tool}` or `{kind: 'function', name, path}`. */
    parseToolSpec(spec) {
      const s = text(spec, 'spec');
      return json((raw) => raw.eventsParseToolSpec(s));
    },
    /** The function tool godex sends for a schema file's text. */
    functionTool(name, schemaText) {
      const n = text(name, 'name');
      const t = text(schemaText, 'schemaText');
      return json((raw) => raw.eventsFunctionTool(n, t));
    },
    /** The next request's input: context, then each call's function_call and output items. */
    followUp({ context = [], calls, outputs }) {
      const c = toJsonText(context, 'context');
      const f = toJsonText(calls, 'calls');
      const o = toJsonText(outputs, 'outputs');
      return json((raw) => raw.eventsFollowUp(c, f, o));
    },
  });
}
