// The events suite of the JS fixture runner: the same checks as tests/runner/src/events.rs, through
// the public `events` API. Browser-safe. Every stream is also pushed in seeded random
// chunkings (cuts anywhere, inside UTF-8 characters included).

import { Mismatch, fail, newReport, same, sameText } from './conformance-check.mjs';

/** Root files of the suite (streams/ and sse/ are listed in manifest.json). */
export const EVENTS_FILES = ['manifest.json', 'toolspec.json', 'mock.json', 'followup.json'];

/** `(line, code, severity)` plus `field` / `item_id` where the expectation gives them. */
function checkDiagnostics(what, expected, got) {
  const view = (d, like) => {
    const out = { line: d.line, code: d.code, severity: d.severity };
    for (const key of ['field', 'item_id']) if (like && key in like) out[key] = d[key] ?? null;
    return out;
  };
  same(what, expected.map((d) => view(d, d)), got.map((d, i) => view(d, expected[i])));
}

/** A small deterministic generator (xorshift32), seeded per stream. */
function rng(name) {
  let state = 2166136261;
  for (const c of name) state = Math.imul(state ^ c.charCodeAt(0), 16777619) >>> 0;
  state ||= 1;
  return (n) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

function decodeInChunks(events, input, nextSize) {
  const decoder = events.createDecoder();
  try {
    const items = [];
    for (let at = 0; at < input.length; ) {
      const n = Math.max(1, Math.min(nextSize(), input.length - at));
      items.push(...decoder.push(input.subarray(at, at + n)));
      at += n;
    }
    const { items: last, ...verdict } = decoder.finish();
    return { items: [...items, ...last], verdict };
  } finally {
    decoder.free();
  }
}

function checkStream(events, input, expected, name) {
  const whole = events.parse(input);
  same('valid', expected.valid, whole.valid);
  same('result', expected.result, whole.result);
  checkDiagnostics('diagnostics', expected.diagnostics, whole.diagnostics);
  if (expected.godex_canonical === true) {
    const lines = new TextDecoder('utf-8', { fatal: true }).decode(input).split('\n');
    lines.forEach((line, n) => {
      if (!line.trim()) return;
      sameText(`line ${n + 1} re-serialized`, `${line}\n`, events.serialize([JSON.parse(line)]));
    });
  }
  const reference = decodeInChunks(events, input, () => Infinity);
  same('one byte at a time', reference, decodeInChunks(events, input, () => 1));
  const random = rng(name);
  for (let round = 0; round < 8; round += 1) {
    const max = 1 + random(64);
    same(`random chunking ${round}`, reference, decodeInChunks(events, input, () => 1 + random(max)));
  }
}

function checkSse(events, text, expected) {
  const got = events.fromSse(text);
  same('frames', expected.frames, got.frames);
  checkDiagnostics('framing_diagnostics', expected.framing_diagnostics, got.framing_diagnostics);
  same('converted', expected.converted, got.converted);
  same('valid', expected.valid, got.valid);
  same('result', expected.result, got.result);
  checkDiagnostics('diagnostics', expected.diagnostics, got.diagnostics);
}

/** The fixtures' codes are the error codes without `EVENTS_`, lower-cased. */
const fixtureCode = (code) => code.replace(/^EVENTS_/, '').toLowerCase();

function expectError(expected, fn, withMessage) {
  let error;
  try {
    fail(`expected error ${expected.error.code}, got ${JSON.stringify(fn())}`);
  } catch (e) {
    if (e instanceof Mismatch) throw e;
    error = e;
  }
  sameText('code', expected.error.code, fixtureCode(error.code ?? ''));
  if (withMessage && expected.error.message != null) sameText('message', expected.error.message, error.message);
}

const jsonl = (lines) => lines.map((l) => `${l}\n`).join('');

/** Runs the events files present in `files` (relative path → parsed JSON, bytes or text). */
export function runEventsSuite(api, files) {
  const { events } = api;
  const { report, record } = newReport();
  if (!EVENTS_FILES.some((name) => files[name])) throw new Error('no events vector file found');
  for (const entry of files['manifest.json'] ?? []) {
    record(`events/${entry.kind}/${entry.name}`, () => {
      const input = files[entry.input];
      const expected = files[entry.expected];
      if (input === undefined || expected === undefined) fail(`missing ${entry.input} or ${entry.expected}`);
      if (entry.kind === 'stream') checkStream(events, input, expected, entry.name);
      else if (entry.kind === 'sse') checkSse(events, input, expected);
      else fail(`unknown manifest kind ${entry.kind}`);
    });
  }
  const toolspec = files['toolspec.json'];
  (toolspec?.spec_cases ?? []).forEach((c, i) =>
    record(`events/toolspec.json::spec_cases[${i}]`, () => {
      if (c.expected.ok) same('spec', c.expected.ok, events.parseToolSpec(c.input));
      else expectError(c.expected, () => events.parseToolSpec(c.input), true);
    }),
  );
  (toolspec?.schema_cases ?? []).forEach((c, i) =>
    record(`events/toolspec.json::schema_cases[${i}]`, () => {
      if (c.expected.ok) same('tool', c.expected.ok, events.functionTool(c.name, c.schema_text));
      else expectError(c.expected, () => events.functionTool(c.name, c.schema_text), false);
    }),
  );
  const mock = files['mock.json'];
  for (const [mode, expected] of Object.entries(mock?.modes ?? {})) {
    record(`events/mock.json::modes.${mode}`, () =>
      sameText('jsonl', jsonl(expected.jsonl_lines), events.mock(mode, { echoText: expected.echo_text ?? '' })),
    );
  }
  if (mock?.echo_long) {
    record('events/mock.json::echo_long', () =>
      sameText('jsonl', jsonl(mock.echo_long.jsonl_lines), events.mock('echo', { echoText: mock.echo_long.echo_text })),
    );
  }
  for (const c of files['followup.json']?.cases ?? []) {
    record(`events/followup.json::${c.name}`, () =>
      same('input', c.expected_input, events.followUp({ context: c.context, calls: c.function_calls, outputs: c.outputs })),
    );
  }
  return report;
}
