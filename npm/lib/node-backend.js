// Node: load the native addon, or fall back to the wasm build (nodejs target) when the addon
// is missing, does not match this package's version, or AGENTWIRE_FORCE_WASM=1 is set.

import { createRequire } from 'node:module';

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

function loadNative() {
  const raw = require(`../native/${nativeFileName()}`);
  const version = raw.version();
  if (version !== packageVersion) {
    throw new Error(`native addon is version ${version}, the package is ${packageVersion}`);
  }
  return raw;
}

function loadWasm() {
  return require('../wasm/nodejs/agentwire_wasm.js');
}

/**
 * @param {{forceWasm?: boolean}} [options]
 * @returns {{raw: object, name: 'native' | 'wasm', nativeLoadError: Error | null}}
 */
export function loadNodeBackend({ forceWasm = process.env.AGENTWIRE_FORCE_WASM === '1' } = {}) {
  let nativeLoadError = null;
  if (!forceWasm) {
    try {
      return { raw: loadNative(), name: 'native', nativeLoadError };
    } catch (cause) {
      nativeLoadError = new Error(`agentwire: native addon ${nativeFileName()} not loaded; using wasm`, { cause });
    }
  }
  try {
    return { raw: loadWasm(), name: 'wasm', nativeLoadError };
  } catch (cause) {
    const causes = nativeLoadError ? [nativeLoadError, cause] : [cause];
    throw new AggregateError(causes, 'agentwire: neither the native addon nor the wasm build could be loaded', {
      cause,
    });
  }
}

/**
 * Exact token counts in Node: the addon's, or the per-encoding wasm modules (loaded on first
 * use) when the wasm build is in use.
 */
export function nodeTokenBackend(loaded) {
  if (loaded.name === 'native') {
    return { count: (text, encoding) => loaded.raw.tokensCount(text, encoding), load: () => undefined };
  }
  const modules = new Map();
  const module = (encoding) => {
    if (!modules.has(encoding)) {
      const short = encoding.replace(/_base$/, '');
      modules.set(encoding, require(`../wasm/tokens-${short}/nodejs/agentwire_wasm_tokens.js`));
    }
    return modules.get(encoding);
  };
  return { count: (text, encoding) => module(encoding).count(text), load: (encoding) => void module(encoding) };
}

/**
 * An area with its own wasm module (gateway, events) in Node: the addon when it is in use,
 * else the area's module (nodejs target), loaded on first use.
 */
export function nodeAreaBackend(loaded, area) {
  if (loaded.name === 'native') return { raw: () => loaded.raw, load: () => undefined };
  let module = null;
  const raw = () => (module ??= require(`../wasm/${area}/nodejs/agentwire_wasm_${area}.js`));
  return { raw, load: () => void raw() };
}
