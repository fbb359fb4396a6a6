// @ts-check
// The payload inspector: detects the format of what was pasted or dropped, shows what it means
// (tables, graph, event timeline), what agentwire-mcp would send instead (compact.json's
// candidates, counted in a worker) and where the tokens go. Runs entirely on the wasm build;
// nothing leaves the page.
import { compact, events, gcb, gcf, init, toon } from '../browser.js';
import { renderCost } from './cost.js';
import { el } from './dom.js';
import { defaultPart, mcpResult } from './mcp-result.js';
import { SAMPLES } from './samples.js';
import { decodeShare, encodeShare } from './share.js';
import { renderTokens } from './tokens-view.js';
import { renderEvents, renderGcx, renderGcxPages, renderGraph, renderJson } from './views.js';
import { Superseded, WorkerClient } from './worker-client.js';

const $ = (id) => /** @type {any} */ (document.getElementById(id));
const encoder = new TextEncoder();
const worker = new WorkerClient();

await init();
// events: the timeline; gcf: compact.decode, whose JSON errors carry a line and column; toon:
// pasted TOON.
const modulesReady = Promise.all([events.load(), gcf.load(), toon.load()]);

/** Bytes of a dropped binary file (GCB1); null when the input is the textarea's text. */
let droppedBytes = null;
/**
 * A payload above LARGE_INPUT, kept here instead of in the textarea: Chromium takes seconds to
 * lay out megabytes of text in a textarea, and that would freeze the page on a 10 MB paste.
 */
let largeText = /** @type {string | null} */ (null);
const LARGE_INPUT = 1 << 20;
/** What the textarea shows of a large payload. */
const PREVIEW_CHARS = 16 * 1024;

/** UTF-8 bytes of the large payload (encoding 10 MB again takes 50 ms). */
let largeBytes = 0;

/** UTF-8 length of a string as TextEncoder writes it (a lone surrogate becomes U+FFFD), without encoding it. */
function utf8Length(text) {
  let n = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 4 bytes for 2 units
      i += 1;
    } else n += 2;
  }
  return n;
}
const byteLength = (text) => (text === largeText ? largeBytes : encoder.encode(text).length);

/** The payload: the textarea's text, or the large payload it previews. */
const inputText = () => largeText ?? $('input').value;

/** Puts a payload in the input: a large one is kept aside, the textarea shows its start, read-only. */
function setInput(text) {
  const input = $('input');
  largeText = text.length > LARGE_INPUT ? text : null;
  input.readOnly = largeText !== null;
  input.value = largeText === null ? text : text.slice(0, PREVIEW_CHARS);
  const note = $('large-input');
  note.hidden = largeText === null;
  if (largeText !== null) {
    largeBytes = utf8Length(text);
    $('large-input-text').textContent = `${(largeBytes / 1e6).toFixed(1)} MB payload: the box shows its first ${PREVIEW_CHARS / 1024} KiB, read-only. `;
  }
}
let analysis = 0;
/** What the cost panel and the token view show, for the latest analysis. */
let current = null;
/** Time of the first render of each analysis, in ms from its start (read by the browser test). */
const timings = { firstRender: /** @type {number | null} */ (null), costs: /** @type {number | null} */ (null), completed: 0 };

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
  const t = text.slice(0, 4096).trimStart();
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
    delete box.dataset.line;
    delete box.dataset.column;
    return;
  }
  box.hidden = false;
  const where =
    error.line != null && !/line \d+/.test(error.message)
      ? ` (line ${error.line}, column ${error.column})`
      : error.line == null && error.offset != null
        ? ` (at byte ${error.offset})`
        : '';
  if (error.offset != null) box.dataset.offset = error.offset;
  else delete box.dataset.offset;
  box.textContent = `${error.code ? `${error.code}: ` : ''}${String(error.message ?? error)}${where}`;
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
  if (largeText !== null) return; // the line may be past the preview
  let start = 0;
  for (let n = 1; n < line && start >= 0; n += 1) start = text.indexOf('\n', start) + 1;
  if (start < 0) return;
  const end = text.indexOf('\n', start);
  input.setSelectionRange(start, end < 0 ? text.length : end);
}

/** A JSON syntax error with its line and column, from the core's parser (JSON.parse's message varies). */
function jsonError(text, parseError) {
  try {
    compact.decode(text);
  } catch (error) {
    return error;
  }
  return { message: `JSON: ${parseError.message}` };
}

const looksLikeGraph = (value) => value !== null && typeof value === 'object' && !Array.isArray(value) && Array.isArray(value.symbols);

/** The text compact.json gets, and what to call it, for a decoded value. */
const stringified = (value, what) => ({ text: '', value, source: `${what}, as JSON.stringify of its value`, decoded: true });

async function analyze() {
  const token = ++analysis;
  const started = performance.now();
  worker.cancel();
  await modulesReady;
  if (token !== analysis) return;
  const text = inputText();
  const format = detect(text);
  $('format').textContent = format;
  $('part-picker').hidden = true;
  showError(null);
  const view = $('view');
  current = null;
  $('tokens-view').replaceChildren(el('p', { class: 'muted' }, 'Pick a candidate in the cost panel to see its tokens.'));
  if (!text.trim() && !droppedBytes) {
    view.replaceChildren(el('p', { class: 'muted' }, 'Nothing to inspect yet: paste, drop a file, or pick a sample.'));
    $('conversions').replaceChildren();
    return;
  }
  /**
   * What compact.json gets: `text`, or for a decoded payload `value` (stringified after the
   * first paint: 10 MB of rows take a while).
   * @type {{ text: string, value?: unknown, gcx1?: string, source: string, graph: boolean, isError?: boolean, decoded?: boolean } | null}
   */
  let target = null;
  try {
    if (format === 'gcx1') {
      // Large payloads: the first pages now, the whole decode in the worker.
      const pages = text.length > LARGE_INPUT ? renderGcxPages(text) : null;
      const r = pages ?? renderGcx(text);
      view.replaceChildren(...r.view);
      // The tool the payload names, unless one was typed: its GCX1 layout is a candidate.
      if (r.tools.length === 1 && ['', 'result'].includes($('tool').value.trim())) $('tool').value = r.tools[0];
      target = pages ? { text: '', gcx1: text, source: 'the GCX1 rows, as JSON.stringify of their value', decoded: true, graph: false } : { ...stringified(/** @type {any} */ (r).json, 'the GCX1 rows'), graph: false };
    } else if (format === 'gcf') {
      const payload = gcf.decode(text);
      view.replaceChildren(...renderGraph(payload, 'GCF v1.1'));
      target = { ...stringified(payload, 'the GCF graph'), graph: true };
    } else if (format === 'gcb1') {
      const payload = gcb.decode(droppedBytes ?? hexToBytes(text));
      view.replaceChildren(...renderGraph(payload, 'GCB1'));
      target = { ...stringified(payload, 'the GCB1 graph'), graph: true };
    } else if (format === 'events') {
      const r = renderEvents(text);
      view.replaceChildren(...r.view);
      target = { ...stringified(r.json, 'the events'), graph: false };
    } else if (format === 'toon') {
      const value = toon.decode(text);
      view.replaceChildren(...renderJson(value, 'TOON'));
      target = { ...stringified(value, 'the TOON document'), graph: looksLikeGraph(value) };
    } else {
      let value;
      try {
        value = JSON.parse(text);
      } catch (error) {
        // Not JSON: TOON, when it reads as TOON (the format agents also paste), else the JSON
        // error with its line and column.
        let asToon;
        try {
          asToon = toon.decode(text);
        } catch {
          throw jsonError(text, error);
        }
        $('format').textContent = 'toon';
        view.replaceChildren(...renderJson(asToon, 'TOON'));
        target = { ...stringified(asToon, 'the TOON document'), graph: looksLikeGraph(asToon) };
      }
      const mcp = target === null ? mcpResult(value) : null;
      if (mcp && mcp.parts.length > 0) {
        const index = pickPart(mcp);
        const part = mcp.parts[index];
        const partValue = part.json ? JSON.parse(part.text) : undefined;
        view.replaceChildren(...(part.json ? renderJson(partValue, `${part.label}`) : [el('h2', {}, part.label), el('pre', { class: 'json' }, part.text.slice(0, 200_000))]));
        const what = `${part.label} of the pasted ${mcp.envelope}${part.label.endsWith('structuredContent') ? ' (JSON.stringify of it)' : ''}`;
        $('used-part').textContent = `Using ${part.label}${mcp.isError ? ' (isError: true)' : ''}`;
        target = { text: part.text, source: what, graph: looksLikeGraph(partValue), isError: mcp.isError };
      } else if (target === null) {
        view.replaceChildren(...renderJson(value, 'JSON'));
        target = { text, source: 'the input text, as pasted', graph: looksLikeGraph(value) };
      }
    }
  } catch (error) {
    view.replaceChildren(el('p', { class: 'muted' }, `Could not read this as ${format}.`));
    $('conversions').replaceChildren();
    showError(error);
    return;
  }
  // The first render: measured after the browser has painted it.
  requestAnimationFrame(() => {
    if (token === analysis) timings.firstRender = performance.now() - started;
  });
  $('conversions').replaceChildren(el('h2', {}, 'Cost'), el('p', { class: 'muted', testid: 'counting' }, 'Counting tokens in every candidate…'));
  // After the first paint: stringifying and handing megabytes to the worker take a while.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  if (token !== analysis) return;
  if (target.decoded && target.gcx1 === undefined) target.text = JSON.stringify(target.value);
  await costs(target, token, started);
}

/** Which part of an MCP result to inspect: the picker's choice, or agentwire-mcp's first. */
function pickPart(mcp) {
  const picker = $('part');
  const labels = mcp.parts.map((p) => p.label);
  const same = picker.options.length === labels.length && [...picker.options].every((o, i) => o.value === labels[i]);
  if (!same) picker.replaceChildren(...mcp.parts.map((p) => el('option', { value: p.label }, `${p.label}${p.json ? '' : ' (not JSON)'}`)));
  if (!same || picker.selectedIndex < 0) picker.selectedIndex = pendingPart ?? defaultPart(mcp);
  pendingPart = null;
  $('part-picker').hidden = false;
  return picker.selectedIndex;
}
/** The part a share link asked for, applied once the result's parts are known. */
let pendingPart = /** @type {number | null} */ (null);

async function costs(target, token, started) {
  const encoding = $('encoding').value;
  const minSavings = Number($('min-savings').value);
  const tool = $('tool').value.trim() || 'result';
  let reply;
  try {
    // A large GCX1 payload goes as it is: the worker decodes it and sends back its JSON.
    reply = await worker.request('compact', target.gcx1 ?? target.text, { tool, encoding, minSavings, graph: target.graph, fromGcx1: target.gcx1 !== undefined });
  } catch (error) {
    if (error instanceof Superseded || token !== analysis) return;
    if (target.gcx1 !== undefined) showError(error);
    $('conversions').replaceChildren(el('h2', {}, 'Cost'), el('p', { class: 'error' }, `${error.code ?? 'error'}: ${error.message}`));
    return;
  }
  if (token !== analysis) return;
  timings.costs = performance.now() - started;
  const { result, extras } = reply;
  if (reply.inputText !== undefined) target.text = reply.inputText;
  // The token view opens on what agentwire-mcp sends (the input, when it keeps it).
  const selected = target.isError ? 'input' : result.format;
  current = { target, result, extras, encoding, minSavings, selected, token };
  showCosts();
  await showTokens(selected);
  if (token === analysis) timings.completed += 1;
}

function showCosts() {
  const { target, result, extras, encoding, minSavings, selected } = current;
  $('conversions').replaceChildren(
    ...renderCost({
      result,
      extras,
      encoding,
      minSavings,
      source: target.source,
      inputText: target.text,
      inputLabel: target.decoded ? 'JSON of the decoded value' : undefined,
      inputBytes: byteLength(target.text),
      isError: target.isError === true,
      selected,
      onSelect: (format) => {
        showTab('tokens');
        showTokens(format);
      },
    }),
  );
}

/** The token view of one candidate (`input`: the text compacted). */
async function showTokens(format) {
  if (!current) return;
  const state = current;
  state.selected = format;
  showCosts();
  const candidate = format === 'input' ? { text: state.target.text } : [...state.result.candidates, ...state.extras].find((c) => c.format === format);
  const box = $('tokens-view');
  if (candidate?.text === undefined) {
    box.replaceChildren(el('p', { class: 'muted' }, 'This candidate has no text to show.'));
    return;
  }
  box.replaceChildren(el('p', { class: 'muted' }, 'Splitting into tokens…'));
  let reply;
  try {
    reply = await worker.request('tokens', candidate.text, { encoding: state.encoding, format });
  } catch (error) {
    if (!(error instanceof Superseded)) box.replaceChildren(el('p', { class: 'error' }, String(error.message)));
    return;
  }
  if (current !== state || state.selected !== format) return;
  box.replaceChildren(...renderTokens({ format, text: candidate.text, ids: reply.ids, lengths: reply.lengths, columns: reply.columns, encoding: state.encoding }));
}

function showTab(name) {
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const on = /** @type {HTMLElement} */ (tab).dataset.tab === name;
    tab.setAttribute('aria-selected', String(on));
    const panel = $(/** @type {HTMLElement} */ (tab).getAttribute('aria-controls'));
    panel.hidden = !on;
  }
}

// ---- share links ----------------------------------------------------------------------------

function viewState() {
  return {
    text: inputText(),
    tool: $('tool').value,
    format: $('format-override').value,
    encoding: $('encoding').value,
    minSavings: $('min-savings').value,
    part: $('part-picker').hidden ? null : $('part').selectedIndex,
  };
}

async function share() {
  const out = $('share-link');
  const message = $('share-message');
  if (droppedBytes && droppedBytes.length > 65536) {
    message.textContent = 'A dropped binary file is shared as its hex, which is cut at 64 KiB: it cannot be shared as a link.';
    out.hidden = true;
    return;
  }
  let encoded;
  try {
    encoded = await encodeShare(viewState());
  } catch (error) {
    // CompressionStream('deflate-raw') is missing before Chromium 103, Firefox 113, Safari 16.4.
    message.textContent = `This browser cannot make a share link: ${error.message}`;
    out.hidden = true;
    return;
  }
  if ('refused' in encoded) {
    message.textContent = encoded.refused;
    out.hidden = true;
    return;
  }
  const url = new URL(location.href);
  url.hash = encoded.fragment;
  history.replaceState(null, '', url);
  out.value = url.href;
  out.hidden = false;
  message.textContent = `A link of ${url.href.length.toLocaleString('en')} characters; the payload is in its fragment, which browsers do not send to the server.`;
  out.select();
}

async function openShared() {
  if (!location.hash) return false;
  let state;
  try {
    state = await decodeShare(location.hash);
  } catch (error) {
    showError({ message: `This share link is damaged: ${error.message}` });
    return false;
  }
  if (!state) return false;
  setInput(state.text ?? '');
  $('tool').value = state.tool ?? 'result';
  $('format-override').value = state.format ?? 'auto';
  $('encoding').value = state.encoding ?? 'cl100k_base';
  $('min-savings').value = state.minSavings ?? '0.1';
  pendingPart = state.part ?? null;
  return true;
}

// ---- wiring ---------------------------------------------------------------------------------

/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
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
  $('tool').value = sample.tool ?? 'result';
  $('part').replaceChildren();
  setInput(sample.fromGcf ? toHex(gcb.encode(gcf.decode(SAMPLES.gcf.text))) : sample.text);
  await analyze();
});
$('input').addEventListener('paste', (/** @type {ClipboardEvent} */ event) => {
  const text = event.clipboardData?.getData('text/plain') ?? '';
  if (text.length <= LARGE_INPUT) return; // the textarea takes it (an 'input' event follows)
  event.preventDefault();
  droppedBytes = null;
  $('part').replaceChildren();
  setInput(text);
  analyze();
});
$('clear-input').addEventListener('click', () => {
  setInput('');
  droppedBytes = null;
  analyze();
});
$('input').addEventListener('input', (/** @type {InputEvent} */ event) => {
  droppedBytes = null;
  largeText = null;
  $('part').replaceChildren();
  // A paste is one change: analyse at once; typing waits for a pause.
  if (event.inputType === 'insertFromPaste' || event.inputType === 'insertFromDrop') analyze();
  else scheduled();
});
$('format-override').addEventListener('change', analyze);
$('encoding').addEventListener('change', analyze);
$('min-savings').addEventListener('change', analyze);
$('part').addEventListener('change', analyze);
$('tool').addEventListener('input', scheduled);
$('share').addEventListener('click', share);
for (const tab of document.querySelectorAll('[role=tab]')) tab.addEventListener('click', () => showTab(/** @type {HTMLElement} */ (tab).dataset.tab));
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
  setInput(isGcb ? toHex(bytes.slice(0, 65536)) : new TextDecoder().decode(bytes));
  await analyze();
});

await openShared();
await analyze();
window.addEventListener('hashchange', async () => {
  if (await openShared()) await analyze();
});
/** For the browser test: analysis on demand, the timings, and the state of the latest one. */
Object.assign(window, { agentwireInspector: { analyze, timings, current: () => current, ready: true } });
