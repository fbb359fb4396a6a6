// The gateway: one MCP server in front of several upstreams, in one of three modes
// (compact, proxy §4.1, gateway §4.2 of the gateway surface spec).
//
// Each downstream session gets its own upstream connections, opened when the client
// initializes, with the client's own capabilities: sampling, elicitation and roots requests
// from an upstream then reach the client that asked for the tool call.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, InitializeRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { compact, gateway as gw } from 'agentwire';
import { compactResultDetailed } from './result.js';
import { AnyResult, listAll, Upstream } from './upstream.js';
import { log } from './log.js';
import { ResultStore, ViewError } from './view.js';
import { Stats } from './stats.js';
import { createRouter } from './router.js';

const SERVER_INFO = { name: 'agentwire-mcp', version: '0.1.0' };
export const MODES = ['compact', 'proxy', 'gateway'];

/**
 * @typedef {{ command?: string, args?: string[], env?: Record<string,string>, cwd?: string,
 *   url?: string, headers?: Record<string,string> }} UpstreamSpec
 * @typedef {{ upstreams: Record<string, UpstreamSpec>, mode?: 'compact'|'proxy'|'gateway',
 *   structured?: 'keep'|'strip', tokenizer?: string, minSavings?: number,
 *   maxResultTokens?: number, cacheStable?: boolean, stats?: Stats, measure?: boolean }} GatewayOptions
 *   `measure: false`: stats count only the JSON that was compacted (saves a token count per call).
 */

/**
 * A gateway; `connect(transport)` serves one downstream session on an MCP server transport.
 * @param {GatewayOptions} options
 */
export function createGateway(options) {
  const opts = {
    mode: 'compact',
    structured: 'strip',
    tokenizer: 'cl100k_base',
    minSavings: 0.1,
    maxResultTokens: 8000,
    cacheStable: false,
    measure: true,
    ...options,
  };
  if (!MODES.includes(opts.mode)) throw new Error(`unknown mode ${opts.mode} (${MODES.join(', ')})`);
  if (!Object.keys(opts.upstreams ?? {}).length) throw new Error('no upstream servers');
  const stats = opts.stats ?? new Stats();
  const sessions = new Set();
  return {
    stats,
    options: opts,
    /** Serves one downstream session; resolves once the transport is connected. */
    async connect(transport) {
      const session = new Session(opts, stats);
      sessions.add(session);
      session.server.onclose = () => {
        sessions.delete(session);
        session.closeUpstreams();
      };
      await session.server.connect(transport);
      return session;
    },
    async close() {
      await Promise.all([...sessions].map((s) => s.close()));
    },
  };
}

class Session {
  constructor(opts, stats) {
    this.opts = opts;
    this.stats = stats;
    this.upstreams = new Map();
    this.inflight = new Map(); // upstream name -> request extras of calls in flight there
    this.pending = new Map(); // request extra -> notifications sent for it, not yet written
    this.catalog = { tools: [], byName: new Map(), byId: new Map(), browse: null };
    this.results = new ResultStore();
    this.initialized = false;
    this.server = new Server(SERVER_INFO, {
      // Everything the gateway may announce; the initialize reply narrows it to the upstreams'.
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} },
    });
    // The SDK answers setLevel itself; the gateway forwards it to the upstreams instead.
    this.server.removeRequestHandler('logging/setLevel');
    const sdkInitialize = this.server._requestHandlers.get('initialize');
    this.server.setRequestHandler(InitializeRequestSchema, async (request, extra) => {
      await this.#startUpstreams(request.params);
      const reply = await sdkInitialize(request, extra);
      return { ...reply, capabilities: this.#capabilities(), ...this.#instructions() };
    });
    this.server.oninitialized = () => {
      this.initialized = true;
    };
    this.server.fallbackRequestHandler = (request, extra) => this.#route(request, extra);
    this.server.fallbackNotificationHandler = async (n) => {
      // roots/list_changed and anything else a client says: every upstream hears it.
      for (const u of this.upstreams.values()) u.notify(n);
    };
  }

  async #startUpstreams({ capabilities, clientInfo }) {
    if (this.upstreams.size) return;
    for (const [name, spec] of Object.entries(this.opts.upstreams)) {
      const upstream = new Upstream(name, spec, {
        capabilities: capabilities ?? {},
        clientInfo: clientInfo ?? SERVER_INFO,
        onNotification: (n) => this.#fromUpstream(upstream, n),
        onRequest: (r, extra) => this.#requestFromUpstream(upstream, r, extra),
        onReconnect: () => this.#refresh(true),
      });
      this.upstreams.set(name, upstream);
      this.inflight.set(name, new Set());
    }
    await Promise.all([...this.upstreams.values()].map((u) => u.start().catch((e) => log(e.message))));
    await this.#refresh(false);
  }

  #capabilities() {
    const caps = { tools: { listChanged: true } };
    for (const u of this.upstreams.values()) {
      const c = u.capabilities();
      for (const key of ['resources', 'prompts']) {
        if (c[key]) caps[key] = { ...caps[key], ...c[key] };
      }
      if (c.logging) caps.logging = {};
      if (c.completions) caps.completions = {};
    }
    return caps;
  }

  #instructions() {
    const texts = [...this.upstreams.values()].map((u) => u.client?.getInstructions()).filter(Boolean);
    return texts.length ? { instructions: texts.join('\n\n') } : {};
  }

  // ---- catalog -------------------------------------------------------------------------------

  /** Re-reads every upstream's tools; tells the client when the list it sees changed. */
  async #refresh(notify) {
    const before = JSON.stringify(this.#toolsList());
    const tools = [];
    for (const u of this.upstreams.values()) {
      if (!u.client || !u.capabilities().tools) continue;
      try {
        for (const def of await listAll(u, 'tools/list', 'tools')) tools.push({ upstream: u, def });
      } catch (e) {
        log(`upstream ${u.name}: tools/list failed: ${e.message}`);
      }
    }
    this.#derive(tools);
    if (notify && this.initialized && JSON.stringify(this.#toolsList()) !== before) {
      await this.server.sendToolListChanged().catch(() => {});
    }
  }

  #derive(tools) {
    const byName = new Map();
    const byId = new Map();
    const seen = new Set();
    // Compact mode keeps upstream names; a name two upstreams share gets the server prefix.
    for (const t of tools) {
      const dup = tools.filter((o) => o.def.name === t.def.name).length > 1;
      t.name = dup ? `${t.upstream.name}__${t.def.name}` : t.def.name;
      byName.set(t.name, t);
    }
    // Proxy and gateway: spec tool ids, the server name as namespace hint (§1.8).
    const defs = [];
    for (const t of tools) {
      const def = { ...t.def, name: `${namespaceOf(t.upstream.name)}.${t.def.name}`, description: t.def.description || t.def.name };
      try {
        t.id = gw.toolId(def).tool_id;
      } catch (e) {
        log(`tool ${t.def.name} of ${t.upstream.name} has no valid tool id (${e.message}); not offered in ${this.opts.mode} mode`);
        continue;
      }
      if (seen.has(t.id)) throw new Error(`tool id collision: ${t.id}`);
      seen.add(t.id);
      byId.set(t.id, t);
      defs.push(def);
    }
    this.catalog.browse?.free();
    const browse = new gw.BrowseSession({ cacheStable: this.opts.cacheStable, router: createRouter(tools.filter((t) => t.id)) });
    browse.register(defs, { onInvalid: 'skip' });
    this.catalog = { tools, byName, byId, browse };
  }

  #toolsList() {
    const { mode, structured } = this.opts;
    if (mode === 'gateway') return META_TOOLS.gateway;
    if (mode === 'proxy') {
      const cards = [...this.catalog.byId.values()].map((t) => ({ name: t.id, description: cardDescription(t), inputSchema: { type: 'object' } }));
      return [...cards, ...META_TOOLS.proxy];
    }
    return this.catalog.tools.map((t) => {
      const tool = { ...t.def, name: t.name };
      if (structured === 'strip') delete tool.outputSchema;
      return tool;
    });
  }

  // ---- routing ---------------------------------------------------------------------------------

  async #route(request, extra) {
    const { method, params } = request;
    switch (method) {
      case 'tools/list':
        return { tools: this.#toolsList() };
      case 'tools/call':
        return this.#callTool(params ?? {}, extra);
      case 'resources/list':
        return this.#merged('resources', method, 'resources', params, extra);
      case 'resources/templates/list':
        return this.#merged('resources', method, 'resourceTemplates', params, extra);
      case 'prompts/list':
        return this.#merged('prompts', method, 'prompts', params, extra);
      case 'resources/read':
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return this.#forward(this.#owner('resources', params?.uri), request, extra);
      case 'prompts/get':
        return this.#forward(this.#owner('prompts', params?.name), request, extra);
      case 'completion/complete': {
        const ref = params?.ref ?? {};
        const owner = ref.type === 'ref/prompt' ? this.#owner('prompts', ref.name) : this.#owner('resources', ref.uri);
        return this.#forward(owner, request, extra);
      }
      case 'logging/setLevel': {
        const targets = [...this.upstreams.values()].filter((u) => u.capabilities().logging);
        await Promise.all(targets.map((u) => u.request(request, { signal: extra.signal })));
        return {};
      }
      default:
        return this.#forward(this.#first(), request, extra);
    }
  }

  #first() {
    const u = this.upstreams.values().next().value;
    if (!u) throw new McpError(ErrorCode.InternalError, 'no upstream');
    return u;
  }

  /** The upstream that listed a resource (by uri) or prompt (by name); else the first with the capability. */
  #owner(kind, key) {
    const known = this.owners?.[kind]?.get(key);
    if (known) return known;
    return [...this.upstreams.values()].find((u) => u.capabilities()[kind]) ?? this.#first();
  }

  /** One upstream: its page as it is; several: every page of each, concatenated. */
  async #merged(capability, method, key, params, extra) {
    const ups = [...this.upstreams.values()].filter((u) => u.capabilities()[capability] || !u.client);
    this.owners ??= { resources: new Map(), prompts: new Map() };
    const remember = (u, items) => {
      for (const it of items) this.owners[capability].set(it.uri ?? it.uriTemplate ?? it.name, u);
    };
    if (ups.length === 1) {
      const page = await this.#forward(ups[0], { method, params }, extra);
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

  /** Passes a request to an upstream with progress and cancellation wired through. */
  async #forward(upstream, request, extra) {
    const token = extra._meta?.progressToken;
    const onprogress =
      token === undefined
        ? undefined
        : (p) => this.#notify(extra, { method: 'notifications/progress', params: { ...p, progressToken: token } });
    const inflight = this.inflight.get(upstream.name);
    inflight?.add(extra);
    this.pending.set(extra, []);
    try {
      // The SDK puts its own progress token in; the client's is restored on the way back.
      const params = request.params && token !== undefined ? withoutProgressToken(request.params) : request.params;
      const result = await upstream.request({ method: request.method, params }, { signal: extra.signal, onprogress });
      // What the upstream sent before its result reaches the client before the result too.
      await Promise.all(this.pending.get(extra));
      return result;
    } finally {
      inflight?.delete(extra);
      this.pending.delete(extra);
    }
  }

  /** A notification on the stream of a request in flight (kept in order with its result). */
  #notify(extra, n) {
    const sent = extra.sendNotification(n).catch((e) => log(`notification ${n.method}: ${e.message}`));
    this.pending.get(extra)?.push(sent);
    return sent;
  }

  // ---- upstream -> client --------------------------------------------------------------------

  /** The request extra of the newest call in flight at this upstream (its HTTP stream). */
  #relatedExtra(upstream) {
    return [...(this.inflight.get(upstream.name) ?? [])].at(-1);
  }

  async #fromUpstream(upstream, n) {
    if (n.method === 'notifications/tools/list_changed') return this.#refresh(true);
    const extra = this.#relatedExtra(upstream);
    if (extra) return this.#notify(extra, n);
    return this.server.notification(n).catch(() => {});
  }

  async #requestFromUpstream(upstream, request, upExtra) {
    const extra = this.#relatedExtra(upstream);
    const send = extra ? extra.sendRequest : (r, s, o) => this.server.request(r, s, o);
    return send(request, AnyResult, { signal: upExtra.signal, timeout: 10 * 60 * 1000 });
  }

  // ---- tools/call ----------------------------------------------------------------------------

  async #callTool(params, extra) {
    const { mode } = this.opts;
    const name = params.name;
    if (mode === 'compact') {
      const t = this.catalog.byName.get(name);
      if (!t) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
      return this.#callUpstream(t, params.arguments, params, extra);
    }
    const args = params.arguments ?? {};
    if (name === 'tool_execute') return this.#execute(args, params, extra);
    if (mode === 'proxy' && name === 'tool_hydrate') return this.#meta('tool_view', { tool_id: args.tool_id });
    if (mode === 'gateway' && name === 'tool_browse') return this.#meta('tool_browse', args);
    if (mode === 'gateway' && name === 'tool_view') return this.#view(args);
    if (mode === 'proxy' && this.catalog.byId.has(name)) {
      return errorResult({
        error: 'ARGS_INVALID',
        message: `${name} is a discovery entry: call tool_execute with {"tool_id": ${JSON.stringify(name)}, "args": {...}}`,
        path: name,
        retryable: false,
      });
    }
    throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  }

  #meta(metaTool, args) {
    const reply = this.catalog.browse.dispatch(metaTool, args);
    return { content: [{ type: 'text', text: reply.text }], ...(reply.isError ? { isError: true } : {}) };
  }

  /** tool_execute: validated against the hydrated schema before anything reaches the upstream. */
  async #execute(args, params, extra) {
    const reply = this.catalog.browse.dispatch('tool_execute', args);
    if (reply.isError) return { content: [{ type: 'text', text: reply.text }], isError: true };
    const t = this.catalog.byId.get(reply.result.tool_id);
    if (!t) return errorResult({ error: 'HYDRATE_FAILED', message: `unknown tool_id ${reply.result.tool_id}`, path: String(args.tool_id), retryable: false });
    if (reply.result.dry_run) return { content: [{ type: 'text', text: reply.text }] };
    const result = await this.#callUpstream(t, reply.result.args, params, extra);
    return this.opts.mode === 'gateway' ? this.#bounded(t, result) : result;
  }

  async #callUpstream(t, args, params, extra) {
    const request = { method: 'tools/call', params: { ...params, name: t.def.name, arguments: args } };
    const result = await this.#forward(t.upstream, request, extra);
    const { result: out, report } = compactResultDetailed(result, {
      tool: t.def.name,
      tokenizer: this.opts.tokenizer,
      minSavings: this.opts.minSavings,
      // Proxy and gateway list no output schemas, so structured content could not be checked.
      structured: this.opts.mode === 'compact' ? this.opts.structured : 'strip',
      measure: this.opts.measure,
    });
    if (!result.isError) this.stats.add(t.name, report);
    return out;
  }

  /** Gateway mode: a result above --max-result-tokens is stored; the reply says how to read it. */
  #bounded(t, result) {
    if (result.isError || !Array.isArray(result.content)) return result;
    const texts = result.content.filter((b) => b.type === 'text');
    if (texts.length !== 1) return result;
    const text = texts[0].text;
    const tokens = ResultStore.tokens(text, this.opts.tokenizer);
    if (tokens <= this.opts.maxResultTokens) return result;
    let value;
    let format = 'text';
    if (text.startsWith('GCX1')) format = 'gcx1';
    else if (text.startsWith('GCF')) format = 'gcf-generic';
    else {
      try {
        value = JSON.parse(text);
        format = 'json';
      } catch {}
    }
    // The JSON value behind a compact text, for JSON pointers (decoded by the codec).
    if (value === undefined && format !== 'text') value = compact.decode(text);
    const handle = this.results.put({ tool: t.def.name, text, format, tokens, value });
    const body = {
      stored: this.results.info(handle),
      message: `result is ${tokens} tokens, above the ${this.opts.maxResultTokens}-token limit; read it with tool_view(handle, selector)`,
      selectors: ['info', 'lines:A-B', 'rows:A-B[@SECTION]', '/json/pointer'],
    };
    const content = result.content.map((b) => (b === texts[0] ? { type: 'text', text: JSON.stringify(body) } : b));
    return { ...result, content };
  }

  #view(args) {
    const { handle, selector = '' } = args ?? {};
    if (typeof handle !== 'string' || typeof selector !== 'string') {
      return errorResult({ error: 'ARGS_INVALID', message: 'tool_view requires string handle and optional string selector', path: '', retryable: false });
    }
    // A tool id instead of a result handle: its schema (the hydrate step of the gateway).
    if (this.catalog.byId.has(handle)) return this.#meta('tool_view', { tool_id: handle });
    try {
      const text = this.results.view(handle, selector, this.opts);
      const tokens = ResultStore.tokens(text, this.opts.tokenizer);
      if (tokens > this.opts.maxResultTokens) {
        throw new ViewError(`selection is ${tokens} tokens, above the ${this.opts.maxResultTokens}-token limit; narrow the selector`);
      }
      return { content: [{ type: 'text', text }] };
    } catch (e) {
      if (!(e instanceof ViewError)) throw e;
      return errorResult({ error: 'VIEW_FAILED', message: e.message, path: handle, retryable: false });
    }
  }

  closeUpstreams() {
    this.catalog.browse?.free();
    return Promise.all([...this.upstreams.values()].map((u) => u.close()));
  }

  async close() {
    await this.server.close().catch(() => {});
    await this.closeUpstreams();
  }
}

/** The §2.4-truncated description a card shows (a card over its hard cap: truncated alone). */
function cardDescription(t) {
  const description = t.def.description ?? '';
  try {
    return gw.card({ id: t.id, description }).card.description;
  } catch {
    return gw.truncate(description, 40).output;
  }
}

function withoutProgressToken(params) {
  const { progressToken, ...meta } = params._meta ?? {};
  const out = { ...params };
  if (Object.keys(meta).length) out._meta = meta;
  else delete out._meta;
  return out;
}

function errorResult(body) {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/** A server name as a tool-id namespace (§1.1: [a-z][a-z0-9_-]{0,63}). */
export function namespaceOf(name) {
  const ns = String(name).toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[^a-z]+/, '').slice(0, 64);
  return ns || 'mcp';
}

const obj = (properties, required) => ({ type: 'object', properties, required, additionalProperties: false });
const META_TOOLS = {
  proxy: [
    {
      name: 'tool_hydrate',
      description: 'The input schema of a tool listed here, by its tool_id.',
      inputSchema: obj({ tool_id: { type: 'string' } }, ['tool_id']),
    },
    {
      name: 'tool_execute',
      description: 'Calls a tool listed here by its tool_id; args are checked against its schema first.',
      inputSchema: obj({ tool_id: { type: 'string' }, args: { type: 'object' }, dry_run: { type: 'boolean' } }, ['tool_id', 'args']),
    },
  ],
  gateway: [
    {
      name: 'tool_browse',
      description: 'Finds tools: {"query": "what you need"} ranks them, {"path": "/"} lists the catalog tree. Returns cards with tool_id.',
      inputSchema: obj({ query: { type: 'string' }, path: { type: 'string' }, top_k: { type: 'integer', minimum: 1, maximum: 50 } }, []),
    },
    {
      name: 'tool_execute',
      description: 'Calls a tool by tool_id; args are checked against its schema first. Large results come back as a handle for tool_view.',
      inputSchema: obj({ tool_id: { type: 'string' }, args: { type: 'object' }, dry_run: { type: 'boolean' } }, ['tool_id', 'args']),
    },
    {
      name: 'tool_view',
      description:
        'Reads part of a stored result: handle from tool_execute, selector "info", "lines:A-B", "rows:A-B[@SECTION]" (GCX1) or a JSON pointer "/a/0". With a tool_id as handle: its input schema.',
      inputSchema: obj({ handle: { type: 'string' }, selector: { type: 'string' } }, ['handle']),
    },
  ],
};
