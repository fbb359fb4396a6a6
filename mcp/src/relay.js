// The relay of one session: its upstream connections, requests forwarded to them (progress and
// cancellation wired through), and what upstreams send back on their own (notifications;
// sampling, elicitation and roots requests), delivered on the stream of the call that caused it.
// A stateless replica has one relay for all its requests (`shared`): there, what an upstream
// sends on its own could belong to any client's call, so it reaches none (progress still does:
// it carries the call's own token).

import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcError } from './jsonrpc.js';
import { errorMessage, log } from './log.js';
import { CAPABILITY_OF, META, MISSING_REQUIRED_CLIENT_CAPABILITY, missingCapabilities } from './modern.js';
import { AnyResult, listAll, Upstream } from './upstream.js';

// An upstream's sampling or elicitation request may wait for a person.
const CLIENT_REQUEST_TIMEOUT_MS = 10 * 60 * 1000;
/** Rounds of input a modern upstream may ask of a legacy client for one request (MRTR). */
const MAX_INPUT_ROUNDS = 16;

/**
 * @typedef {import('./upstream.js').UpstreamLimits} UpstreamLimits
 * @typedef {{ notification: (n: any) => Promise<void>, request: (r: any, schema: any, options: any) => Promise<any> }} ClientSide
 *   the session's SDK server, once it exists
 * @typedef {{ signal: AbortSignal, _meta?: any, sendNotification: (n: any) => Promise<void>,
 *   sendRequest: (r: any, schema: any, options?: any) => Promise<any> }} RequestExtra the SDK's per-request context
 */

export class Relay {
  /**
   * @param {{ upstreams: Record<string, import('./config.js').UpstreamSpec>, limits: UpstreamLimits,
   *   onToolsChanged: () => void, onListChanged?: (kind: 'prompts'|'resources') => void,
   *   onRestart?: (upstream: string) => void, shared?: boolean }} options
   */
  constructor({ upstreams, limits, onToolsChanged, onListChanged, onRestart, shared = false }) {
    this.shared = shared;
    this.specs = upstreams;
    this.limits = limits;
    this.onToolsChanged = onToolsChanged;
    this.onListChanged = onListChanged;
    this.onRestart = onRestart;
    /** What the session's client declared at initialize (offered per request to modern upstreams). */
    /** @type {Record<string, any>} */
    this.clientCapabilities = {};
    /** The session's logging/setLevel, asked of modern upstreams per request. @type {string | undefined} */
    this.logLevel = undefined;
    /** @type {Map<string, Upstream>} */
    this.upstreams = new Map();
    /** @type {Map<string, Set<RequestExtra>>} upstream name → the client requests in flight there */
    this.inflight = new Map();
    /** @type {Map<RequestExtra, Promise<void>>} the last notification sent for a request in flight */
    this.sent = new Map();
    /** @type {ClientSide | null} */
    this.client = null;
    /** Which upstream listed a resource (by uri) or prompt (by name). */
    this.owners = { resources: new Map(), prompts: new Map() };
  }

  /** Connects every upstream with the client's capabilities; one that fails is retried alone. */
  async start(/** @type {{ capabilities?: object, clientInfo?: { name: string, version: string } }} */ { capabilities, clientInfo }, /** @type {{ name: string, version: string }} */ fallbackInfo) {
    this.clientCapabilities = capabilities ?? {};
    for (const [name, spec] of Object.entries(this.specs)) {
      const upstream = new Upstream(
        name,
        spec,
        {
          capabilities: capabilities ?? {},
          clientInfo: clientInfo ?? fallbackInfo,
          onNotification: (n) => this.#fromUpstream(upstream, n),
          onRequest: (r, extra) => this.#requestFromUpstream(upstream, r, extra),
          onReconnect: () => this.onToolsChanged(),
          onRestart: () => this.onRestart?.(name),
        },
        this.limits,
      );
      this.upstreams.set(name, upstream);
      this.inflight.set(name, new Set());
    }
    // An upstream that cannot start now is retried in the background; calls to it get its error.
    await Promise.all([...this.upstreams.values()].map((u) => u.start().catch((e) => log.debug(errorMessage(e)))));
  }

  /** The capabilities the gateway announces: tools always, the rest as the upstreams have them. */
  capabilities() {
    /** @type {Record<string, any>} */
    const caps = { tools: { listChanged: true } };
    for (const u of this.upstreams.values()) {
      const c = /** @type {Record<string, any>} */ (u.capabilities());
      for (const key of ['resources', 'prompts']) {
        if (c[key]) caps[key] = { ...caps[key], ...c[key] };
      }
      if (c.logging) caps.logging = {};
      if (c.completions) caps.completions = {};
    }
    return caps;
  }

  /** Whether an upstream speaks MCP 2026-07-28 and logs: its log messages reach a request's stream. */
  modernLogging() {
    return [...this.upstreams.values()].some((u) => u.era === 'modern' && /** @type {any} */ (u.capabilities()).logging);
  }

  instructions() {
    const texts = [...this.upstreams.values()].map((u) => u.instructions()).filter(Boolean);
    return texts.length ? texts.join('\n\n') : undefined;
  }

  /** Upstream by name. */
  get(/** @type {string} */ name) {
    const u = this.upstreams.get(name);
    if (!u) throw new JsonRpcError(ErrorCode.InternalError, `no upstream ${JSON.stringify(name)}`);
    return u;
  }

  first() {
    const u = this.upstreams.values().next().value;
    if (!u) throw new JsonRpcError(ErrorCode.InternalError, 'no upstream');
    return u;
  }

  /** The upstream that listed a resource (by uri) or prompt (by name); else the first with the capability. */
  owner(/** @type {'resources'|'prompts'} */ kind, /** @type {string | undefined} */ key) {
    const known = key === undefined ? undefined : this.owners[kind].get(key);
    if (known) return known;
    return [...this.upstreams.values()].find((u) => /** @type {any} */ (u.capabilities())[kind]) ?? this.first();
  }

  /** Every upstream's tools, for the catalog. */
  async listTools() {
    const listed = [];
    for (const u of this.upstreams.values()) {
      if (!u.client || !u.capabilities().tools) continue;
      try {
        for (const def of await listAll(u, 'tools/list', 'tools')) listed.push({ upstream: u.name, def });
      } catch (e) {
        log.warn(`upstream ${u.name}: tools/list failed: ${errorMessage(e)}`);
      }
    }
    return listed;
  }

  /** One upstream: its page as it is; several: every page of each, concatenated. */
  async listMerged(/** @type {'resources'|'prompts'} */ capability, /** @type {string} */ method, /** @type {string} */ key, /** @type {any} */ params, /** @type {RequestExtra} */ extra) {
    const ups = [...this.upstreams.values()].filter((u) => /** @type {any} */ (u.capabilities())[capability] || !u.client);
    const remember = (/** @type {Upstream} */ u, /** @type {any[]} */ items) => {
      for (const it of items) this.owners[capability].set(it.uri ?? it.uriTemplate ?? it.name, u);
    };
    if (ups.length === 1) {
      const page = await this.forward(ups[0], { method, params }, extra);
      remember(ups[0], page[key] ?? []);
      return page;
    }
    const all = [];
    for (const u of ups) {
      const items = await listAll(u, method, key);
      remember(u, items);
      all.push(...items);
    }
    return { [key]: all };
  }

  /**
   * Passes a request to an upstream with progress and cancellation wired through.
   * @param {Upstream} upstream
   * @param {{ method: string, params?: any }} request
   * @param {RequestExtra} extra
   */
  async forward(upstream, request, extra) {
    const token = extra._meta?.progressToken;
    const onprogress =
      token === undefined ? undefined : (/** @type {any} */ p) => this.#notify(extra, { method: 'notifications/progress', params: { ...p, progressToken: token } });
    // A modern client says per request what it can do; a session's client said it at initialize
    // (and a session gets an upstream's log messages, at its logging/setLevel or else all, as a
    // legacy server would send them); a shared connection's legacy client can be asked nothing.
    const modernClient = extra._meta?.[META.protocolVersion] !== undefined;
    /** @type {import('./modern-client.js').PerRequest} */
    const perRequest = modernClient
      ? { capabilities: extra._meta?.[META.clientCapabilities], logLevel: extra._meta?.[META.logLevel] }
      : this.shared
        ? { capabilities: {} }
        : { capabilities: this.clientCapabilities, logLevel: this.logLevel ?? 'debug' };
    const onnotification = modernClient || !this.shared ? (/** @type {any} */ n) => this.#notify(extra, n) : undefined;
    if (upstream.era === 'modern' && (request.method === 'resources/subscribe' || request.method === 'resources/unsubscribe')) {
      // The revision replaced them with its subscriptions/listen stream, which the upstream's connection holds.
      return /** @type {import('./modern-client.js').ModernClient} */ (upstream.client).subscribe(String(request.params?.uri), request.method === 'resources/subscribe');
    }
    const inflight = this.inflight.get(upstream.name);
    inflight?.add(extra);
    this.sent.set(extra, Promise.resolve());
    try {
      // The SDK puts its own progress token in; the client's is restored on the way back.
      const params = request.params && token !== undefined ? withoutProgressToken(request.params) : request.params;
      const options = { signal: extra.signal, onprogress, onnotification, perRequest };
      let result = await upstream.request({ method: request.method, params }, options).catch((e) => {
        // A modern upstream that needs what this client could not declare: say why it could not.
        if (e?.code === MISSING_REQUIRED_CLIENT_CAPABILITY && this.shared && !modernClient) {
          throw new JsonRpcError(e.code, `${e.message} (this client has no session to be asked on: agentwire-mcp --stateless)`, e.data);
        }
        throw e;
      });
      // A modern upstream that needs input (MRTR): a modern client answers it itself; for a
      // legacy one the gateway asks it (sampling, elicitation, roots requests on its session)
      // and retries the request with the answers.
      for (let round = 1; !modernClient && result?.resultType === 'input_required'; round++) {
        const retry = await this.#askClient(upstream, result, extra, round);
        const { inputResponses, requestState, ...rest } = params ?? {};
        result = await upstream.request({ method: request.method, params: { ...rest, ...retry } }, options);
      }
      // What the upstream sent before its result reaches the client before the result too.
      await this.sent.get(extra);
      return result;
    } finally {
      inflight?.delete(extra);
      this.sent.delete(extra);
    }
  }

  /**
   * The input a modern upstream asked for, from a legacy client: each input request sent to the
   * client on its session; resolves with the retry's `inputResponses` (and `requestState`).
   * Without a session to ask on, or without the capability the client declared, -32021.
   * @param {Upstream} upstream
   * @param {any} result an input_required result
   * @param {RequestExtra} extra
   * @param {number} round
   */
  async #askClient(upstream, result, extra, round) {
    const requests = result.inputRequests && typeof result.inputRequests === 'object' ? result.inputRequests : {};
    if (this.shared) {
      throw missingCapabilities(requests, {}, `upstream "${upstream.name}" needs input from the client, and this client has no session to be asked on (agentwire-mcp --stateless)`);
    }
    if (round > MAX_INPUT_ROUNDS) throw new JsonRpcError(ErrorCode.InternalError, `upstream "${upstream.name}" asked for input ${MAX_INPUT_ROUNDS} times for one request; given up`, { upstream: upstream.name });
    const unsupported = Object.values(requests).filter((r) => !this.clientCapabilities[CAPABILITY_OF[r?.method]]);
    if (unsupported.length) throw missingCapabilities(requests, this.clientCapabilities, `upstream "${upstream.name}" asked for ${unsupported.map((r) => r?.method).join(', ')}, which the client did not declare at initialize`);
    const options = { signal: extra.signal, timeout: CLIENT_REQUEST_TIMEOUT_MS };
    const answers = await Promise.all(Object.entries(requests).map(async ([key, r]) => [key, await extra.sendRequest({ method: r.method, params: r.params ?? {} }, AnyResult, options)]));
    return { inputResponses: Object.fromEntries(answers), ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}) };
  }

  /** Sends to every upstream (client notifications such as roots/list_changed). */
  notifyAll(/** @type {any} */ notification) {
    for (const u of this.upstreams.values()) u.notify(notification);
  }

  /** Sends a request to every upstream with `capability`, in parallel (logging/setLevel). */
  async requestAll(/** @type {string} */ capability, /** @type {any} */ request, /** @type {RequestExtra} */ extra) {
    // A modern upstream has no logging/setLevel: the level goes with each request instead.
    if (request.method === 'logging/setLevel') this.logLevel = request.params?.level;
    const targets = [...this.upstreams.values()].filter((u) => u.era !== 'modern' && /** @type {any} */ (u.capabilities())[capability]);
    await Promise.all(targets.map((u) => u.request(request, { signal: extra.signal })));
    return {};
  }

  /** A notification on the stream of a request in flight, in order with its result. */
  #notify(/** @type {RequestExtra} */ extra, /** @type {any} */ n) {
    const previous = this.sent.get(extra) ?? Promise.resolve();
    const next = previous.then(() => extra.sendNotification(n)).catch((e) => log.debug(`notification ${n.method}: ${errorMessage(e)}`));
    if (this.sent.has(extra)) this.sent.set(extra, next);
    return next;
  }

  /** The request extra of the newest call in flight at this upstream (its HTTP stream). */
  #relatedExtra(/** @type {Upstream} */ upstream) {
    return [...(this.inflight.get(upstream.name) ?? [])].at(-1);
  }

  async #fromUpstream(/** @type {Upstream} */ upstream, /** @type {any} */ n) {
    if (n.method === 'notifications/tools/list_changed') return this.onToolsChanged();
    const listChanged = /^notifications\/(prompts|resources)\/list_changed$/.exec(n.method);
    if (listChanged) this.onListChanged?.(/** @type {'prompts'|'resources'} */ (listChanged[1]));
    if (this.shared) return log.debug(`upstream ${upstream.name}: ${n.method} dropped (--stateless: it could belong to any client's call)`);
    const extra = this.#relatedExtra(upstream);
    if (extra) return this.#notify(extra, n);
    if (!this.client) return log.debug(`upstream ${upstream.name}: ${n.method} before the client is connected; dropped`);
    return this.client.notification(n).catch((e) => log.debug(`notification ${n.method}: ${errorMessage(e)}`));
  }

  async #requestFromUpstream(/** @type {Upstream} */ upstream, /** @type {any} */ request, /** @type {{ signal: AbortSignal }} */ upExtra) {
    if (this.shared) {
      log.debug(`upstream ${upstream.name}: its ${request.method} request refused (a shared connection)`);
      throw new JsonRpcError(
        ErrorCode.MethodNotFound,
        `${request.method} cannot reach a client: this connection serves clients without a session (MCP 2026-07-28 clients, or agentwire-mcp --stateless), and nothing can be sent to them but their answers`,
      );
    }
    const extra = this.#relatedExtra(upstream);
    const options = { signal: upExtra.signal, timeout: CLIENT_REQUEST_TIMEOUT_MS };
    if (extra) return extra.sendRequest(request, AnyResult, options);
    if (!this.client) throw new JsonRpcError(ErrorCode.InternalError, 'the client is not connected yet');
    return this.client.request(request, AnyResult, options);
  }

  /** The upstreams' connection states (for /metrics). */
  states() {
    return [...this.upstreams.values()].map((u) => ({ name: u.name, status: u.status }));
  }

  async close() {
    await Promise.all([...this.upstreams.values()].map((u) => u.close()));
  }
}

function withoutProgressToken(/** @type {any} */ params) {
  const { progressToken, ...meta } = params._meta ?? {};
  const out = { ...params };
  if (Object.keys(meta).length) out._meta = meta;
  else delete out._meta;
  return out;
}
