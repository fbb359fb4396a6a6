// @ts-check
// The cost panel: every candidate compact.json weighed (the answer agentwire-mcp gets), with
// its tokens, bytes, whether it reads back to the input, and what it saves against the input
// and against minified JSON. GCF v1.1 and GCB1 are shown beside them for graph payloads.
import { el } from './dom.js';

export const FORMAT_LABELS = {
  input: 'the input, as given',
  'json-min': 'minified JSON',
  'gcx1-generic': 'GCX1 generic',
  'gcx1-layout': 'GCX1 per-tool layout',
  'gcf-generic': 'GCF v3.6 generic',
  toon: 'TOON',
  'toon-tab': 'TOON (tab delimiter)',
  'gcf-v1.1': 'GCF v1.1 (graph)',
  gcb1: 'GCB1 (binary graph)',
};

/** `a` against `base` as a saving: "−23.4 %" saves, "+5.0 %" costs more. */
function saving(a, base) {
  if (a == null || !base) return '–';
  const change = ((a - base) / base) * 100;
  if (Math.abs(change) < 0.05) return '±0 %';
  return `${change < 0 ? '−' : '+'}${Math.abs(change).toFixed(1)} %`;
}

/**
 * @param {{ result: any, extras: any[], encoding: string, minSavings: number, source: string,
 *   inputText: string, inputBytes: number, inputLabel?: string, isError: boolean, selected: string,
 *   onSelect: (format: string) => void }} report  `source`: which text was compacted (e.g.
 *   "result.content[0].text")
 */
export function renderCost(report) {
  const { result, extras, encoding, minSavings, source, isError, selected, onSelect } = report;
  const minified = result.candidates.find((c) => c.format === 'json-min');
  const inputTokens = result.inputTokens;
  const winner = isError ? 'input' : result.format;
  const row = (c, { extra = false, input = false } = {}) => {
    const lossless = c.lossless;
    const tr = el(
      'tr',
      {
        testid: input ? 'input-row' : 'candidate',
        class: `${c.format === winner ? 'winner' : ''} ${c.format === selected ? 'selected' : ''}`,
        data: {
          format: c.format,
          tokens: c.tokens ?? '',
          bytes: c.bytes,
          lossless: String(lossless),
          winner: String(c.format === winner),
          ...(extra ? { extra: 'true' } : {}),
        },
        title: c.text === undefined ? '' : 'Show its tokens',
      },
      el('td', {}, c.label ?? FORMAT_LABELS[c.format] ?? c.format, c.format === winner ? el('span', { class: 'badge' }, isError ? 'sent (isError)' : 'agentwire-mcp sends this') : ''),
      el('td', { class: 'num' }, c.tokens == null ? '—' : c.tokens.toLocaleString('en')),
      el('td', { class: 'num' }, c.bytes.toLocaleString('en')),
      el('td', { class: lossless ? 'ok' : 'bad', testid: 'lossless' }, lossless ? '✓' : `✗ ${c.reason ?? ''}${c.difference ? `: ${c.difference}` : ''}`),
      el('td', { class: 'num' }, input ? 'baseline' : saving(c.tokens, inputTokens)),
      el('td', { class: 'num' }, c.format === 'json-min' ? 'baseline' : saving(c.tokens, minified?.tokens)),
    );
    if (c.text !== undefined) {
      tr.tabIndex = 0;
      tr.addEventListener('click', () => onSelect(c.format));
      tr.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onSelect(c.format);
        }
      });
    }
    return tr;
  };
  const inputRow = { format: 'input', label: report.inputLabel, tokens: inputTokens, bytes: report.inputBytes, lossless: true, text: report.inputText };
  const verdict = (() => {
    if (isError) return 'isError is true: agentwire-mcp passes error results through unchanged.';
    if (result.format === 'input') {
      // compact.json says why it kept the input (a code and a message) whenever it does.
      return `agentwire-mcp sends the input unchanged (${result.reason.code}): ${result.reason.message}.`;
    }
    const best = result.tokens;
    const vsMin = minified?.tokens ? ` and ${saving(best, minified.tokens)} against minified JSON` : '';
    return `agentwire-mcp sends ${FORMAT_LABELS[result.format]}: ${best.toLocaleString('en')} tokens, ${saving(best, inputTokens)} against the input${vsMin}.`;
  })();
  return [
    el('h2', {}, `Cost · ${encoding} tokens, UTF-8 bytes`),
    el('p', { testid: 'verdict', class: 'verdict' }, verdict),
    el('p', { class: 'muted', testid: 'source' }, `Compacted: ${source}. Candidates and the winner come from compact.json (the Rust core), with minSavings ${minSavings}, as agentwire-mcp runs it. Click a row to see its tokens.`),
    el(
      'table',
      { class: 'candidates' },
      el('thead', {}, el('tr', {}, ['form', 'tokens', 'bytes', 'lossless', 'vs input', 'vs minified JSON'].map((h) => el('th', {}, h)))),
      el('tbody', {}, row(inputRow, { input: true }), result.candidates.map((c) => row(c)), extras.map((c) => row(c, { extra: true }))),
    ),
    extras.length
      ? el('p', { class: 'muted' }, 'GCF v1.1 and GCB1 are the graph formats, shown for comparison; agentwire-mcp does not pick them. GCB1 is binary: a model does not read it as text, so it has no token count.')
      : '',
  ];
}
