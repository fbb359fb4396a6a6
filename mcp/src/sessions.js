// The Streamable HTTP sessions of `--listen`: how many there may be, and when they end.
//
// A session ends on DELETE, after --session-idle without activity, or when it is the least
// recently used idle one and a new session needs its place (--max-sessions). Activity is an HTTP
// request of the session, a request of its in flight, or a GET stream it holds open. A GET
// stream is closed by the gateway a third of the idle time after it opened, and a live client
// reconnects it (the SDK client does, within a second: the spec lets servers close streams at
// any time), which is a new request. A client that vanished without DELETE, or whose TCP
// connection went half-open, makes none: its last activity is when it last asked for something,
// and everything it held is freed within --session-idle plus one sweep.

import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createEventStore } from './event-store.js';
import { holdPriming } from './transports/priming.js';
import { errorMessage, log } from './log.js';

/**
 * @typedef {import('./session.js').Session} Session
 * @typedef {import('./session.js').CloseReason} CloseReason
 * @typedef {object} Entry one HTTP session
 * @property {StreamableHTTPServerTransport} transport
 * @property {Session} session
 * @property {string | null} tokenId the token that opened it (null without auth)
 * @property {number} lastSeen when its last HTTP request started or ended
 * @property {number} getStreams GET streams open now
 * @property {ReturnType<typeof createEventStore>} events
 */

export class SessionsFullError extends Error {}

export class SessionTable {
  /**
   * @param {import('./gateway.js').Gateway} gateway
   * @param {{ idleMs: number, maxSessions: number, replayEvents: number, replayBytes: number }} limits
   */
  constructor(gateway, { idleMs, maxSessions, replayEvents, replayBytes }) {
    this.gateway = gateway;
    this.idleMs = idleMs;
    this.maxSessions = maxSessions;
    this.replay = { maxEvents: replayEvents, maxBytes: replayBytes };
    /** @type {Map<string, Entry>} by session id */
    this.entries = new Map();
    /** What session ids start with (`REPLICA.UUID`; set by listen() once the port is known). */
    this.replicaId = 'replica';
    /** Sessions being created (they count against --max-sessions before they have an id). */
    this.opening = 0;
    this.sweepMs = Math.min(60_000, Math.max(250, Math.round(idleMs / 4)));
    this.leaseMs = Math.max(250, Math.floor(idleMs / 3));
    this.timer = setInterval(() => this.sweep(), this.sweepMs);
    this.timer.unref();
  }

  /** The session with this id, when the request's token is the one that opened it. */
  lookup(/** @type {string} */ id, /** @type {string | null} */ tokenId) {
    const entry = this.entries.get(id);
    return entry && entry.tokenId === tokenId ? entry : undefined;
  }

  /**
   * A new session (its id is set when its initialize request is handled). Past --max-sessions,
   * the least recently used idle session is closed first; if none is idle, SessionsFullError.
   * @param {string | null} tokenId
   * @returns {Promise<Entry>}
   */
  async create(tokenId) {
    if (this.entries.size + this.opening >= this.maxSessions) {
      const victim = this.#leastRecentlyUsedIdle();
      if (!victim) throw new SessionsFullError(`${this.entries.size} sessions are open and none is idle (--max-sessions ${this.maxSessions})`);
      log.info(`session ${victim.transport.sessionId}: evicted (--max-sessions ${this.maxSessions})`);
      await this.expire(victim, 'evicted');
    }
    this.opening++;
    try {
      const events = createEventStore(this.replay);
      /** @type {Entry} */
      const entry = /** @type {any} */ ({ tokenId, lastSeen: Date.now(), getStreams: 0, events });
      entry.transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => `${this.replicaId}.${randomUUID()}`,
        eventStore: events,
        retryInterval: 1000,
        onsessioninitialized: (id) => {
          this.entries.set(id, entry);
        },
        onsessionclosed: () => entry.session?.closing('deleted'),
      });
      if (!holdPriming(entry.transport)) log.debug('the SDK transport has no writePrimingEvent/writeSSEEvent: priming events are written on their own');
      entry.session = await this.gateway.connect(entry.transport);
      entry.session.closed.then(() => {
        const id = entry.transport.sessionId;
        if (id !== undefined && this.entries.get(id) === entry) this.entries.delete(id);
      });
      return entry;
    } finally {
      this.opening--;
    }
  }

  /** Notes activity of a session (an HTTP request starting or ending). */
  touch(/** @type {Entry} */ entry) {
    entry.lastSeen = Date.now();
  }

  /**
   * A GET stream of the session is open until `res` closes; it keeps the session, and is closed
   * a third of the idle time after it opened, so that only a live client (which opens a new one)
   * keeps it longer. Its end is no activity: a gone client's last one is when it opened it.
   * @param {Entry} entry
   * @param {import('node:http').ServerResponse} res
   * @param {string | undefined} lastEventId
   */
  holdGetStream(entry, res, lastEventId) {
    entry.getStreams++;
    // Only the standalone stream is leased; a resumed POST stream ends with its response.
    const standalone = lastEventId === undefined || lastEventId.startsWith('_GET_stream::');
    const lease = standalone ? setTimeout(() => entry.transport.closeStandaloneSSEStream(), this.leaseMs) : undefined;
    lease?.unref();
    res.once('close', () => {
      clearTimeout(lease);
      entry.getStreams--;
    });
  }

  /** The time of a session's last activity. */
  #lastActivity(/** @type {Entry} */ entry) {
    return Math.max(entry.lastSeen, entry.session.lastActivity);
  }

  #leastRecentlyUsedIdle() {
    /** @type {Entry | undefined} */
    let victim;
    for (const entry of this.entries.values()) {
      if (entry.session.busy) continue;
      if (!victim || this.#lastActivity(entry) < this.#lastActivity(victim)) victim = entry;
    }
    return victim;
  }

  /** Closes every session idle for longer than --session-idle. */
  sweep() {
    const now = Date.now();
    for (const entry of [...this.entries.values()]) {
      if (entry.session.busy || entry.getStreams > 0) continue;
      if (now - this.#lastActivity(entry) <= this.idleMs) continue;
      log.info(`session ${entry.transport.sessionId}: closed after ${Math.round((now - this.#lastActivity(entry)) / 1000)} s idle (--session-idle)`);
      this.expire(entry, 'idle').catch((e) => log.error(`closing an idle session: ${errorMessage(e)}`));
    }
  }

  /** Ends a session: later requests with its id get 404; its upstreams are closed. */
  async expire(/** @type {Entry} */ entry, /** @type {CloseReason} */ reason) {
    const id = entry.transport.sessionId;
    if (id !== undefined) this.entries.delete(id);
    await entry.session.close(reason);
  }

  get size() {
    return this.entries.size;
  }

  async close() {
    clearInterval(this.timer);
    await Promise.all([...this.entries.values()].map((entry) => this.expire(entry, 'shutdown')));
  }
}
