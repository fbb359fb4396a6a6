// The inspector's pure modules in Node: the per-column token attribution (with the real
// tokenizer), the MCP result reader, and the share-link encoding. The page itself is tested in
// Chromium (inspector.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compact, tokens } from 'agentwire';
import { columnCosts, isTabular, OUTSIDE, STRUCTURE } from '../inspector/columns.js';
import { defaultPart, mcpResult } from '../inspector/mcp-result.js';
import { decodeShare, encodeShare, MAX_FRAGMENT } from '../inspector/share.js';
import { SAMPLES } from '../inspector/samples.js';

/** Each token's length in bytes, from the tokenizer itself. */
function tokenLengths(text, encoding = 'cl100k_base') {
  return Array.from(tokens.encode(text, encoding), (id) => tokens.decodeBytes([id], encoding).length);
}

const rows = Array.from({ length: 12 }, (_, i) => ({
  id: i,
  path: `internal/mcp/very/long/path/to/some/module_${i}/server_handler_implementation.go`,
  ok: i % 2 === 0,
}));

test('column costs of every tabular candidate sum to its tokens, and the long column costs most', () => {
  const out = compact.json(JSON.stringify(rows), { tool: 'search', exactCounts: true, candidateTexts: true });
  // The column view covers GCX1 and GCF tables (TOON candidates get the token view only).
  const tabular = out.candidates.filter((c) => isTabular(c.format));
  assert.ok(tabular.some((c) => c.format === 'gcx1-generic') && tabular.some((c) => c.format === 'gcf-generic'), tabular.map((c) => c.format).join());
  for (const candidate of tabular) {
    const lengths = tokenLengths(candidate.text);
    const costs = columnCosts(candidate.format, new TextEncoder().encode(candidate.text), lengths);
    const total = costs.reduce((n, c) => n + c.tokens, 0);
    assert.equal(total, tokens.count(candidate.text), candidate.format);
    const byColumn = Object.fromEntries(costs.map((c) => [c.column, c.tokens]));
    assert.ok(byColumn.path > byColumn.id && byColumn.path > byColumn.ok, `${candidate.format}: ${JSON.stringify(byColumn)}`);
    assert.ok(byColumn[STRUCTURE] > 0, 'separators and newlines are counted as structure');
    assert.equal(byColumn[OUTSIDE], 0, `${candidate.format}: every line is in a table\n${candidate.text}`);
  }
});

test('column costs of nested values put lines no header describes outside tables, and still sum', () => {
  const nested = { stats: { a: { b: [1, 2, 3] } }, items: rows.slice(0, 3) };
  const out = compact.json(JSON.stringify(nested), { exactCounts: true, candidateTexts: true, minSavings: 0 });
  for (const candidate of out.candidates.filter((c) => isTabular(c.format) && c.lossless)) {
    const costs = columnCosts(candidate.format, new TextEncoder().encode(candidate.text), tokenLengths(candidate.text));
    assert.equal(costs.reduce((n, c) => n + c.tokens, 0), tokens.count(candidate.text), candidate.format);
  }
});

test('GCF rows with nested values: the expanded .column lines count for their column', () => {
  const text = JSON.parse(SAMPLES.mcp.text).content[0].text;
  const gcfGeneric = compact.json(text, { tool: 'read_graph', exactCounts: true, candidateTexts: true }).candidates.find((c) => c.format === 'gcf-generic');
  assert.match(gcfGeneric.text, /^\.observations /m, 'the sample writes observations out below their rows');
  const costs = columnCosts('gcf-generic', new TextEncoder().encode(gcfGeneric.text), tokenLengths(gcfGeneric.text));
  const byColumn = Object.fromEntries(costs.map((c) => [`${c.section}.${c.column}`, c.tokens]));
  assert.equal(byColumn[`.${OUTSIDE}`], 0, JSON.stringify(byColumn));
  assert.ok(byColumn['entities.observations'] > byColumn['entities.name'], JSON.stringify(byColumn));
  assert.equal(costs.reduce((n, c) => n + c.tokens, 0), gcfGeneric.tokens);
});

test('a CallToolResult and a JSON-RPC response give the parts agentwire-mcp compacts', () => {
  const text = JSON.stringify(rows);
  const result = mcpResult({ content: [{ type: 'text', text: 'Found 12 symbols' }, { type: 'text', text }], isError: false });
  assert.deepEqual(result?.parts.map((p) => [p.label, p.json]), [
    ['content[0].text', false],
    ['content[1].text', true],
  ]);
  assert.equal(defaultPart(result), 1);
  const rpc = mcpResult({ jsonrpc: '2.0', id: 7, result: { content: [], structuredContent: { rows }, isError: true } });
  assert.equal(rpc?.envelope, 'JSON-RPC response');
  assert.equal(rpc?.isError, true);
  assert.deepEqual(rpc?.parts.map((p) => p.label), ['result.structuredContent']);
  assert.equal(rpc?.parts[0].text, JSON.stringify({ rows }));
  assert.equal(mcpResult(rows), null, 'plain JSON is not an MCP result');
  assert.equal(mcpResult({ content: 'text' }), null);
});

test('a share fragment round-trips, and a payload too big for a link is refused', async () => {
  const state = { text: JSON.stringify(rows), tool: 'search', encoding: 'o200k_base' };
  const shared = await encodeShare(state);
  assert.ok('fragment' in shared && /^v1\.[A-Za-z0-9_-]+$/.test(shared.fragment));
  assert.deepEqual(await decodeShare(`#${shared.fragment}`), state);
  assert.equal(await decodeShare('#section-2'), null, 'an ordinary fragment is not a share link');
  // Incompressible text: 80 000 pseudo-random hex digits compress to about 40 KB, 53 000 base64url characters.
  let seed = 1;
  const noise = Array.from({ length: 80_000 }, () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 28).toString(16)).join('');
  const refused = await encodeShare({ text: noise });
  assert.ok('refused' in refused, 'refused');
  assert.match(refused.refused, new RegExp(`at most ${MAX_FRAGMENT.toLocaleString('en')}`));
});
