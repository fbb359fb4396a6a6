// The SSE priming event of a POST stream (MCP 2025-11-25), written with the stream's first message.
//
// With an event store, the SDK's Streamable HTTP transport starts every POST stream with a
// priming event (an event id and empty data), so that a client whose connection drops can resume
// the stream with Last-Event-ID. Written on its own it is a chunk of its own, through the server's
// web stream and the client's SSE parser: about 0.3 ms added to a 1 KB call (bench/latency.mjs).
// Here the event is stored as before, held, and written in the same chunk as the stream's first
// message; a stream with no message within PRIMING_HOLD_MS gets it then. So a client still has the
// id before any message, and only a connection that drops within those first milliseconds, before
// anything was sent, cannot be resumed.
//
// This wraps two methods of the SDK's transport (`writePrimingEvent`, `writeSSEEvent`): the SDK is
// pinned (package.json), and `holdPriming` says false when they are not there, so the transport
// then works as the SDK wrote it (a test checks that the pinned SDK has them).

/** How long a stream's priming event waits for its first message. */
export const PRIMING_HOLD_MS = 10;

/**
 * Makes `transport` (the SDK's StreamableHTTPServerTransport, or the web-standard one inside it)
 * write each POST stream's priming event with its first message. Returns whether it could.
 * @param {object} transport
 */
export function holdPriming(transport) {
  const inner = /** @type {any} */ (transport)._webStandardTransport ?? transport;
  if (typeof inner?.writePrimingEvent !== 'function' || typeof inner?.writeSSEEvent !== 'function') return false;
  const prime = inner.writePrimingEvent.bind(inner);
  const write = inner.writeSSEEvent.bind(inner);
  /** @type {WeakMap<ReadableStreamDefaultController, { chunk: Uint8Array, timer: NodeJS.Timeout }>} */
  const held = new WeakMap();

  inner.writePrimingEvent = async (/** @type {ReadableStreamDefaultController} */ controller, /** @type {any[]} */ ...rest) => {
    const release = intercept(controller);
    /** @type {Uint8Array | undefined} */
    let chunk;
    try {
      await prime(controller, ...rest);
    } finally {
      chunk = release();
    }
    if (!chunk) return;
    const timer = setTimeout(() => {
      if (!held.delete(controller)) return;
      try {
        controller.enqueue(chunk);
      } catch {
        // The stream closed meanwhile.
      }
    }, PRIMING_HOLD_MS).unref();
    held.set(controller, { chunk, timer });
  };

  inner.writeSSEEvent = (/** @type {ReadableStreamDefaultController} */ controller, /** @type {any[]} */ ...rest) => {
    const priming = held.get(controller);
    if (!priming) return write(controller, ...rest);
    held.delete(controller);
    clearTimeout(priming.timer);
    const release = intercept(controller);
    let written = false;
    try {
      written = write(controller, ...rest);
    } finally {
      const message = release();
      try {
        controller.enqueue(message ? concat(priming.chunk, message) : priming.chunk);
      } catch (e) {
        // As the SDK's own write does when the stream is gone.
        inner.onerror?.(e);
        written = false;
      }
    }
    return written;
  };
  return true;
}

/**
 * Keeps what is enqueued on `controller` from now on instead of enqueuing it (the stream's own
 * writes: nothing else writes to it meanwhile); the returned function stops that and gives the
 * last chunk kept.
 */
function intercept(/** @type {ReadableStreamDefaultController} */ controller) {
  /** @type {Uint8Array | undefined} */
  let chunk;
  /** @type {any} */ (controller).enqueue = (/** @type {Uint8Array} */ c) => {
    chunk = c;
  };
  return () => {
    delete (/** @type {any} */ (controller).enqueue);
    return chunk;
  };
}

function concat(/** @type {Uint8Array} */ a, /** @type {Uint8Array} */ b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
