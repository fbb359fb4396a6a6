// The resumability store of one HTTP session: the SSE events it sent, so a client that lost a
// stream can resume it (Last-Event-ID). Bounded by count and by bytes (oldest dropped first),
// and freed with the session.

/**
 * @typedef {import('@modelcontextprotocol/sdk/server/streamableHttp.js').EventStore} EventStore
 * @typedef {{ streamId: string, message: object, bytes: number }} StoredEvent
 */

const SEPARATOR = '::';
const seqOf = (/** @type {string} */ eventId) => Number(eventId.slice(eventId.lastIndexOf(SEPARATOR) + SEPARATOR.length));
const streamOf = (/** @type {string} */ eventId) => eventId.slice(0, eventId.lastIndexOf(SEPARATOR));

/**
 * @param {{ maxEvents: number, maxBytes: number }} limits
 * @returns {EventStore & { stats: () => { events: number, bytes: number, dropped: number } }}
 */
export function createEventStore({ maxEvents, maxBytes }) {
  /** @type {Map<string, StoredEvent>} in the order they were stored */
  const events = new Map();
  let seq = 0;
  let bytes = 0;
  let dropped = 0;
  return {
    async storeEvent(streamId, message) {
      const eventId = `${streamId}${SEPARATOR}${String(++seq).padStart(12, '0')}`;
      const size = approximateSize(message);
      events.set(eventId, { streamId, message, bytes: size });
      bytes += size;
      // The newest event stays even when it alone is over the byte limit: it is being sent.
      while (events.size > maxEvents || (bytes > maxBytes && events.size > 1)) {
        const [oldest, e] = /** @type {[string, StoredEvent]} */ (events.entries().next().value);
        events.delete(oldest);
        bytes -= e.bytes;
        dropped++;
      }
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      const kept = events.get(eventId);
      if (kept) return kept.streamId;
      // An id this store issued whose event was dropped: resume with what is left.
      const n = seqOf(eventId);
      return eventId.includes(SEPARATOR) && Number.isInteger(n) && n >= 1 && n <= seq ? streamOf(eventId) : undefined;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = events.get(lastEventId)?.streamId ?? streamOf(lastEventId);
      const after = seqOf(lastEventId);
      for (const [eventId, e] of [...events]) {
        // Priming events are empty: they carry an id only.
        if (e.streamId === streamId && seqOf(eventId) > after && Object.keys(e.message).length) await send(eventId, /** @type {any} */ (e.message));
      }
      return streamId;
    },
    stats: () => ({ events: events.size, bytes, dropped }),
  };
}

/**
 * About the size of a message's JSON text (every string and key, 8 per number or literal, 2 per
 * object or array), without writing it: the SDK writes each event's JSON once more to send it.
 * @param {unknown} message
 */
export function approximateSize(message) {
  let size = 0;
  /** @type {unknown[]} */
  const stack = [message];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') size += value.length + 2;
    else if (value === null || typeof value !== 'object') size += 8;
    else if (Array.isArray(value)) {
      size += 2 + value.length;
      for (const item of value) stack.push(item);
    } else {
      size += 2;
      for (const key in value) {
        size += key.length + 4;
        stack.push(/** @type {Record<string, unknown>} */ (value)[key]);
      }
    }
  }
  return size;
}
