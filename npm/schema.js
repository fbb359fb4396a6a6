// @ts-check
// `agentwire/schema` in browsers and bundlers: `await load()`, then `check(schema, args)`, or
// pass `validator` to a gateway.BrowseSession. The validator is the wasm module of the
// optional package agentwire-schema; importing this entry is what makes a bundler include it,
// so a bundle without it needs no agentwire-schema.
import { lazyWasm } from './lib/lazy-wasm.js';
import { provideModules } from './lib/modules.js';
import { makeSchema } from './lib/schema.js';

provideModules({ schema: () => import('agentwire-schema') });

export const { load, check, validator } = makeSchema(
  lazyWasm('schema', 'agentwire/schema: call `await load()` before validating'),
);
