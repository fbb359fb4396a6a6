// @ts-check
// Node: the native addon, or the wasm modules (instantiated synchronously from their bytes)
// when the addon is missing, fails to load (another architecture, a missing system library),
// does not match this package's version, fails its self-check, or AGENTWIRE_FORCE_WASM=1 is
// set; `nativeLoadError` says which. Each area's module loads on first use. The addon is
// looked for in native/ (a build in a checkout) and then in the platform package
// (agentwire-linux-x64-gnu, …), an optionalDependency npm installs only on its platform. The
// addon counts tokens itself, with the vocabularies of the optional package agentwire-tokens
// (read from its files on first use); without the addon, that package's tokens wasm module
// counts. JSON Schema validation comes from the wasm module of the optional package
// agentwire-schema (2 MB the addon does not carry).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { makeBoundary } from './boundary.js';
import { argumentError } from './errors.js';
import { makeGcx } from './gcx.js';
import { MODULE_OF_AREA, OPTIONAL_MODULES, notInstalled } from './modules.js';

const require = createRequire(import.meta.url);
const { version: packageVersion } = require('../package.json');

/** `<platform>-<arch>[-gnu|-musl|-msvc]`, napi-rs's name of this platform. */
export function platformTriple() {
  const { platform, arch } = process;
  let abi = '';
  if (platform === 'linux') abi = isMusl() ? '-musl' : '-gnu';
  else if (platform === 'win32') abi = '-msvc';
  return `${platform}-${arch}${abi}`;
}

/** `agentwire.<triple>.node`, as `napi build --platform` names it. */
export function nativeFileName() {
  return `agentwire.${platformTriple()}.node`;
}

/** The platform package that carries this platform's addon. */
export function nativePackageName() {
  return `agentwire-${platformTriple()}`;
}

function isMusl() {
  const report = /** @type {{ header?: { glibcVersionRuntime?: string } } | undefined} */ (process.report?.getReport?.());
  const header = report?.header;
  return !header?.glibcVersionRuntime;
}

/**
 * The raw addon (native/, else the platform package), checked: its version is the package's,
 * and it passes the self-check. Throws an Error saying why it cannot be used (the failure as
 * `cause`).
 */
export function loadNativeModule() {
  return loadCheckedNative().raw;
}

/** The checked addon and the boundary its self-check went through. */
function loadCheckedNative() {
  const { raw, from } = requireNative();
  const fail = (reason, cause = undefined) => new Error(`${from} ${reason}`, cause === undefined ? undefined : { cause });
  // Export 1 is `version` in every build (bindings/src/exports.rs).
  let version;
  try {
    version = raw.call(1, 0, undefined, undefined, new Uint32Array(0), new Float64Array(0), '', new Uint32Array(0));
  } catch (cause) {
    throw fail('does not answer its version call', cause);
  }
  if (version !== packageVersion) throw fail(`is version ${version}, this package is ${packageVersion}`);
  const boundary = makeBoundary(() => raw);
  try {
    selfCheck(boundary);
  } catch (e) {
    throw fail(`failed its self-check: ${e.message}`);
  }
  return { raw, boundary };
}

/** The raw addon and where it came from; throws when it is missing or fails to load. */
function requireNative() {
  const file = nativeFileName();
  const local = `../native/${file}`;
  const pkg = nativePackageName();
  try {
    return { raw: require(local), from: `native/${file}` };
  } catch (e) {
    if (!isMissing(e, local)) throw loadFailure(`native/${file}`, e);
  }
  try {
    return { raw: require(pkg), from: `the package ${pkg}` };
  } catch (e) {
    if (!isMissing(e, pkg)) throw loadFailure(`the package ${pkg}`, e);
    throw Object.assign(new Error(`neither native/${file} nor the package ${pkg} is installed`, { cause: e }), { code: 'MODULE_NOT_FOUND' });
  }
}

/** `require(request)` failed because `request` itself is absent (not a file it needs). */
const isMissing = (e, request) => e?.code === 'MODULE_NOT_FOUND' && String(e.message).includes(`'${request}'`);

/** An addon that is there but does not load (another platform's, a missing library): Node's code. */
const loadFailure = (from, e) =>
  Object.assign(new Error(`${from} failed to load: ${String(e?.message ?? e).split('\n')[0]}`, { cause: e }), { code: e?.code });

/**
 * The addon's self-check at load: one GCX1 encode and decode through the boundary the API
 * uses (values in, text out; text in, values out), compared with the known bytes and rows
 * (what every build writes and reads: loader.test.mjs checks them on the wasm build). It
 * catches an addon that loads and answers but computes wrong, as a broken or corrupted build
 * would; its cost is in docs/packaging.md.
 */
export const SELF_CHECK = Object.freeze({
  tool: 'self_check',
  rows: [
    { id: 'a\tb', n: 7, ok: true },
    { id: 'é', n: -1.5, ok: null },
  ],
  gcx: 'GCX1 tool=self_check fields=id,n,ok rows=2\na\\tb\t7\ttrue\né\t-1.5\t\n',
  decodedRows: [
    { id: 'a\tb', n: '7', ok: 'true' },
    { id: 'é', n: '-1.5', ok: '' },
  ],
});

/** Throws an Error saying what differs when the boundary's GCX1 round trip is not the known one. */
export function selfCheck(boundary) {
  const gcx = makeGcx(boundary);
  const encoded = gcx.encodeGeneric(SELF_CHECK.tool, SELF_CHECK.rows);
  if (encoded !== SELF_CHECK.gcx) {
    throw new Error(`gcx.encodeGeneric gave ${JSON.stringify(encoded)}, expected ${JSON.stringify(SELF_CHECK.gcx)}`);
  }
  const rows = gcx.decode(SELF_CHECK.gcx).sections?.[0]?.rows;
  if (JSON.stringify(rows) !== JSON.stringify(SELF_CHECK.decodedRows)) {
    throw new Error(`gcx.decode gave rows ${JSON.stringify(rows)}, expected ${JSON.stringify(SELF_CHECK.decodedRows)}`);
  }
}

const wasmModules = new Map();

/** A wasm module (by name: core, gcf, …), instantiated on first use from its bytes: its glue. */
export function loadWasmModule(name) {
  return loadedWasm(name).module;
}

/** The glue of a wasm module and its instance's exports. */
function loadedWasm(name) {
  let loaded = wasmModules.get(name);
  if (loaded === undefined) {
    const { glue, wasm } = wasmFiles(name);
    const module = require(glue);
    const exports = module.initSync({ module: readFileSync(wasm) });
    loaded = { module, exports };
    wasmModules.set(name, loaded);
  }
  return loaded;
}

/** The glue and .wasm paths of a module: this package's, or its optional package's. */
function wasmFiles(name) {
  const optional = OPTIONAL_MODULES[name];
  if (optional === undefined) {
    return { glue: `../wasm/agentwire_${name}.js`, wasm: new URL(`../wasm/agentwire_${name}_bg.wasm`, import.meta.url) };
  }
  const { pkg } = optional;
  let files;
  let version;
  try {
    files = { glue: require.resolve(`${pkg}${optional.glue}`), wasm: require.resolve(`${pkg}${optional.wasm}`) };
    ({ version } = require(`${pkg}/package.json`));
  } catch (cause) {
    throw notInstalled(name, 'it is not installed beside agentwire', cause);
  }
  // Its modules are built from the same binding crate: the versions must be equal.
  if (version !== packageVersion) {
    throw notInstalled(name, `the installed ${pkg} is ${version}, agentwire is ${packageVersion}: install ${pkg}@${packageVersion}`);
  }
  return files;
}

/** The boundary of a wasm module (loaded on its first call). */
export function wasmBoundary(name) {
  return makeBoundary(() => loadWasmModule(name), () => loadedWasm(name).exports);
}

/**
 * The backend of the Node entries: `area(name)` gives the boundary of an export area
 * (core, gcf, gateway, events, schema, cl100k_base, o200k_base).
 * @param {{forceWasm?: boolean}} [options]
 * @returns {Parameters<typeof import('./api.js').createApi>[0] & { nativeLoadError: Error | null }}
 */
export function loadNodeBackend({ forceWasm = process.env.AGENTWIRE_FORCE_WASM === '1' } = {}) {
  let nativeLoadError = null;
  const wasmArea = wasmAreas();
  // The gateway's JSON Schema validation: the schema wasm module, loaded on first use.
  const defaultValidator = (schemaText, argsText) => wasmArea('schema').boundary.call('schema.validator', undefined, schemaText, argsText);
  if (!forceWasm) {
    try {
      const { boundary } = loadCheckedNative();
      const native = { boundary, load: () => undefined };
      return { name: 'native', nativeLoadError, area: (name) => (name in WASM_AREAS ? wasmArea(name) : native), vocabularies, defaultValidator };
    } catch (cause) {
      nativeLoadError = new Error(`agentwire: native addon ${nativeFileName()} not loaded; using wasm (${cause.message})`, { cause });
    }
  }
  try {
    loadWasmModule('core');
  } catch (cause) {
    const causes = nativeLoadError ? [nativeLoadError, cause] : [cause];
    throw new AggregateError(causes, 'agentwire: neither the native addon nor the wasm build could be loaded', {
      cause,
    });
  }
  return { name: 'wasm', nativeLoadError, area: wasmArea, vocabularies, defaultValidator };
}

// Areas the addon does not carry: their wasm modules serve the native backend too.
const WASM_AREAS = { schema: true };

/** A token vocabulary's bytes, from the installed agentwire-tokens (same version). */
export function vocabularyBytes(encoding) {
  const pkg = OPTIONAL_MODULES.tokens.pkg;
  let path;
  let version;
  try {
    path = require.resolve(`${pkg}/${encoding}.bin`);
    ({ version } = require(`${pkg}/package.json`));
  } catch (cause) {
    throw notInstalled('tokens', 'it is not installed beside agentwire', cause);
  }
  if (version !== packageVersion) {
    throw notInstalled('tokens', `the installed ${pkg} is ${version}, agentwire is ${packageVersion}: install ${pkg}@${packageVersion}`);
  }
  return readFileSync(path);
}

/** @type {import('./tokens.js').Vocabularies} */
const vocabularies = {
  now: vocabularyBytes,
  later: async (encoding, input) => (input === undefined ? vocabularyBytes(encoding) : bytesOf(input)),
};

/** Bytes given to `tokens.load` in Node: a Uint8Array, an ArrayBuffer, a file path or a file URL. */
async function bytesOf(input) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (typeof input === 'string' || input instanceof URL) return readFileSync(input);
  if (typeof Response !== 'undefined' && input instanceof Response) return new Uint8Array(await input.arrayBuffer());
  throw argumentError('INVALID_ARGUMENT', 'input.vocabulary must be bytes, a path, a file URL or a Response');
}

/** `area(name)`: an export area served by its wasm module (loaded on first use). */
function wasmAreas() {
  const areas = new Map();
  return (name) => {
    if (!areas.has(name)) {
      const module = MODULE_OF_AREA[name];
      areas.set(name, { boundary: wasmBoundary(module), load: () => void loadWasmModule(module) });
    }
    return areas.get(name);
  };
}
