// One upstream MCP server of one session: connect (stdio or Streamable HTTP), forward its
// notifications and requests to the session, restart it with backoff when it goes away.
//
// Every failure a caller sees names the upstream (`data.upstream`): unavailable, closed during
// the call, no answer within --call-timeout (the call is then cancelled upstream), output that is
// not protocol. An HTTP upstream that restarted answers 404 for the old session: the upstream is
// re-initialized and the request sent once more (the 404 means the server never ran it).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcError, relayedError } from './jsonrpc.js';
import { errorMessage, log } from './log.js';
import { MODERN_VERSION, withoutModernMeta } from './modern.js';
import { HttpWire, ModernClient, NotModernError, StdioWire } from './modern-client.js';
import { StdioUpstreamTransport } from './transports/stdio-upstream.js';

/** Accepts any result object: the gateway passes results through, it does not police them. */
export const AnyResult = { parse: (/** @type {any} */ v) => v, safeParse: (/** @type {any} */ v) => ({ success: true, data: v }) };

const BACKOFF_MS = [100, 250, 500, 1000, 2000, 5000, 10000];
/** The least time an upstream gets to answer initialize. */
const CONNECT_TIMEOUT_MS = 60_000;
/** How long `auto` waits for a stdio upstream to answer server/discover (a 2025 server may never answer it). */
const STDIO_PROBE_TIMEOUT_MS = 10_000;
/** How long closing waits for an HTTP upstream to acknowledge the end of the session. */
const TERMINATE_TIMEOUT_MS = 2000;
/** The errors #failInflight made (told apart from the upstream's own). */
const failures = new WeakSet();

/**
 * @typedef {import('./config.js').UpstreamSpec} UpstreamSpec
 * @typedef {object} UpstreamHooks
 * @property {object} capabilities the client's, offered upstream as the gateway's own
 * @property {{ name: string, version: string }} clientInfo
 * @property {(notification: any) => void | Promise<void>} onNotification
 * @property {(request: any, extra: any) => Promise<any>} onRequest
 * @property {() => void} onReconnect after a restart: the session re-reads the tools
 * @property {() => void} [onRestart] the connection was lost and a restart begins (once per outage; /metrics)
 * @typedef {{ callTimeoutMs: number, maxUpstreamMessageBytes: number }} UpstreamLimits
 */

export class Upstream {
  /**
   * @param {string} name server name (config key): named in errors, the namespace of its tool ids
   * @param {UpstreamSpec} spec
   * @param {UpstreamHooks} hooks
   * @param {UpstreamLimits} limits
   */
  constructor(name, spec, hooks, limits) {
    this.name = name;
    this.spec = spec;
    this.hooks = hooks;
    this.limits = limits;
    /** @type {Client | ModernClient | null} the SDK's client (legacy revisions) or the modern one */
    this.client = null;
    /** The revision the connection speaks: `modern` (2026-07-28) or `legacy` (an initialize handshake). */
    /** @type {'legacy' | 'modern' | null} */
    this.era = null;
    /** @type {'down'|'up'|'restarting'|'closed'} */
    this.status = 'down';
    /** @type {Error | null} */
    this.lastError = null;
    this.closed = false;
    this.attempt = 0;
    /** @type {Promise<Client | ModernClient | null> | null} */
    this.ready = null;
    /** @type {Promise<Client | ModernClient | null> | null} a re-initialization after a 404, shared by the requests that saw it */
    this.reinitializing = null;
    /** @type {NodeJS.Timeout | null} */
    this.retryTimer = null;
    /** @type {number | null} */
    this.pid = null;
    /** @type {any} the client transport of the current connection */
    this.transport = null;
    /** Calls in flight, each with the controller that fails it (output that is not protocol). */
    /** @type {Set<AbortController>} */
    this.inflight = new Set();
  }

  /** Connects once; later outages reconnect by themselves. */
  start() {
    this.ready ??= this.#connect();
    return this.ready;
  }

  /**
   * How to speak to this upstream: its config's `protocol` (or --upstream-protocol). `auto` asks
   * server/discover first (the revision's probe) and falls back to initialize when the answer is
   * not a modern one. HTTP upstreams default to `auto`; stdio ones to `legacy` (a 2025 server may
   * never answer the probe); in-process ones speak the legacy revisions.
   */
  get protocol() {
    if (typeof this.spec.transport === 'function') return 'legacy';
    return this.spec.protocol ?? (this.spec.url ? 'auto' : 'legacy');
  }

  #stdioTransport() {
    const transport = new StdioUpstreamTransport({
      name: this.name,
      command: /** @type {string} */ (this.spec.command),
      args: this.spec.args,
      env: this.spec.env,
      cwd: this.spec.cwd,
      maxMessageBytes: this.limits.maxUpstreamMessageBytes,
    });
    transport.onprotocolerror = (/** @type {string} */ reason) => this.#failInflight(reason);
    return transport;
  }

  async #connect() {
    /** @type {any} a stdio process `auto` probed and found legacy, handed on to initialize */
    let transport = null;
    if (this.protocol !== 'legacy') {
      const modern = await this.#connectModern();
      if (modern.client) return modern.client;
      transport = modern.transport;
    }
    const client = new Client(this.hooks.clientInfo, { capabilities: this.hooks.capabilities });
    client.fallbackNotificationHandler = async (n) => this.hooks.onNotification(n);
    client.fallbackRequestHandler = async (r, extra) => this.hooks.onRequest(r, extra);
    if (transport) {
      // The probe's process, still running: initialize goes to it.
    } else if (typeof this.spec.transport === 'function') {
      transport = await this.spec.transport();
    } else if (this.spec.url) {
      transport = new StreamableHTTPClientTransport(new URL(this.spec.url), { requestInit: { headers: this.spec.headers ?? {} } });
    } else {
      transport = this.#stdioTransport();
    }
    client.onclose = () => this.#lost(client, transport.exitReason ? `the process ${transport.exitReason}` : 'connection closed');
    client.onerror = (e) => log.debug(`upstream ${this.name}: ${errorMessage(e)}`);
    try {
      // A server may take a while to start (npx fetching it): not the call timeout.
      await client.connect(transport, { timeout: Math.max(this.limits.callTimeoutMs, CONNECT_TIMEOUT_MS) });
    } catch (e) {
      await client.close().catch((closeError) => log.debug(`upstream ${this.name}: close after failed connect: ${errorMessage(closeError)}`));
      this.lastError = new Error(transport.exitReason ? `the process ${transport.exitReason}` : errorMessage(e));
      log.warn(`upstream ${this.name}: cannot connect: ${this.lastError.message}`);
      this.#scheduleRetry();
      throw this.unavailable();
    }
    if (this.closed) {
      await client.close();
      throw this.unavailable();
    }
    this.client = client;
    this.era = 'legacy';
    this.transport = transport;
    this.pid = transport.pid ?? null;
    this.status = 'up';
    this.attempt = 0;
    this.lastError = null;
    const version = client.getServerVersion();
    log.info(`upstream ${this.name}: connected (${version?.name ?? '?'} ${version?.version ?? ''})`);
    return client;
  }

  /**
   * MCP 2026-07-28: server/discover, no session. Resolves with `{client}`; with `{transport}` when
   * `auto` found a legacy server (a stdio process still running, for initialize; else null);
   * rejects (and schedules a retry) when the upstream cannot be reached or `modern` was asked of a
   * server that is not.
   */
  async #connectModern() {
    const stdio = this.spec.url ? null : this.#stdioTransport();
    /** @type {import('./modern-client.js').Wire} */
    let wire;
    if (stdio) {
      const stdioWire = new StdioWire(stdio, this.name);
      stdio.onclose = () => {
        stdioWire.closed();
        if (this.client === client) this.#lost(client, stdio.exitReason ? `the process ${stdio.exitReason}` : 'connection closed');
      };
      wire = stdioWire;
    } else {
      wire = new HttpWire(new URL(/** @type {string} */ (this.spec.url)), this.spec.headers ?? {}, (tool) => client.schemas.get(tool));
    }
    const client = new ModernClient(wire, { clientInfo: this.hooks.clientInfo, capabilities: this.hooks.capabilities, name: this.name });
    client.fallbackNotificationHandler = async (n) => this.hooks.onNotification(n);
    const timeout = stdio && this.protocol === 'auto' ? STDIO_PROBE_TIMEOUT_MS : Math.max(this.limits.callTimeoutMs, CONNECT_TIMEOUT_MS);
    try {
      await stdio?.start();
      await client.connect({ timeout });
    } catch (e) {
      const running = stdio && stdio.child && !stdio.exitReason;
      if (e instanceof NotModernError && this.protocol === 'auto') {
        log.debug(`upstream ${this.name}: not MCP ${MODERN_VERSION} (${e.message}); initializing`);
        client.closed = true;
        if (stdio) stdio.onclose = undefined;
        if (running) return { transport: stdio };
        await client.close();
        return { transport: null };
      }
      await client.close();
      this.lastError = new Error(
        e instanceof NotModernError
          ? `not an MCP ${MODERN_VERSION} server (--upstream-protocol modern): ${e.message}`
          : stdio?.exitReason
            ? `the process ${stdio.exitReason}`
            : errorMessage(e),
      );
      log.warn(`upstream ${this.name}: cannot connect: ${this.lastError.message}`);
      this.#scheduleRetry();
      throw this.unavailable();
    }
    if (this.closed) {
      await client.close();
      throw this.unavailable();
    }
    this.client = client;
    this.era = 'modern';
    this.transport = stdio;
    this.pid = stdio?.pid ?? null;
    this.status = 'up';
    this.attempt = 0;
    this.lastError = null;
    const version = client.getServerVersion();
    log.info(`upstream ${this.name}: connected (${version?.name ?? '?'} ${version?.version ?? ''}, ${MODERN_VERSION})`);
    return { client };
  }

  /** @param {Client | ModernClient} client @param {string} why */
  #lost(client, why) {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.status = 'down';
    this.lastError = new Error(why);
    log.warn(`upstream ${this.name}: ${why}; restarting`);
    this.hooks.onRestart?.();
    this.#failInflight(`upstream "${this.name}" closed during the call: ${why}`, ErrorCode.ConnectionClosed);
    this.#scheduleRetry();
  }

  #scheduleRetry() {
    if (this.closed || this.retryTimer) return;
    const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)];
    this.status = 'restarting';
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.ready = this.#connect().then(
        (c) => {
          this.hooks.onReconnect();
          return c;
        },
        () => null, // logged by #connect, which also scheduled the next try
      );
    }, delay);
    this.retryTimer.unref?.();
  }

  /** An HTTP upstream forgot our session (it restarted): a new one, at once. */
  #reinitialize(/** @type {Client} */ stale) {
    if (this.client !== stale) return this.ready ?? Promise.resolve(null);
    this.reinitializing ??= (async () => {
      log.warn(`upstream ${this.name}: its session is gone (HTTP 404, the server restarted?); initializing a new one`);
      this.client = null;
      this.status = 'restarting';
      this.hooks.onRestart?.();
      stale.close().catch((e) => log.debug(`upstream ${this.name}: closing the stale session: ${errorMessage(e)}`));
      try {
        this.ready = Promise.resolve(await this.#connect());
        this.hooks.onReconnect();
        return this.client;
      } catch {
        return null;
      } finally {
        this.reinitializing = null;
      }
    })();
    return this.reinitializing;
  }

  /** Fails every call in flight here (their upstream requests are cancelled). */
  #failInflight(/** @type {string} */ reason, code = ErrorCode.InternalError) {
    for (const controller of this.inflight) {
      // An McpError: the SDK rejects the request with it as it is (anything else becomes a timeout).
      const error = new McpError(code, reason, { upstream: this.name });
      failures.add(error);
      controller.abort(error);
    }
  }

  /** The MCP error for a call made while the upstream is not connected. */
  unavailable() {
    const why = this.lastError?.message ?? 'not connected';
    return new JsonRpcError(ErrorCode.ConnectionClosed, `upstream "${this.name}" is unavailable (${this.status}): ${why}`, { upstream: this.name });
  }

  /**
   * Sends a request upstream; errors name the upstream.
   * @param {{ method: string, params?: any }} request
   * @param {{ signal?: AbortSignal, onprogress?: (progress: any) => void,
   *   onnotification?: (n: any) => void, perRequest?: import('./modern-client.js').PerRequest }} [options]
   *   `perRequest` and `onnotification` are for a modern upstream: what this request's client
   *   declared, and where the request's own notifications (log messages) go
   */
  async request(request, { signal, onprogress, onnotification, perRequest } = {}) {
    for (let attempt = 0; ; attempt++) {
      const client = this.client ?? (this.reinitializing ? await this.reinitializing : null);
      if (!client) throw this.unavailable();
      // A legacy upstream is not sent the modern revision's per-request _meta.
      const sent = client instanceof ModernClient ? request : { ...request, params: withoutModernMeta(request.params) };
      try {
        return await this.#send(client, sent, signal, onprogress, { onnotification, perRequest });
      } catch (e) {
        if (attempt === 0 && e instanceof StreamableHTTPError && e.code === 404 && client instanceof Client) {
          await this.#reinitialize(client);
          continue;
        }
        throw this.#named(e, client, request, signal);
      }
    }
  }

  async #send(/** @type {Client | ModernClient} */ client, /** @type {any} */ request, /** @type {AbortSignal | undefined} */ signal, /** @type {any} */ onprogress, /** @type {any} */ modern) {
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    this.inflight.add(controller);
    try {
      return await client.request(request, /** @type {any} */ (AnyResult), {
        signal: controller.signal,
        onprogress,
        timeout: this.limits.callTimeoutMs,
        resetTimeoutOnProgress: true,
        ...modern,
      });
    } finally {
      this.inflight.delete(controller);
      signal?.removeEventListener('abort', abort);
    }
  }

  /** The error a caller gets: what went wrong, and where. */
  #named(/** @type {any} */ e, /** @type {Client | ModernClient} */ client, /** @type {any} */ request, /** @type {AbortSignal | undefined} */ signal) {
    if (signal?.aborted) return e;
    const data = { upstream: this.name };
    // Ours (output that is not protocol, the upstream lost): as it is.
    if (e instanceof JsonRpcError) return e;
    if (failures.has(e)) return relayedError(e);
    if (e instanceof McpError) {
      if (e.code === ErrorCode.RequestTimeout) {
        return new JsonRpcError(
          ErrorCode.RequestTimeout,
          `upstream "${this.name}" did not answer ${request.method} within ${this.limits.callTimeoutMs / 1000} s (--call-timeout); the call was cancelled there`,
          { ...data, timeoutMs: this.limits.callTimeoutMs },
        );
      }
      if (e.code !== ErrorCode.ConnectionClosed) return relayedError(e); // the upstream's own JSON-RPC error, as it sent it
    }
    if (this.client !== client || e?.code === ErrorCode.ConnectionClosed) {
      return new JsonRpcError(ErrorCode.ConnectionClosed, `upstream "${this.name}" closed during ${request.method}: ${this.lastError?.message ?? errorMessage(e)}`, data);
    }
    return new JsonRpcError(ErrorCode.InternalError, `upstream "${this.name}": ${errorMessage(e)}`, data);
  }

  notify(/** @type {any} */ notification) {
    return this.client?.notification(notification).catch((e) => log.warn(`upstream ${this.name}: ${notification.method}: ${errorMessage(e)}`));
  }

  capabilities() {
    return this.client?.getServerCapabilities() ?? {};
  }

  instructions() {
    return this.client?.getInstructions();
  }

  async close() {
    this.closed = true;
    this.status = 'closed';
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    // An HTTP upstream is told the session is over (DELETE), so it does not keep it around.
    if (client && this.transport instanceof StreamableHTTPClientTransport && this.transport.sessionId) {
      const ended = this.transport.terminateSession().catch((e) => log.debug(`upstream ${this.name}: DELETE: ${errorMessage(e)}`));
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, TERMINATE_TIMEOUT_MS).unref())]);
    }
    await client?.close().catch((e) => log.debug(`upstream ${this.name}: close: ${errorMessage(e)}`));
  }
}

/** Every page of a paginated list request (`tools/list`, `resources/list`, …). */
export async function listAll(/** @type {Upstream} */ upstream, /** @type {string} */ method, /** @type {string} */ key) {
  const items = [];
  /** @type {string | undefined} */
  let cursor;
  do {
    const page = await upstream.request({ method, params: cursor ? { cursor } : {} });
    items.push(...(page[key] ?? []));
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
