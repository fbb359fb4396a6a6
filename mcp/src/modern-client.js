// The client side of MCP 2026-07-28, for an upstream that speaks it: every request carries the
// per-request `_meta` (protocol version, the capabilities of the client it is made for, its log
// level), and its answer comes with the request's own notifications (progress, log messages).
// Change notifications come on a subscriptions/listen request held open. Two wires carry it:
//
// - Streamable HTTP (HttpWire): a POST per request with the headers mirrored from the body
//   (MCP-Protocol-Version, Mcp-Method, Mcp-Name, and Mcp-Param-* for the `x-mcp-header`
//   arguments of the tool, from the schema the upstream listed); the answer is JSON or an SSE
//   stream; aborting the fetch is the cancellation.
// - stdio (StdioWire): one shared channel of lines (transports/stdio-upstream.js); answers by id,
//   progress by its token, listen notifications by their subscription id, log messages to the
//   newest request in flight (the channel says no more); `notifications/cancelled` cancels.
//
// It offers the methods of the SDK Client that upstream.js uses, so an upstream's connection is
// one or the other (upstream.js decides: --upstream-protocol, or server/discover for `auto`).

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, log } from './log.js';
import { encodeHeaderValue, headerText, HEADER_MISMATCH, META, MISSING_REQUIRED_CLIENT_CAPABILITY, MODERN_VERSION, paramHeaders, UNSUPPORTED_PROTOCOL_VERSION, valueAt } from './modern.js';

/** The field of a request that its Mcp-Name header mirrors. */
const NAME_FIELD = /** @type {Record<string, string>} */ ({ 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' });
const LISTEN_BACKOFF_MS = [250, 1000, 2000, 5000, 10000, 30000];

/**
 * @typedef {{ capabilities?: object, logLevel?: string }} PerRequest what the downstream client
 *   declared for this request (its capabilities; the least log level it wants)
 * @typedef {{ signal?: AbortSignal, timeout?: number, resetTimeoutOnProgress?: boolean,
 *   onprogress?: (p: any) => void, onnotification?: (n: any) => void, perRequest?: PerRequest }} RequestOptions
 */

/** Thrown by `connect()` when the server answered discovery in a way only a legacy server does. */
export class NotModernError extends Error {}

/**
 * What carries the messages.
 * @typedef {object} Wire
 * @property {(message: any, options: { signal: AbortSignal, onMessage: (m: any) => void }) => Promise<any>} exchange
 *   sends a request; resolves with its response, `onMessage` gets what relates to it before that
 * @property {(message: any, signal: AbortSignal, onMessage: (m: any) => void) => Promise<void>} listen
 *   holds a subscriptions/listen request open; resolves when it ends
 * @property {() => Promise<void>} [close]
 */

export class ModernClient {
  /**
   * @param {Wire} wire
   * @param {{ clientInfo: { name: string, version: string }, capabilities: object, name: string }} options
   *   `capabilities`: offered on requests that carry none of their own (a session's, from its
   *   initialize); `name` is the upstream's
   */
  constructor(wire, { clientInfo, capabilities, name }) {
    this.wire = wire;
    this.clientInfo = clientInfo;
    this.capabilities = capabilities;
    this.name = name;
    this.nextId = 1;
    /** @type {any} */
    this.discovered = null;
    /** Input schemas of the upstream's tools, from its tools/list answers (for Mcp-Param-*). */
    /** @type {Map<string, any>} */
    this.schemas = new Map();
    /** Resources a session subscribed to (legacy resources/subscribe), asked for on the listen stream. */
    /** @type {Set<string>} */
    this.subscriptions = new Set();
    /** @type {AbortController | null} */
    this.listening = null;
    this.listenAttempt = 0;
    this.closed = false;
    /** @type {((n: any) => Promise<void> | void) | undefined} change notifications (listen stream) */
    this.fallbackNotificationHandler = undefined;
    /** @type {(() => void) | undefined} */
    this.onclose = undefined;
    /** @type {((e: Error) => void) | undefined} */
    this.onerror = undefined;
  }

  /**
   * server/discover: the server's versions, capabilities and identity. Rejects with
   * NotModernError when the answer is not a modern one (a legacy server), and with an McpError
   * when the server is modern but serves no version this client speaks.
   * @param {{ timeout?: number }} [options]
   */
  async connect({ timeout = 60_000 } = {}) {
    let result;
    try {
      result = await this.request({ method: 'server/discover', params: {} }, null, { timeout });
    } catch (e) {
      if (e instanceof McpError && e.code === UNSUPPORTED_PROTOCOL_VERSION) {
        throw new McpError(UNSUPPORTED_PROTOCOL_VERSION, `upstream serves ${JSON.stringify(/** @type {any} */ (e.data)?.supported)}; agentwire-mcp speaks ${MODERN_VERSION} and the legacy revisions`, e.data);
      }
      if (e instanceof McpError && [HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY].includes(e.code)) throw e;
      if (e instanceof HttpError || e instanceof McpError) throw new NotModernError(`server/discover: ${errorMessage(e)}`);
      throw e;
    }
    this.#discovered(result);
  }

  /** Adopts connect's discovery result: a modern server, or NotModernError. */
  #discovered(/** @type {any} */ result) {
    if (!Array.isArray(result?.supportedVersions) || !result.capabilities) throw new NotModernError('server/discover answered without supportedVersions and capabilities');
    if (!result.supportedVersions.includes(MODERN_VERSION)) {
      throw new NotModernError(`server/discover lists ${JSON.stringify(result.supportedVersions)}, not ${MODERN_VERSION}`);
    }
    this.discovered = result;
    this.#listen();
  }

  getServerCapabilities() {
    return this.discovered?.capabilities;
  }

  getServerVersion() {
    return this.discovered?._meta?.[META.serverInfo];
  }

  getInstructions() {
    return this.discovered?.instructions;
  }

  /**
   * A legacy client's notifications have nothing to do here: the revision removed
   * roots/list_changed, and a request is cancelled by its wire (a closed stream, or
   * notifications/cancelled on stdio).
   */
  async notification(/** @type {any} */ _notification) {}

  /** A legacy client's resources/subscribe: the listen stream asks for the resource from now on. */
  subscribe(/** @type {string} */ uri, /** @type {boolean} */ on) {
    const had = this.subscriptions.has(uri);
    if (on) this.subscriptions.add(uri);
    else this.subscriptions.delete(uri);
    if (had !== on) this.#listen();
    return {};
  }

  /**
   * One request; resolves with its result, rejects with an McpError carrying the server's error.
   * @param {{ method: string, params?: any }} request
   * @param {unknown} _schema (the SDK's signature; results are passed through)
   * @param {RequestOptions} [options]
   */
  async request(request, _schema, options = {}) {
    const result = await this.#send(request, options).catch(async (e) => {
      // A changed inputSchema (a new x-mcp-header): read the tools again, then retry once.
      if (!(e instanceof McpError && e.code === HEADER_MISMATCH && request.method === 'tools/call')) throw e;
      log.debug(`upstream ${this.name}: ${e.message}; reading its tools again`);
      await this.#send({ method: 'tools/list', params: {} }, { signal: options.signal, timeout: options.timeout });
      return this.#send(request, options);
    });
    return result;
  }

  async #send(/** @type {{ method: string, params?: any }} */ request, /** @type {RequestOptions} */ options) {
    const { signal, timeout, resetTimeoutOnProgress, onprogress, onnotification, perRequest = {} } = options;
    const id = this.nextId++;
    const params = { ...request.params };
    /** @type {Record<string, unknown>} */
    const meta = { ...params._meta };
    for (const k of Object.keys(meta)) if (k.startsWith('io.modelcontextprotocol/')) delete meta[k];
    delete meta.progressToken;
    meta[META.protocolVersion] = MODERN_VERSION;
    meta[META.clientInfo] = this.clientInfo;
    meta[META.clientCapabilities] = perRequest.capabilities ?? this.capabilities ?? {};
    if (perRequest.logLevel) meta[META.logLevel] = perRequest.logLevel;
    if (onprogress) meta.progressToken = id;
    params._meta = meta;
    const message = { jsonrpc: '2.0', id, method: request.method, params };

    const controller = new AbortController();
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    let timedOut = false;
    const arm = () => {
      if (!timeout) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout }));
      }, timeout);
    };
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    /** What the server sent for this request before its answer. */
    const onMessage = (/** @type {any} */ m) => {
      if (m?.method === 'notifications/progress' && m.params?.progressToken === id) {
        if (resetTimeoutOnProgress) arm();
        const { progressToken, ...progress } = m.params;
        onprogress?.(progress);
      } else if (typeof m?.method === 'string' && !('id' in m)) {
        onnotification?.(m);
      } else if (typeof m?.method === 'string') {
        log.warn(`upstream ${this.name}: sent a ${m.method} request (MCP ${MODERN_VERSION} forbids server requests); ignored`);
      }
    };
    try {
      const answer = await this.wire.exchange(message, { signal: controller.signal, onMessage });
      if (answer?.error && typeof answer.error.code === 'number') throw new McpError(answer.error.code, String(answer.error.message ?? ''), answer.error.data);
      if (request.method === 'tools/list') for (const t of answer.result?.tools ?? []) if (t?.name) this.schemas.set(t.name, t.inputSchema);
      return answer.result;
    } catch (e) {
      if (timedOut) throw new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout });
      if (signal?.aborted) throw signal.reason ?? e;
      throw e;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** (Re)opens the subscriptions/listen stream for what the server can announce. */
  #listen() {
    this.listening?.abort();
    this.listening = null;
    if (this.closed) return;
    const caps = this.discovered?.capabilities ?? {};
    /** @type {Record<string, unknown>} */
    const filter = {};
    if (caps.tools?.listChanged) filter.toolsListChanged = true;
    if (caps.prompts?.listChanged) filter.promptsListChanged = true;
    if (caps.resources?.listChanged) filter.resourcesListChanged = true;
    if (caps.resources?.subscribe && this.subscriptions.size) filter.resourceSubscriptions = [...this.subscriptions];
    if (!Object.keys(filter).length) return;
    const controller = new AbortController();
    this.listening = controller;
    const id = this.nextId++;
    const message = {
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications: filter, _meta: { [META.protocolVersion]: MODERN_VERSION, [META.clientInfo]: this.clientInfo, [META.clientCapabilities]: {} } },
    };
    this.wire
      .listen(message, controller.signal, (m) => {
        if (m?.method === 'notifications/subscriptions/acknowledged') {
          this.listenAttempt = 0;
        } else if (typeof m?.method === 'string' && !('id' in m)) {
          const { _meta, ...rest } = m.params ?? {};
          const n = { method: m.method, ...(Object.keys(rest).length ? { params: rest } : {}) };
          Promise.resolve(this.fallbackNotificationHandler?.(n)).catch((e) => log.debug(`upstream ${this.name}: ${m.method}: ${errorMessage(e)}`));
        }
      })
      .catch((e) => {
        if (!controller.signal.aborted) log.debug(`upstream ${this.name}: subscriptions/listen: ${errorMessage(e)}`);
      })
      .finally(() => {
        if (this.listening !== controller || this.closed) return;
        // Ended by the server or the network: listened again, with backoff.
        const delay = LISTEN_BACKOFF_MS[Math.min(this.listenAttempt++, LISTEN_BACKOFF_MS.length - 1)];
        setTimeout(() => this.listening === controller && this.#listen(), delay).unref();
      });
  }

  async close() {
    this.closed = true;
    this.listening?.abort();
    this.listening = null;
    await this.wire.close?.();
  }
}

/** @implements {Wire} */
export class HttpWire {
  /**
   * @param {URL} url
   * @param {Record<string, string>} headers the config entry's
   * @param {(tool: string) => any} schemaOf the input schema the upstream listed for a tool
   */
  constructor(url, headers, schemaOf) {
    this.url = url;
    this.headers = headers;
    this.schemaOf = schemaOf;
  }

  async exchange(/** @type {any} */ message, /** @type {{ signal: AbortSignal, onMessage: (m: any) => void }} */ { signal, onMessage }) {
    const response = await fetch(this.url, { method: 'POST', headers: this.#headers(message.method, message.params), body: JSON.stringify(message), signal });
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream') && response.body) {
      try {
        for await (const m of messages(response.body)) {
          if (m?.id === message.id && ('result' in m || 'error' in m)) return m;
          onMessage(m);
        }
      } finally {
        // The stream may stay open after the response: done with it.
        response.body.cancel().catch(() => {});
      }
      throw new HttpError(response.status, `HTTP ${response.status}: the stream ended without a response`);
    }
    const text = await response.text();
    let answer;
    try {
      answer = text ? JSON.parse(text) : undefined;
    } catch {
      answer = undefined;
    }
    if (answer && typeof answer === 'object' && ('result' in answer || answer.error?.code !== undefined)) return answer;
    throw new HttpError(response.status, `HTTP ${response.status} ${response.statusText}${answer === undefined ? '' : ': not a JSON-RPC response'}`);
  }

  async listen(/** @type {any} */ message, /** @type {AbortSignal} */ signal, /** @type {(m: any) => void} */ onMessage) {
    const response = await fetch(this.url, { method: 'POST', headers: this.#headers(message.method, message.params), body: JSON.stringify(message), signal });
    if (!response.ok || !response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) throw new Error(`HTTP ${response.status}`);
    for await (const m of messages(response.body)) {
      if (m?.id === message.id) return; // the server ended the subscription
      onMessage(m);
    }
  }

  /** The request headers: the configured ones, then the revision's, mirrored from the body. */
  #headers(/** @type {string} */ method, /** @type {any} */ params) {
    /** @type {Record<string, string>} */
    const h = {
      ...this.headers,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': MODERN_VERSION,
      'Mcp-Method': method,
    };
    const field = NAME_FIELD[method];
    if (field !== undefined && typeof params[field] === 'string') h['Mcp-Name'] = encodeHeaderValue(params[field]);
    if (method === 'tools/call') {
      for (const [name, path] of paramHeaders(this.schemaOf(params.name))) {
        const value = headerText(valueAt(params.arguments, path));
        if (value !== undefined) h[`Mcp-Param-${name}`] = encodeHeaderValue(value);
      }
    }
    return h;
  }

}

/**
 * MCP 2026-07-28 over stdio: one channel for every request, so messages are told apart by what
 * they carry. Calls that are in flight when the process goes fail with its exit (upstream.js).
 * @implements {Wire}
 */
export class StdioWire {
  /**
   * @param {import('./transports/stdio-upstream.js').StdioUpstreamTransport} transport
   * @param {string} name the upstream's
   */
  constructor(transport, name) {
    this.transport = transport;
    this.name = name;
    /** @type {Map<unknown, { resolve: (m: any) => void, reject: (e: unknown) => void, onMessage: (m: any) => void }>} requests in flight by id */
    this.pending = new Map();
    /** @type {Map<unknown, { onMessage: (m: any) => void, end: () => void }>} listen requests by id */
    this.listeners = new Map();
    transport.onmessage = (m) => this.#receive(m);
  }

  exchange(/** @type {any} */ message, /** @type {{ signal: AbortSignal, onMessage: (m: any) => void }} */ { signal, onMessage }) {
    return new Promise((resolve, reject) => {
      const done = () => {
        this.pending.delete(message.id);
        signal.removeEventListener('abort', abort);
      };
      const abort = () => {
        if (!this.pending.has(message.id)) return;
        done();
        this.#cancel(message.id, signal.reason);
        reject(signal.reason);
      };
      this.pending.set(message.id, {
        resolve: (m) => {
          done();
          resolve(m);
        },
        reject: (e) => {
          done();
          reject(e);
        },
        onMessage,
      });
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      this.transport.send(message).catch((e) => this.pending.get(message.id)?.reject(e));
    });
  }

  listen(/** @type {any} */ message, /** @type {AbortSignal} */ signal, /** @type {(m: any) => void} */ onMessage) {
    return new Promise((resolve, reject) => {
      const end = () => {
        this.listeners.delete(message.id);
        signal.removeEventListener('abort', abort);
        resolve(undefined);
      };
      const abort = () => {
        if (this.listeners.has(message.id)) this.#cancel(message.id, 'the gateway no longer listens');
        end();
      };
      this.listeners.set(message.id, { onMessage, end });
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      this.transport.send(message).catch((e) => {
        this.listeners.delete(message.id);
        reject(e);
      });
    });
  }

  /** The process is gone: listen requests end (they are opened again on the next process). */
  closed() {
    for (const l of [...this.listeners.values()]) l.end();
  }

  close() {
    return this.transport.close();
  }

  #cancel(/** @type {unknown} */ requestId, /** @type {unknown} */ reason) {
    const params = { requestId, reason: reason instanceof Error ? reason.message : String(reason ?? 'cancelled') };
    this.transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params }).catch((e) => log.debug(`upstream ${this.name}: notifications/cancelled: ${errorMessage(e)}`));
  }

  #receive(/** @type {any} */ m) {
    if ('id' in m && ('result' in m || 'error' in m)) {
      const pending = this.pending.get(m.id);
      if (pending) return pending.resolve(m);
      return this.listeners.get(m.id)?.end(); // the server ended a subscription
    }
    if (typeof m.method !== 'string') return;
    if ('id' in m) {
      log.warn(`upstream ${this.name}: sent a ${m.method} request (MCP ${MODERN_VERSION} forbids server requests); ignored`);
      return;
    }
    const subscription = m.params?._meta?.[META.subscriptionId];
    if (subscription !== undefined && this.listeners.has(subscription)) return this.listeners.get(subscription)?.onMessage(m);
    if (m.method === 'notifications/progress') return this.pending.get(m.params?.progressToken)?.onMessage(m);
    // A log message says nothing of its request on a shared channel: the newest one in flight.
    const newest = [...this.pending.values()].at(-1);
    if (newest) newest.onMessage(m);
    else log.debug(`upstream ${this.name}: ${m.method} with no request in flight; dropped`);
  }
}

/** An HTTP answer that is not a JSON-RPC one. */
export class HttpError extends Error {
  constructor(/** @type {number} */ status, /** @type {string} */ message) {
    super(message);
    this.status = status;
  }
}

/**
 * The JSON messages of an SSE body (`data:` lines joined; events without data skipped).
 * @param {ReadableStream<Uint8Array>} body
 */
async function* messages(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  /** @type {string[]} */
  let data = [];
  for await (const chunk of /** @type {any} */ (body)) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (data.length) {
          const text = data.join('\n');
          data = [];
          try {
            yield JSON.parse(text);
          } catch {
            log.debug(`an SSE event that is not JSON: ${text.slice(0, 80)}`);
          }
        }
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
  }
}
