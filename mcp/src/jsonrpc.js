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
