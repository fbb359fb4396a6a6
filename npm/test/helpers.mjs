// Shared by the Node tests: fixture loading and the two backends side by side.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { SUITE_FILES } from '../scripts/conformance-lib.mjs';

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const fixturesDir = join(packageDir, '..', 'tests', 'fixtures');

/** Parsed vector files of a suite from tests/fixtures/<dir> (plus gcx1's scope/*.gcx texts). */
export function loadSuite(suite, dir = suite) {
  const files = {};
  for (const name of SUITE_FILES[suite]) {
    const path = join(fixturesDir, dir, name);
    if (existsSync(path)) files[name] = JSON.parse(readFileSync(path, 'utf8'));
  }
  const scopeDir = join(fixturesDir, dir, 'scope');
  if (suite === 'gcx1' && existsSync(scopeDir)) {
    for (const name of readdirSync(scopeDir).filter((n) => n.endsWith('.gcx'))) {
      files[`scope/${name}`] = readFileSync(join(scopeDir, name), 'utf8');
    }
  }
  return files;
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
