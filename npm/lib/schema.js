// @ts-check
// schema: JSON Schema validation of tool arguments with the `jsonschema` crate, in its own
// wasm module (loaded only by pages that validate). `validator` is the function a wasm
// gateway.BrowseSession takes.

import { asyncLoad } from './load.js';
import { value } from './gcx.js';

/** @param {{ boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} area */
export function makeSchema({ boundary, load }) {
  return Object.freeze({
    /** Browsers: fetch the module first (`input` as for init()); Node resolves at once. */
    load: asyncLoad(load),
    /** `{valid: true}`, `{valid: false, message, path}` or `{valid: false, schemaInvalid}`. */
    check(schema, args) {
      return boundary.call('schema.check', undefined, value(schema, 'schema'), value(args, 'args'));
    },
    /** The same over JSON text: pass it as `validator` to a wasm gateway.BrowseSession. */
    validator: (schemaText, argsText) => boundary.call('schema.validator', undefined, schemaText, argsText),
  });
}
