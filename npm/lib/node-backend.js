// Node: the native addon, or the wasm modules (instantiated synchronously from their bytes)
// when the addon is missing, does not match this package's version, or AGENTWIRE_FORCE_WASM=1
// is set. Each area's module loads on first use.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { makeBoundary } from './boundary.js';
import { MODULE_OF_AREA } from './modules.js';

const require = createRequire(import.meta.url);
const { version: packageVersion } = require('../package.json');

/** `agentwire.<platform>-<arch>[-gnu|-musl|-msvc].node`, as `napi build --platform` names it. */
export function nativeFileName() {
  const { platform, arch } = process;
  let abi = '';
  if (platform === 'linux') abi = isMusl() ? '-musl' : '-gnu';
  else if (platform === 'win32') abi = '-msvc';
  return `agentwire.${platform}-${arch}${abi}.node`;
}

function isMusl() {
  const header = process.report?.getReport?.()?.header;
  return !header?.glibcVersionRuntime;
}

/** The raw addon, checked against the package version. */
export function loadNativeModule() {
  const raw = require(`../native/${nativeFileName()}`);
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
    const module = require(`../wasm/agentwire_${name}.js`);
    const exports = module.initSync({ module: readFileSync(new URL(`../wasm/agentwire_${name}_bg.wasm`, import.meta.url)) });
    loaded = { module, exports };
    wasmModules.set(name, loaded);
  }
  return loaded;
}

/** The boundary of a wasm module (loaded on its first call). */
export function wasmBoundary(name) {
  return makeBoundary(() => loadWasmModule(name), () => loadedWasm(name).exports);
}

/**
 * The backend of the Node entries: `area(name)` gives the boundary of an export area
 * (formats, gcf3, gateway, events, schema, cl100k_base, o200k_base).
 * @param {{forceWasm?: boolean}} [options]
 */
export function loadNodeBackend({ forceWasm = process.env.AGENTWIRE_FORCE_WASM === '1' } = {}) {
  let nativeLoadError = null;
  if (!forceWasm) {
    try {
      const raw = loadNativeModule();
      const boundary = makeBoundary(() => raw);
      return { name: 'native', nativeLoadError, area: () => ({ boundary, load: () => undefined }) };
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
  const areas = new Map();
  const area = (name) => {
    if (!areas.has(name)) {
      const module = MODULE_OF_AREA[name];
      areas.set(name, { boundary: wasmBoundary(module), load: () => void loadWasmModule(module) });
    }
    return areas.get(name);
  };
  return { name: 'wasm', nativeLoadError, area };
}
