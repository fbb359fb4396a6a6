// One downstream session: its lifecycle, its upstream connections (a relay of its own) and its
// catalog; its requests are served by dispatch.js.
//
// The SDK server of a session is created when the client's `initialize` arrives, after the
// upstreams have started with the client's capabilities: so the SDK's own initialize handler
// answers with the capabilities and instructions the upstreams have, and no private SDK field
// is needed. Until then the session holds what arrives (bounded).

import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Catalog } from './catalog.js';
import { route, toolsList } from './dispatch.js';
import { errorResponse, INTERNAL_ERROR, INVALID_REQUEST, isRequestMessage, isResponseMessage, SERVER_ERROR } from './jsonrpc.js';
import { errorMessage, log } from './log.js';
import { methodLabel } from './metrics.js';
import { modes } from './modes/index.js';
import { Relay } from './relay.js';
import { SERVER_INFO } from './version.js';
import { MemoryResultStore } from './view.js';

/** Messages held while the upstreams start (a client should wait for the initialize reply). */
const MAX_HELD = 100;

/**
 * @typedef {import('@modelcontextprotocol/sdk/shared/transport.js').Transport} Transport
 * @typedef {import('./gateway.js').GatewayOptions} GatewayOptions
 * @typedef {'deleted'|'idle'|'evicted'|'client'|'shutdown'} CloseReason
 */

/** A request id as a map key: "1" and 1 are different ids. */
const idKey = (/** @type {unknown} */ id) => `${typeof id}:${String(id)}`;

export class Session {
  /**
   * @param {Required<GatewayOptions>} options
   * @param {{ stats: import('./stats.js').Stats, metrics: import('./metrics.js').Metrics,
   *   store?: import('./store.js').SharedStore }} shared with --store, results go there (under a
   *   name of the session's own), else into memory
   */
  constructor(options, { stats, metrics, store }) {
    this.options = options;
    this.stats = stats;
    this.metrics = metrics;
    this.mode = modes[options.mode];
    this.relay = new Relay({
      upstreams: options.upstreams,
      limits: { callTimeoutMs: options.callTimeoutMs, maxUpstreamMessageBytes: options.maxUpstreamMessageBytes },
      onToolsChanged: () => this.#refreshCatalog(true),
      onRestart: (upstream) => metrics.upstreamRestarts.inc({ upstream }),
    });
    this.catalog = new Catalog([], options);
    /** @type {import('./view.js').ResultStore} */
    this.results = store ? store.forOwner(`session:${randomUUID()}`) : new MemoryResultStore();
    /** @type {Server | null} */
    this.server = null;
    this.initialized = false;
    /** @type {Promise<void> | null} */
    this.starting = null;
    /** @type {Array<[any, any]>} */
    this.held = [];
    /** Client requests not yet answered (cancelled ones leave too). */
    /** @type {Set<string>} */
    this.inflight = new Set();
    this.lastActivity = Date.now();
    /** @type {CloseReason | null} */
    this.closeReason = null;
    this.tornDown = false;
    /** @type {((reason: CloseReason) => void) | undefined} set by the owner */
    this.onclose = undefined;
    /** @type {Promise<void>} the catalog refreshes, one after the other (never rejects) */
    this.refreshing = Promise.resolve();
    /** @type {() => void} */
    let resolveClosed = () => {};
    /** @type {Promise<void>} */
    this.closed = new Promise((resolve) => (resolveClosed = resolve));
    this.resolveClosed = resolveClosed;
    /** @type {Transport | null} */
    this.transport = null;
    const session = this;
    /** The transport the SDK server sees: the real one, with the session's bookkeeping. @type {Transport} */
    this.inner = {
      async start() {},
      async send(message, options) {
        if (isResponseMessage(message)) session.#answered(/** @type {any} */ (message).id);
        return /** @type {Transport} */ (session.transport).send(message, options);
      },
      async close() {
        await session.transport?.close();
      },
      get sessionId() {
        return session.transport?.sessionId;
      },
    };
  }

  /** Requests in flight (a session with none is idle). */
  get busy() {
    return this.inflight.size > 0;
  }

  /** Starts serving on `transport`; the upstreams start when the client initializes. */
  async connect(/** @type {Transport} */ transport) {
    this.transport = transport;
    transport.onmessage = (message, extra) => this.#receive(message, extra);
    transport.onclose = () => this.#teardown('client');
    transport.onerror = (e) => {
      log.debug(`session transport: ${errorMessage(e)}`);
      this.inner.onerror?.(e);
    };
    await transport.start();
  }

  #receive(/** @type {any} */ message, /** @type {any} */ extra) {
    this.lastActivity = Date.now();
    if (isRequestMessage(message)) {
      if (this.inflight.size >= this.options.maxInflight) {
        this.#reply(errorResponse(message.id, SERVER_ERROR, `Server busy: ${this.inflight.size} requests of this session are in flight (--max-inflight ${this.options.maxInflight})`));
        return;
      }
      this.inflight.add(idKey(message.id));
      this.metrics.requests.inc({ method: methodLabel(message.method) });
    } else if (message.method === 'notifications/cancelled') {
      // The SDK answers nothing for a cancelled request: it is no longer in flight.
      this.inflight.delete(idKey(message.params?.requestId));
    }
    if (this.server) {
      this.inner.onmessage?.(message, extra);
      return;
    }
    if (this.starting) {
      if (this.held.length < MAX_HELD) this.held.push([message, extra]);
      else if (isRequestMessage(message)) this.#reply(errorResponse(message.id, SERVER_ERROR, 'Server busy: the session is still starting its upstreams'));
      return;
    }
    if (message.method === 'initialize' && isRequestMessage(message)) {
      this.starting = this.#initialize(message, extra);
    } else if (message.method === 'ping' && isRequestMessage(message)) {
      this.#reply({ jsonrpc: '2.0', id: message.id, result: {} });
    } else if (isRequestMessage(message)) {
      this.#reply(errorResponse(message.id, INVALID_REQUEST, 'Invalid Request: the session is not initialized; send initialize first'));
    } else {
      log.debug(`${message.method ?? 'a response'} before initialize; dropped`);
    }
  }

  /** @param {any} message the client's initialize request */
  async #initialize(message, /** @type {any} */ extra) {
    await this.relay.start(message.params ?? {}, SERVER_INFO);
    if (this.closeReason) return;
    try {
      await this.#refreshCatalog(false);
      const capabilities = this.relay.capabilities();
      const server = new Server(SERVER_INFO, { capabilities, instructions: this.relay.instructions() });
      // The SDK would answer setLevel itself; the gateway forwards it to the upstreams instead.
      if (capabilities.logging) server.removeRequestHandler('logging/setLevel');
      server.fallbackRequestHandler = (request, requestExtra) => route(this.#scope(), request, requestExtra);
      server.fallbackNotificationHandler = async (n) => this.relay.notifyAll(n);
      server.oninitialized = () => {
        this.initialized = true;
      };
      this.relay.client = server;
      await server.connect(this.inner);
      this.server = server;
    } catch (e) {
      log.error(`initialize: ${errorMessage(e)}`);
      this.#reply(errorResponse(message.id, INTERNAL_ERROR, `Internal error: ${errorMessage(e)}`));
      return;
    }
    this.inner.onmessage?.(message, extra);
    for (const [held, heldExtra] of this.held.splice(0)) this.inner.onmessage?.(held, heldExtra);
  }

  /** A reply the session writes itself (not through the SDK server). */
  #reply(/** @type {any} */ response) {
    this.#answered(response.id);
    this.transport?.send(response).catch((e) => log.debug(`reply ${JSON.stringify(response.id)}: ${errorMessage(e)}`));
  }

  #answered(/** @type {unknown} */ id) {
    this.inflight.delete(idKey(id));
    this.lastActivity = Date.now();
  }

  /** Re-reads every upstream's tools; tells the client when the list it sees changed. */
  #refreshCatalog(/** @type {boolean} */ notify) {
    this.refreshing = this.refreshing.then(() => this.#rebuildCatalog(notify)).catch((e) => log.warn(`refreshing the tool list: ${errorMessage(e)}`));
    return this.refreshing;
  }

  async #rebuildCatalog(/** @type {boolean} */ notify) {
    if (this.closeReason) return;
    const before = JSON.stringify(this.#toolsList());
    const next = new Catalog(await this.relay.listTools(), this.options);
    if (this.closeReason) {
      next.free();
      return;
    }
    this.catalog.free();
    this.catalog = next;
    if (notify && this.initialized && this.server && JSON.stringify(this.#toolsList()) !== before) {
      await this.server.sendToolListChanged().catch((e) => log.debug(`tools/list_changed: ${errorMessage(e)}`));
    }
  }

  #toolsList() {
    return toolsList(this.#scope());
  }

  /** What the session's requests are served with (dispatch.js). @returns {import('./dispatch.js').Scope} */
  #scope() {
    const { options, mode, relay, catalog, results, stats, metrics } = this;
    return { options, mode, relay, catalog, results, stats, metrics, stateless: false };
  }

  /** Names why the session is about to end (its transport closes next, e.g. on DELETE). */
  closing(/** @type {CloseReason} */ reason) {
    this.closeReason ??= reason;
  }

  /** Ends the session: its transport, and every upstream connection and process. */
  async close(/** @type {CloseReason} */ reason = 'shutdown') {
    if (!this.closeReason) {
      this.closeReason = reason;
      try {
        await this.transport?.close();
      } catch (e) {
        log.debug(`closing the session transport: ${errorMessage(e)}`);
      }
      await this.#teardown(reason);
    }
    return this.closed;
  }

  async #teardown(/** @type {CloseReason} */ reason) {
    if (this.tornDown) return this.closed;
    this.tornDown = true;
    this.closeReason ??= reason;
    // The SDK server's own close handling (pending requests fail, handlers abort).
    this.inner.onclose?.();
    await this.relay.close();
    await this.refreshing;
    this.catalog.free();
    this.onclose?.(this.closeReason);
    this.resolveClosed();
    return this.closed;
  }
}

