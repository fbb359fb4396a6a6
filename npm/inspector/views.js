// @ts-check
// What a payload means, as DOM: GCX1 sections, a GCF/GCB1 graph (tables by distance, edges, a
// drawing), an event timeline, JSON's tables. Each renderer returns the nodes of the view.
import { events, gcx } from '../browser.js';
import { el } from './dom.js';
import { pageText, splitSections } from './gcx-pages.js';
import { cell, columnsOf, pagedTable, tablesIn } from './table.js';

/** A large GCX1 payload's tables, each page decoded when shown (see gcx-pages.js); null when it cannot be split. */
export function renderGcxPages(text) {
  const sections = splitSections(text);
  if (sections === null) return null;
  const view = [el('h2', {}, `GCX1 · ${sections.length} section${sections.length === 1 ? '' : 's'}`)];
  const tools = new Set();
  for (const section of sections) {
    const { tool, fields, meta } = gcx.decode(`${section.header}\n`).sections[0];
    tools.add(tool);
    const rowsOf = (first, last) => {
      try {
        return gcx.decode(pageText(text, section, first, last)).sections[0].rows;
      } catch {
        return []; // the worker decodes the whole payload and reports the error with its line
      }
    };
    const render = (row) => el('tr', { testid: 'row' }, fields.map((f) => cell(row[f] ?? '')));
    const chips = Object.entries(meta).map(([k, v]) => el('span', { class: 'chip' }, `${k}=${v}`));
    const count = section.rowCount;
    view.push(
      el('div', { testid: 'section' }, el('h3', {}, `${tool} · ${count.toLocaleString('en')} row${count === 1 ? '' : 's'}`), el('div', { class: 'chips' }, chips), pagedTable(fields, { length: count }, render, rowsOf)),
    );
  }
  return { view, tools: [...tools] };
}

export function renderGcx(text) {
  /** @type {{ tool: string, fields: string[], meta: Record<string, string>, items: any[], rows?: Record<string, string>[] }[]} */
  const sections = [];
  if (/^#/m.test(text)) {
    // Comment lines: the streaming decoder yields them, in place (slower: one item per call).
    const decoder = new gcx.Decoder({ comments: true });
    try {
      decoder.push(text);
      decoder.finish();
      for (const item of decoder) {
        if (item.type === 'section') sections.push({ ...item, items: [] });
        else sections.at(-1)?.items.push(item);
      }
    } finally {
      decoder.free();
    }
  } else {
    // One call for the whole payload: 10 MB decodes in a few hundred ms.
    for (const section of gcx.decode(text).sections) sections.push({ ...section, items: section.rows });
  }
  const view = [el('h2', {}, `GCX1 · ${sections.length} section${sections.length === 1 ? '' : 's'}`)];
  for (const section of sections) {
    const rows = section.items;
    const renderRow = (row) => el('tr', { testid: 'row' }, section.fields.map((f) => cell(row[f] ?? '')));
    // Plain rows from gcx.decode, or the streaming decoder's items (rows and comments).
    const render = section.rows
      ? renderRow
      : (item) => (item.type === 'comment' ? el('tr', { class: 'comment' }, el('td', { colSpan: section.fields.length }, `# ${item.text}`)) : renderRow(item.row));
    const chips = Object.entries(section.meta).map(([k, v]) => el('span', { class: 'chip' }, `${k}=${v}`));
    const count = section.rows ? section.rows.length : rows.filter((r) => r.type === 'row').length;
    view.push(
      el('div', { testid: 'section' }, el('h3', {}, `${section.tool} · ${count.toLocaleString('en')} row${count === 1 ? '' : 's'}`), el('div', { class: 'chips' }, chips), pagedTable(section.fields, rows, render)),
    );
  }
  const data = sections.map((s) => ({ tool: s.tool, meta: s.meta, rows: s.rows ?? s.items.filter((i) => i.type === 'row').map((i) => i.row) }));
  return { view, json: data.length === 1 ? data[0].rows : data, tools: [...new Set(sections.map((s) => s.tool))] };
}

function graphSvg(payload) {
  const symbols = (payload.symbols ?? []).slice(0, 60);
  const size = 300;
  const center = size / 2;
  const radius = symbols.length > 1 ? 110 : 0;
  const position = new Map(
    symbols.map((s, i) => {
      const angle = (2 * Math.PI * i) / Math.max(1, symbols.length) - Math.PI / 2;
      return [s.qualifiedName, [center + radius * Math.cos(angle) + 100, center + radius * Math.sin(angle)]];
    }),
  );
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('class', 'graph');
  svg.setAttribute('viewBox', `0 0 ${size + 200} ${size}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'symbol graph');
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text) node.textContent = text;
    svg.append(node);
  };
  add('defs', {});
  /** @type {Element} */ (svg.lastChild).innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#5c6778"/></marker>';
  for (const edge of payload.edges ?? []) {
    const [a, b] = [position.get(edge.source), position.get(edge.target)];
    if (!a || !b) continue;
    add('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: '#9aa4b5', 'marker-end': 'url(#arrow)' });
    add('text', { x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2 - 3, fill: '#5c6778', 'text-anchor': 'middle' }, edge.edgeType);
  }
  for (const s of symbols) {
    const [x, y] = position.get(s.qualifiedName);
    add('circle', { cx: x, cy: y, r: 6, fill: s.distance === 0 ? '#2458c9' : '#8fa8e0' });
    add('text', { x: x + 9, y: y + 4 }, s.qualifiedName);
  }
  return svg;
}

export function renderGraph(payload, label) {
  const groups = new Map();
  for (const s of payload.symbols ?? []) {
    if (!groups.has(s.distance)) groups.set(s.distance, []);
    groups.get(s.distance).push(s);
  }
  const names = ['targets', 'related', 'extended'];
  /** @type {Node[]} */
  const view = [
    el('h2', {}, `${label} · ${payload.tool ?? ''} · ${(payload.symbols ?? []).length} symbols, ${(payload.edges ?? []).length} edges`),
    el('div', { class: 'chips' }, ['tokenBudget', 'tokensUsed', 'packRoot'].filter((k) => payload[k] !== undefined && payload[k] !== '').map((k) => el('span', { class: 'chip' }, `${k}=${payload[k]}`))),
  ];
  for (const [distance, symbols] of [...groups].sort((a, b) => a[0] - b[0])) {
    const table = pagedTable(['symbol', 'kind', 'score', 'provenance'], symbols, (s) => el('tr', { testid: 'row' }, [s.qualifiedName, s.kind, s.score, s.provenance].map((v) => cell(v ?? ''))));
    view.push(el('div', { testid: 'section' }, el('h3', {}, `distance ${distance} · ${names[distance] ?? `distance_${distance}`}`), table));
  }
  const edges = pagedTable(['source', 'edge', 'target'], payload.edges ?? [], (e) => el('tr', {}, [e.source, e.edgeType + (e.status ? ` (${e.status})` : ''), e.target].map((v) => cell(v))));
  view.push(el('h3', {}, 'edges'), edges, graphSvg(payload));
  return view;
}

export function renderEvents(text) {
  const parsed = events.parse(text);
  const { result } = parsed;
  const summary = (event) => {
    if (typeof event.delta === 'string') return JSON.stringify(event.delta);
    if (event.item) return `${event.item.type} ${event.item.name ?? ''} ${event.item.id ?? ''}`.trim();
    if (event.message) return event.message;
    return event.response?.status ?? '';
  };
  const timeline = pagedTable(['line', 'type', 'detail'], parsed.events, (e) => el('tr', { testid: 'row' }, [e.line, e.event.type, summary(e.event)].map((v) => cell(v))));
  const calls = pagedTable(['call_id', 'name', 'arguments'], result.function_calls, (c) => el('tr', {}, [c.call_id, c.name, c.arguments].map((v) => cell(v))));
  const diagnostics = parsed.diagnostics.map((d) =>
    el('li', { class: `diag-${d.severity}` }, `${d.line == null ? 'end of input' : `line ${d.line}`}: ${d.code} — ${d.message}`),
  );
  const usage = result.usage ? Object.entries(result.usage).map(([k, v]) => el('span', { class: 'chip' }, `${k}=${v}`)) : [el('span', { class: 'muted' }, 'no usage')];
  const view = [
    el('h2', {}, `Events · ${parsed.events.length} kept · status ${result.status ?? 'none'} · ${parsed.valid ? 'valid' : 'invalid'}`),
    el('div', { testid: 'section' }, el('h3', {}, 'timeline'), timeline),
    el('h3', {}, 'assembled text'),
    el('pre', {}, result.text || '(none)'),
    el('h3', {}, `function calls (${result.function_calls.length})`),
    calls,
    el('h3', {}, 'usage'),
    el('div', { class: 'chips' }, usage),
    el('h3', {}, `diagnostics (${parsed.diagnostics.length})`),
    el('ul', { testid: 'diagnostics' }, diagnostics),
  ];
  return { view, json: parsed.events.map((e) => e.event) };
}

/** JSON as tables (each array of objects in it), or as indented text when it holds none. */
export function renderJson(value, label) {
  const tables = tablesIn(value);
  if (tables.length === 0) {
    const pretty = JSON.stringify(value, null, 2) ?? '';
    return [el('h2', {}, label), el('pre', { class: 'json' }, pretty.length > 200_000 ? `${pretty.slice(0, 200_000)}…` : pretty)];
  }
  const view = [el('h2', {}, `${label} · ${tables.length} table${tables.length === 1 ? '' : 's'}`)];
  for (const { path, rows } of tables) {
    const columns = columnsOf(rows);
    const render = (row) => el('tr', { testid: 'row' }, columns.map((c) => cell(row?.[c])));
    view.push(el('div', { testid: 'section' }, el('h3', {}, `${path} · ${rows.length.toLocaleString('en')} row${rows.length === 1 ? '' : 's'}`), pagedTable(columns, rows, render)));
  }
  return view;
}
