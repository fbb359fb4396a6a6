// MCP 2026-07-28 ("modern": no sessions, per-request `_meta`, request headers mirrored from the
// body) on the Streamable HTTP endpoint, beside the 2025 revisions ("legacy": an initialize
// handshake and a session). What this module holds is the revision's wire rules, written from its
// text (basic/index, basic/versioning, basic/transports/streamable-http): how a request is told
// apart from a legacy one, the checks of its headers and `_meta`, the HTTP status of each error,
// and the fields its results carry. Serving a request is stateless.js's (`handleModern`).

import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { INVALID_PARAMS, JsonRpcError, METHOD_NOT_FOUND } from './jsonrpc.js';

export const MODERN_VERSION = '2026-07-28';
/** The revisions served: the modern one, and the legacy ones the SDK's session serves. */
export const SUPPORTED_VERSIONS = [MODERN_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** The reserved `_meta` keys of the revision. */
export const META = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
});

/** The error codes the revision defines (the -32020..-32099 range is the specification's). */
export const HEADER_MISMATCH = -32020;
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
/** Legacy "resource not found"; the revision uses -32602 and forbids emitting it. */
const LEGACY_RESOURCE_NOT_FOUND = -32002;

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Results a client may cache: they carry `ttlMs` and `cacheScope`. */
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

/** Methods of the legacy revisions the modern one removed: 404 with -32601 for a modern client. */
export const REMOVED_METHODS = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/** The methods whose `Mcp-Name` header mirrors a body field. */
const NAME_FIELD = /** @type {Record<string, string>} */ ({ 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' });

/** The legacy revisions' protocol version headers (2025-06-18 on send one after initialize). */
const LEGACY_VERSIONS = new Set([...SUPPORTED_PROTOCOL_VERSIONS, '2024-10-07']);

/**
 * Whether a POST is of the modern revision. The revision says how a dual-era server decides
 * (versioning, "Backward Compatibility"): a request carrying modern per-request `_meta` is served
 * statelessly; an `initialize` (which carries neither) selects legacy semantics. A request whose MCP-Protocol-Version
 * header names a version that is not a legacy one is modern too, so that a modern request missing
 * its `_meta` gets the revision's own error (-32602, 400) rather than a legacy "no session".
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {any} message a checked JSON-RPC message
 */
export function isModern(headers, message) {
  if (message?.params?._meta?.[META.protocolVersion] !== undefined) return true;
  const version = headers['mcp-protocol-version'];
  return typeof version === 'string' && version.trim() !== '' && !LEGACY_VERSIONS.has(version.trim());
}

/** A failed check: the JSON-RPC error and the HTTP status it is sent with. */
export class ModernError extends JsonRpcError {
  /** @param {number} code @param {string} message @param {unknown} [data] @param {number} [status] */
  constructor(code, message, data, status = 400) {
    super(code, message, data);
    this.status = status;
  }
}

const mismatch = (/** @type {string} */ what) => new ModernError(HEADER_MISMATCH, `Header mismatch: ${what}`);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SENTINEL = /^=\?base64\?(.*)\?=$/s;
/** Visible ASCII, space and tab: what a header value may hold as it is (RFC 9110). */
const PLAIN = /^[\x20-\x7e\t]*$/;

/**
 * A header value as the body holds it: optional whitespace around it dropped (RFC 9110 field
 * parsing), the `=?base64?…?=` sentinel decoded (UTF-8). Undefined when it cannot be read (bad
 * Base64, characters a header may not carry).
 * @param {string} raw
 */
export function decodeHeaderValue(raw) {
  const value = raw.replace(/^[ \t]+|[ \t]+$/g, '');
  const sentinel = SENTINEL.exec(value);
  if (sentinel) {
    if (!BASE64.test(sentinel[1])) return undefined;
    const bytes = Buffer.from(sentinel[1], 'base64');
    const text = new TextDecoder('utf-8', { fatal: true });
    try {
      return text.decode(bytes);
    } catch {
      return undefined;
    }
  }
  return PLAIN.test(value) ? value : undefined;
}

/**
 * A value for a header: as it is when it is plain ASCII without surrounding whitespace and does
 * not look like the sentinel, else the Base64 sentinel of its UTF-8.
 * @param {string} value
 */
export function encodeHeaderValue(value) {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * The `x-mcp-header` annotations of a tool's input schema: `[header name, property path]` for
 * each, reachable from the root through `properties` only (the revision's constraint; an
 * annotation anywhere else is not one this gateway mirrors).
 * @param {any} schema
 * @returns {Array<[string, string[]]>}
 */
export function paramHeaders(schema, path = /** @type {string[]} */ ([])) {
  /** @type {Array<[string, string[]]>} */
  const out = [];
  const properties = schema && typeof schema === 'object' ? schema.properties : undefined;
  if (!properties || typeof properties !== 'object') return out;
  for (const [key, prop] of Object.entries(properties)) {
    if (!prop || typeof prop !== 'object') continue;
    const name = prop['x-mcp-header'];
    if (typeof name === 'string' && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) out.push([name, [...path, key]]);
    out.push(...paramHeaders(prop, [...path, key]));
  }
  return out;
}

/** The argument at a property path, or undefined. */
export function valueAt(/** @type {any} */ args, /** @type {string[]} */ path) {
  return path.reduce((v, k) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v[k] : undefined), args);
}

/** A primitive argument as its header carries it (integers in decimal, booleans lowercase). */
export function headerText(/** @type {unknown} */ value) {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/**
 * The revision's checks of a request ("Server Validation", "_meta"), in the order that gives each
 * fault its own error: the required `_meta` fields (-32602), then MCP-Protocol-Version against
 * `_meta` (-32020) and whether the version is served (-32022), Mcp-Method and Mcp-Name against
 * the body (-32020), the Mcp-Param-* headers of the tool's `x-mcp-header` arguments (-32020),
 * the log level (-32602). All with HTTP 400.
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {any} message
 * @param {(tool: string) => any} inputSchemaOf the input schema of a listed tool (for Mcp-Param-*)
 */
export function checkModernRequest(headers, message, inputSchemaOf) {
  const params = message.params ?? {};
  const meta = params._meta;
  const missing = [META.protocolVersion, META.clientCapabilities].filter((k) => meta?.[k] === undefined);
  if (missing.length) throw new ModernError(INVALID_PARAMS, `Invalid params: _meta lacks ${missing.join(' and ')} (required on every request of MCP ${MODERN_VERSION})`);
  const caps = meta[META.clientCapabilities];
  if (caps === null || typeof caps !== 'object' || Array.isArray(caps)) throw new ModernError(INVALID_PARAMS, `Invalid params: _meta ${META.clientCapabilities} must be an object`);
  const version = headerOf(headers, 'mcp-protocol-version');
  if (version === undefined) throw mismatch('the MCP-Protocol-Version header is missing');
  if (version.trim() !== meta[META.protocolVersion]) {
    throw mismatch(`MCP-Protocol-Version ${JSON.stringify(version.trim())} does not match _meta ${JSON.stringify(meta[META.protocolVersion])}`);
  }
  if (meta[META.protocolVersion] !== MODERN_VERSION) {
    throw new ModernError(UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version', { supported: SUPPORTED_VERSIONS, requested: meta[META.protocolVersion] });
  }
  const method = headerOf(headers, 'mcp-method');
  if (method === undefined) throw mismatch('the Mcp-Method header is missing');
  // Values are case-sensitive: only the surrounding whitespace is not part of them.
  if (method.trim() !== message.method) throw mismatch(`Mcp-Method ${JSON.stringify(method.trim())} does not match the body's method ${JSON.stringify(message.method)}`);
  const field = NAME_FIELD[message.method];
  if (field !== undefined) {
    const raw = headerOf(headers, 'mcp-name');
    if (raw === undefined) throw mismatch(`the Mcp-Name header is missing (${message.method} needs it)`);
    const name = decodeHeaderValue(raw);
    if (name === undefined) throw mismatch('the Mcp-Name header is not a valid value (bad Base64 or characters a header cannot carry)');
    if (name !== params[field]) throw mismatch(`Mcp-Name ${JSON.stringify(name)} does not match the body's ${field} ${JSON.stringify(params[field])}`);
  }
  if (message.method === 'tools/call' && typeof params.name === 'string') {
    for (const [name, path] of paramHeaders(inputSchemaOf(params.name))) {
      const value = valueAt(params.arguments, path);
      const raw = headerOf(headers, `mcp-param-${name.toLowerCase()}`);
      if (value === undefined || value === null) continue;
      if (raw === undefined) throw mismatch(`the Mcp-Param-${name} header is missing (argument ${path.join('.')} is in the body)`);
      const decoded = decodeHeaderValue(raw);
      if (decoded === undefined) throw mismatch(`the Mcp-Param-${name} header is not a valid value (bad Base64 or characters a header cannot carry)`);
      const same = typeof value === 'number' ? decoded.trim() !== '' && Number(decoded) === value : headerText(value) === decoded;
      if (!same) throw mismatch(`Mcp-Param-${name} does not match argument ${path.join('.')} of the body`);
    }
  }
  const level = meta[META.logLevel];
  if (level !== undefined && !LOG_LEVELS.includes(level)) throw new ModernError(INVALID_PARAMS, `Invalid params: ${JSON.stringify(level)} is not a log level (${LOG_LEVELS.join(', ')})`);
}

/** A header's value (the first, when repeated). */
function headerOf(/** @type {import('node:http').IncomingHttpHeaders} */ headers, /** @type {string} */ name) {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * A result as the revision sends it: `resultType` (a legacy upstream has none), the caching hints
 * of a cacheable result (0 ms and private when the upstream gave none: a gateway's lists change
 * with its upstreams and its tokens), and the gateway's own serverInfo in `_meta`.
 * @param {string} method
 * @param {any} result
 * @param {{ name: string, version: string }} serverInfo
 */
export function modernResult(method, result, serverInfo) {
  const out = { ...result, resultType: result?.resultType ?? 'complete' };
  out._meta = { ...result?._meta, [META.serverInfo]: serverInfo };
  if (CACHEABLE.has(method) && out.resultType === 'complete') {
    out.ttlMs = Number.isSafeInteger(out.ttlMs) && out.ttlMs >= 0 ? out.ttlMs : 0;
    if (out.cacheScope !== 'public' && out.cacheScope !== 'private') out.cacheScope = 'private';
  }
  return out;
}

/**
 * An error as the revision sends it, with its HTTP status: 400 for the revision's own errors,
 * 404 for an unknown method, else 200. A legacy upstream's "resource not found" (-32002, which the
 * revision forbids) becomes -32602 with the uri in `data`.
 * @param {any} e a JsonRpcError, an upstream's McpError, or anything thrown
 * @param {string} method
 * @param {any} params
 * @returns {{ status: number, error: { code: number, message: string, data?: unknown } }}
 */
export function modernError(e, method, params) {
  let code = typeof e?.code === 'number' && Number.isInteger(e.code) ? e.code : -32603;
  let data = e?.data;
  const message = String(e?.message ?? e).replace(/^(MCP error -?\d+: )+/, '');
  if (code === LEGACY_RESOURCE_NOT_FOUND && method === 'resources/read') {
    code = INVALID_PARAMS;
    data = { ...(data && typeof data === 'object' ? data : {}), uri: params?.uri };
  }
  const status = e instanceof ModernError ? e.status : code === METHOD_NOT_FOUND ? 404 : [HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION].includes(code) ? 400 : 200;
  return { status, error: data === undefined ? { code, message } : { code, message, data } };
}

/** The per-request `_meta` keys of the revision, which a legacy upstream is not sent. */
export function withoutModernMeta(/** @type {any} */ params) {
  const meta = params?._meta;
  if (!meta || !Object.keys(meta).some((k) => k.startsWith('io.modelcontextprotocol/'))) return params;
  const kept = Object.fromEntries(Object.entries(meta).filter(([k]) => !k.startsWith('io.modelcontextprotocol/')));
  const out = { ...params };
  if (Object.keys(kept).length) out._meta = kept;
  else delete out._meta;
  return out;
}

/** The client capabilities an input request needs (elicitation/create → elicitation, …). */
export const CAPABILITY_OF = /** @type {Record<string, string>} */ ({ 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' });

/** -32021 naming what `inputRequests` needs that the client did not declare. */
export function missingCapabilities(/** @type {Record<string, any>} */ inputRequests, /** @type {any} */ declared, /** @type {string} */ why) {
  /** @type {Record<string, object>} */
  const needed = {};
  for (const r of Object.values(inputRequests ?? {})) {
    const cap = CAPABILITY_OF[r?.method];
    if (cap && !declared?.[cap]) needed[cap] = {};
  }
  return new JsonRpcError(MISSING_REQUIRED_CLIENT_CAPABILITY, `Missing required client capability (${Object.keys(needed).join(', ') || 'input'}): ${why}`, { requiredCapabilities: needed });
}
