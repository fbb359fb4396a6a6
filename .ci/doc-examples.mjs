#!/usr/bin/env node
// Every public item of the agentwire crate has an example in its docs: the functions, types,
// traits and type aliases reachable from the crate root, and the public methods of their
// inherent impls and of the traits. Reads rustdoc's JSON output
// (`cargo rustdoc -p agentwire -- -Z unstable-options --output-format json`, with
// RUSTC_BOOTSTRAP=1 on a stable toolchain). rustdoc's own `--show-coverage` is not enough: it
// skips the methods of types re-exported from private modules.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'target/doc/agentwire.json';
const doc = JSON.parse(readFileSync(file, 'utf8'));
const item = (id) => doc.index[id];
const hasExample = (it) => /^\s*```/m.test(it.docs ?? '');

const TOP_KINDS = new Set(['function', 'struct', 'enum', 'trait', 'type_alias']);
const required = [];
for (const [id, summary] of Object.entries(doc.paths)) {
  if (summary.crate_id !== 0 || !TOP_KINDS.has(summary.kind)) continue;
  const it = item(id);
  if (!it) continue;
  const path = summary.path.join('::');
  required.push({ path, it });
  const inner = it.inner.struct ?? it.inner.enum;
  const methodIds = [];
  for (const implId of inner?.impls ?? []) {
    const impl = item(implId)?.inner.impl;
    if (impl && impl.trait === null && !impl.is_synthetic) methodIds.push(...impl.items);
  }
  methodIds.push(...(it.inner.trait?.items ?? []));
  for (const m of methodIds) {
    const method = item(m);
    if (!method?.inner.function) continue;
    if (!it.inner.trait && method.visibility !== 'public') continue;
    required.push({ path: `${path}::${method.name}`, it: method });
  }
}
const missing = required.filter(({ it }) => !hasExample(it)).map(({ path, it }) => `  ${path} (${it.span?.filename}:${it.span?.begin[0]})`);
if (required.length < 100) {
  console.error(`doc examples: only ${required.length} public items found in ${file}; is it agentwire's rustdoc JSON?`);
  process.exit(1);
}
if (missing.length) {
  console.error(`doc examples: ${missing.length} of ${required.length} public items have no example:\n${missing.sort().join('\n')}`);
  process.exit(1);
}
console.log(`doc examples: all ${required.length} public functions, methods, types and traits have one`);
