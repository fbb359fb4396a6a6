#!/usr/bin/env node
// node scripts/conformance.mjs SUITE DIR [--runtime native|wasm]
// Runs a directory of vectors through the npm API like `agentwire conformance SUITE DIR`:
// one line per failure, then `N passed, M failed`; exit 1 when anything fails.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runSuite, summary, SUITE_FILES } from './conformance-lib.mjs';

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
const files = {};
for (const name of SUITE_FILES[suite] ?? []) {
  const path = join(resolve(dir), name);
  if (existsSync(path)) files[name] = JSON.parse(readFileSync(path, 'utf8'));
}
const scopeDir = join(resolve(dir), 'scope');
if (suite === 'gcx1' && existsSync(scopeDir)) {
  for (const name of readdirSync(scopeDir).filter((n) => n.endsWith('.gcx'))) {
    files[`scope/${name}`] = readFileSync(join(scopeDir, name), 'utf8');
  }
}
let report;
try {
  report = runSuite(api, suite, files);
} catch (e) {
  console.error(`error: ${e.message}`);
  process.exit(2);
}
for (const f of report.failures) console.log(`FAIL ${f.id}: ${f.message}`);
console.log(summary(report));
process.exit(report.failures.length > 0 ? 1 : 0);
