// @ts-check
// AgentwireError: the one error class of the package. Rust throws every error with its code
// and position as properties (code, format, line, column, columnUtf16, offset); this module
// turns that (or any other failure at the boundary) into an AgentwireError.

import { ERROR_PROPERTIES } from './wire.js';

export class AgentwireError extends Error {
  /**
   * @param {{code: string, message: string, format?: string, line?: number|null,
   *   column?: number|null, columnUtf16?: number|null, offset?: number|null}} details
   * @param {{cause?: unknown}} [options]
   */
  constructor(details, options) {
    const where = details.line != null ? ` at line ${details.line} column ${details.column}` : '';
    super(details.message + where, options);
    this.name = 'AgentwireError';
    /** Stable code, identical in Rust, the native addon and wasm (e.g. `GCX_BAD_PREFIX`). */
    this.code = details.code;
    /** Format or layer: `gcx1`, `json`, `api`. */
    this.format = details.format ?? 'api';
    /** 1-based line, or null. */
    this.line = details.line ?? null;
    /** 1-based column in characters, or null. */
    this.column = details.column ?? null;
    /** 1-based column in UTF-16 code units (JavaScript string index + 1), or null. */
    this.columnUtf16 = details.columnUtf16 ?? null;
    /** Byte offset (UTF-8) in the input, or null. */
    this.offset = details.offset ?? null;
  }
}

/** An AgentwireError raised by the package itself (argument checks). */
export function argumentError(code, message, format = 'api') {
  return new AgentwireError({ code, message, format });
}

/** Converts whatever a raw backend call threw into an AgentwireError (keeping it as `cause`). */
export function toAgentwireError(error) {
  if (error instanceof AgentwireError) return error;
  // Thrown by Rust (bindings-node, bindings-wasm): the code and position are the properties
  // bindings/src/js_error.rs sets (ERROR_PROPERTIES).
  if (typeof error?.code === 'string' && typeof error.format === 'string') {
    const details = /** @type {ConstructorParameters<typeof AgentwireError>[0]} */ ({ message: error.message });
    for (const name of ERROR_PROPERTIES) details[name] = error[name];
    return new AgentwireError(details, { cause: error });
  }
  // Anything else at the boundary is a bug in agentwire: a caught panic (native) or a trap
  // (wasm `unreachable`).
  const message = typeof error === 'string' ? error : error?.message;
  return new AgentwireError(
    { code: 'INTERNAL', message: `agentwire internal error: ${message ?? String(error)}`, format: 'api' },
    { cause: error },
  );
}
