// JS values to JSON text under the package's number rules (README "JS value rules"):
// a safe integer is an integer, every other number is a float, a BigInt is an exact 64-bit
// integer, NaN and ±Infinity are an error; everything else is read as JSON.stringify reads it
// (undefined members are skipped, undefined array items are null, toJSON is honoured).
// Both backends receive the same text, so both behave the same by construction.

import { argumentError } from './errors.js';

// Deeper values are refused here (the core's own limit, 512 by default, is lower).
const MAX_DEPTH = 1024;
const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

/** True when JSON.stringify(value) already gives exactly the text our rules ask for. */
function isPlain(value, depth) {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) && !isUnsafeIntegralFloat(value);
    case 'bigint':
      return false;
    case 'object': {
      if (value === null) return true;
      if (depth > MAX_DEPTH) throw depthError();
      if (typeof value.toJSON === 'function' || isBoxed(value)) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlain(value[i], depth + 1)) return false;
        return true;
      }
      for (const key of Object.keys(value)) if (!isPlain(value[key], depth + 1)) return false;
      return true;
    }
    default:
      return true;
  }
}

// An integral double beyond 2^53 that JSON.stringify would print as integer digits (below
// 1e21 it does not use an exponent): mark it as a float so the core keeps it a double.
function isUnsafeIntegralFloat(value) {
  return Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21;
}

function isBoxed(value) {
  return value instanceof Number || value instanceof String || value instanceof Boolean
    || (typeof BigInt === 'function' && value instanceof BigInt);
}

function depthError() {
  return argumentError('JSON_DEPTH', `value nesting exceeds ${MAX_DEPTH} levels (or is cyclic)`, 'json');
}

function numberText(value) {
  if (!Number.isFinite(value)) {
    throw argumentError('NON_FINITE_NUMBER', `${value} is not a JSON number`, 'json');
  }
  return isUnsafeIntegralFloat(value) ? `${value}.0` : String(value);
}

function bigintText(value) {
  if (value < I64_MIN || value > U64_MAX) {
    throw argumentError('INTEGER_OUT_OF_RANGE', `integer ${value} does not fit in 64 bits`);
  }
  return String(value);
}

/** JSON.stringify's algorithm with the number rules above; undefined when nothing to write. */
function serialize(key, value, depth) {
  if (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') {
    value = value.toJSON(key);
  }
  if (value !== null && typeof value === 'object' && isBoxed(value)) value = value.valueOf();
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return numberText(value);
    case 'bigint':
      return bigintText(value);
    case 'object': {
      if (value === null) return 'null';
      if (depth > MAX_DEPTH) throw depthError();
      if (Array.isArray(value)) {
        const items = [];
        for (let i = 0; i < value.length; i++) items.push(serialize(String(i), value[i], depth + 1) ?? 'null');
        return `[${items.join(',')}]`;
      }
      const members = [];
      for (const k of Object.keys(value)) {
        const text = serialize(k, value[k], depth + 1);
        if (text !== undefined) members.push(`${JSON.stringify(k)}:${text}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      return undefined; // undefined, functions, symbols
  }
}

/**
 * JSON text for a JS value passed to the API.
 * @param {unknown} value
 * @param {string} what  argument name for error messages
 */
export function toJsonText(value, what) {
  const text = isPlain(value, 0) ? JSON.stringify(value) : serialize('', value, 0);
  if (text === undefined) {
    throw argumentError('INVALID_ARGUMENT', `${what} is not a JSON value (got ${typeof value})`);
  }
  return text;
}
