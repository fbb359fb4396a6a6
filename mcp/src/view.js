// Results too large to return whole: tool_execute stores them, tool_view reads parts.
//
// Selector grammar (README "tool_view selectors"):
//   ""  | "info"            what the handle holds: format, tokens, lines, GCX1 sections and rows
//   "lines:A-B" | "lines:A" lines A..B of the stored text (1-based, inclusive)
//   "rows:A-B[@SECTION]"    rows A..B (1-based, inclusive) of a GCX1 section (default: the first),
//                           as a GCX1 payload with the section's header
//   "/json/pointer"         RFC 6901 pointer into the JSON value, compacted like a result

import { gcx } from 'agentwire';
import { count } from 'agentwire/tokens';
import { compact } from 'agentwire';

/** What a session keeps in memory (without --store): the newest 64 results, 32 MiB together. */
export const MEMORY_LIMITS = { handles: 64, bytes: 32 * 1024 * 1024 };

export class ViewError extends Error {}

/**
 * A stored result. `value` is its JSON value, worked out when a JSON pointer first needs it.
 * @typedef {{ tool: string, text: string, format: string, tokens: number, value?: unknown }} StoredResult
 * @typedef {object} ResultStore where a session's (or, stateless, a token's) results are kept
 * @property {(entry: StoredResult) => Promise<string>} put stores a result; resolves with its handle
 * @property {(handle: string) => Promise<StoredResult>} get rejects with ViewError when unknown or expired
 */

/** @implements {ResultStore} */
export class MemoryResultStore {
  constructor() {
    /** @type {Map<string, StoredResult & { bytes: number }>} */
    this.items = new Map();
    this.next = 1;
    this.bytes = 0;
  }

  async put(/** @type {StoredResult} */ entry) {
    const handle = `r${this.next++}`;
    const bytes = Buffer.byteLength(entry.text);
    this.items.set(handle, { ...entry, bytes });
    this.bytes += bytes;
    // Oldest handles go first; a session keeps a bounded number and size (the newest stays).
    while (this.items.size > 1 && (this.items.size > MEMORY_LIMITS.handles || this.bytes > MEMORY_LIMITS.bytes)) {
      const [oldest, e] = /** @type {[string, StoredResult & { bytes: number }]} */ (this.items.entries().next().value);
      this.items.delete(oldest);
      this.bytes -= e.bytes;
    }
    return handle;
  }

  async get(/** @type {string} */ handle) {
    const e = this.items.get(handle);
    if (!e) throw new ViewError(`unknown or expired handle ${JSON.stringify(handle)}`);
    return e;
  }
}

/** What `info` shows; also the body tool_execute returns in place of a large result. */
export function infoOf(/** @type {string} */ handle, /** @type {StoredResult} */ e) {
  const lines = e.text.split('\n').length;
  /** @type {Record<string, unknown>} */
  const out = { handle, tool: e.tool, format: e.format, tokens: e.tokens, lines };
  if (e.format.startsWith('gcx1')) {
    out.sections = gcx.decode(e.text).sections.map((s) => ({ tool: s.tool, fields: s.fields, rows: s.rows.length }));
  }
  return out;
}

/** The selected part of a stored result, as text. */
export function viewOf(/** @type {string} */ handle, /** @type {StoredResult} */ e, selector = '', /** @type {{ tokenizer?: 'cl100k_base' | 'o200k_base' }} */ { tokenizer = 'cl100k_base' } = {}) {
  const sel = selector.trim();
  if (sel === '' || sel === 'info') return JSON.stringify(infoOf(handle, e));
  let m;
  if ((m = /^lines:(\d+)(?:-(\d+))?$/.exec(sel))) {
    const [a, b] = range(m);
    return e.text.split('\n').slice(a - 1, b).join('\n');
  }
  if ((m = /^rows:(\d+)(?:-(\d+))?(?:@(.+))?$/.exec(sel))) {
    if (!e.format.startsWith('gcx1')) throw new ViewError(`rows: selects GCX1 rows; this result is ${e.format} (use lines: or a JSON pointer)`);
    const [a, b] = range(m);
    const { sections } = gcx.decode(e.text);
    const section = m[3] === undefined ? sections[0] : sections.find((s) => s.tool === m[3]);
    if (!section) throw new ViewError(`no GCX1 section ${JSON.stringify(m[3])} (have ${sections.map((s) => s.tool).join(', ')})`);
    const { tool, fields, meta, rows } = section;
    const slice = rows.slice(a - 1, b);
    // A generic-fallback array says its length in meta rows=N: the slice's own length.
    return gcx.encode([{ tool, fields, meta: 'rows' in meta ? { ...meta, rows: String(slice.length) } : meta, rows: slice }]);
  }
  if (sel.startsWith('/')) {
    if (e.format === 'text') throw new ViewError('a JSON pointer needs a JSON result');
    // The JSON value behind a compact text is decoded by the codec.
    e.value ??= e.format === 'json' ? JSON.parse(e.text) : compact.decode(e.text);
    const part = pointer(e.value, sel);
    const json = JSON.stringify(part);
    return compact.json(json, { tool: e.tool, tokenizer, minSavings: 0 }).text;
  }
  throw new ViewError(`unknown selector ${JSON.stringify(selector)}: use info, lines:A-B, rows:A-B[@SECTION] or /json/pointer`);
}

/** Tokens of a text in the store's tokenizer (the size check of tool_view output). */
export function tokensOf(/** @type {string} */ text, /** @type {'cl100k_base' | 'o200k_base'} */ tokenizer) {
  return count(text, tokenizer);
}

function range(m) {
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  if (a < 1 || b < a) throw new ViewError(`bad range ${m[0]}: want A-B with 1 <= A <= B`);
  return [a, b];
}

/** RFC 6901. */
function pointer(value, ptr) {
  let cur = value;
  for (const raw of ptr.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) {
      throw new ViewError(`JSON pointer ${ptr} does not resolve (at ${JSON.stringify(key)})`);
    }
    cur = cur[key];
  }
  return cur;
}
