// @ts-check
// The token view: a candidate's text with each token shaded, its id and bytes on hover, and
// for tabular candidates the tokens each column spends.
import { OUTSIDE, STRUCTURE } from './columns.js';
import { el } from './dom.js';
import { FORMAT_LABELS } from './cost.js';

/** Tokens rendered per page. */
export const TOKEN_PAGE = 5000;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');

/** A token's text; bytes that are not whole UTF-8 characters (a character split across tokens) as \xNN. */
function tokenText(bytes) {
  try {
    return { text: strictUtf8.decode(bytes), partial: false };
  } catch {
    return { text: Array.from(bytes, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''), partial: true };
  }
}

/**
 * @param {{ format: string, text: string, ids: Uint32Array, lengths: Uint32Array, encoding: string,
 *   columns: import('./columns.js').ColumnCost[] | null }} view  `columns`: the column costs of a
 *   tabular candidate (worked out in the worker)
 */
export function renderTokens({ format, text, ids, lengths, encoding, columns }) {
  const bytes = new TextEncoder().encode(text);
  const offsets = new Uint32Array(ids.length + 1);
  for (let i = 0; i < ids.length; i += 1) offsets[i + 1] = offsets[i] + lengths[i];
  const box = el('div', { class: 'token-text', testid: 'token-text' });
  const status = el('span', { class: 'muted' });
  const previous = el('button', { type: 'button' }, '← previous tokens');
  const next = el('button', { type: 'button', testid: 'tokens-next' }, 'next tokens →');
  let first = 0;
  const show = () => {
    const last = Math.min(ids.length, first + TOKEN_PAGE);
    const spans = [];
    for (let i = first; i < last; i += 1) {
      const slice = bytes.subarray(offsets[i], offsets[i + 1]);
      const { text: shown, partial } = tokenText(slice);
      spans.push(
        el('span', {
          testid: 'token',
          class: `t${i % 4}${partial ? ' partial' : ''}`,
          data: { tokenId: ids[i] },
          title: `token ${i + 1} · id ${ids[i]} · ${slice.length} byte${slice.length === 1 ? '' : 's'}: ${hex(slice)}`,
          textContent: shown,
        }),
      );
    }
    box.replaceChildren(...spans);
    status.textContent = `tokens ${(first + 1).toLocaleString('en')}–${last.toLocaleString('en')} of ${ids.length.toLocaleString('en')}`;
    /** @type {HTMLButtonElement} */ (previous).disabled = first === 0;
    /** @type {HTMLButtonElement} */ (next).disabled = last >= ids.length;
  };
  previous.addEventListener('click', () => {
    first = Math.max(0, first - TOKEN_PAGE);
    show();
  });
  next.addEventListener('click', () => {
    first += TOKEN_PAGE;
    show();
  });
  show();
  const view = [
    el('h2', {}, `Tokens · ${FORMAT_LABELS[format] ?? format} · ${ids.length.toLocaleString('en')} ${encoding} tokens`),
    el('p', { class: 'muted' }, 'Each shaded span is one token; hover for its id and bytes.'),
    ids.length > TOKEN_PAGE ? el('div', { class: 'pager' }, previous, status, next) : '',
    box,
  ];
  if (columns) view.push(...renderColumnCosts(columns, ids.length));
  return view;
}

function renderColumnCosts(columns, total) {
  const costs = columns.filter((c) => c.tokens > 0 || (c.column !== STRUCTURE && c.column !== OUTSIDE));
  const sections = new Set(costs.map((c) => c.section).filter(Boolean));
  const share = (n) => (total ? `${((n / total) * 100).toFixed(1)} %` : '–');
  const rows = costs.map((c) => {
    const name = c.column === STRUCTURE || c.column === OUTSIDE ? c.column : sections.size > 1 ? `${c.section} · ${c.column}` : c.column;
    const special = c.column === STRUCTURE || c.column === OUTSIDE;
    return el(
      'tr',
      { testid: 'column-cost', class: special ? 'special' : '', data: { column: name, tokens: c.tokens } },
      el('td', {}, name),
      el('td', { class: 'num' }, c.tokens.toLocaleString('en')),
      el('td', { class: 'num' }, share(c.tokens)),
      el('td', {}, el('span', { class: 'bar', style: `width:${total ? (c.tokens / total) * 100 : 0}%` })),
    );
  });
  return [
    el('h3', {}, 'Tokens per column'),
    el(
      'p',
      { class: 'muted' },
      `Each token counts once, for the column that holds most of its bytes: its name in the section header, its cells, and in GCF the ".column" lines that write out a row's nested value. "${STRUCTURE}" is the separators, newlines, row indices (@N) and the rest of the headers; "${OUTSIDE}" is lines no table header describes (other nested values). The rows add up to the total.`,
    ),
    el(
      'table',
      { class: 'column-costs', testid: 'column-costs' },
      el('thead', {}, el('tr', {}, ['column', 'tokens', 'share', ''].map((h) => el('th', {}, h)))),
      el('tbody', {}, rows),
      el('tfoot', {}, el('tr', {}, el('td', {}, 'total'), el('td', { class: 'num', testid: 'column-total' }, total.toLocaleString('en')), el('td', { class: 'num' }, '100 %'), el('td'))),
    ),
  ];
}
