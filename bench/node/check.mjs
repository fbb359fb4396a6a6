// Round-trip checks run once before timing, so no benchmark measures an implementation that
// errors out or loses data. Each throws an AssertionError that names the first difference.

import assert from 'node:assert/strict';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The rows the GCX1 generic fallback writes for a value (gcx-go `EncodeAny`): an array of
 * objects is one row per object over the union of their keys, any other array is one `value`
 * column, an object is a single row, a scalar a single `value` cell.
 */
export function genericRows(value) {
  if (Array.isArray(value)) {
    return value.length > 0 && value.every(isObject) ? value : value.map((v) => ({ value: v }));
  }
  return [isObject(value) ? value : { value }];
}

/**
 * Decoded GCX1 sections (every cell a string) against the source data, `[{tool, rows}]` with
 * rows as objects. A scalar must come back as its text (null or absent as ''), a nested value
 * as JSON text of an equal value.
 */
export function assertGcxRows(decoded, expected) {
  const sections = decoded.sections;
  assert.equal(sections.length, expected.length, 'section count');
  sections.forEach((section, s) => {
    assert.equal(section.tool, expected[s].tool, `section ${s} tool`);
    assert.equal(section.rows.length, expected[s].rows.length, `section ${s} row count`);
    section.rows.forEach((row, r) => {
      const source = expected[s].rows[r];
      const where = `section ${s} (${section.tool}) row ${r}`;
      for (const key of Object.keys(source)) assert.ok(key in row, `${where}: field ${key} missing`);
      for (const [key, cell] of Object.entries(row)) {
        const v = source[key] ?? null;
        if (v !== null && typeof v === 'object') assert.deepEqual(JSON.parse(cell), v, `${where}.${key}`);
        else assert.equal(cell, v === null ? '' : String(v), `${where}.${key}`);
      }
    });
  });
}

/**
 * A graph payload reduced to what a codec carries, in a canonical order (the GCF encoders may
 * regroup symbols by distance or sort them by score; edges have no identity but their text).
 * `signature`: the codec carries signatures (GCB1, JSON; GCF text does not).
 * `float32`: scores are stored as float32 (GCB1).
 */
export function graphView(payload, { signature = false, float32 = false } = {}) {
  const symbols = payload.symbols
    .map((s) => ({
      qualifiedName: s.qualifiedName,
      kind: s.kind,
      score: float32 ? Math.fround(s.score) : s.score,
      provenance: s.provenance,
      distance: s.distance,
      ...(signature ? { signature: s.signature ?? '' } : {}),
    }))
    .sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0));
  const edges = payload.edges.map((e) => `${e.source} ${e.edgeType} ${e.target} ${e.status ?? ''}`).sort();
  return { tool: payload.tool, tokenBudget: payload.tokenBudget, tokensUsed: payload.tokensUsed, symbols, edges };
}

export function assertGraph(decoded, original, options) {
  assert.deepEqual(graphView(decoded, options), graphView(original, options));
}

export { assert };
