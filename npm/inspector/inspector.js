// The payload inspector: detects the format of what was pasted or dropped, shows what it means
// (sections, graph, event timeline) and what it costs in bytes and cl100k tokens in each
// format. Runs entirely on the wasm build; nothing leaves the page.
import { events, gcb, gcf, gcx, init, tokens } from '../browser.js';
import { load as loadTokens } from '../tokens.js';
import { SAMPLES } from './samples.js';

const $ = (id) => document.getElementById(id);
/** Rows rendered at once per section; more on demand, so 5 MB payloads stay responsive. */
const PAGE = 200;
const encoder = new TextEncoder();

await init();
const modulesReady = events.load();
const tokensReady = loadTokens('cl100k_base').then(
  () => true,
  () => false,
);

/** Bytes of a dropped binary file (GCB1); null when the input is the textarea's text. */
let droppedBytes = null;
let analysis = 0;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'testid') node.dataset.testid = value;
    else if (key === 'class') node.className = value;
    else node[key] = value;
  }
  for (const child of children.flat()) node.append(child instanceof Node ? child : String(child));
  return node;
}

function hexToBytes(text) {
  const digits = text.replace(/\s+/g, '');
  if (digits.length % 2 !== 0 || /[^0-9a-fA-F]/.test(digits)) throw new Error('GCB1 hex must be an even number of hex digits');
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('').replace(/(.{64})/g, '$1\n');

/** The format of an input: the override, or what its first bytes say. */
function detect(text) {
  const override = $('format-override').value;
  if (override !== 'auto') return override;
  if (droppedBytes) return 'gcb1';
  const t = text.trimStart();
  // By its prefix, as the reference decoder reads a header (gcx-go `parseHeader`): a malformed
  // header such as `GCX1-stream tool=x` is a GCX1 error on line 1, not a JSON syntax error.
  if (t.startsWith('GCX1')) return 'gcx1';
  if (t.startsWith('GCF ')) return 'gcf';
  if (/^47434231[0-9a-fA-F\s]*$/.test(t.trim())) return 'gcb1';
  const lines = t.split('\n').filter((l) => l.trim());
  if (lines.length > 1 && lines.every((l) => l.trimStart().startsWith('{')) && /"type"\s*:/.test(lines[0])) return 'events';
  return 'json';
}

function showError(error) {
  const box = $('error');
  if (!error) {
    box.hidden = true;
    box.textContent = '';
    return;
  }
  box.hidden = false;
  box.textContent = error.code ? `${error.code}: ${error.message}` : String(error.message ?? error);
  if (error.line != null) {
    box.dataset.line = error.line;
    box.dataset.column = error.column ?? '';
    selectLine(error.line);
  }
}

/** Puts the caret on the offending line of the input (without stealing focus on load). */
function selectLine(line) {
  const input = $('input');
  const text = input.value;
  let start = 0;
  for (let n = 1; n < line && start >= 0; n += 1) start = text.indexOf('\n', start) + 1;
  if (start < 0) return;
  const end = text.indexOf('\n', start);
  input.setSelectionRange(start, end < 0 ? text.length : end);
}

function pagedRows(table, rows, render) {
  let shown = 0;
  const more = el('button', { class: 'more', type: 'button' });
  const step = () => {
    const body = table.tBodies[0];
    for (const row of rows.slice(shown, shown + PAGE)) body.append(render(row));
    shown = Math.min(rows.length, shown + PAGE);
    more.hidden = shown >= rows.length;
    more.textContent = `Show ${Math.min(PAGE, rows.length - shown)} more of ${rows.length - shown}`;
  };
  more.addEventListener('click', step);
  step();
  return more;
}

function renderGcx(text) {
  const decoder = new gcx.Decoder({ comments: true });
  const sections = [];
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
  const view = [el('h2', {}, `GCX1 · ${sections.length} section${sections.length === 1 ? '' : 's'}`)];
  for (const section of sections) {
    const rows = section.items;
    const table = el('table', {}, el('thead', {}, el('tr', {}, section.fields.map((f) => el('th', {}, f)))), el('tbody'));
    const render = (item) =>
      item.type === 'comment'
        ? el('tr', { class: 'comment' }, el('td', { colSpan: section.fields.length }, `# ${item.text}`))
        : el('tr', { testid: 'row' }, section.fields.map((f) => el('td', {}, item.row[f] ?? '')));
    const more = pagedRows(table, rows, render);
    const chips = Object.entries(section.meta).map(([k, v]) => el('span', { class: 'chip' }, `${k}=${v}`));
    const count = rows.filter((r) => r.type === 'row').length;
    view.push(
      el('div', { testid: 'section' }, el('h3', {}, `${section.tool} · ${count} row${count === 1 ? '' : 's'}`), el('div', { class: 'chips' }, chips), table, more),
    );
  }
  const data = sections.map((s) => ({ tool: s.tool, meta: s.meta, rows: s.items.filter((i) => i.type === 'row').map((i) => i.row) }));
  return { view, json: data.length === 1 ? data[0].rows : data, gcxText: text };
}

function graphSvg(payload) {
  const symbols = payload.symbols ?? [];
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
  svg.lastChild.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#5c6778"/></marker>';
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

function renderGraph(payload, label) {
  const groups = new Map();
  for (const s of payload.symbols ?? []) {
    if (!groups.has(s.distance)) groups.set(s.distance, []);
    groups.get(s.distance).push(s);
  }
  const names = ['targets', 'related', 'extended'];
  const view = [
    el('h2', {}, `${label} · ${payload.tool ?? ''} · ${(payload.symbols ?? []).length} symbols, ${(payload.edges ?? []).length} edges`),
    el('div', { class: 'chips' }, ['tokenBudget', 'tokensUsed', 'packRoot'].filter((k) => payload[k] !== undefined && payload[k] !== '').map((k) => el('span', { class: 'chip' }, `${k}=${payload[k]}`))),
  ];
  for (const [distance, symbols] of [...groups].sort((a, b) => a[0] - b[0])) {
    const table = el(
      'table',
      {},
      el('thead', {}, el('tr', {}, ['symbol', 'kind', 'score', 'provenance'].map((h) => el('th', {}, h)))),
      el('tbody', {}, symbols.map((s) => el('tr', { testid: 'row' }, [s.qualifiedName, s.kind, s.score, s.provenance].map((v) => el('td', {}, v ?? ''))))),
    );
    view.push(el('div', { testid: 'section' }, el('h3', {}, `distance ${distance} · ${names[distance] ?? `distance_${distance}`}`), table));
  }
  const edges = el(
    'table',
    {},
    el('thead', {}, el('tr', {}, ['source', 'edge', 'target'].map((h) => el('th', {}, h)))),
    el('tbody', {}, (payload.edges ?? []).map((e) => el('tr', {}, [e.source, e.edgeType + (e.status ? ` (${e.status})` : ''), e.target].map((v) => el('td', {}, v))))),
  );
  view.push(el('h3', {}, 'edges'), edges, graphSvg(payload));
  return view;
}

function renderEvents(text) {
  const parsed = events.parse(text);
  const { result } = parsed;
  const summary = (event) => {
    if (typeof event.delta === 'string') return JSON.stringify(event.delta);
    if (event.item) return `${event.item.type} ${event.item.name ?? ''} ${event.item.id ?? ''}`.trim();
    if (event.message) return event.message;
    return event.response?.status ?? '';
  };
  const timeline = el(
    'table',
    {},
    el('thead', {}, el('tr', {}, ['line', 'type', 'detail'].map((h) => el('th', {}, h)))),
    el('tbody'),
  );
  const more = pagedRows(timeline, parsed.events, (e) => el('tr', { testid: 'row' }, [e.line, e.event.type, summary(e.event)].map((v) => el('td', {}, v))));
  const calls = el(
    'table',
    {},
    el('thead', {}, el('tr', {}, ['call_id', 'name', 'arguments'].map((h) => el('th', {}, h)))),
    el('tbody', {}, result.function_calls.map((c) => el('tr', {}, [c.call_id, c.name, c.arguments].map((v) => el('td', {}, v))))),
  );
  const diagnostics = parsed.diagnostics.map((d) =>
    el('li', { class: `diag-${d.severity}` }, `${d.line == null ? 'end of input' : `line ${d.line}`}: ${d.code} — ${d.message}`),
  );
  const usage = result.usage ? Object.entries(result.usage).map(([k, v]) => el('span', { class: 'chip' }, `${k}=${v}`)) : [el('span', { class: 'muted' }, 'no usage')];
  const view = [
    el('h2', {}, `Events · ${parsed.events.length} kept · status ${result.status ?? 'none'} · ${parsed.valid ? 'valid' : 'invalid'}`),
    el('div', { testid: 'section' }, el('h3', {}, 'timeline'), timeline, more),
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

const looksLikeGraph = (value) => value && typeof value === 'object' && !Array.isArray(value) && Array.isArray(value.symbols);

/** Each representation that applies: its text (or bytes), for the cost figures. */
function representations(format, data) {
  const tool = $('tool').value.trim() || 'payload';
  const out = { json: JSON.stringify(data.json) };
  const attempt = (fn) => {
    try {
      return fn();
    } catch {
      return null;
    }
  };
  out.gcx = data.gcxText ?? attempt(() => gcx.encodeGeneric(tool, data.json));
  out.gcf = data.gcfText ?? (looksLikeGraph(data.json) ? attempt(() => gcf.encode(data.json)) : null);
  if (looksLikeGraph(data.json)) out.gcb = data.gcbBytes ?? attempt(() => gcb.encode(data.json));
  if (format === 'events') out.jsonl = data.jsonl;
  return out;
}

async function renderCosts(reps, token) {
  const box = $('conversions');
  const ready = await tokensReady;
  if (token !== analysis) return;
  const size = (v) => (typeof v === 'string' ? encoder.encode(v).length : v.length);
  const count = (v) => (ready && typeof v === 'string' ? tokens.count(v) : null);
  const base = { bytes: size(reps.json), tokens: count(reps.json) };
  const figure = (name, label, value) => {
    if (value == null) return el('div', { class: 'figure' }, el('b', {}, label), el('span', { class: 'num', testid: `tokens-${name}` }, '–'), el('div', { class: 'muted' }, 'not applicable'));
    const bytes = size(value);
    const t = count(value);
    const saving = (a, b) => (b ? `${(((b - a) / b) * 100).toFixed(1)} %` : '–');
    return el(
      'div',
      { class: 'figure' },
      el('b', {}, label),
      el('span', { class: 'num', testid: `tokens-${name}` }, t == null ? 'n/a' : String(t)),
      ' tokens',
      el('div', {}, `${bytes} bytes`),
      name === 'json' ? el('div', { class: 'muted' }, 'baseline') : el('div', {}, `saves ${saving(t ?? 0, base.tokens)} tokens, ${saving(bytes, base.bytes)} bytes`),
      typeof value === 'string' ? el('pre', {}, value.length > 4000 ? `${value.slice(0, 4000)}…` : value) : el('pre', {}, toHex(value.slice(0, 256))),
    );
  };
  box.replaceChildren(
    el('h2', {}, ready ? 'Cost (cl100k_base tokens, UTF-8 bytes)' : 'Cost (bytes; the token module did not load)'),
    el(
      'div',
      { class: 'figures' },
      figure('json', 'compact JSON', reps.json),
      figure('gcx', 'GCX1', reps.gcx),
      figure('gcf', 'GCF v1.1', reps.gcf),
      ...(reps.gcb ? [figure('gcb', 'GCB1 (binary)', reps.gcb)] : []),
      ...(reps.jsonl ? [figure('jsonl', 'JSONL (godex form)', reps.jsonl)] : []),
    ),
  );
}

async function analyze() {
  const token = ++analysis;
  await modulesReady;
  const text = $('input').value;
  const format = detect(text);
  $('format').textContent = format;
  showError(null);
  const view = $('view');
  if (!text.trim() && !droppedBytes) {
    view.replaceChildren(el('p', { class: 'muted' }, 'Nothing to inspect yet: paste, drop a file, or pick a sample.'));
    $('conversions').replaceChildren();
    return;
  }
  try {
    let data;
    if (format === 'gcx1') {
      const r = renderGcx(text);
      view.replaceChildren(...r.view);
      data = r;
    } else if (format === 'gcf') {
      const payload = gcf.decode(text);
      view.replaceChildren(...renderGraph(payload, 'GCF v1.1'));
      data = { json: payload, gcfText: text };
    } else if (format === 'gcb1') {
      const bytes = droppedBytes ?? hexToBytes(text);
      const payload = gcb.decode(bytes);
      view.replaceChildren(...renderGraph(payload, 'GCB1'));
      data = { json: payload, gcbBytes: bytes };
    } else if (format === 'events') {
      const r = renderEvents(text);
      view.replaceChildren(...r.view);
      data = { json: r.json, jsonl: text };
    } else {
      const value = JSON.parse(text);
      view.replaceChildren(el('h2', {}, 'JSON'), el('pre', {}, JSON.stringify(value, null, 2).slice(0, 200_000)));
      data = { json: value };
    }
    $('conversions').replaceChildren(el('p', { class: 'muted' }, 'Counting tokens…'));
    renderCosts(representations(format, data), token);
  } catch (error) {
    view.replaceChildren(el('p', { class: 'muted' }, `Could not read this as ${format}.`));
    $('conversions').replaceChildren();
    showError(error instanceof SyntaxError ? { message: `JSON: ${error.message}` } : error);
  }
}

let timer = 0;
const scheduled = () => {
  clearTimeout(timer);
  timer = setTimeout(analyze, 150);
};

for (const [key, sample] of Object.entries(SAMPLES)) $('sample').append(el('option', { value: key }, sample.label));
$('sample').addEventListener('change', async () => {
  const sample = SAMPLES[$('sample').value];
  if (!sample) return;
  droppedBytes = null;
  $('format-override').value = 'auto';
  if (sample.tool) $('tool').value = sample.tool;
  $('input').value = sample.fromGcf ? toHex(gcb.encode(gcf.decode(SAMPLES.gcf.text))) : sample.text;
  await analyze();
});
$('input').addEventListener('input', () => {
  droppedBytes = null;
  scheduled();
});
$('format-override').addEventListener('change', analyze);
$('tool').addEventListener('input', scheduled);
const input = $('input');
input.addEventListener('dragover', (e) => {
  e.preventDefault();
  input.classList.add('dragging');
});
input.addEventListener('dragleave', () => input.classList.remove('dragging'));
input.addEventListener('drop', async (e) => {
  e.preventDefault();
  input.classList.remove('dragging');
  const file = e.dataTransfer?.files?.[0];
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const isGcb = bytes.length >= 4 && String.fromCharCode(...bytes.slice(0, 4)) === 'GCB1';
  droppedBytes = isGcb ? bytes : null;
  input.value = isGcb ? toHex(bytes.slice(0, 65536)) : new TextDecoder().decode(bytes);
  await analyze();
});

await analyze();
window.agentwireInspector = { analyze, ready: true };
