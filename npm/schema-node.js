// `agentwire/schema` in Node: the schema wasm module, loaded on first use.
import { createRequire } from 'node:module';
import { makeSchema } from './lib/schema.js';

const require = createRequire(import.meta.url);
let module = null;

export const { load, check, validator } = makeSchema({
  load() {
    module ??= require('./wasm/schema/nodejs/agentwire_wasm_schema.js');
  },
  module() {
    module ??= require('./wasm/schema/nodejs/agentwire_wasm_schema.js');
    return module;
  },
});
