// @ts-check
// The one way the public API calls into a raw backend (the native addon or a wasm module).
// Both export the same things, dispatched through one export table in Rust
// (bindings/src/exports.rs): `call(id, session, textIn, bytesIn, ops, doubles, text, scratch,
// counter, validator)`, and a class `Instance` with `init(id, session, textIn, bytesIn, ops,
// doubles, text)`, `call(id, …)` and `free()`. The main input (the payload a decoder reads) is a
// string or bytes; the other arguments cross as a transfer tape (transfer.js); a value result
// comes back as words in `scratch` (a wasm module: in its memory) plus one side string.
// `session` says which object shapes this boundary already knows (docs/js-boundary.md).
// Errors carry `code`, `format`, `line`, `column`, `columnUtf16` and `offset` as properties:
// the addon throws them, a wasm module returns them (a returned Error is thrown here); they
// become AgentwireErrors.

import { argumentError, toAgentwireError } from './errors.js';
import { readTape, TapeWriter } from './transfer.js';

const EMPTY_OPS = new Uint32Array(0);
/** The main input as the raw signature takes it: [string, bytes], one of them undefined. */
const split = (main) => (typeof main === 'string' ? [main, undefined] : [undefined, main]);
const EMPTY_DOUBLES = new Float64Array(0);
/** An empty tape region goes to the addon as undefined: one reading of an argument fewer. */
const present = (region) => (region.length === 0 ? undefined : region);
// Ids every module has (bindings/src/exports.rs lists them first).
const EXPORT_TABLE = 0;

const encoder = new TextEncoder();
// Strings up to this many UTF-16 units get room for their longest UTF-8 (3 bytes a unit) at
// once; longer ones get a byte a unit first, and the rest when they are not ASCII.
const SMALL_STRING = 1 << 16;

/**
 * Writes a string's UTF-8 into a wasm module's argument bytes at `at` (TextEncoder.encodeInto,
 * straight into its memory); returns where it ends.
 */
function putText(module, memory, s, at) {
  let need = at + (s.length <= SMALL_STRING ? 3 * s.length : s.length);
  let ptr = module.argBytes(need);
  let { read, written } = encoder.encodeInto(s, new Uint8Array(memory.buffer, ptr + at, need - at));
  // encodeInto stops before a code point that does not fit: the rest goes in a second pass.
  while (read < s.length) {
    const end = at + written;
    need = end + 3 * (s.length - read);
    ptr = module.argBytes(need);
    const more = encoder.encodeInto(s.substring(read), new Uint8Array(memory.buffer, ptr + end, need - end));
    read += more.read;
    written += more.written;
  }
  return at + written;
}

/**
 * Writes one call's arguments into a wasm module's argument buffers (bindings-wasm/src/lib.rs:
 * `argOps`, `argDoubles`, `argBytes`): the ops and doubles as they are, the main input (a
 * string as UTF-8, or bytes) and then the argument text as UTF-8. Returns what `call` takes
 * after the session: [main (0 none, 1 text, 2 bytes), mainLength, opsLength, doublesLength,
 * textLength].
 */
function putArgs(module, memory, textIn, bytesIn, ops, doubles, text) {
  // Each buffer is asked for before `memory.buffer` is read: growing the memory detaches it.
  if (ops.length > 0) {
    const at = module.argOps(ops.length);
    new Uint32Array(memory.buffer, at, ops.length).set(ops);
  }
  if (doubles.length > 0) {
    const at = module.argDoubles(doubles.length);
    new Float64Array(memory.buffer, at, doubles.length).set(doubles);
  }
  let kind = 0;
  let mainLength = 0;
  if (textIn !== undefined) {
    kind = 1;
    mainLength = putText(module, memory, textIn, 0);
  } else if (bytesIn !== undefined) {
    kind = 2;
    mainLength = bytesIn.length;
    const at = module.argBytes(mainLength);
    new Uint8Array(memory.buffer, at, mainLength).set(bytesIn);
  }
  const textLength = text.length === 0 ? 0 : putText(module, memory, text, mainLength) - mainLength;
  return [kind, mainLength, ops.length, doubles.length, textLength];
}

/** @typedef {ReturnType<typeof makeBoundary>} Boundary */

/**
 * @param {() => any} getRaw  the raw module (throws an AgentwireError when it is not ready)
 * @param {(() => { memory: WebAssembly.Memory, __stack_pointer?: WebAssembly.Global }) | undefined} wasmOf
 *   a wasm module's instance exports: its value results stay in its `memory` (`tapePointer()`,
 *   `tapeLength()`) instead of crossing into `scratch`
 */
export function makeBoundary(getRaw, wasmOf = undefined) {
  /** @type {Map<string, {id: number, kind: string}> | null} */
  let exports = null;
  let scratch = new Uint32Array(1024);
  const shared = new TapeWriter();
  // The object shapes Rust has defined for this boundary (bindings/src/transfer/shapes.rs),
  // by id; a call made inside another (depth > 1) uses shapes of its own (token 0).
  const token = 1 + Math.floor(Math.random() * 0x1fffff);
  const shapes = [];
  const session = (nested) => (nested ? 0 : token * 0x100000000 + shapes.length);
  // A call made while another is in progress (a toJSON, a token counter or a router that calls
  // agentwire) gets its own writer and scratch.
  let depth = 0;
  // An exception a caller's callback threw reaches the caller as it is.
  let callbackError;
  // A wasm trap (a Rust panic), or a callback's exception passing through wasm frames, unwinds
  // them without giving back the shadow stack they took; once the outermost call has failed no
  // frame of this module is live, so the pointer it started from is put back (bindings export
  // the global: .cargo/config.toml).
  let stackBase;
  const stackPointer = () => (wasmOf === undefined ? undefined : wasmOf().__stack_pointer);

  const raw = () => {
    try {
      return getRaw();
    } catch (e) {
      throw toAgentwireError(e);
    }
  };

  const lookup = (module, name) => {
    if (exports === null) {
      const table = readResult(
        invoke(module, EXPORT_TABLE, session(true), undefined, undefined, EMPTY_OPS, EMPTY_DOUBLES, '', scratch),
        scratch,
        '',
        module,
        [],
      );
      exports = new Map(table.map(([exportName, kind], id) => [exportName, { id, kind }]));
    }
    const entry = exports.get(name);
    if (entry === undefined) throw argumentError('INTERNAL', `agentwire: this build has no export ${name}`);
    return entry;
  };

  function readResult(result, words, main, module, table) {
    if (wasmOf !== undefined) {
      words = new Uint32Array(wasmOf().memory.buffer, module.tapePointer(), module.tapeLength());
    } else if (typeof result !== 'string') {
      // [side, words]: the result did not fit; keep the larger buffer for the next calls.
      [result, words] = result;
      if (depth <= 1) scratch = words;
    }
    return readTape(words, result, main, table);
  }

  const wrap = (fn) =>
      typeof fn === 'function'
        ? (...args) => {
            try {
              return fn(...args);
            } catch (e) {
              callbackError = e;
              throw e;
            }
          }
        : undefined;

  // The addon takes `scratch` for value results; a wasm module keeps them in its memory, and
  // takes its arguments there too (`putArgs`: the lengths it wrote).
  const invoke = (target, id, s, textIn, bytesIn, ops, doubles, text, words, counter, validator) =>
    wasmOf === undefined
      ? target.call(id, s, textIn, bytesIn, present(ops), present(doubles), present(text), words, counter, validator)
      : target.call(id, s, ...putArgs(raw(), wasmOf().memory, textIn, bytesIn, ops, doubles, text), counter, validator);

  /** Calls `send(ops, doubles, text, words)` with the values as its tape; reads the result. */
  function run(kind, main, values, module, send) {
    depth++;
    callbackError = undefined;
    if (depth === 1 && stackBase === undefined) stackBase = stackPointer()?.value;
    try {
      const nested = depth > 1;
      const writer = depth === 1 ? shared : new TapeWriter();
      const words = depth === 1 ? scratch : new Uint32Array(256);
      let ops = EMPTY_OPS;
      let doubles = EMPTY_DOUBLES;
      let text = '';
      // Trailing undefined arguments are left out: Rust reads them as null.
      let count = values.length;
      while (count > 0 && values[count - 1] === undefined) count--;
      if (count > 0) {
        writer.reset();
        for (let k = 0; k < count; k++) writer.value(values[k]);
        [ops, doubles, text] = writer.finish();
      }
      const result = send(session(nested), ops, doubles, text, words);
      if (result instanceof Error) throw result;
      if (kind !== 'value') return result;
      return readResult(result, words, typeof main === 'string' ? main : '', module, nested ? [] : shapes);
    } catch (e) {
      if (depth === 1 && stackBase !== undefined) stackPointer().value = stackBase;
      if (e !== undefined && e === callbackError) throw e;
      throw toAgentwireError(e);
    } finally {
      depth--;
    }
  }

  const call = (name, hooks, main, values) => {
    const module = raw();
    const { id, kind } = lookup(module, name);
    const [textIn, bytesIn] = split(main);
    return run(kind, main, values, module, (s, ops, doubles, text, words) =>
      invoke(module, id, s, textIn, bytesIn, ops, doubles, text, words, wrap(hooks?.counter), wrap(hooks?.validator)));
  };

  const method = (instance, name, hooks, main, values) => {
    if (instance == null) throw argumentError('INVALID_ARGUMENT', `${name}: used after free()`);
    const module = raw();
    const { id, kind } = lookup(module, name);
    const [textIn, bytesIn] = split(main);
    return run(kind, main, values, module, (s, ops, doubles, text, words) =>
      invoke(instance, id, s, textIn, bytesIn, ops, doubles, text, words, wrap(hooks?.counter), wrap(hooks?.validator)));
  };

  return {
    /** The export names of the module, in id order (`Class.new`, `Class.method` for classes). */
    exportNames() {
      const module = raw();
      lookup(module, 'exportTable');
      return [...exports.keys()];
    },
    /** Calls export `name` with a main input (or undefined) and argument values. */
    call: (name, main, ...values) => call(name, undefined, main, values),
    /** `call` with JS callbacks the Rust side may call (`{counter, validator}`). */
    callWithHooks: (name, hooks, main, ...values) => call(name, hooks, main, values),
    /** A new instance of class `className`. */
    construct(className, main, ...values) {
      const module = raw();
      const { id } = lookup(module, `${className}.new`);
      const [textIn, bytesIn] = split(main);
      const instance = new module.Instance();
      run('class', main, values, module, (s, ops, doubles, text) =>
        wasmOf === undefined
          ? instance.init(id, s, textIn, bytesIn, present(ops), present(doubles), present(text))
          : instance.init(id, s, ...putArgs(module, wasmOf().memory, textIn, bytesIn, ops, doubles, text)));
      return instance;
    },
    /** Calls `Class.method` on an instance. */
    method: (instance, className, name, main, ...values) => method(instance, `${className}.${name}`, undefined, main, values),
    /** `method` with JS callbacks. */
    methodWithHooks: (instance, className, name, hooks, main, ...values) =>
      method(instance, `${className}.${name}`, hooks, main, values),
  };
}
