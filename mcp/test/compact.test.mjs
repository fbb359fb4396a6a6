// compactJson and compactResult on the real codec: the choice, the savings rule, and that
// whatever is chosen decodes back to the input.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { count } from 'agentwire/tokens';
import { compactJson, decodeCompact, deepEqual } from '../src/index.js';
import { compactResult, compactResultDetailed } from '../src/result.js';
import { sampleGraph } from './helpers.mjs';

const pretty = (v) => JSON.stringify(v, null, 2);

test('a graph: every lossless candidate is counted, the fewest tokens win, the winner decodes to the input', () => {
  const graph = sampleGraph();
  const text = pretty(graph);
  const out = compactJson(text, { tool: 'read_graph', exactCounts: true });
  assert.equal(out.inputTokens, count(text));
  assert.equal(out.tokens, count(out.text));
  const lossless = out.candidates.filter((c) => c.lossless);
  assert.ok(lossless.length >= 3, JSON.stringify(out.candidates));
  assert.ok(lossless.every((c) => c.tokensExact));
  assert.equal(out.tokens, Math.min(...lossless.map((c) => c.tokens)));
  assert.equal(out.candidates.find((c) => c.format === 'json-min').tokens, count(JSON.stringify(graph)));
  // By default a candidate is counted only as far as it can still win: the same winner, and
  // a loser's count is a lower bound of its exact one.
  const quick = compactJson(text, { tool: 'read_graph' });
  assert.equal(quick.format, out.format);
  assert.equal(quick.tokens, out.tokens);
  for (const c of quick.candidates.filter((c) => c.lossless)) {
    const exact = out.candidates.find((e) => e.format === c.format).tokens;
    assert.ok(c.tokensExact ? c.tokens === exact : c.tokens < exact && c.tokens >= out.tokens, JSON.stringify(c));
  }
  assert.notEqual(out.format, 'json-min', 'a table format beats minified JSON on 40 entities');
  assert.ok(deepEqual(decodeCompact(out.text), graph));
});

test('a GCX1 per-tool layout is a candidate when the result fits it, checked by mapping columns back', () => {
  // No column holds one value throughout: GCF v3.6.0 would declare it once and win.
  const kinds = ['function', 'method', 'type'];
  const results = Array.from({ length: 20 }, (_, i) => ({ id: `pkg/a${i % 3}.go::F${i}`, kind: kinds[i % 3], name: `F${i}`, path: `pkg/a${i % 3}.go`, line: 10 + i, signature: `func F${i}()` }));
  const out = compactJson(pretty({ results, total: 20 }), { tool: 'search_symbols' });
  assert.equal(out.format, 'gcx1-layout');
  assert.match(out.text, /^GCX1 tool=search_symbols fields=id,kind,name,path,line,sig total=20\n/);
  // A field the layout does not carry: the layout does not fit, the generic candidates remain.
  const extra = compactJson(pretty({ results: results.map((r) => ({ ...r, extra: 1 })), total: 20 }), { tool: 'search_symbols', exactCounts: true });
  assert.ok(extra.candidates.every((c) => c.lossless !== null), 'every candidate read back');
  assert.ok(!extra.candidates.some((c) => c.format === 'gcx1-layout' && c.lossless));
});

test('GCF v3.6.0 constant columns win where a column holds one value throughout', () => {
  const results = Array.from({ length: 20 }, (_, i) => ({ id: `pkg/a.go::F${i}`, kind: 'function', name: `F${i}`, path: 'pkg/a.go', line: 10 + i, signature: `func F${i}()` }));
  const out = compactJson(pretty({ results, total: 20 }), { tool: 'search_symbols' });
  assert.equal(out.format, 'gcf-generic');
  assert.match(out.text, /^GCF profile=generic\n## results \[20\]\{id,kind=function,name,path=pkg\/a\.go,line,signature\}\n/);
  // Read back and counted to the end on request (by default a loser is neither).
  const all = compactJson(pretty({ results, total: 20 }), { tool: 'search_symbols', exactCounts: true });
  const layout = all.candidates.find((c) => c.format === 'gcx1-layout');
  assert.ok(layout.lossless && layout.tokens > out.tokens, JSON.stringify(all.candidates));
  assert.equal(out.candidates.find((c) => c.format === 'gcx1-layout').lossless, null);
  assert.ok(deepEqual(decodeCompact(out.text), { results, total: 20 }));
});

test('--tokenizer o200k_base counts with o200k', () => {
  const text = pretty(sampleGraph(10));
  const out = compactJson(text, { tokenizer: 'o200k_base' });
  assert.equal(out.inputTokens, count(text, 'o200k_base'));
  assert.equal(out.tokens, count(out.text, 'o200k_base'));
});

test('min-savings: a result that saves less is kept as it is', () => {
  const text = JSON.stringify({ a: 1, b: [1, 2, 3] }); // already minified: nothing saves 10 %
  const out = compactJson(text);
  assert.equal(out.format, 'input');
  assert.equal(out.text, text);
  const pretty2 = pretty([1, 2, 3]);
  assert.equal(compactJson(pretty2, { minSavings: 0 }).format, 'json-min');
  assert.equal(compactJson(pretty2, { minSavings: 0.9 }).format, 'input');
});

test('GCX1 is refused where a reader would misread a cell; the result stays exact', () => {
  const rows = Array.from({ length: 30 }, (_, i) => ({ id: String(i), flag: i % 2 ? 'true' : 'false', note: i % 3 ? null : '', list: '[1]' }));
  const out = compactJson(pretty(rows), { minSavings: 0, exactCounts: true });
  const gcx = out.candidates.find((c) => c.format === 'gcx1-generic');
  assert.ok(!gcx || gcx.lossless === false, 'strings that read as numbers, booleans or JSON, and null vs "" make GCX1 lossy');
  assert.ok(deepEqual(decodeCompact(out.text), rows));
});

test('numbers a JS double cannot hold keep the input', () => {
  const rows = pretty(Array.from({ length: 20 }, (_, i) => ({ i, price: 0.1 * i })));
  for (const big of ['12345678901234567890', '0.12345678901234567890', '9007199254740993']) {
    assert.equal(compactJson(`{"id": ${big}, "rows": ${rows}}`).format, 'input', big);
  }
  // Long numerals a double holds exactly are fine.
  assert.notEqual(compactJson(`{"id": 9007199254740992, "x": 0.8401877171547095, "rows": ${rows}}`).format, 'input');
});

test('text that is not JSON is kept', () => {
  assert.equal(compactJson('Echo: {"a": 1}').format, 'input');
});

test('random JSON documents: whatever is chosen decodes to the document', () => {
  let seed = 17;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const strings = ['', 'plain', 'tab\there', 'line\nbreak', '#hash', 'GCX1 x', 'ünïcödé', '"quoted"', '123', 'true', 'null', ' lead', 'a,b', 'x=y', 'back\\slash', '\u2028'];
  const scalar = () => pick([() => pick(strings), () => Math.floor(rand() * 2000) - 1000, () => rand() * 1e6, () => rand() < 0.5, () => null, () => 1e21, () => 5e-324])();
  const value = (depth) => {
    const r = rand();
    if (depth > 2 || r < 0.4) return scalar();
    if (r < 0.7) {
      const keys = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(['id', 'name', 'value', 'a b', 'kind', 'n']));
      return Object.fromEntries(keys.map((k) => [k, value(depth + 1)]));
    }
    return Array.from({ length: Math.floor(rand() * 6) }, () => value(depth + 1));
  };
  const table = () => Array.from({ length: 3 + Math.floor(rand() * 20) }, () => ({ id: Math.floor(rand() * 1e6), name: pick(strings), score: rand(), tags: [pick(strings)] }));
  const formats = new Set();
  for (let i = 0; i < 300; i++) {
    const doc = i % 3 === 0 ? table() : value(0);
    const out = compactJson(pretty(doc), { minSavings: 0 });
    formats.add(out.format);
    const back = out.format === 'input' ? JSON.parse(out.text) : decodeCompact(out.text);
    assert.ok(deepEqual(back, doc), `document ${i} (${out.format}): ${JSON.stringify(doc).slice(0, 200)}`);
  }
  assert.ok(formats.size >= 3, `several formats chosen: ${[...formats]}`);
});

test('compactResult: JSON text compacted; images, plain text and errors untouched', () => {
  const graph = sampleGraph();
  const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
  const result = { content: [{ type: 'text', text: pretty(graph) }, image, { type: 'text', text: 'done' }] };
  const out = compactResult(result, { tool: 'read_graph' });
  assert.match(out.content[0].text, /^(GCX1|GCF)/);
  assert.ok(deepEqual(decodeCompact(out.content[0].text), graph));
  assert.deepEqual(out.content.slice(1), result.content.slice(1));
  const err = { content: [{ type: 'text', text: pretty(graph) }], isError: true };
  assert.equal(compactResult(err), err);
});

test('compactResult structured: keep leaves structuredContent, strip removes it only when text carries it', () => {
  const graph = sampleGraph();
  const withText = { content: [{ type: 'text', text: pretty(graph) }], structuredContent: graph };
  const kept = compactResult(withText, { structured: 'keep' });
  assert.equal(kept.structuredContent, graph);
  const stripped = compactResultDetailed(withText, { structured: 'strip' });
  assert.equal(stripped.result.structuredContent, undefined);
  assert.equal(stripped.result.content.length, 1);
  assert.ok(deepEqual(decodeCompact(stripped.result.content[0].text), graph));
  assert.ok(stripped.report.tokensAfter < stripped.report.tokensBefore);
  // Text that does not carry the structured data: strip adds it as a compact text block.
  const summary = { content: [{ type: 'text', text: 'Weather for Tokyo' }], structuredContent: { temperature: 21, conditions: 'sunny' } };
  const s = compactResult(summary, { structured: 'strip' });
  assert.equal(s.structuredContent, undefined);
  assert.equal(s.content[0].text, 'Weather for Tokyo');
  assert.deepEqual(decodeCompact(s.content[1].text), summary.structuredContent);
});
