// One POST of an MCP 2026-07-28 client, served by a replica's shared upstream connections
// (stateless.js): the revision has no sessions, so a modern client is served the same way with
// or without --stateless, while legacy clients keep their sessions beside it.
//
// The request is checked (modern.js), then: server/discover and subscriptions/listen are answered
// here; the methods the revision removed get 404; the rest goes through dispatch.js as a session's
// request does (modes, relay, compaction, metrics). The answer is JSON, or an SSE stream when the
// request asked for progress or log messages (the revision sends request-scoped notifications only
// on the request's own stream). Closing the connection cancels the request upstream.

import { route, toolsList } from './dispatch.js';
import { errorResponse, JsonRpcError, METHOD_NOT_FOUND, SERVER_ERROR } from './jsonrpc.js';
import { errorMessage, log } from './log.js';
import { methodLabel } from './metrics.js';
import { checkModernRequest, META, modernError, modernResult, REMOVED_METHODS, SUPPORTED_VERSIONS } from './modern.js';
import { SERVER_INFO } from './version.js';

/** The capability a method needs of the gateway; without it, the method is not found (404). */
const NEEDS = /** @type {Record<string, string>} */ ({
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
  'completion/complete': 'completions',
});

/** A listen stream stays open; a comment line now and then keeps intermediaries from closing it. */
const KEEPALIVE_MS = 25_000;

/** The input schemas of the tools a mode lists for a catalog (for the Mcp-Param-* checks). */
const listedSchemas = new WeakMap();
function inputSchemaOf(/** @type {import('./dispatch.js').Scope} */ scope, /** @type {string} */ name) {
  let schemas = listedSchemas.get(scope.catalog);
  if (!schemas) {
    schemas = new Map(toolsList(scope).map((/** @type {any} */ t) => [t.name, t.inputSchema]));
    listedSchemas.set(scope.catalog, schemas);
  }
  return schemas.get(name);
}

/**
 * What a modern client is told the gateway can do: tools (their list changes reach a
 * subscriptions/listen stream), the upstreams' resources, prompts and completions; log messages
 * when an upstream speaks the modern revision (a legacy upstream's cannot be told apart by
 * request on a shared connection). Resource subscriptions are not offered.
 * @param {import('./relay.js').Relay} relay
 */
export function modernCapabilities(relay) {
  const caps = relay.capabilities();
  /** @type {Record<string, any>} */
  const out = { tools: { listChanged: true } };
  if (caps.resources) out.resources = caps.resources.listChanged ? { listChanged: true } : {};
  if (caps.prompts) out.prompts = caps.prompts.listChanged ? { listChanged: true } : {};
  if (caps.completions) out.completions = {};
  if (relay.modernLogging()) out.logging = {};
  return out;
}

/**
 * The subscriptions/listen streams of a replica: list changes reach those that asked for them.
 */
export class ListenStreams {
  constructor() {
    /** @type {Set<{ id: string | number, filter: Record<string, unknown>, write: (m: any) => void, end: () => void }>} */
    this.streams = new Set();
  }

  get size() {
    return this.streams.size;
  }

  /** Sends `method` to every stream whose filter has `kind` (toolsListChanged, …). */
  publish(/** @type {string} */ kind, /** @type {string} */ method) {
    for (const s of this.streams) {
      if (s.filter[kind] === true) s.write({ jsonrpc: '2.0', method, params: { _meta: { [META.subscriptionId]: s.id } } });
    }
  }

  /** Ends every stream gracefully: the listen request's result, then the end of the stream. */
  closeAll() {
    for (const s of [...this.streams]) s.end();
  }
}

/**
 * Serves one POST of a modern client.
 * @param {import('./stateless.js').StatelessReplica} replica
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {any} message checked by jsonrpc.js
 * @param {string | null} tokenId
 */
export async function serveModern(replica, req, res, message, tokenId) {
  if (!('method' in message) || !('id' in message)) {
    // The revision defines no client notifications over HTTP (closing a stream cancels), and a
    // client sends no responses: accepted, and nothing to do.
    res.writeHead(202).end();
    return;
  }
  const { id, method } = message;
  const params = message.params ?? {};
  const { metrics, options } = replica;
  const lease = replica.acquire(tokenId);
  const { scope } = lease;
  /** @type {((m: any) => void) | null} the SSE stream, once a notification opened it */
  let stream = null;
  const finish = (/** @type {number} */ status, /** @type {any} */ body) => {
    if (res.writableEnded) return;
    if (stream) {
      stream(body);
      res.end();
    } else sendJson(res, status, body);
  };
  const fail = (/** @type {unknown} */ e) => {
    const { status, error } = modernError(e, method, params);
    if (status === 400) metrics.httpRejected.inc({ reason: 'bad_request' });
    finish(status, { jsonrpc: '2.0', id, error });
  };
  try {
    checkModernRequest(req.headers, message, (name) => inputSchemaOf(scope, name));
  } catch (e) {
    log.debug(`modern ${method}: ${errorMessage(e)}`);
    lease.release();
    return fail(e);
  }
  if (replica.inflight >= options.maxInflight) {
    lease.release();
    metrics.httpRejected.inc({ reason: 'busy' });
    return sendJson(res, 503, errorResponse(id, SERVER_ERROR, `Server busy: ${replica.inflight} requests are in flight (--max-inflight ${options.maxInflight})`), { 'Retry-After': '1' });
  }
  metrics.requests.inc({ method: methodLabel(method) });
  metrics.modernRequests.inc({ method: methodLabel(method) });
  if (method === 'subscriptions/listen') {
    lease.release();
    return listen(replica, res, id, params);
  }

  replica.inflight++;
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new JsonRpcError(SERVER_ERROR, 'the client closed the request'));
  });
  const meta = params._meta;
  // Progress and log messages need the request's own stream; the rest is answered as JSON.
  const streams = meta.progressToken !== undefined || meta[META.logLevel] !== undefined;
  /** @type {import('./relay.js').RequestExtra} */
  const extra = {
    signal: controller.signal,
    _meta: meta,
    sendNotification: async (n) => {
      if (!streams || res.writableEnded) return;
      stream ??= openStream(res);
      stream({ jsonrpc: '2.0', ...n });
    },
    sendRequest: async (r) => {
      // Never reached: a shared relay refuses an upstream's requests before they get here.
      throw new JsonRpcError(METHOD_NOT_FOUND, `${r.method} cannot reach a client of MCP 2026-07-28 as a request`);
    },
  };
  try {
    let result;
    if (method === 'server/discover') {
      result = { supportedVersions: SUPPORTED_VERSIONS, capabilities: modernCapabilities(scope.relay) };
      const instructions = scope.relay.instructions();
      if (instructions) result.instructions = instructions;
    } else if (REMOVED_METHODS.has(method)) {
      throw new JsonRpcError(METHOD_NOT_FOUND, `Method not found: ${method} is not part of MCP 2026-07-28`);
    } else if (NEEDS[method] && !modernCapabilities(scope.relay)[NEEDS[method]]) {
      throw new JsonRpcError(METHOD_NOT_FOUND, `Method not found: no upstream offers ${NEEDS[method]}`);
    } else {
      result = await route(scope, { method, params }, extra);
    }
    if (!controller.signal.aborted) finish(200, { jsonrpc: '2.0', id, result: modernResult(method, result, SERVER_INFO) });
  } catch (e) {
    if (!controller.signal.aborted) fail(e);
  } finally {
    replica.inflight--;
    lease.release();
  }
}

/** subscriptions/listen: acknowledged with what the gateway honours, then held open. */
function listen(/** @type {import('./stateless.js').StatelessReplica} */ replica, /** @type {import('node:http').ServerResponse} */ res, /** @type {string | number} */ id, /** @type {any} */ params) {
  const asked = params.notifications && typeof params.notifications === 'object' ? params.notifications : {};
  const caps = modernCapabilities(replica.relay);
  /** @type {Record<string, unknown>} */
  const agreed = {};
  if (asked.toolsListChanged === true) agreed.toolsListChanged = true;
  if (asked.promptsListChanged === true && caps.prompts?.listChanged) agreed.promptsListChanged = true;
  if (asked.resourcesListChanged === true && caps.resources?.listChanged) agreed.resourcesListChanged = true;
  // resourceSubscriptions are left out: the acknowledgment names only what is honoured.
  const write = openStream(res);
  write({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { [META.subscriptionId]: id }, notifications: agreed } });
  const keepAlive = setInterval(() => res.write(':\n\n'), KEEPALIVE_MS);
  keepAlive.unref();
  const entry = {
    id,
    filter: agreed,
    write,
    end() {
      write({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [META.subscriptionId]: id, [META.serverInfo]: SERVER_INFO } } });
      res.end();
    },
  };
  replica.listeners.streams.add(entry);
  res.once('close', () => {
    clearInterval(keepAlive);
    replica.listeners.streams.delete(entry);
  });
}

/** Starts an SSE response; returns a writer of one message. */
function openStream(/** @type {import('node:http').ServerResponse} */ res) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  return (/** @type {any} */ m) => {
    if (!res.writableEnded) res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
  };
}

function sendJson(/** @type {import('node:http').ServerResponse} */ res, /** @type {number} */ status, /** @type {unknown} */ body, /** @type {Record<string, string>} */ headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
