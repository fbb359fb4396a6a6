#!/usr/bin/env node
// Writes the benchmark corpus to bench/corpus/out/ (deterministic: a fixed-seed generator, no
// clock, no randomness from the machine), so every run and every runtime measures the same bytes.
//   gcx-10mb.sections.json  a GCX1 sections document (8 tool sections, ~10 MB once encoded);
//                           `make bench` encodes it to gcx-10mb.gcx with the CLI
//   gcx-10mb.json           the same rows as JSON: [{tool, rows: [{field: value}]}]
//   graph-500.json          a graph payload: 500 symbols, 1000 edges (camelCase keys)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { xorshift } from './random.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), 'out');
mkdirSync(out, { recursive: true });

const { next, pick } = xorshift(0x2545f491);
const words = ['server', 'client', 'handler', 'config', 'auth', 'cache', 'router', 'store', 'index', 'parse', 'encode', 'stream'];
const kinds = ['function', 'method', 'type', 'interface', 'const', 'var'];
const ident = () => `${pick(words)}${pick(words)[0].toUpperCase()}${pick(words).slice(1)}${next() % 1000}`;
const path = () => `internal/${pick(words)}/${pick(words)}_${next() % 50}.go`;

const fields = ['id', 'kind', 'name', 'path', 'line', 'sig'];
const sections = [];
let bytes = 0;
for (let s = 0; bytes < 10 << 20; s += 1) {
  const rows = [];
  for (let r = 0; r < 11000 && bytes < 10 << 20; r += 1) {
    const name = ident();
    const file = path();
    const sig = `func (${pick(words)[0]} *${pick(words)}) ${name}(ctx context.Context, in\t${pick(words)}) (${pick(words)}, error)`;
    const row = [`${file}::${name}`, pick(kinds), name, file, 1 + (next() % 5000), sig];
    bytes += row.join('\t').length + 1;
    rows.push(row);
  }
  sections.push({ tool: `search_symbols_${s}`, fields, meta: { total: String(rows.length) }, rows });
}
writeFileSync(join(out, 'gcx-10mb.sections.json'), JSON.stringify(sections));
const asObjects = sections.map((s) => ({ tool: s.tool, rows: s.rows.map((r) => Object.fromEntries(fields.map((f, i) => [f, r[i]]))) }));
writeFileSync(join(out, 'gcx-10mb.json'), JSON.stringify(asObjects));

const symbols = Array.from({ length: 500 }, (_, i) => ({
  qualifiedName: `pkg${i % 40}.${ident()}${i}`,
  kind: pick(kinds),
  score: Math.round((next() % 10000) / 100) / 100,
  provenance: pick(['lsp_resolved', 'ast_inferred', 'structural']),
  distance: next() % 4,
  signature: `func ${ident()}(a int) error`,
}));
const edges = Array.from({ length: 1000 }, () => ({
  source: pick(symbols).qualifiedName,
  target: pick(symbols).qualifiedName,
  edgeType: pick(['calls', 'references', 'implements']),
  status: '',
}));
writeFileSync(join(out, 'graph-500.json'), JSON.stringify({ tool: 'context_for_task', tokenBudget: 50000, tokensUsed: 31000, packRoot: '', symbols, edges }));
console.log(`corpus: ${sections.length} sections, ${sections.reduce((n, s) => n + s.rows.length, 0)} rows, 500 symbols, 1000 edges → ${out}`);
