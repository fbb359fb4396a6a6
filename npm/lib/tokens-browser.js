// Token counts in browsers: one wasm module per encoding (megabytes of vocabulary each),
// fetched only when `tokens.load(encoding)` is called; the default module carries none.
import { argumentError } from './errors.js';

const importers = {
  cl100k_base: () => import('../wasm/tokens-cl100k/web/agentwire_wasm_tokens.js'),
  o200k_base: () => import('../wasm/tokens-o200k/web/agentwire_wasm_tokens.js'),
};
const loading = new Map();
const ready = new Map();

export const browserTokenBackend = {
  /** Fetches and instantiates the module of `encoding` (idempotent); `input` as for init(). */
  load(encoding, input) {
    if (!loading.has(encoding)) {
      const promise = importers[encoding]().then(async (module) => {
        await module.default(input === undefined ? undefined : { module_or_path: input });
        ready.set(encoding, module);
      });
      promise.catch(() => loading.delete(encoding));
      loading.set(encoding, promise);
    }
    return loading.get(encoding);
  },
  count(text, encoding) {
    const module = ready.get(encoding);
    if (!module) {
      throw argumentError('NOT_INITIALIZED', `agentwire: call \`await tokens.load(${JSON.stringify(encoding)})\` before counting`);
    }
    return module.count(text);
  },
};
