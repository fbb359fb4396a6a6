// JSON-RPC error codes and responses the gateway writes itself.

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Server errors of the gateway (JSON-RPC's implementation-defined range). */
export const SERVER_ERROR = -32000;
/** The SDK's code for an unknown HTTP session (its own 404s use it too). */
export const SESSION_NOT_FOUND = -32001;

/**
 * @typedef {string | number} RequestId
 * @typedef {{ jsonrpc: '2.0', id: RequestId | null, error: { code: number, message: string, data?: unknown } }} ErrorResponse
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
