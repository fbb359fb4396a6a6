// schema: JSON Schema validation of tool arguments with the `jsonschema` crate, in its own
// wasm module (loaded only by pages that validate). `validator` is the function a wasm
// gateway.BrowseSession takes.

import { asyncLoad } from './call.js';
import { toAgentwireError } from './errors.js';
import { toJsonText } from './json-text.js';

/** @param {{ load: (input?: unknown) => unknown, module: () => { checkArgs(schema: string, args: string): string } }} backend */
export function makeSchema(backend) {
  const run = (schemaText, argsText) => {
    try {
      return backend.module().checkArgs(schemaText, argsText);
    } catch (e) {
      throw toAgentwireError(e);
    }
  };
  return Object.freeze({
    /** Browsers: fetch the module first (`input` as for init()); Node resolves at once. */
    load: asyncLoad(backend.load),
    /** `{valid: true}`, `{valid: false, message, path}` or `{valid: false, schemaInvalid}`. */
    check(schema, args) {
      return JSON.parse(run(toJsonText(schema, 'schema'), toJsonText(args, 'args')));
    },
    /** The same over JSON text: pass it as `validator` to a wasm gateway.BrowseSession. */
    validator: (schemaText, argsText) => run(schemaText, argsText),
  });
}
