// The wasm modules: one binding crate built once per export area (bindings/src/exports.rs),
// each shipped once as wasm-bindgen's web target under a unique name:
// wasm/agentwire_<name>.js and wasm/agentwire_<name>_bg.wasm. Browsers fetch a module when it
// is loaded; Node instantiates the same files synchronously from their bytes. The token
// vocabularies (megabytes each) live in the optional package agentwire-tokens.

import { AgentwireError } from './errors.js';

/** Area → module name. */
export const MODULE_OF_AREA = Object.freeze({
  formats: 'core',
  gcf3: 'gcf',
  gateway: 'gateway',
  events: 'events',
  schema: 'schema',
  cl100k_base: 'tokens_cl100k',
  o200k_base: 'tokens_o200k',
});

/** The optional package with the token modules, and the version it must have. */
export const TOKENS_PACKAGE = 'agentwire-tokens';

/** Token module → its subpath in agentwire-tokens. */
export const TOKEN_SUBPATHS = Object.freeze({ tokens_cl100k: 'cl100k', tokens_o200k: 'o200k' });

/**
 * The glue of each module of this package, as static `import()`s so bundlers see every file.
 * The token modules are not here: `agentwire/tokens` provides them (a bundle that never imports
 * it needs no agentwire-tokens).
 * @type {Record<string, () => Promise<any>>}
 */
export const IMPORTERS = Object.freeze({
  core: () => import('../wasm/agentwire_core.js'),
  gcf: () => import('../wasm/agentwire_gcf.js'),
  gateway: () => import('../wasm/agentwire_gateway.js'),
  events: () => import('../wasm/agentwire_events.js'),
  schema: () => import('../wasm/agentwire_schema.js'),
});

/** @type {Record<string, () => Promise<any>> | null} */
let tokenImporters = null;

/** Called by `agentwire/tokens` in browsers and bundlers: the importers of agentwire-tokens. */
export function provideTokenModules(importers) {
  tokenImporters ??= importers;
}

/** The importer of module `name`, or one that rejects with an install hint. */
export function importerOf(name) {
  const own = IMPORTERS[name];
  if (own) return own;
  if (tokenImporters?.[name]) return tokenImporters[name];
  return () => Promise.reject(tokensMissing(`import { load } from 'agentwire/tokens' first`));
}

/** The AgentwireError (code NOT_INSTALLED) when agentwire-tokens is missing. */
export function tokensMissing(detail, cause = undefined) {
  return new AgentwireError(
    {
      code: 'NOT_INSTALLED',
      message:
        `agentwire: exact token counts need the optional package ${TOKENS_PACKAGE} ` +
        `(npm install ${TOKENS_PACKAGE}); ${detail}. Or pass your own counter (text) => number.`,
    },
    cause === undefined ? undefined : { cause },
  );
}
