// @ts-check
// Per-column token cost of a tabular candidate (GCX1, GCF v3 generic): every token counts once,
// for the region that holds most of its bytes (a tie goes to a column, not to structure). A
// column's region is its name in the section header and its cells; separators, newlines and the
// rest of a header are "structure" (so is GCF's `@N ` row index); a GCF `.column …` line (a nested
// value written out below its row) belongs to that column; lines that a table header does not
// describe (other nested values, rows whose cell count differs) are "outside tables". So the
// rows always sum to the total.

export const STRUCTURE = 'structure';
export const OUTSIDE = 'outside tables';

const TAB = 0x09;
const NEWLINE = 0x0a;
const PIPE = 0x7c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * @typedef {{ start: number, end: number, key: string }} Region  bytes [start, end) of one column
 * @typedef {{ key: string, section: string, column: string, tokens: number }} ColumnCost
 */

const ascii = (bytes, start, end) => String.fromCharCode(...bytes.subarray(start, Math.min(end, start + 4096)));

/** The [start, end) spans of `bytes[start, end)` split at `separator` outside double quotes. */
function split(bytes, start, end, separator, quoted) {
  const spans = [];
  let cell = start;
  let inQuotes = false;
  for (let i = start; i < end; i += 1) {
    const b = bytes[i];
    if (quoted && b === BACKSLASH && inQuotes) i += 1;
    else if (quoted && b === QUOTE) inQuotes = !inQuotes;
    else if (b === separator && !inQuotes) {
      spans.push([cell, i]);
      cell = i + 1;
    }
  }
  spans.push([cell, end]);
  return spans;
}

/** The lines of `bytes` as [start, end) without their newline. */
function lines(bytes) {
  const out = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] === NEWLINE) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push([start, bytes.length]);
  return out;
}

/** Column regions of GCX1 text: `GCX1 tool=… fields=a,b,…` headers, tab-separated rows. */
function gcxRegions(bytes) {
  /** @type {Region[]} */
  const regions = [];
  let section = '';
  let columns = null;
  for (const [start, end] of lines(bytes)) {
    const head = ascii(bytes, start, Math.min(end, start + 5));
    if (head.startsWith('GCX1')) {
      const line = new TextDecoder().decode(bytes.subarray(start, end));
      section = /(?:^| )tool=(\S*)/.exec(line)?.[1] ?? '';
      const fields = / fields=(\S*)/.exec(line);
      columns = [];
      if (fields) {
        // Byte offset of the field list: the header is ASCII up to it in practice; measure anyway.
        const listStart = start + new TextEncoder().encode(line.slice(0, fields.index + ' fields='.length)).length;
        const listEnd = listStart + new TextEncoder().encode(fields[1]).length;
        for (const [s, e] of split(bytes, listStart, listEnd, COMMA, false)) {
          const name = new TextDecoder().decode(bytes.subarray(s, e));
          columns.push(name);
          regions.push({ start: s, end: e, key: key(section, name) });
        }
      }
      continue;
    }
    if (end === start) continue;
    if (bytes[start] === 0x23 || columns === null) {
      regions.push({ start, end, key: key('', OUTSIDE) });
      continue;
    }
    const cells = split(bytes, start, end, TAB, false);
    if (cells.length !== columns.length) {
      regions.push({ start, end, key: key('', OUTSIDE) });
      continue;
    }
    cells.forEach(([s, e], i) => regions.push({ start: s, end: e, key: key(section, columns[i]) }));
  }
  return regions;
}

/** Column regions of GCF v3 generic text: `## name [N]{a,b=const}` headers, `|`-separated rows. */
function gcfRegions(bytes) {
  /** @type {Region[]} */
  const regions = [];
  let section = '';
  /** The columns that have cells (constant columns `name=value` have none). */
  let cellColumns = null;
  let seenSection = false;
  /** Every column of the section, constant or not. */
  let sectionColumns = [];
  for (let [start, end] of lines(bytes)) {
    if (end - start >= 2 && bytes[start] === 0x23 && bytes[start + 1] === 0x23) {
      const line = new TextDecoder().decode(bytes.subarray(start, end));
      const open = line.indexOf('{');
      const close = line.lastIndexOf('}');
      cellColumns = null;
      seenSection = true;
      if (open < 0 || close < open) continue;
      section = line.slice(2, line.indexOf('[') > 0 ? line.indexOf('[') : open).trim() || '(root)';
      cellColumns = [];
      sectionColumns = [];
      const listStart = start + new TextEncoder().encode(line.slice(0, open + 1)).length;
      const listEnd = start + new TextEncoder().encode(line.slice(0, close)).length;
      for (const [s, e] of split(bytes, listStart, listEnd, COMMA, true)) {
        const spec = new TextDecoder().decode(bytes.subarray(s, e));
        const eq = spec.indexOf('=');
        const name = (eq < 0 ? spec : spec.slice(0, eq)).replace(/^@/, '');
        regions.push({ start: s, end: e, key: key(section, name) });
        sectionColumns.push(name);
        if (eq < 0) cellColumns.push(name);
      }
      continue;
    }
    if (end === start) continue;
    if (cellColumns === null && !seenSection) continue; // the `GCF profile=…` header: structure
    if (cellColumns === null) {
      regions.push({ start, end, key: key('', OUTSIDE) });
      continue;
    }
    // `.name [2]: …` (or `.name:`): the value of column `name` of the row above, written out
    // after `^` because it is nested.
    const expanded = bytes[start] === 0x2e ? /^\.([^\s:[]+)/.exec(ascii(bytes, start, end)) : null;
    if (expanded && sectionColumns.includes(expanded[1])) {
      regions.push({ start, end, key: key(section, expanded[1]) });
      continue;
    }
    // `@3 ` in front of a row: its index, for the expanded values that follow (structure).
    const index = bytes[start] === 0x40 ? /^@\d+ /.exec(ascii(bytes, start, Math.min(end, start + 24))) : null;
    if (index) start += index[0].length;
    const cells = split(bytes, start, end, PIPE, true);
    if (cells.length !== cellColumns.length) {
      regions.push({ start, end, key: key('', OUTSIDE) });
      continue;
    }
    cells.forEach(([s, e], i) => regions.push({ start: s, end: e, key: key(section, cellColumns[i]) }));
  }
  return regions;
}

const key = (section, column) => `${section}\u0000${column}`;

/** Whether a candidate format is tabular, so that a column table applies. */
export const isTabular = (format) => format === 'gcx1-generic' || format === 'gcx1-layout' || format === 'gcf-generic';

/**
 * The tokens each column spends, with `structure` and `outside tables`; they sum to the number
 * of tokens.
 * @param {string} format  a compact.json candidate format
 * @param {Uint8Array} bytes  the candidate's UTF-8 text
 * @param {ArrayLike<number>} tokenLengths  each token's length in bytes, in order (they sum to bytes.length)
 * @returns {ColumnCost[]}  in order of first appearance, structure and outside tables last
 */
export function columnCosts(format, bytes, tokenLengths) {
  const regions = format === 'gcf-generic' ? gcfRegions(bytes) : gcxRegions(bytes);
  /** @type {Map<string, number>} */
  const totals = new Map();
  for (const r of regions) if (!totals.has(r.key)) totals.set(r.key, 0);
  const structure = key('', STRUCTURE);
  const outside = key('', OUTSIDE);
  totals.delete(outside);
  totals.set(structure, 0);
  totals.set(outside, 0);
  let first = 0; // the first region that may overlap the current token
  let offset = 0;
  /** @type {Map<string, number>} */
  const overlap = new Map();
  for (let t = 0; t < tokenLengths.length; t += 1) {
    const start = offset;
    const end = offset + tokenLengths[t];
    offset = end;
    while (first < regions.length && regions[first].end <= start) first += 1;
    overlap.clear();
    let covered = 0;
    for (let r = first; r < regions.length && regions[r].start < end; r += 1) {
      const bytesIn = Math.min(end, regions[r].end) - Math.max(start, regions[r].start);
      if (bytesIn <= 0) continue;
      overlap.set(regions[r].key, (overlap.get(regions[r].key) ?? 0) + bytesIn);
      covered += bytesIn;
    }
    let best = structure;
    let bestBytes = end - start - covered; // the bytes no column holds
    for (const [k, n] of overlap) {
      if (n > bestBytes || (n === bestBytes && best === structure)) {
        best = k;
        bestBytes = n;
      }
    }
    totals.set(best, (totals.get(best) ?? 0) + 1);
  }
  return [...totals].map(([k, tokens]) => {
    const [section, column] = k.split('\u0000');
    return { key: k, section, column, tokens };
  });
}
