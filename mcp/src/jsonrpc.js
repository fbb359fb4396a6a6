// JSON-RPC errors the gateway writes itself, and the checks of what a client sends before the
// SDK sees it, the same way on stdio and HTTP: UTF-8, JSON, one JSON-RPC message (no batches),
// string or integer ids, bounded nesting, and numbers that survive being forwarded (a double
// cannot hold 12345678901234567890 or 1e400).

import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Server errors of the gateway (JSON-RPC's implementation-defined range). */
export const SERVER_ERROR = -32000;
/** The SDK's code for an unknown HTTP session (its own 404s use it too). */
export const SESSION_NOT_FOUND = -32001;

/** Nesting deeper than this is refused: JSON.stringify recurses, and no tool needs it. */
export const MAX_DEPTH = 256;

/**
 * @typedef {string | number} RequestId
 * @typedef {{ jsonrpc: '2.0', id: RequestId | null, error: { code: number, message: string, data?: unknown } }} ErrorResponse
 * @typedef {{ ok: true, message: any } | { ok: false, response: ErrorResponse }} Decoded
 */

/**
 * An error the SDK server sends as it is, `{code, message, data}` (an McpError would prefix its
 * message with "MCP error CODE: ", once per hop).
 */
export class JsonRpcError extends Error {
  /** @param {number} code @param {string} message @param {unknown} [data] */
  constructor(code, message, data) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** An upstream's error as the SDK client raised it (McpError), relayed without the prefix. */
export function relayedError(/** @type {{ code: number, message: string, data?: unknown }} */ e) {
  return new JsonRpcError(e.code, e.message.replace(/^(MCP error -?\d+: )+/, ''), e.data);
}

/**
 * A JSON-RPC error response.
 * @param {RequestId | null} id
 * @param {number} code
 * @param {string} message
 * @param {unknown} [data]
 */
export function errorResponse(id, code, message, data) {
  /** @type {ErrorResponse} */
  const response = { jsonrpc: '2.0', id, error: { code, message } };
  if (data !== undefined) response.error.data = data;
  return response;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One client message from its bytes (a stdio line or an HTTP body).
 * @param {Uint8Array} bytes
 * @returns {Decoded}
 */
export function decodeClientMessage(bytes) {
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return fail(null, PARSE_ERROR, 'Parse error: the message is not valid UTF-8');
  }
  return decodeClientText(text);
}

/**
 * One client message from its text.
 * @param {string} text
 * @returns {Decoded}
 */
export function decodeClientText(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail(null, PARSE_ERROR, `Parse error: ${/** @type {Error} */ (e).message}`);
  }
  if (Array.isArray(value)) return fail(null, INVALID_REQUEST, 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message at a time');
  if (value === null || typeof value !== 'object') return fail(null, INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is an object');
  const hasId = Object.hasOwn(value, 'id');
  const idOk = hasId && (typeof value.id === 'string' || Number.isSafeInteger(value.id));
  const isRequest = typeof value.method === 'string' && hasId;
  if (hasId && !idOk && value.id !== null) {
    return fail(null, INVALID_REQUEST, `Invalid Request: an id is a string or an integer within ±2^53, got ${describeId(text, value.id)}`);
  }
  const id = idOk ? value.id : null;
  const scan = scanJson(text);
  if (scan.depth > MAX_DEPTH) return fail(isRequest ? id : null, INVALID_REQUEST, `Invalid Request: JSON nested ${scan.depth} levels deep; the limit is ${MAX_DEPTH}`);
  if (value.jsonrpc !== '2.0') return fail(id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"');
  if (isRequest && scan.inexact !== null) {
    return fail(id, INVALID_PARAMS, `Invalid params: the number ${scan.inexact.slice(0, 40)} cannot be forwarded exactly (a double holds integers up to 2^53 and magnitudes up to 1.8e308); send it as a string`);
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) return fail(isRequest ? id : null, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC request, notification or response');
  return { ok: true, message: value };
}

/**
 * One JSON-RPC message from its parsed JSON, as the SDK's JSONRPCMessageSchema parses it; throws
 * when it is none. A result response whose result has no `_meta` (nearly all, and every large
 * one) is checked here, without zod's copy of it: its envelope is all that schema checks of it.
 * @param {unknown} value
 */
export function toJsonRpcMessage(value) {
  return isPlainResultResponse(value) ? value : JSONRPCMessageSchema.parse(value);
}

/** `{jsonrpc: "2.0", id, result}` and nothing else, the result an object without `_meta`. */
function isPlainResultResponse(/** @type {any} */ v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  let keys = 0;
  for (const key in v) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'result') return false;
    keys++;
  }
  const { id, result } = v;
  return (
    keys === 3 &&
    v.jsonrpc === '2.0' &&
    (typeof id === 'string' || Number.isSafeInteger(id)) &&
    result !== null &&
    typeof result === 'object' &&
    !Array.isArray(result) &&
    !Object.hasOwn(result, '_meta')
  );
}

/** Whether a message a transport already checked (or the SDK wrote) is a request. */
export const isRequestMessage = (/** @type {any} */ m) => typeof m.method === 'string' && Object.hasOwn(m, 'id');

/** Whether a message a transport already checked (or the SDK wrote) is a response. */
export const isResponseMessage = (/** @type {any} */ m) => m.method === undefined && (Object.hasOwn(m, 'result') || Object.hasOwn(m, 'error'));

function fail(/** @type {RequestId | null} */ id, /** @type {number} */ code, /** @type {string} */ message) {
  return /** @type {Decoded} */ ({ ok: false, response: errorResponse(id, code, message) });
}

/** A bad id as the client wrote it (1e400 parses to Infinity; show the literal). */
function describeId(/** @type {string} */ text, /** @type {unknown} */ id) {
  if (typeof id === 'number') {
    const literal = /"id"\s*:\s*(-?[\d.eE+-]+)/.exec(text)?.[1];
    return literal ?? String(id);
  }
  return JSON.stringify(id)?.slice(0, 40) ?? String(id);
}

/**
 * One pass over JSON text (already known to parse): its deepest nesting, and the first number
 * literal that a double would change (overflow to Infinity, underflow to 0, or an integer
 * beyond 2^53 that rounds). Strings are skipped.
 * @param {string} text
 * @returns {{ depth: number, inexact: string | null }}
 */
export function scanJson(text) {
  let depth = 0;
  let deepest = 0;
  /** @type {string | null} */
  let inexact = null;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      let exponent = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x65 || d === 0x45 /* e E */) exponent = true;
        else if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x2b || d === 0x2d)) break;
      }
      // Short plain literals are always exact; long ones and exponents are checked.
      if (inexact === null && (exponent || j - i > 15)) {
        const literal = text.slice(i, j);
        if (!numberIsExact(literal)) inexact = literal;
      }
      i = j - 1;
    }
  }
  return { depth: deepest, inexact };
}

/** Whether Number(literal) means the same as the literal, as far as JSON consumers care. */
function numberIsExact(/** @type {string} */ literal) {
  const value = Number(literal);
  if (!Number.isFinite(value)) return false;
  if (value === 0) return !/[1-9]/.test(literal.split(/[eE]/)[0]);
  if (/^-?\d+$/.test(literal)) return BigInt(literal) === BigInt(value);
  // Fractions lose digits beyond a double's precision by nature; only the magnitude must hold.
  return true;
}

/**
 * The id of a request too large to read, from its first and last bytes, when they show it
 * safely: the message must open with its `method` (after at most `jsonrpc` and `id`), so it is a
 * request and not a response (answering a response would reach one of the client's own
 * requests), and the id is the one before `method` or the one that closes the top-level object
 * at its very end (SDK clients write it last; an id at the end of nested arguments is followed
 * by more than one closing brace).
 * @param {string} head the first bytes of the message, as text
 * @param {string} tail the last bytes
 * @returns {RequestId | null}
 */
export function oversizeRequestId(head, tail) {
  const ID = '("(?:[^"\\\\]|\\\\.){0,200}"|-?\\d{1,16})';
  const opening = new RegExp(`^\\s*\\{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?(?:"id"\\s*:\\s*${ID}\\s*,\\s*)?(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?"method"\\s*:`).exec(head);
  if (!opening) return null;
  const literal = opening[1] ?? new RegExp(`"id"\\s*:\\s*${ID}\\s*\\}\\s*$`).exec(tail)?.[1];
  if (literal === undefined) return null;
  try {
    const id = JSON.parse(literal);
    return typeof id === 'string' || Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}
