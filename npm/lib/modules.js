// The wasm modules of the package: one binding crate built once per export area
// (bindings/src/exports.rs), each shipped once as wasm-bindgen's web target:
// wasm/agentwire_<name>.js and wasm/agentwire_<name>_bg.wasm. Browsers fetch a module when it
// is loaded; Node instantiates the same files synchronously from their bytes.

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

/**
 * The glue of each module, as static `import()`s so bundlers see every file.
 * @type {Record<string, () => Promise<any>>}
 */
export const IMPORTERS = Object.freeze({
  core: () => import('../wasm/agentwire_core.js'),
  gcf: () => import('../wasm/agentwire_gcf.js'),
  gateway: () => import('../wasm/agentwire_gateway.js'),
  events: () => import('../wasm/agentwire_events.js'),
  schema: () => import('../wasm/agentwire_schema.js'),
  tokens_cl100k: () => import('../wasm/agentwire_tokens_cl100k.js'),
  tokens_o200k: () => import('../wasm/agentwire_tokens_o200k.js'),
});
