// @ts-check
// The wasm modules: the wasm crate (bindings-wasm) built once per export area (bindings/src/exports.rs),
// each shipped once as wasm-bindgen's web target under a unique name:
// wasm/agentwire_<name>.js and wasm/agentwire_<name>_bg.wasm. Browsers fetch a module when it
// is loaded; Node instantiates the same files synchronously from their bytes. The modules of
// megabytes live in optional packages: the token vocabularies in agentwire-tokens, the JSON
// Schema validator in agentwire-schema.

import { AgentwireError } from './errors.js';

/** Area → module name (an area is named as its module, but for the token encodings). */
export const MODULE_OF_AREA = Object.freeze({
  core: 'core',
  gcf: 'gcf',
  gateway: 'gateway',
  events: 'events',
  toon: 'toon',
  schema: 'schema',
  tokens: 'tokens',
});

/**
 * The modules of the optional packages: module → its package, the subpath of its glue in that
 * package ('' for the package itself) and of its .wasm, what needs it, and the browser entry
 * that makes bundlers include it. Each package's version must equal agentwire's.
 */
export const OPTIONAL_MODULES = Object.freeze({
  tokens: { pkg: 'agentwire-tokens', glue: '/tokens', wasm: '/tokens.wasm', need: 'exact token counts need', entry: `import { load } from 'agentwire/tokens'`, instead: 'pass your own counter (text) => number' },
  // Not a wasm module: the URLs of agentwire-tokens' vocabulary files, for browsers.
  tokens_vocabulary: { pkg: 'agentwire-tokens', glue: '/vocabulary', wasm: '', need: 'exact token counts need', entry: `import { load } from 'agentwire/tokens'`, instead: 'pass your own counter (text) => number' },
  schema: { pkg: 'agentwire-schema', glue: '', wasm: '/schema.wasm', need: 'JSON Schema validation needs', entry: `import { load } from 'agentwire/schema'`, instead: 'pass your own validator (schemaText, argsText) => resultText' },
});

/**
 * The glue of each module of this package, as static `import()`s so bundlers see every file.
 * The optional packages' modules are not here: their entries (`agentwire/tokens`,
 * `agentwire/schema`) provide them, so a bundle that never imports those needs neither package.
 * @type {Record<string, () => Promise<any>>}
 */
export const IMPORTERS = Object.freeze({
  core: () => import('../wasm/agentwire_core.js'),
  gcf: () => import('../wasm/agentwire_gcf.js'),
  gateway: () => import('../wasm/agentwire_gateway.js'),
  events: () => import('../wasm/agentwire_events.js'),
  toon: () => import('../wasm/agentwire_toon.js'),
});

/** @type {Record<string, () => Promise<any>>} */
const provided = {};

/** Called by `agentwire/tokens` and `agentwire/schema` in browsers and bundlers: the importers of their package's modules. */
export function provideModules(importers) {
  for (const [name, importer] of Object.entries(importers)) provided[name] ??= importer;
}

/** The importer of module `name`, or one that rejects with an install hint. */
export function importerOf(name) {
  const importer = IMPORTERS[name] ?? provided[name];
  if (importer) return importer;
  return () => Promise.reject(notInstalled(name, `${OPTIONAL_MODULES[name]?.entry ?? 'load the module'} first`));
}

/** The AgentwireError (code NOT_INSTALLED) when the optional package of module `name` is missing. */
export function notInstalled(name, detail, cause = undefined) {
  const { pkg, need, instead } = OPTIONAL_MODULES[name];
  return new AgentwireError(
    {
      code: 'NOT_INSTALLED',
      message: `agentwire: ${need} the optional package ${pkg} (npm install ${pkg}); ${detail}. Or ${instead}.`,
    },
    cause === undefined ? undefined : { cause },
  );
}
