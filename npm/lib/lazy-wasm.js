// A separately loaded wasm module (web target): fetched and instantiated on the first
// `load(input)` (idempotent; a failed load can be retried), refused with NOT_INITIALIZED before.
import { argumentError } from './errors.js';

/**
 * @param {() => Promise<any>} importer  imports the module's wasm-bindgen glue
 * @param {string} notReady  the message when it is used before `load()`
 */
export function lazyWasm(importer, notReady) {
  let module = null;
  let loading = null;
  return {
    load(input) {
      if (!loading) {
        loading = importer().then(async (m) => {
          await m.default(input === undefined ? undefined : { module_or_path: input });
          module = m;
        });
        loading.catch(() => {
          loading = null;
        });
      }
      return loading;
    },
    raw() {
      if (!module) throw argumentError('NOT_INITIALIZED', notReady);
      return module;
    },
  };
}
