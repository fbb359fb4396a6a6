// @ts-check
// Browsers and bundlers: a wasm module is fetched and instantiated by `load(input)`
// (idempotent; a failed load can be retried); calls before that fail with NOT_INITIALIZED.
import { argumentError } from './errors.js';
import { makeBoundary } from './boundary.js';
import { importerOf } from './modules.js';

/**
 * @param {string} name  the module (core, gcf, …)
 * @param {string} notReady  the message when it is used before `load()`
 */
export function lazyWasm(name, notReady) {
  let module = null;
  let instance = null;
  let loading = null;
  return {
    load(input) {
      if (!loading) {
        loading = importerOf(name)().then(async (m) => {
          const exports = await m.default(input === undefined ? undefined : { module_or_path: input });
          instance = exports;
          module = m;
        });
        loading.catch(() => {
          loading = null;
        });
      }
      return loading;
    },
    boundary: makeBoundary(
      () => {
        if (!module) throw argumentError('NOT_INITIALIZED', notReady);
        return module;
      },
      () => instance,
    ),
  };
}
