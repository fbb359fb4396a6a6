// @ts-check
// The transfer format between JavaScript and the Rust core (bindings/src/transfer): values
// cross as 32-bit words, doubles and one string, never as JSON text. This module reads and
// writes that format only; every format (GCX1, GCF, …) is decoded and encoded in Rust.

import { argumentError } from './errors.js';
// The tags and limits, generated from the Rust side (wire.js); deeper values than MAX_DEPTH
// are refused here (the core's own limits are lower).
import {
  ARG_MAX,
  IN_ABSENT,
  IN_ARRAY,
  IN_BIGINT,
  IN_FALSE,
  IN_LONG,
  IN_NULL,
  IN_NUMBER,
  IN_OBJECT,
  IN_SAME_KEYS,
  IN_STRING,
  IN_TRUE,
  MAX_DEPTH,
  OUT_ARRAY,
  OUT_DOUBLE,
  OUT_FALSE,
  OUT_INT,
  OUT_NULL,
  OUT_NUMBER_TEXT,
  OUT_OBJECT,
  OUT_SHAPE,
  OUT_STRING,
  OUT_STRING_ROWS,
  OUT_TRUE,
  RESET,
  SIDE,
} from './wire.js';

// ---- JS values → argument tape (bindings/src/transfer/from_js.rs) ----------------------------

function depthError() {
  return argumentError('JSON_DEPTH', `value nesting exceeds ${MAX_DEPTH} levels (or is cyclic)`, 'json');
}

function isBoxed(value) {
  return value instanceof Number || value instanceof String || value instanceof Boolean
    || (typeof BigInt === 'function' && value instanceof BigInt);
}

function sameKeys(a, b) {
  if (b === undefined || a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** Writes JS values the way JSON.stringify reads them, with the package's number rules. */
export class TapeWriter {
  constructor() {
    this.ops = new Uint32Array(1024);
    this.doubles = new Float64Array(256);
    this.reset();
  }

  reset() {
    this.i = 0;
    this.n = 0;
    this.text = '';
    // The keys of the last object written at each depth: the symbols of a graph payload and
    // their components objects, interleaved, each send their keys once.
    this.keysAt = [];
  }

  #grow() {
    const ops = new Uint32Array(this.ops.length * 2);
    ops.set(this.ops);
    this.ops = ops;
  }

  #op(tag, arg) {
    if (this.i + 3 > this.ops.length) this.#grow();
    if (arg > ARG_MAX) {
      this.ops[this.i++] = IN_LONG;
      this.ops[this.i++] = arg;
      this.ops[this.i++] = tag;
    } else {
      this.ops[this.i++] = tag | (arg << 4);
    }
  }

  #double(v) {
    if (this.n === this.doubles.length) {
      const doubles = new Float64Array(this.doubles.length * 2);
      doubles.set(this.doubles);
      this.doubles = doubles;
    }
    this.doubles[this.n++] = v;
  }

  string(s) {
    this.#op(IN_STRING, s.length);
    this.text += s;
  }

  /** Writes one value; `undefined` (and functions, symbols) write null, as in an array. */
  value(v) {
    if (!this.#member('', v, 0)) this.#op(IN_NULL, 0);
  }

  /** Writes a value if JSON.stringify would; returns false for undefined, functions, symbols. */
  #member(key, v, depth) {
    if (v !== null && typeof v === 'object') {
      if (typeof v.toJSON === 'function') v = v.toJSON(key);
      else if (isBoxed(v)) v = v.valueOf();
    }
    switch (typeof v) {
      case 'string':
        this.string(v);
        return true;
      case 'number':
        this.#op(IN_NUMBER, 0);
        this.#double(v);
        return true;
      case 'boolean':
        this.#op(v ? IN_TRUE : IN_FALSE, 0);
        return true;
      case 'bigint': {
        const digits = String(v);
        this.#op(IN_BIGINT, digits.length);
        this.text += digits;
        return true;
      }
      case 'object':
        if (v === null) {
          this.#op(IN_NULL, 0);
          return true;
        }
        if (depth >= MAX_DEPTH) throw depthError();
        if (isBoxed(v)) v = v.valueOf();
        if (Array.isArray(v)) this.#array(v, depth + 1);
        else this.#object(v, depth + 1);
        return true;
      default:
        return false;
    }
  }

  #array(v, depth) {
    const len = v.length;
    this.#op(IN_ARRAY, len);
    for (let k = 0; k < len; k++) {
      if (!this.#member(String(k), v[k], depth)) this.#op(IN_NULL, 0);
    }
  }

  #object(v, depth) {
    let keys = Object.keys(v);
    const len = keys.length;
    if (sameKeys(keys, this.keysAt[depth])) {
      this.#op(IN_SAME_KEYS, 0);
      for (let k = 0; k < len; k++) {
        if (!this.#member(keys[k], v[keys[k]], depth)) this.#op(IN_ABSENT, 0);
      }
    } else {
      const at = this.i;
      this.#op(IN_OBJECT, 0);
      // The keys Rust reads, which a later SAME_KEYS refers to: not those skipped.
      let written = keys;
      for (let k = 0; k < len; k++) {
        const key = keys[k];
        const mark = this.i;
        const text = this.text;
        this.string(key);
        if (this.#member(key, v[key], depth)) {
          if (written !== keys) written.push(key);
        } else {
          this.i = mark;
          this.text = text;
          if (written === keys) written = keys.slice(0, k);
        }
      }
      if (written.length > ARG_MAX) throw argumentError('INVALID_ARGUMENT', 'object has too many members');
      this.ops[at] = IN_OBJECT | (written.length << 4);
      keys = written;
    }
    this.keysAt[depth] = keys;
  }

  /** The tape: ops, doubles and the text, as the raw binding functions take them. */
  finish() {
    return [this.ops.subarray(0, this.i), this.doubles.subarray(0, this.n), this.text];
  }
}

// ---- result tape → JS values (bindings/src/transfer/to_js.rs) --------------------------------

// Whether generated constructors are allowed (a page's CSP may forbid eval).
let canGenerate = true;
try {
  canGenerate = new Function('return 1')() === 1;
} catch {
  canGenerate = false;
}

// Shape signature (each key with its length, so no two key lists share one) → {keys, uses,
// make, makeRow}; bounded so hostile input with endless distinct shapes cannot grow it
// without end.
const SHAPES = new Map();
const MAX_SHAPES = 4096;
// A shape gets generated constructors once it has built this many objects.
const GENERATE_AFTER = 8;

function shapeOf(keys) {
  let id = '';
  for (const key of keys) id += `${key.length}:${key}`;
  let shape = SHAPES.get(id);
  if (shape === undefined) {
    if (SHAPES.size >= MAX_SHAPES) SHAPES.clear();
    shape = { keys, uses: 0, make: null, makeRow: null };
    SHAPES.set(id, shape);
  }
  return shape;
}

const keyCode = (key) => (key === '__proto__' ? `["__proto__"]` : JSON.stringify(key));

/** `(v) => ({k0: v(), k1: v(), …})`: one object literal, so V8 reuses one map. */
function generateObject(keys) {
  return new Function('v', `return {${keys.map((k) => `${keyCode(k)}: v()`).join(', ')}};`);
}

/** A row of string cells at words[p…]: `(t, p, s, x) => ({k0: …, k1: …})`. */
function generateRow(keys) {
  const cell = (i) => `(t[p + ${2 * i}] & ${SIDE}) ? x.slice(t[p + ${2 * i}] - ${SIDE}, t[p + ${2 * i + 1}]) : s.slice(t[p + ${2 * i}], t[p + ${2 * i + 1}])`;
  return new Function('t', 'p', 's', 'x', `return {${keys.map((k, i) => `${keyCode(k)}: ${cell(i)}`).join(', ')}};`);
}

function setMember(object, key, value) {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

// Reader state: one result is read at a time, to completion, before the next call.
let t = null;
let f = null;
let p = 0;
let input = '';
let side = '';
let shapes = null;
let doubleAt = 0;

function str() {
  const a = t[p];
  const b = t[p + 1];
  p += 2;
  return a >= SIDE ? side.slice(a - SIDE, b) : input.slice(a, b);
}

function value() {
  const w = t[p++];
  switch (w & 15) {
    case OUT_NULL:
      return null;
    case OUT_FALSE:
      return false;
    case OUT_TRUE:
      return true;
    case OUT_INT:
      return (w | 0) >> 4;
    case OUT_DOUBLE:
      return f[doubleAt++];
    case OUT_STRING:
      return str();
    case OUT_ARRAY: {
      const len = w >>> 4;
      const items = new Array(len);
      for (let k = 0; k < len; k++) items[k] = value();
      return items;
    }
    case OUT_OBJECT:
      return object(shapes[w >>> 4]);
    case OUT_SHAPE:
      defineShape(w >>> 4);
      return value();
    case OUT_STRING_ROWS:
      return stringRows(w >>> 4);
    case OUT_NUMBER_TEXT:
      return Number(str());
    default:
      throw new Error(`agentwire: malformed result tape (op ${w & 15} at ${p - 1})`);
  }
}

function defineShape(count) {
  const keys = new Array(count);
  for (let k = 0; k < count; k++) {
    p++; // STRING op
    keys[k] = str();
  }
  shapes.push(shapeOf(keys));
}

function object(shape) {
  if (shape.make === null && canGenerate && ++shape.uses >= GENERATE_AFTER) shape.make = generateObject(shape.keys);
  if (shape.make !== null) return shape.make(value);
  const o = {};
  for (const key of shape.keys) setMember(o, key, value());
  return o;
}

function stringRows(count) {
  const shape = shapes[t[p++]];
  const width = shape.keys.length;
  const rows = new Array(count);
  if (shape.makeRow === null && canGenerate && (shape.uses += count) >= GENERATE_AFTER) shape.makeRow = generateRow(shape.keys);
  const make = shape.makeRow;
  if (make !== null) {
    for (let r = 0; r < count; r++, p += 2 * width) rows[r] = make(t, p, input, side);
  } else {
    for (let r = 0; r < count; r++) {
      const o = {};
      for (const key of shape.keys) setMember(o, key, str());
      rows[r] = o;
    }
  }
  return rows;
}

/** The double region of a tape (words[1] onwards), as doubles. */
function doublesOf(words) {
  const first = words[1];
  const count = (words[0] - first) >>> 1;
  if (count === 0) return EMPTY_DOUBLES;
  const byteOffset = words.byteOffset + first * 4;
  // A view when the region is 8-byte aligned in its buffer (always in the addon's scratch),
  // else a copy.
  return byteOffset % 8 === 0
    ? new Float64Array(words.buffer, byteOffset, count)
    : new Float64Array(words.slice(first, first + 2 * count).buffer);
}
const EMPTY_DOUBLES = new Float64Array(0);

/**
 * Reads the value of a result tape.
 * @param {Uint32Array} words  the tape (word 0: length, word 1: first double, word 2: flags)
 * @param {string} sideText  the side string the call returned
 * @param {string} inputText  the input string the call was given ('' if none)
 * @param {object[]} table  the shapes the caller's boundary knows (tapes define new ones once;
 *   a tape flagged RESET starts it over)
 */
export function readTape(words, sideText, inputText, table) {
  t = words;
  f = doublesOf(words);
  doubleAt = 0;
  p = 3;
  input = inputText;
  side = sideText;
  if (words[2] & RESET) table.length = 0;
  shapes = table;
  try {
    return value();
  } finally {
    t = null;
    f = null;
    input = '';
    side = '';
    shapes = null;
  }
}
