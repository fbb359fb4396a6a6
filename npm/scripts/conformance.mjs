#!/usr/bin/env node
// node scripts/conformance.mjs SUITE DIR [--runtime native|wasm]
// Runs a directory of vectors through the npm API like `agentwire conformance SUITE DIR`:
// one line per failure, then `N passed, M failed`; exit 1 when anything fails.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadSuiteFiles, runSuite, summary } from './conformance-lib.mjs';

const args = process.argv.slice(2);
const runtimeAt = args.indexOf('--runtime');
const runtime = runtimeAt >= 0 ? args.splice(runtimeAt, 2)[1] : 'native';
const [suite, dir] = args;
if (!suite || !dir || !['native', 'wasm'].includes(runtime)) {
  console.error('usage: node scripts/conformance.mjs SUITE DIR [--runtime native|wasm]');
  process.exit(2);
}
const api = await import(runtime === 'wasm' ? '../wasm-node.js' : '../node.js');
if (api.backend !== runtime) {
  console.error(`the ${runtime} backend is not available (got ${api.backend}): ${api.nativeLoadError?.cause?.message ?? ''}`);
  process.exit(2);
}
const root = resolve(dir);
const listDir = (rel) => {
  try {
    return readdirSync(join(root, rel));
  } catch {
    return [];
  }
};
let files;
try {
  files = await loadSuiteFiles(suite, listDir, (rel) => readFileSync(join(root, rel), 'utf8'), (rel) => readFileSync(join(root, rel)));
} catch (e) {
  console.error(`error: ${e.message}`);
  process.exit(2);
}
// The wasm gateway validates tool arguments with the separately loaded schema module.
const options = suite === 'gateway' ? { validator: (await import('../schema-node.js')).validator } : {};
let report;
try {
  report = runSuite(api, suite, files, options);
} catch (e) {
  console.error(`error: ${e.message}`);
  process.exit(2);
}
for (const note of report.notes) console.log(note);
for (const f of report.failures) console.log(`FAIL ${f.id}: ${f.message}`);
console.log(summary(report));
process.exit(report.failures.length > 0 ? 1 : 0);
