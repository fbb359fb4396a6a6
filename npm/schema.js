// `agentwire/schema` in browsers and bundlers: `await load()`, then `check(schema, args)`, or
// pass `validator` to a gateway.BrowseSession.
import { lazyWasm } from './lib/lazy-wasm.js';
import { makeSchema } from './lib/schema.js';

export const { load, check, validator } = makeSchema(
  lazyWasm('schema', 'agentwire/schema: call `await load()` before validating'),
);
