// @ts-check
// Readable tables: cells wrap only at natural break points (spaces, and <wbr> after / . : _ - ,),
// long cells are clipped with the full value on hover, and rows come in pages, so a table of a
// million rows costs one page of DOM.
import { el } from './dom.js';

/** Rows per page. */
export const PAGE = 50;
/** Characters shown in a cell; the rest is on hover (title). */
export const CELL_CHARS = 160;
/** Characters kept in a hover title. */
const TITLE_CHARS = 20_000;

/** After these characters a line may break (paths, qualified names, identifiers, lists). */
const BREAK_AFTER = /([/.:_\-,)\]}]+)(?=[^\s/.:_\-,)\]}])/g;

/**
 * A cell's content: the text with <wbr> at natural break points, clipped to CELL_CHARS.
 * @param {string} text
 * @returns {(string | Node)[]}
 */
export function cellContent(text) {
  const clipped = text.length > CELL_CHARS;
  const shown = clipped ? text.slice(0, CELL_CHARS) : text;
  const parts = [];
  let last = 0;
  for (const match of shown.matchAll(BREAK_AFTER)) {
    const end = /** @type {number} */ (match.index) + match[0].length;
    parts.push(shown.slice(last, end), document.createElement('wbr'));
    last = end;
  }
  parts.push(shown.slice(last));
  if (clipped) parts.push(el('span', { class: 'clip' }, '…'));
  return parts;
}

/** A `<td>` for a value: text as is, other values as compact JSON (big arrays summarised). */
export function cell(value) {
  const text = cellText(value);
  const td = el('td', {}, cellContent(text));
  if (text.length > CELL_CHARS) {
    td.title = text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS)}…` : text;
    td.classList.add('clipped');
  }
  return td;
}

/** @param {unknown} value */
export function cellText(value) {
  if (value === undefined || value === null) return value === null ? 'null' : '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > 100) return `[${value.length.toLocaleString('en')} items]`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * A paged table: `rows` (any array), `render(row)` → a `<tr>`. Shows the first page and the
 * row count, with previous/next buttons.
 * @param {string[]} headers
 * @param {ArrayLike<any>} rows  or just `{ length }`, with `rowsOf`
 * @param {(row: any, index: number) => HTMLElement} render
 * @param {(first: number, last: number) => any[]} [rowsOf]  rows [first, last), for tables whose
 *   rows are decoded a page at a time
 */
export function pagedTable(headers, rows, render, rowsOf = (first, last) => Array.prototype.slice.call(rows, first, last)) {
  const body = el('tbody');
  const table = el('table', {}, el('thead', {}, el('tr', {}, headers.map((h) => el('th', {}, cellContent(h))))), body);
  if (rows.length <= PAGE) {
    body.append(...rowsOf(0, rows.length).map((row, i) => render(row, i)));
    return el('div', { class: 'paged' }, table);
  }
  const status = el('span', { class: 'muted', testid: 'page-status' });
  const previous = el('button', { type: 'button', testid: 'page-previous' }, '← previous');
  const next = el('button', { type: 'button', testid: 'page-next' }, 'next →');
  let first = 0;
  const show = () => {
    const last = Math.min(rows.length, first + PAGE);
    body.replaceChildren(...rowsOf(first, last).map((row, i) => render(row, first + i)));
    status.textContent = `rows ${(first + 1).toLocaleString('en')}–${last.toLocaleString('en')} of ${rows.length.toLocaleString('en')}`;
    /** @type {HTMLButtonElement} */ (previous).disabled = first === 0;
    /** @type {HTMLButtonElement} */ (next).disabled = last >= rows.length;
  };
  previous.addEventListener('click', () => {
    first = Math.max(0, first - PAGE);
    show();
  });
  next.addEventListener('click', () => {
    first = Math.min(rows.length - 1, first + PAGE);
    show();
  });
  show();
  return el('div', { class: 'paged' }, table, el('div', { class: 'pager' }, previous, status, next));
}

const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `value` is an array of objects (a table); judged on its first 50 items. */
const isTable = (value) => Array.isArray(value) && value.length > 0 && value.slice(0, 50).every(isRecord);

/**
 * The tables in a JSON value: arrays of objects, at the root or nested in objects and in short
 * arrays (not inside the rows of a table, which would be one table per row).
 * @param {unknown} value
 * @returns {{ path: string, rows: Record<string, unknown>[] }[]}
 */
export function tablesIn(value, path = '', depth = 0, out = []) {
  if (out.length >= 50 || depth > 4) return out;
  if (isTable(value)) out.push({ path: path || '(root)', rows: /** @type {any[]} */ (value) });
  if (Array.isArray(value) && value.length <= 20) value.forEach((item, i) => tablesIn(item, `${path}[${i}]`, depth + 1, out));
  else if (isRecord(value)) for (const [k, v] of Object.entries(value)) tablesIn(v, path ? `${path}.${k}` : k, depth + 1, out);
  return out;
}

/** The columns of a table: the keys of its first 1000 rows, in order of appearance. */
export function columnsOf(rows) {
  const keys = new Set();
  for (let i = 0; i < Math.min(rows.length, 1000); i += 1) for (const k of Object.keys(rows[i])) keys.add(k);
  return [...keys];
}
