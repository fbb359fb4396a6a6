// The GCF v3.5.3 suite of the JS fixture runner: the same checks as tests/runner/src/gcf, through the
// public `gcf` API. Browser-safe. Fixture files arrive as text: generic encoder inputs must
// reach the encoder as their raw JSON text (key order, including keys that look like numbers,
// which JavaScript objects would reorder, and number lexemes: `1e+20` is a double,
// `100000000000000000000` an out-of-range integer), and decoded values are compared with an
// order-keeping reading of the expectation. The fixtures are the v3.5.3 suite, so every generic
// encode pins `version: '3.5.3'` (the default, 3.6.0, factors constant columns).

import { Mismatch, deepEqual, fail, newReport, same, sameText, show } from './conformance-check.mjs';

/** The generic encoder in the version of these fixtures. */
const V3_5_3 = { version: '3.5.3' };

/** The fixture directories of tests/, each holding `*.json` fixtures. */
export const GCF_DIRECTORIES = [
  'arrays', 'attachments', 'containers', 'decode', 'errors-v2', 'flatten', 'generic-delta',
  'generic-delta-session', 'generic-pack-root', 'graph-decode', 'graph-delta', 'graph-encode',
  'graph-pack-root', 'graph-session', 'inline-schema', 'keyed-map', 'keys', 'numbers', 'roots',
  'scalar', 'streaming-v2', 'whitespace',
];

// ---- an order-keeping JSON reader -----------------------------------------------------------

/**
 * Reads JSON text into `{t: 'object', members: [[key, value]]}`, `{t: 'array', items}`,
 * `{t: 'number', text}` or plain strings, booleans and null; `raw` keeps each top-level
 * member's source text. Fixture files are trusted, so errors are plain exceptions.
 */
export function readOrdered(text) {
  let at = 0;
  const space = () => {
    while (' \t\r\n'.includes(text[at]) && at < text.length) at += 1;
  };
  const value = () => {
    space();
    const c = text[at];
    if (c === '{') {
      at += 1;
      const members = [];
      space();
      if (text[at] === '}') {
        at += 1;
        return { t: 'object', members };
      }
      for (;;) {
        space();
        const key = string();
        space();
        if (text[at] !== ':') throw new Error(`expected : at ${at}`);
        at += 1;
        const start = at;
        const v = value();
        members.push([key, v, text.slice(start, at).trim()]);
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === '}') {
          at += 1;
          return { t: 'object', members };
        } else throw new Error(`expected , or } at ${at}`);
      }
    }
    if (c === '[') {
      at += 1;
      const items = [];
      space();
      if (text[at] === ']') {
        at += 1;
        return { t: 'array', items };
      }
      for (;;) {
        items.push(value());
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === ']') {
          at += 1;
          return { t: 'array', items };
        } else throw new Error(`expected , or ] at ${at}`);
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return v;
      }
    }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!m) throw new Error(`unexpected ${show(text.slice(at, at + 10))} at ${at}`);
    at += m[0].length;
    return { t: 'number', text: m[0] };
  };
  const string = () => {
    const start = at;
    at += 1;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at += 1;
    return JSON.parse(text.slice(start, at));
  };
  const v = value();
  space();
  if (at !== text.length) throw new Error(`trailing text at ${at}`);
  return v;
}

const isInteger = (t) => !/[.eE]/.test(t);

/** True for the objects a table row can come from: items of an all-object array, values of
 * an object of two or more objects. */
function holdsRows(v) {
  if (v?.t === 'array') return v.items.length > 0 && v.items.every((i) => i?.t === 'object');
  if (v?.t === 'object') return v.members.length >= 2 && v.members.every(([, m]) => m?.t === 'object');
  return false;
}

/**
 * Equality of order-kept values; numbers by value (integers exactly). `order`: 'rows' keeps
 * member order except inside table rows (a row decodes in its header's order with `>`-named
 * fields last, SPEC §7.3, §7.4.6.1), 'ignored' compares membership only (the suite's
 * "structural" decode contract), as tests/runner/src/gcf/mod.rs.
 */
export function sameOrdered(a, b, order = 'rows', row = false) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || a.t !== b.t) return false;
  if (a.t === 'number') {
    if (isInteger(a.text) && isInteger(b.text)) return BigInt(a.text) === BigInt(b.text);
    return Number(a.text) === Number(b.text);
  }
  const childRow = order === 'rows' && holdsRows(a);
  if (a.t === 'array') return a.items.length === b.items.length && a.items.every((x, i) => sameOrdered(x, b.items[i], order, childRow));
  if (a.members.length !== b.members.length) return false;
  if (order === 'ignored' || row) {
    return a.members.every(([k, v]) => {
      const other = b.members.find(([key]) => key === k);
      return other !== undefined && sameOrdered(v, other[1], order, childRow);
    });
  }
  return a.members.every(([k, v], i) => k === b.members[i][0] && sameOrdered(v, b.members[i][1], order, childRow));
}

// ---- checks ---------------------------------------------------------------------------------

/** One fixture: its parsed members and each member's raw JSON text. */
function fixture(text) {
  const parsed = JSON.parse(text);
  const top = readOrdered(text);
  const raw = Object.fromEntries(top.members.map(([k, , r]) => [k, r]));
  return { ...parsed, raw };
}

function expectError(expected, run) {
  let error = null;
  try {
    run();
  } catch (e) {
    error = e;
  }
  if (!error) fail(`expected error ${show(expected)}, but it succeeded`);
  const code = `GCF_${expected.toUpperCase()}`;
  if (error.code !== code && !String(error.message).includes(expected)) {
    fail(`expected error ${show(expected)}, got ${error.code}: ${error.message}`);
  }
}

const exact = { largeInt: 'number' };
// The suite is GCF 3.5.3: a header without `profile=` is an error there, not GCF 1.1.
const strict = { ...exact, version: '3.5.3' };

/** `got` against `expected` with member order kept; a difference allowed by `order` ('rows' or
 * 'ignored') passes and is noted (f.orderNote), as tests/runner/src/gcf/mod.rs. */
function expectOrdered(what, f, [expected, expectedText], [got, gotText], order) {
  if (sameOrdered(expected, got, 'kept')) return;
  if (!sameOrdered(expected, got, order)) fail(`${what}: expected ${expectedText}, got ${gotText()}`);
  f.orderNote = `${what}: member order differs from the expectation`;
}

/** The expected payload decoded on its own (independently of the encoder) gives the input,
 * member order kept but inside table rows; then the input encodes to the exact bytes. */
function encodeGeneric(gcf, f, expected) {
  const problems = [];
  try {
    const decoded = gcf.decodeGenericToJson(expected, exact);
    expectOrdered('decode of the expected payload', f, [readOrdered(f.raw.input), f.raw.input], [readOrdered(decoded), () => decoded], 'rows');
  } catch (e) {
    problems.push(e instanceof Mismatch ? e.message : `decode of the expected payload: ${e.code}: ${e.message}`);
  }
  try {
    sameText('encode', expected, gcf.encodeGenericJson(f.raw.input, V3_5_3));
  } catch (e) {
    problems.unshift(e instanceof Mismatch ? e.message : `${e.code}: ${e.message}`);
  }
  if (problems.length) fail(problems.join('; '));
}

function base64Bytes(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

const OPERATIONS = {
  encode(gcf, f) {
    if (f.expected.startsWith('GCF profile=graph')) sameText('encode', f.expected, gcf.encodeGraph(f.input));
    else encodeGeneric(gcf, f, f.expected);
  },
  decode(gcf, f) {
    const document = readOrdered(gcf.decodeAnyToJson(f.input, strict));
    const member = (k) => document.members.find(([key]) => key === k)?.[1];
    const kind = member('kind');
    if (kind === 'generic') {
      const got = () => show(gcf.decodeAny(f.input, exact).value);
      expectOrdered('decode', f, [readOrdered(f.raw.expected), f.raw.expected], [member('value'), got], 'ignored');
    } else if (kind === 'graph') {
      const got = gcf.decodeAny(f.input, exact).value;
      if (!deepEqual(f.expected, got, { subset: true })) fail(`decode: expected (subset) ${show(f.expected)}, got ${show(got)}`);
    } else fail(`decode: unexpected ${kind} document`);
  },
  error(gcf, f) {
    const input = 'inputBase64' in f ? base64Bytes(f.inputBase64) : f.input;
    expectError(f.expectedError, () => gcf.decodeAny(input, strict));
    try {
      gcf.decodeAny(input, strict);
    } catch (e) {
      if (e.line == null) fail(`error without a line: ${e.code}: ${e.message}`);
    }
  },
  'encode-error'(gcf, f) {
    expectError(f.expectedError, () => gcf.encodeGenericJson(f.raw.input, V3_5_3));
  },
  roundtrip(gcf, f) {
    encodeGeneric(gcf, f, f.expected);
  },
  'roundtrip-wire'(gcf, f) {
    sameText('re-encode', f.expected, gcf.encodeGenericJson(gcf.decodeGenericToJson(f.input, exact), V3_5_3));
  },
  session(gcf, f) {
    const session = gcf.createGraphSession();
    try {
      f.calls.forEach((call, i) => sameText(`call ${i}`, call.expected, session.encode(call.input)));
    } finally {
      session.free();
    }
  },
  delta(gcf, f) {
    if (typeof f.input === 'string') {
      const snapshot = gcf.applyGraphDelta(f.base_snapshot, f.input);
      same('snapshot', sortedSnapshot(f.expected_snapshot), sortedSnapshot(snapshot));
      sameText('new root', f.new_root, gcf.graphPackRoot(snapshot).root);
    } else sameText('delta', f.expected, gcf.encodeGraphDelta(f.input));
  },
  'delta-verify'(gcf, f) {
    expectError(f.expectedError, () => gcf.applyGraphDelta(f.base_snapshot, f.input));
  },
  'pack-root'(gcf, f) {
    const { root, canonical } = gcf.graphPackRoot(f.input);
    sameText('canonical bytes', f.canonicalBytes, canonical);
    sameText('pack root', f.expected, root);
  },
  'graph-stream-encode'(gcf, f) {
    const options = { stream: true, labeledCounts: f.options?.labeledTrailerCounts === true };
    sameText('stream', f.expected, gcf.encodeGraph(f.input, options));
  },
  'generic-delta'(gcf, f) {
    const text = gcf.keyed.encodeDelta(f.input);
    sameText('delta', f.expected, text);
    if (gcf.decodeAny(text).kind !== 'genericDelta') fail('the delta does not decode as a generic delta');
  },
  'generic-delta-verify'(gcf, f) {
    // The fixture's expectedNewRoot is the root the delta declares (as tests/runner/src/gcf/keyed.rs).
    const delta = { ...f.input.delta, newRoot: f.input.expectedNewRoot };
    const apply = () => gcf.keyed.applyDelta(f.input.base, delta);
    if ('expectedError' in f) expectError(f.expectedError, apply);
    else sameText('new root', f.expected, apply().root);
  },
  'generic-delta-decode'(gcf, f) {
    const apply = () => gcf.keyed.applyDelta(f.input.base, f.input.wire);
    if ('expectedError' in f) expectError(f.expectedError, apply);
    else {
      const { root } = apply();
      sameText('expectedNewRoot', f.input.expectedNewRoot, root);
      sameText('new root', f.expected, root);
    }
  },
  'generic-delta-session'(gcf, f) {
    const { base, tool, policy, updates } = f.input;
    const session = gcf.keyed.createSession({ tool, policy });
    try {
      const view = ({ isFull, wire }) => ({ isFull, wire });
      same('initial', { isFull: true, wire: f.expected.initialFull }, view(session.emit(base)));
      same('emissions', f.expected.emissions, updates.map((set) => view(session.emit(set))));
    } finally {
      session.free();
    }
  },
  'generic-pack-root'(gcf, f) {
    sameText('pack root', f.expected, gcf.keyed.packRoot(f.input).root);
  },
};

/** A snapshot with symbols and edges in a fixed order (set semantics, SPEC §10.4). */
function sortedSnapshot({ symbols = [], edges = [] }) {
  const key = (o) => JSON.stringify(Object.entries(o).filter(([, v]) => v !== '' && v != null).sort());
  return {
    symbols: symbols.map((s) => ({ qualifiedName: s.qualifiedName, kind: s.kind, score: s.score, provenance: s.provenance, distance: s.distance ?? 0 })).sort((a, b) => (key(a) < key(b) ? -1 : 1)),
    edges: edges.map((e) => ({ source: e.source, target: e.target, edgeType: e.edgeType })).sort((a, b) => (key(a) < key(b) ? -1 : 1)),
  };
}

/** Runs every `<dir>/<name>.json` of `files` (path → text) by its `operation`. */
export function runGcfSuite(api, files) {
  const { report, record } = newReport();
  const paths = Object.keys(files).filter((p) => p.endsWith('.json')).sort();
  if (paths.length === 0) throw new Error('no GCF fixtures');
  for (const path of paths) {
    record(`gcf/${path}`, () => {
      const f = fixture(files[path]);
      const run = OPERATIONS[f.operation];
      if (!run) fail(`unknown operation ${show(f.operation)}`);
      try {
        run(api.gcf, f);
      } finally {
        if (f.orderNote) report.notes.push(`ORDER gcf/${path}: ${f.orderNote}`);
      }
    });
  }
  return report;
}
