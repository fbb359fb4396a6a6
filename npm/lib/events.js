// @ts-check
// events: the JSONL event protocol of `godex exec --json` (a Responses-API subset): parse and
// validate streams (whole, pushed in chunks, or through a TransformStream), accumulate,
// serialize, mock streams, SSE conversion, `--tool` specs and follow-up items. In wasm it is
// its own module (`await events.load()` in browsers).

import { asyncLoad } from './load.js';
import { bytes, text, value } from './gcx.js';

const encoder = new TextEncoder();

/** @param {{ boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} area */
export function makeEvents({ boundary, load }) {
  const { call, construct, method } = boundary;

  /** Parses a JSONL stream pushed in chunks (bytes or text, split anywhere). */
  class EventStreamDecoder {
    #raw;
    // A high surrogate at the end of a text chunk waits for its pair.
    #pendingSurrogate = '';
    constructor(options) {
      this.#raw = construct('EventsDecoder', undefined, options);
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
      return method(this.#raw, 'EventsDecoder', 'push', this.#bytes(chunk));
    }
    /** End of input: `{items, valid, result, diagnostics}`. */
    finish() {
      if (this.#pendingSurrogate) {
        const b = encoder.encode(this.#pendingSurrogate);
        this.#pendingSurrogate = '';
        const items = method(this.#raw, 'EventsDecoder', 'push', b);
        const end = method(this.#raw, 'EventsDecoder', 'finish', undefined);
        return { ...end, items: [...items, ...end.items] };
      }
      return method(this.#raw, 'EventsDecoder', 'finish', undefined);
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
      return call('events.parse', b, options);
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
      return call('events.accumulate', undefined, value(events, 'events'));
    },
    /** Event objects as JSONL: `form` 'godex' (byte-identical to godex) or 'spec'. */
    serialize(events, { form = 'godex' } = {}) {
      return call('events.serialize', undefined, value(events, 'events'), form);
    },
    /** The JSONL of `godex exec --mock --mock-mode mode --json`. */
    mock(mode = 'echo', { echoText = '' } = {}) {
      return call('events.mock', undefined, mode, echoText);
    },
    /** An upstream Responses SSE text: `{frames, framing_diagnostics, converted, valid, result, diagnostics}`. */
    fromSse(sse) {
      return call('events.fromSse', text(sse, 'sse'));
    },
    /** A `--tool` value: `{kind: 'web_search', tool}` or `{kind: 'function', name, path}`. */
    parseToolSpec(spec) {
      return call('events.parseToolSpec', text(spec, 'spec'));
    },
    /** The function tool godex sends for a schema file's text. */
    functionTool(name, schemaText) {
      return call('events.functionTool', text(schemaText, 'schemaText'), name);
    },
    /** The next request's input: context, then each call's function_call and output items. */
    followUp({ context = [], calls, outputs }) {
      return call('events.followUp', undefined, value(context, 'context'), value(calls, 'calls'), value(outputs, 'outputs'));
    },
  });
}
