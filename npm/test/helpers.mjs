// Shared by the Node tests: fixture loading and the two backends side by side.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { loadSuiteFiles } from '../scripts/conformance-lib.mjs';

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const fixturesDir = join(packageDir, '..', 'tests', 'fixtures');

/** The files of a suite from tests/fixtures/<dir>, as the conformance runner loads them. */
export function loadSuite(suite, dir = suite) {
  const root = join(fixturesDir, dir);
  const listDir = (rel) => (existsSync(join(root, rel)) ? readdirSync(join(root, rel)) : []);
  return loadSuiteFiles(suite, listDir, (rel) => readFileSync(join(root, rel), 'utf8'), (rel) => readFileSync(join(root, rel)));
}

/** The native and wasm builds through the public entries ('agentwire' and 'agentwire/wasm'). */
export async function backends() {
  const native = await import('agentwire');
  const wasm = await import('agentwire/wasm');
  return { native, wasm };
}

/** Runs `fn(api)` and captures its result or the AgentwireError fields that must match. */
export function outcome(api, fn) {
  try {
    return { ok: fn(api) };
  } catch (e) {
    const { name, code, message, line, column, columnUtf16, offset, format } = e;
    return { error: { name, code, message, line, column, columnUtf16, offset, format } };
  }
}
