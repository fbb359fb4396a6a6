// @ts-check
// Node: the native addon, or the wasm modules (instantiated synchronously from their bytes)
// when the addon is missing, does not match this package's version, or AGENTWIRE_FORCE_WASM=1
// is set. Each area's module loads on first use. The addon is looked for in native/ (a build
// in a checkout) and then in the platform package (agentwire-linux-x64-gnu, …), an
// optionalDependency npm installs only on its platform. The addon counts tokens itself, with
// the vocabularies of the optional package agentwire-tokens (read from its files on first
// use); without the addon, that package's tokens wasm module counts. JSON Schema validation
// comes from the wasm module of the optional package agentwire-schema (2 MB the addon does
// not carry).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { makeBoundary } from './boundary.js';
import { argumentError } from './errors.js';
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

/** The raw addon (native/, else the platform package), checked against the package version. */
export function loadNativeModule() {
  let raw;
  try {
    raw = require(`../native/${nativeFileName()}`);
  } catch (local) {
    if (local?.code !== 'MODULE_NOT_FOUND') throw local;
    try {
      raw = require(nativePackageName());
    } catch (cause) {
      if (cause?.code !== 'MODULE_NOT_FOUND') throw cause;
      throw Object.assign(new Error(`neither native/${nativeFileName()} nor the package ${nativePackageName()} is installed`, { cause }), {
        code: 'MODULE_NOT_FOUND',
      });
    }
  }
  // Export 1 is `version` in every build (bindings/src/exports.rs).
  const version = raw.call(1, 0, undefined, undefined, new Uint32Array(0), new Float64Array(0), '', new Uint32Array(0));
  if (version !== packageVersion) {
    throw new Error(`native addon is version ${version}, the package is ${packageVersion}`);
  }
  return raw;
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
      const raw = loadNativeModule();
      const boundary = makeBoundary(() => raw);
      const native = { boundary, load: () => undefined };
      return { name: 'native', nativeLoadError, area: (name) => (name in WASM_AREAS ? wasmArea(name) : native), vocabularies, defaultValidator };
    } catch (cause) {
      nativeLoadError = new Error(`agentwire: native addon ${nativeFileName()} not loaded; using wasm`, { cause });
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
