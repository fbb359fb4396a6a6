// @ts-check
// The inspector's heavy work, off the page's main thread: compact.json (one call into the Rust
// core, the same answer agentwire-mcp gets), GCF v1.1 / GCB1 for graph payloads, and token ids.
// A 10 MB payload keeps this worker busy for seconds; the page stays responsive meanwhile.
import { compact, gcb, gcf, gcx, init, tokens } from '../browser.js';
import { provideModules } from '../lib/modules.js';
import { columnCosts, isTabular } from './columns.js';

// Workers have no import map: the tokens package's modules, by their path beside this file
// (the same layout in the package and in the folder `npm run inspector:build` writes).
provideModules({
  tokens: () => import('../packages/tokens/wasm/agentwire_tokens.js'),
  tokens_vocabulary: () => import('../packages/tokens/vocabulary.js'),
});

const coreReady = init();

/** @param {unknown} error */
const errorData = (error) => {
  const e = /** @type {any} */ (error);
  return { code: e?.code, message: String(e?.message ?? e), line: e?.line, column: e?.column, offset: e?.offset };
};

/** Where `after` first differs from `before` (`symbols[0].score: 0.949999988079071 → 0.95`), or null when they are equal (JSON equality). */
function firstDifference(before, after, path = '') {
  if (compact.equal(before, after)) return null;
  const show = (v) => (v === undefined ? 'missing' : JSON.stringify(v)?.slice(0, 60));
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  const bothObjects = before && after && typeof before === 'object' && typeof after === 'object' && !Array.isArray(before) && !Array.isArray(after);
  if (bothArrays && before.length === after.length) {
    const i = before.findIndex((item, n) => !compact.equal(item, after[n]));
    return firstDifference(before[i], after[i], `${path}[${i}]`);
  }
  if (bothObjects) {
    const key = [...new Set([...Object.keys(before), ...Object.keys(after)])].find((k) => !compact.equal(before[k], after[k]));
    if (key !== undefined) return firstDifference(before[key], after[key], path ? `${path}.${key}` : key);
  }
  return `${path || 'the value'}: ${show(before)} → ${show(after)}`;
}

/** GCF v1.1 text and GCB1 bytes of a graph payload, each checked by decoding it back. */
function graphForms(value, encoding) {
  const forms = [];
  const attempt = (format, encode, decode, countable) => {
    let text;
    try {
      text = encode();
    } catch (error) {
      forms.push({ format, lossless: false, reason: `it does not encode: ${errorData(error).message}`, tokens: null, bytes: 0 });
      return;
    }
    const bytes = typeof text === 'string' ? new TextEncoder().encode(text).length : text.length;
    let reason;
    try {
      const difference = firstDifference(value, decode(text));
      if (difference !== null) reason = `it decodes to a different value: ${difference}`;
    } catch (error) {
      reason = `it does not decode: ${errorData(error).message}`;
    }
    const entry = { format, bytes, lossless: reason === undefined, tokens: countable ? tokens.count(text, encoding) : null, tokensExact: countable };
    if (reason !== undefined) entry.reason = reason;
    if (typeof text === 'string') entry.text = text;
    forms.push(entry);
  };
  attempt('gcf-v1.1', () => gcf.encode(value), (text) => gcf.decode(text), true);
  attempt('gcb1', () => gcb.encode(value), (bytes) => gcb.decode(bytes), false);
  return forms;
}

/** GCX1 text as the JSON of its rows: one section's rows, or every section with its tool and meta. */
function gcxAsJson(text) {
  const data = gcx.decode(text).sections.map((s) => ({ tool: s.tool, meta: s.meta, rows: s.rows }));
  return JSON.stringify(data.length === 1 ? data[0].rows : data);
}

/** Each token's id and length in bytes: the lengths come from one decode per distinct id. */
function tokenize(text, encoding) {
  const ids = tokens.encode(text, encoding);
  const lengths = new Uint32Array(ids.length);
  /** @type {Map<number, number>} */
  const lengthOf = new Map();
  for (let i = 0; i < ids.length; i += 1) {
    let n = lengthOf.get(ids[i]);
    if (n === undefined) {
      n = tokens.decodeBytes([ids[i]], encoding).length;
      lengthOf.set(ids[i], n);
    }
    lengths[i] = n;
  }
  return { ids: ids.slice(), lengths };
}

self.onmessage = async (event) => {
  const { id, type, options } = event.data;
  let { text } = event.data;
  try {
    await coreReady;
    if (type === 'compact') {
      const { tool, encoding, minSavings, graph, fromGcx1 } = options;
      await tokens.load(encoding);
      // A large GCX1 payload: its rows as the page's small ones are (renderGcx), as JSON text.
      const inputText = fromGcx1 ? gcxAsJson(text) : undefined;
      if (inputText !== undefined) text = inputText;
      // exactCounts: every candidate counted to the end, for the table; the winner is the same
      // as with agentwire-mcp's default (a candidate cut short had already lost).
      const result = compact.json(text, { tool, tokenizer: encoding, minSavings, exactCounts: true, candidateTexts: true });
      const lossy = result.candidates.filter((c) => !c.lossless && c.format !== 'gcx1-layout' && /different value/.test(c.reason ?? ''));
      const value = graph || lossy.length ? JSON.parse(text) : undefined;
      if (lossy.length) await gcf.load(); // compact.decode
      // Where each lossy candidate reads back differently (the core says only that it does).
      for (const c of lossy) c.difference = firstDifference(value, compact.decode(c.text)) ?? undefined;
      const extras = graph ? graphForms(value, encoding) : [];
      self.postMessage({ id, ok: true, result, extras, inputText });
    } else if (type === 'tokens') {
      await tokens.load(options.encoding);
      const { ids, lengths } = tokenize(text, options.encoding);
      const columns = isTabular(options.format) ? columnCosts(options.format, new TextEncoder().encode(text), lengths) : null;
      self.postMessage({ id, ok: true, ids, lengths, columns }, { transfer: [ids.buffer, lengths.buffer] });
    } else {
      throw new Error(`unknown request ${type}`);
    }
  } catch (error) {
    self.postMessage({ id, ok: false, error: errorData(error) });
  }
};
