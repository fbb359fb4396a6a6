// Types of `agentwire/schema`: JSON Schema validation of tool arguments, loaded separately.

import type { WasmInput } from './index.js';

/** The outcome of checking arguments against a schema. */
export type SchemaCheck =
  | { valid: true }
  | { valid: false; message: string; path: Array<string | number> }
  | { valid: false; schemaInvalid: string };

/** Browsers fetch the module (`input`: URL, Response, bytes or compiled module); Node resolves at once. */
export declare function load(
  input?: WasmInput,
): Promise<void>;

/** The first violation of `schema` by `args` (draft from `$schema`, 2020-12 by default). */
export declare function check(schema: unknown, args: unknown): SchemaCheck;

/** `check` over JSON text, returning JSON text: the `validator` of a wasm gateway.BrowseSession. */
export declare function validator(schemaJson: string, argsJson: string): string;
