// `agentwire/schema` in browsers and bundlers: `await load()`, then `check(schema, args)`, or
// pass `validator` to a gateway.BrowseSession.
import { lazyWasm } from './lib/lazy-wasm.js';
import { makeSchema } from './lib/schema.js';

const wasm = lazyWasm(
  () => import('./wasm/schema/web/agentwire_wasm_schema.js'),
  'agentwire/schema: call `await load()` before validating',
);

export const { load, check, validator } = makeSchema({ load: wasm.load, module: wasm.raw });
