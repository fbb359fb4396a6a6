// --stateless: Streamable HTTP without sessions. Every POST stands alone (no Mcp-Session-Id), so
// any replica can serve any request and a load balancer may send each one anywhere. MCP
// 2026-07-28 clients are served this way in both modes (the revision has no sessions):
// `handleModern` (modern-endpoint.js), on the same shared connections.
//
// The replica's upstream connections are its own, opened once at start and shared by all its
// requests (one relay, one catalog), with the same restarts, --call-timeout and
// --max-upstream-message as a session's. Each POST gets a fresh SDK server and transport (the
// SDK's stateless pattern: a transport serves one request), routed by dispatch.js as a session's
// requests are. Its answer is JSON, or an SSE stream when the request asked for progress (a
// progress token): JSON lets a client see at once that a replica died under its call.
//
// What cannot work without a session is refused or left out, never half done: server-to-client
// requests (sampling, elicitation, roots) and GET streams; notifications that are not the
// call's progress (log messages, list changes, resource updates); resources/subscribe and
// logging/setLevel; cancellation by notifications/cancelled (it may reach another replica; a
// client that closes its connection cancels its call). Stored results (gateway mode) are in
// --store, owned by the token.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Catalog } from './catalog.js';
import { route } from './dispatch.js';
import { errorResponse, isRequestMessage, SERVER_ERROR } from './jsonrpc.js';
import { errorMessage, log } from './log.js';
import { methodLabel } from './metrics.js';
import { ListenStreams, serveModern } from './modern-endpoint.js';
import { modes } from './modes/index.js';
import { Relay } from './relay.js';
import { tokenOwner } from './store.js';
import { SERVER_INFO } from './version.js';
import { MemoryResultStore } from './view.js';

/**
 * A catalog and the requests using it: a catalog replaced by a refresh is freed when its last
 * request ends.
 * @typedef {{ catalog: Catalog, users: number }} CatalogLease
 */

export class StatelessReplica {
  /**
   * @param {Required<import('./gateway.js').GatewayOptions>} options
   * @param {{ stats: import('./stats.js').Stats, metrics: import('./metrics.js').Metrics,
   *   store?: import('./store.js').SharedStore }} shared
   */
  constructor(options, { stats, metrics, store }, { memoryResults = false } = {}) {
    if (options.mode === 'gateway' && !store && !memoryResults) throw new Error('--mode gateway --stateless needs --store: a result stored through one replica must be readable through any');
    this.options = options;
    this.stats = stats;
    this.metrics = metrics;
    this.store = store;
    this.mode = modes[options.mode];
    this.relay = new Relay({
      upstreams: options.upstreams,
      limits: { callTimeoutMs: options.callTimeoutMs, maxUpstreamMessageBytes: options.maxUpstreamMessageBytes },
      onToolsChanged: () => this.#refresh(),
      onListChanged: (kind) => this.listeners.publish(`${kind}ListChanged`, `notifications/${kind}/list_changed`),
      onRestart: (upstream) => metrics.upstreamRestarts.inc({ upstream }),
      shared: true,
    });
    /** Without --store (a stateful gateway's modern clients): stored results in memory, per token. */
    /** @type {Map<string, MemoryResultStore> | null} */
    this.memoryResults = memoryResults && !store ? new Map() : null;
    /** The subscriptions/listen streams of modern clients. */
    this.listeners = new ListenStreams();
    /** @type {CatalogLease} */
    this.current = { catalog: new Catalog([], options), users: 0 };
    /** Requests in flight on this replica (bounded by --max-inflight). */
    this.inflight = 0;
    /** @type {Promise<void>} catalog refreshes, one after the other (never rejects) */
    this.refreshing = Promise.resolve();
    this.closed = false;
  }

  /** Connects the upstreams (the replica's own capabilities: none towards a client) and reads their tools. */
  async start() {
    await this.relay.start({ capabilities: {} }, SERVER_INFO);
    await this.#refresh();
  }

  #refresh() {
    this.refreshing = this.refreshing
      .then(async () => {
        if (this.closed) return;
        const next = new Catalog(await this.relay.listTools(), this.options);
        if (this.closed) return next.free();
        const old = this.current;
        const listed = (/** @type {Catalog} */ catalog) => JSON.stringify(this.mode.toolsList(catalog, this.options));
        const changed = this.listeners.size > 0 && listed(old.catalog) !== listed(next);
        this.current = { catalog: next, users: 0 };
        if (old.users === 0) old.catalog.free();
        if (changed) this.listeners.publish('toolsListChanged', 'notifications/tools/list_changed');
      })
      .catch((e) => log.warn(`refreshing the tool list: ${errorMessage(e)}`));
    return this.refreshing;
  }

  /** What the replica announces: the upstreams' capabilities less what needs a session. */
  capabilities() {
    const caps = this.relay.capabilities();
    caps.tools = {};
    delete caps.logging;
    if (caps.resources) caps.resources = {};
    if (caps.prompts) caps.prompts = {};
    return caps;
  }

  /**
   * Serves one POST whose body is `message` (checked by jsonrpc.js).
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {any} message
   * @param {string | null} tokenId the request's token (null without auth)
   */
  async handle(req, res, message, tokenId) {
    const isRequest = isRequestMessage(message);
    if (isRequest) {
      if (this.inflight >= this.options.maxInflight) {
        this.metrics.httpRejected.inc({ reason: 'busy' });
        const body = JSON.stringify(errorResponse(message.id, SERVER_ERROR, `Server busy: ${this.inflight} requests are in flight on this replica (--max-inflight ${this.options.maxInflight})`));
        res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1', 'Content-Length': Buffer.byteLength(body) });
        return res.end(body);
      }
      this.metrics.requests.inc({ method: methodLabel(message.method) });
    }
    const lease = this.acquire(tokenId);
    const { scope } = lease;
    if (isRequest) this.inflight++;
    const server = new Server(SERVER_INFO, { capabilities: this.capabilities(), instructions: this.relay.instructions() });
    server.fallbackRequestHandler = (request, extra) => route(scope, request, extra);
    server.fallbackNotificationHandler = async (n) => log.debug(`${n.method}: no session to apply it to (--stateless); dropped`);
    // A request that asked for progress gets an SSE stream to carry it; the rest plain JSON.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: message.params?._meta?.progressToken === undefined });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (isRequest) this.inflight--;
      lease.release();
      // Closing the server aborts a call still running (the client went away): it is cancelled upstream.
      server.close().catch((e) => log.debug(`closing a stateless request's server: ${errorMessage(e)}`));
    };
    res.once('close', end);
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
    } catch (e) {
      end();
      throw e;
    }
  }

  /**
   * What one request is served with: the current catalog (held until `release()`, so that a
   * refresh does not free it under the request) and the token's result store.
   * @param {string | null} tokenId
   */
  acquire(tokenId) {
    const lease = this.current;
    lease.users++;
    let released = false;
    /** @type {import('./dispatch.js').Scope} */
    const scope = {
      options: this.options,
      mode: this.mode,
      relay: this.relay,
      catalog: lease.catalog,
      results: this.#resultsOf(tokenId),
      stats: this.stats,
      metrics: this.metrics,
      stateless: true,
    };
    return {
      scope,
      release: () => {
        if (released) return;
        released = true;
        if (--lease.users === 0 && lease !== this.current) lease.catalog.free();
      },
    };
  }

  /** @returns {import('./view.js').ResultStore} */
  #resultsOf(/** @type {string | null} */ tokenId) {
    const owner = tokenOwner(tokenId);
    if (this.store) return this.store.forOwner(owner);
    if (!this.memoryResults) return { put: noStore, get: noStore };
    let results = this.memoryResults.get(owner);
    if (!results) this.memoryResults.set(owner, (results = new MemoryResultStore()));
    return results;
  }

  /**
   * Serves one POST of an MCP 2026-07-28 client (modern-endpoint.js).
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {any} message
   * @param {string | null} tokenId
   */
  handleModern(req, res, message, tokenId) {
    return serveModern(this, req, res, message, tokenId);
  }

  async close() {
    this.listeners.closeAll();
    this.closed = true;
    await this.refreshing;
    await this.relay.close();
    if (this.current.users === 0) this.current.catalog.free();
  }
}

/** Stateless compact and proxy modes store nothing (gateway mode is refused without --store). @returns {Promise<never>} */
async function noStore() {
  throw new Error('no result store');
}
