// The boundary helpers every API area uses: one call into the raw backend with errors turned
// into AgentwireError, and argument checks that fail the same way in every runtime.

import { argumentError, toAgentwireError } from './errors.js';
import { toJsonText } from './json-text.js';

/**
 * @param {{ raw: () => any }} backend  `raw()` returns the raw module (or throws an
 *   AgentwireError when it is not ready).
 */
export function makeBoundary(backend) {
  const call = (fn) => {
    let raw;
    try {
      raw = backend.raw();
    } catch (e) {
      throw toAgentwireError(e);
    }
    try {
      return fn(raw);
    } catch (e) {
      throw toAgentwireError(e);
    }
  };
  const optionsText = (options) => (options == null ? '' : toJsonText(options, 'options'));
  const text = (value, name) => {
    if (typeof value !== 'string') {
      throw argumentError('INVALID_ARGUMENT', `${name} must be a string, got ${describe(value)}`);
    }
    return value;
  };

  const bytes = (value, name) => {
    if (value instanceof Uint8Array) return value;
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    throw argumentError('INVALID_ARGUMENT', `${name} must be a Uint8Array or ArrayBuffer, got ${describe(value)}`);
  };

  return { call, text, optionsText, bytes, toJsonText };
}

/** A module loader as a promise that rejects with an AgentwireError (never throws). */
export function asyncLoad(load) {
  return (input = undefined) => {
    try {
      return Promise.resolve(load(input)).then(() => undefined);
    } catch (e) {
      return Promise.reject(toAgentwireError(e));
    }
  };
}

export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
