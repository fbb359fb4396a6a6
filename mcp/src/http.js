// --listen: the gateway over Streamable HTTP at /mcp, one gateway session per MCP session
// (sessions.js: idle timeout, cap, eviction), GET /health (no auth, says nothing) and
// GET /metrics (Prometheus text, behind the same checks and token as /mcp).
//
// Every request to /mcp and /metrics passes, in order: the Host check (DNS rebinding), the
// Origin check, the bearer token (401 with WWW-Authenticate); then, for /mcp, the session (404
// when unknown, expired, evicted or opened with another token), the body limit (413,
// --max-body), the JSON-RPC checks of jsonrpc.js (400, or the request's own JSON-RPC error).
// The SDK's transport does the rest.
//
// Session ids are REPLICA.UUID (--replica-id): a load balancer routes a session's requests to the
// replica named in its id (README, "Several replicas"). A replica answers an id it does not hold,
// another replica's included, with 404, and the client starts a new session. With --stateless
// there are no sessions: each POST is served on its own (stateless.js), GET and DELETE get 405.

import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createAuth, hostCheck, originCheck } from './auth.js';
import { defaultReplicaId, defaults } from './config.js';
import { decodeClientMessage, errorResponse, INTERNAL_ERROR, SERVER_ERROR, SESSION_NOT_FOUND } from './jsonrpc.js';
import { errorMessage, log } from './log.js';
import { isModern } from './modern.js';
import { SessionsFullError, SessionTable } from './sessions.js';

/**
 * @typedef {object} ListenOptions
 * @property {string} [host] default 127.0.0.1
 * @property {number} [port] default 0 (any free port)
 * @property {string[]} [authTokens]
 * @property {string[]} [allowOrigins]
 * @property {string[]} [allowHosts]
 * @property {number} [maxBodyBytes]
 * @property {number} [sessionIdleMs]
 * @property {number} [maxSessions]
 * @property {number} [replayEvents]
 * @property {number} [replayBytes]
 * @property {string} [replicaId] what session ids start with (default: host name and port)
 */

/**
 * Serves `gateway` at http://HOST:PORT/mcp.
 * @param {import('./gateway.js').Gateway} gateway
 * @param {ListenOptions} [options]
 * @returns {Promise<{ url: string, sessions: SessionTable, setTokens: (tokens: string[]) => void, close: () => Promise<void> }>}
 */
export async function listen(gateway, options = {}) {
  const o = /** @type {Required<ListenOptions>} */ ({ ...defaults(), host: '127.0.0.1', port: 0, authTokens: [], ...options });
  let auth = createAuth(o.authTokens);
  const hostAllowed = hostCheck({ listenHost: o.host, allowHosts: o.allowHosts });
  const originAllowed = originCheck(o.allowOrigins);
  const sessions = new SessionTable(gateway, { idleMs: o.sessionIdleMs, maxSessions: o.maxSessions, replayEvents: o.replayEvents, replayBytes: o.replayBytes });
  const { metrics, stateless } = gateway;

  /** A refusal: the JSON-RPC error body, counted by reason. */
  const refuse = (/** @type {import('node:http').ServerResponse} */ res, /** @type {number} */ status, /** @type {string} */ reason, /** @type {any} */ body, /** @type {Record<string, string>} */ headers = {}) => {
    metrics.httpRejected.inc({ reason });
    sendJson(res, status, body, headers);
  };

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health') {
      // For load balancers: no auth, no Host check, nothing about the gateway in it.
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { status: 'method not allowed' }, { Allow: 'GET, HEAD' });
      return sendJson(res, 200, { status: 'ok' });
    }
    if (!hostAllowed(req.headers.host)) return refuse(res, 403, 'host', errorResponse(null, SERVER_ERROR, `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not allowed (--allow-host)`));
    if (!originAllowed(req.headers.origin)) return refuse(res, 403, 'origin', errorResponse(null, SERVER_ERROR, `Forbidden: Origin ${JSON.stringify(req.headers.origin)} is not allowed (--allow-origin)`));
    const tokenId = auth.check(req.headers.authorization);
    if (tokenId === false) {
      const challenge = req.headers.authorization ? 'Bearer realm="agentwire-mcp", error="invalid_token"' : 'Bearer realm="agentwire-mcp"';
      return refuse(res, 401, 'unauthorized', errorResponse(null, SERVER_ERROR, 'Unauthorized: a valid bearer token is required (Authorization: Bearer TOKEN)'), { 'WWW-Authenticate': challenge });
    }
    if (path === '/metrics') {
      if (req.method !== 'GET') return sendJson(res, 405, errorResponse(null, SERVER_ERROR, 'Method not allowed'), { Allow: 'GET' });
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
      return res.end(metrics.render());
    }
    if (path !== '/mcp') return sendJson(res, 404, errorResponse(null, SERVER_ERROR, `Not found: the MCP endpoint is /mcp`));
    if (stateless) return serveStateless(stateless, req, res, tokenId);

    const sid = req.headers['mcp-session-id'];
    const sessionId = typeof sid === 'string' ? sid : undefined;
    const entry = sessionId === undefined ? undefined : sessions.lookup(sessionId, tokenId);
    if (sessionId !== undefined && !entry && req.method !== 'POST') return refuse(res, 404, 'session_not_found', errorResponse(null, SESSION_NOT_FOUND, 'Session not found'));

    if (req.method === 'POST') {
      const decoded = await readMessage(req, res);
      if (!decoded) return;
      // MCP 2026-07-28 has no sessions (a session id it carries is ignored, as the revision says).
      if (isModern(req.headers, decoded.message)) return (await gateway.modern()).handleModern(req, res, decoded.message, tokenId);
      if (sessionId !== undefined && !entry) return refuse(res, 404, 'session_not_found', errorResponse(null, SESSION_NOT_FOUND, 'Session not found'));
      if (entry) return serve(entry, req, res, decoded.message);
      if (!isInitializeRequest(decoded.message)) {
        return refuse(res, 400, 'bad_request', errorResponse(null, SERVER_ERROR, 'Bad Request: no Mcp-Session-Id; send initialize first'));
      }
      let created;
      try {
        created = await sessions.create(tokenId);
      } catch (e) {
        if (!(e instanceof SessionsFullError)) throw e;
        log.warn(`initialize refused: ${e.message}`);
        return refuse(res, 503, 'sessions_full', errorResponse(/** @type {any} */ (decoded.message).id, SERVER_ERROR, `Server busy: ${e.message}; try again later`), { 'Retry-After': '5' });
      }
      return serve(created, req, res, decoded.message);
    }
    if (!entry) return refuse(res, 400, 'bad_request', errorResponse(null, SERVER_ERROR, 'Bad Request: Mcp-Session-Id header is required'));
    if (req.method === 'GET') {
      const lastEventId = req.headers['last-event-id'];
      sessions.holdGetStream(entry, res, typeof lastEventId === 'string' ? lastEventId : undefined);
    }
    return serve(entry, req, res, undefined);
  }

  /**
   * A POST without a session; GET streams and DELETE need one.
   * @param {import('./stateless.js').StatelessReplica} replica
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {string | null} tokenId
   */
  async function serveStateless(replica, req, res, tokenId) {
    if (req.method !== 'POST') {
      return sendJson(res, 405, errorResponse(null, SERVER_ERROR, `Method not allowed: agentwire-mcp runs --stateless; ${req.method} needs a session`), { Allow: 'POST' });
    }
    const decoded = await readMessage(req, res);
    if (!decoded) return;
    if (isModern(req.headers, decoded.message)) return replica.handleModern(req, res, decoded.message, tokenId);
    return replica.handle(req, res, decoded.message, tokenId);
  }

  /**
   * A POST's body as one checked JSON-RPC message; or, having refused it (413, 400, or the
   * request's own JSON-RPC error), undefined.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async function readMessage(req, res) {
    const body = await readBody(req, o.maxBodyBytes);
    if (body.tooLarge) {
      log.warn(`POST /mcp: a body over --max-body (${o.maxBodyBytes} bytes) refused`);
      refuse(res, 413, 'too_large', errorResponse(null, SERVER_ERROR, `Payload Too Large: the body is over ${o.maxBodyBytes} bytes (--max-body)`), { Connection: 'close' });
      return undefined;
    }
    const decoded = decodeClientMessage(body.bytes);
    if (!decoded.ok) {
      // Known id: the request's own JSON-RPC error; else 400 with id null (as the SDK does).
      const { response } = decoded;
      log.warn(`POST /mcp: ${response.error.message}`);
      refuse(res, response.id === null ? 400 : 200, 'bad_request', response);
      return undefined;
    }
    return decoded;
  }

  /** @param {import('./sessions.js').Entry} entry */
  async function serve(entry, /** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res, /** @type {unknown} */ body) {
    sessions.touch(entry);
    try {
      await entry.transport.handleRequest(req, res, body);
    } finally {
      // A POST ends when its answers are sent (activity); a GET stream's end is not (sessions.js).
      if (req.method !== 'GET') sessions.touch(entry);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      log.error(`${req.method} ${req.url}: ${/** @type {Error} */ (e)?.stack ?? e}`);
      if (!res.headersSent) sendJson(res, 500, errorResponse(null, INTERNAL_ERROR, `Internal error: ${errorMessage(e)}`));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  // The store and, stateless, the replica's upstreams are up (or retrying) before requests come.
  await gateway.start();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  sessions.replicaId = o.replicaId ?? defaultReplicaId(hostname(), address.port);
  const url = `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${address.port}/mcp`;
  log.info(stateless ? 'stateless: no sessions; any replica serves any request' : `session ids: ${sessions.replicaId}.UUID (--replica-id)`);
  log.info(`listening on ${url}${auth.required ? ' (bearer token required)' : ''}`);
  return {
    url,
    sessions,
    /** Replaces the accepted tokens (a session opened with a token no longer accepted gets 401). */
    setTokens(/** @type {string[]} */ tokens) {
      auth = createAuth(tokens);
    },
    async close() {
      await sessions.close();
      await new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
    },
  };
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} body */
function sendJson(res, status, body, /** @type {Record<string, string>} */ headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * The request body, up to `max` bytes. Past it nothing more is kept, but the rest is read (and
 * dropped) before the 413 is sent, or the client, still writing, would see its connection reset
 * instead of the answer; a body past 16 times the limit is not waited for.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} max
 * @returns {Promise<{ tooLarge: true } | { tooLarge: false, bytes: Buffer }>}
 */
function readBody(req, max) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    const giveUp = () => {
      req.off('data', onData);
      resolve({ tooLarge: true });
    };
    const onData = (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else if (size > max * 16) giveUp();
    };
    if (Number(req.headers['content-length']) > max * 16) {
      req.resume();
      giveUp();
      return;
    }
    req.on('data', onData);
    req.once('end', () => resolve(size > max ? { tooLarge: true } : { tooLarge: false, bytes: Buffer.concat(chunks) }));
    req.once('error', reject);
  });
}
