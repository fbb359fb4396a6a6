// compact: the most compact lossless form of a JSON document, never more tokens than the input.
//
// Candidates are codec outputs only (GCX1 per-tool layout, GCX1 generic, GCF v3 generic (v3.6.0,
// constant columns factored), minified JSON); this file never writes a format itself. A candidate counts only when decoding
// it with the codec gives back the input (structural equality); the winner is the one with the
// fewest tokens, and it replaces the input only when it saves at least `minSavings`. The MCP
// gateway (agentwire-mcp) compacts tool results with this same function.

import { argumentError } from './errors.js';

/** @typedef {'gcx1-layout' | 'gcx1-generic' | 'gcf-generic' | 'json-min' | 'input'} Format */

/** UTF-8 length of a string, without allocating. */
function utf8Bytes(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/**
 * @param {{ gcx: any, gcf: any, tokens: any }} api  the entry's namespaces
 */
export function makeCompact({ gcx, gcf, tokens }) {
  /** The token counter the options ask for. */
  function counterOf(counter, tokenizer) {
    if (counter !== undefined) {
      if (typeof counter !== 'function') {
        throw argumentError('INVALID_ARGUMENT', `option counter: expected a function (text) => number, got ${typeof counter}`);
      }
      return (text) => {
        const n = counter(text);
        if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
          throw argumentError('INVALID_ARGUMENT', `option counter: returned ${String(n)}, expected a count ≥ 0`);
        }
        return n;
      };
    }
    if (tokenizer === 'bytes') return utf8Bytes;
    // Fails now, not mid-way: an unknown encoding is INVALID_ARGUMENT, a missing
    // agentwire-tokens NOT_INSTALLED (in browsers: `await tokens.load(encoding)` first).
    tokens.count('', tokenizer);
    return (text) => tokens.count(text, tokenizer);
  }

  /**
   * The most compact lossless form of a JSON document.
   *
   * @param {string | unknown} input JSON text as received (often pretty-printed), or a value
   *   (then measured against `JSON.stringify(value)`).
   * @param {{ tool?: string, tokenizer?: string, counter?: (text: string) => number,
   *   minSavings?: number, value?: unknown }} [options]
   * @returns {{ format: Format, text: string, tokens: number, inputTokens: number,
   *   candidates: Array<{ format: Format, tokens: number | null, lossless: boolean }> }}
   */
  function json(input, { tool = 'result', tokenizer = 'cl100k_base', counter, minSavings = 0.1, value } = {}) {
    let text = input;
    let parsed = value;
    if (typeof input !== 'string') {
      if (input === undefined || typeof input === 'function' || typeof input === 'symbol') {
        throw argumentError('INVALID_ARGUMENT', `input is not a JSON value or JSON text (got ${typeof input})`);
      }
      parsed = input;
      text = JSON.stringify(input);
    }
    if (typeof tool !== 'string') throw argumentError('INVALID_ARGUMENT', `option tool: expected a string, got ${typeof tool}`);
    if (typeof minSavings !== 'number' || !(minSavings >= 0)) {
      throw argumentError('INVALID_ARGUMENT', `option minSavings: expected a number ≥ 0, got ${String(minSavings)}`);
    }
    const count = counterOf(counter, tokenizer);
    if (parsed === undefined) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = NOT_JSON;
      }
    }
    const inputTokens = count(text);
    const keep = { format: 'input', text, tokens: inputTokens, inputTokens, candidates: [] };
    if (parsed === NOT_JSON) return keep;
    if (!numbersFit(text)) return keep;

    const candidates = [];
    const consider = (format, make, readBack) => {
      let out;
      try {
        out = make();
      } catch {
        return; // the codec refused this value (e.g. GCX_NOT_LOSSLESS): not a candidate
      }
      if (candidates.some((c) => c.text === out)) return; // a layout that fell back to generic
      let lossless;
      try {
        lossless = equal(readBack(out), parsed);
      } catch {
        lossless = false;
      }
      candidates.push({ format, text: out, tokens: lossless ? count(out) : null, lossless });
    };

    const minified = JSON.stringify(parsed);
    consider('json-min', () => minified, (t) => JSON.parse(t));
    if (parsed !== null && typeof parsed === 'object') {
      consider('gcx1-generic', () => gcx.encodeGeneric(tool, parsed, { lossless: true }), (t) => readGeneric(gcx.decode(t)));
      consider(
        'gcx1-layout',
        () => gcx.encodeTool(tool, parsed, { lossless: true }),
        (t) => readLayout(gcx.decode(t), tool, parsed),
      );
      consider('gcf-generic', () => gcf.encodeGeneric(parsed, { lossless: true }), (t) => gcf.decodeGeneric(t));
    }

    const report = candidates.map(({ format, tokens, lossless }) => ({ format, tokens, lossless }));
    const best = candidates.filter((c) => c.lossless).sort((a, b) => a.tokens - b.tokens)[0];
    if (!best || inputTokens - best.tokens < minSavings * inputTokens || best.tokens >= inputTokens) {
      return { ...keep, candidates: report };
    }
    return { format: best.format, text: best.text, tokens: best.tokens, inputTokens, candidates: report };
  }

  /**
   * The value a per-tool layout payload stands for. Layout columns may rename keys (`from`:
   * `signature` is written as `sig`), so the reading maps each column back onto the key the
   * input used; the result must still equal the input, so anything the reader cannot place fails.
   */
  let layouts;
  function readLayout(decoded, tool, input) {
    layouts ??= gcx.layouts();
    const layout = layouts.find((l) => l.tool === tool || l.aliases?.includes(tool));
    if (!layout) return readGeneric(decoded);
    if (decoded.sections.length !== layout.sections.length || input === null || typeof input !== 'object') return ABSENT;
    const out = Array.isArray(input) ? [] : {};
    decoded.sections.forEach((section, i) => {
      const { rows: where, fields, meta = [] } = layout.sections[i];
      const single = 'object' in where;
      const key = single ? where.object : where.keys?.find((k) => Array.isArray(input[k]));
      const source = key == null ? input : input[key];
      const sourceRows = single ? [source] : Array.isArray(source) ? source : [];
      const rows = section.rows.map((row, r) => {
        const obj = {};
        for (const field of fields) {
          const name = typeof field === 'string' ? field : field.name;
          const from = typeof field === 'string' ? [field] : (field.from ?? [name]);
          const v = readCell(row[name] ?? '');
          if (v !== ABSENT) obj[from.find((k) => sourceRows[r] && k in sourceRows[r]) ?? from[0]] = v;
        }
        return obj;
      });
      const value = single ? rows[0] : rows;
      if (key != null) out[key] = value;
      else if (Array.isArray(out)) out.push(...value);
      else Object.assign(out, value);
      for (const m of meta) if (m in section.meta) out[m] = readCell(section.meta[m]);
    });
    return out;
  }

  /**
   * The JSON value of a text `compact.json` chose, decoded by the codec (GCX1 generic, GCF
   * generic, JSON); undefined for a GCX1 per-tool layout, which needs its input to map columns
   * back.
   */
  function decode(text) {
    if (typeof text !== 'string') throw argumentError('INVALID_ARGUMENT', `text must be a string, got ${typeof text}`);
    if (text.startsWith('GCX1')) {
      const v = readGeneric(gcx.decode(text));
      return v === ABSENT ? undefined : v;
    }
    if (text.startsWith('GCF')) return gcf.decodeGeneric(text);
    return JSON.parse(text);
  }

  return Object.freeze({ json, decode, equal });
}

/**
 * Whether every number in the text is exactly a JS double. Only long numerals can fail, so only
 * those are checked (a numeral inside a string may be checked too: that only keeps the JSON).
 * The codecs see the parsed value, so a number JSON.parse changed could not be verified.
 */
function numbersFit(text) {
  for (const [m] of text.matchAll(/-?\d[\d.eE+-]{15,}/g)) {
    const n = Number(m);
    if (Number.isNaN(n)) continue; // not one numeral: dates, ids with dashes, …
    if (String(n) === m) continue;
    if (/^-?\d+$/.test(m) && Number.isFinite(n) && BigInt(m) === BigInt(n)) continue;
    return false;
  }
  return true;
}

/**
 * What a reader takes a GCX1 cell for: JSON when it parses as JSON, else the text. An empty
 * cell is an absent value, so null and "" never count as carried.
 */
function readCell(cell) {
  if (cell === '') return ABSENT;
  try {
    return JSON.parse(cell);
  } catch {
    return cell;
  }
}
const ABSENT = Symbol('absent');
const NOT_JSON = Symbol('not json');

function readRow(row, fields) {
  const out = {};
  for (const f of fields) {
    const v = readCell(row[f] ?? '');
    if (v !== ABSENT) out[f] = v;
  }
  return out;
}

/**
 * The value a GCX1 generic-fallback payload stands for, read from the decoded text alone:
 * `rows=N` marks an array, the single field `value` marks scalars (gcx1.md §4.2).
 */
function readGeneric({ sections }) {
  if (sections.length !== 1) return ABSENT;
  const [{ fields, meta, rows }] = sections;
  const scalars = fields.length === 1 && fields[0] === 'value';
  if ('rows' in meta) {
    if (String(rows.length) !== meta.rows) return ABSENT;
    return rows.map((r) => (scalars ? readCell(r.value) : readRow(r, fields)));
  }
  if (rows.length !== 1) return ABSENT;
  return scalars ? readCell(rows[0].value) : readRow(rows[0], fields);
}

/** JSON structural equality (object member order ignored). */
export function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !equal(a[k], b[k])) return false;
  return true;
}
