// The JS fixture runner: the same checks as the Rust runner (tests/runner/src), through the public
// npm API. Browser-safe (no Node imports): callers hand it parsed fixture files.

import { Mismatch, deepEqual, fail, newReport, same, sameText, show } from './conformance-check.mjs';
import { EVENTS_FILES, runEventsSuite } from './conformance-events.mjs';
import { GATEWAY_FILES, runGatewaySuite } from './conformance-gateway.mjs';
import { GCF_DIRECTORIES, runGcfSuite } from './conformance-gcf.mjs';
import { TOON_DIRECTORIES, runToonSuite } from './conformance-toon.mjs';

/** Vector files of each suite with fixed names, in run order. */
export const SUITE_FILES = {
  gcx1: ['encode.json', 'decode.json', 'generic.json', 'roundtrip.json', 'primitives.json', 'bench.json'],
  tokens: ['token_counts.json'],
  gcf: [],
  'gcf-v1.1': [],
  gcb1: [],
  gateway: [...GATEWAY_FILES, 'python_quirks.json'],
  events: EVENTS_FILES,
  toon: [],
};

/** Sub-directories whose files a suite runs: directory → file extension. */
const SUITE_DIRECTORIES = {
  gcx1: { scope: '.gcx' },
  tokens: {},
  // GCF v3 fixtures stay text: the runner needs their raw members (see conformance-gcf.mjs).
  gcf: Object.fromEntries(GCF_DIRECTORIES.map((d) => [d, '.json'])),
  'gcf-v1.1': { encode: '.json', decode: '.json', session: '.json', delta: '.json', errors: '.json', generic: '.json' },
  gcb1: { vectors: '.json' },
  gateway: {},
  events: { streams: ['.jsonl', '.json'], sse: ['.sse', '.json'] },
  toon: Object.fromEntries(TOON_DIRECTORIES.map((d) => [d, '.json'])),
};

/**
 * Loads a suite's files from a directory, whatever the storage: `listDir(relDir)` lists names
 * (an empty list when absent), `readText(relPath)` reads a file as text and `readBytes(relPath)`
 * as bytes (for `.jsonl` streams, which may hold invalid UTF-8 on purpose). Returns relative
 * path → parsed JSON, bytes for `.jsonl`, or text.
 */
export async function loadSuiteFiles(suite, listDir, readText, readBytes = async (rel) => new TextEncoder().encode(await readText(rel))) {
  if (!(suite in SUITE_FILES)) throw new Error(`unknown suite ${JSON.stringify(suite)} (known: ${Object.keys(SUITE_FILES).join(', ')})`);
  const files = {};
  const rootNames = new Set(await listDir(''));
  for (const name of SUITE_FILES[suite]) {
    if (rootNames.has(name)) files[name] = JSON.parse(await readText(name));
  }
  for (const [dir, extensions] of Object.entries(SUITE_DIRECTORIES[suite])) {
    for (const name of (await listDir(dir)).filter((n) => [].concat(extensions).some((e) => n.endsWith(e))).sort()) {
      const path = `${dir}/${name}`;
      if (name.endsWith('.jsonl')) files[path] = new Uint8Array(await readBytes(path));
      else if (suite === 'gcf') files[path] = await readText(path);
      else if (name.endsWith('.json')) files[path] = JSON.parse(await readText(path));
      else files[path] = await readText(path);
    }
  }
  return files;
}


const errorCode = (kind) => `GCX_${kind.toUpperCase()}`;

function checkError(expectedMessage, expectedKind, error) {
  if (!error || typeof error.code !== 'string') fail(`expected an AgentwireError, got ${error}`);
  // The core's message without the " at line … column …" suffix the JS error adds.
  const where = error.line != null ? ` at line ${error.line} column ${error.column}` : '';
  const message = where && error.message.endsWith(where) ? error.message.slice(0, -where.length) : error.message;
  sameText('error message', expectedMessage, message);
  if (expectedKind) sameText('error code', errorCode(expectedKind), error.code);
}

/** The fixtures pin gcx-go's bytes, even where decoders reject them: parity is explicit. */
const PARITY = Object.freeze({ compat: 'gcx-go' });

/** Streams an encode input's sections and ops through gcx.Encoder. */
function runEncode(api, input, options = PARITY) {
  const encoder = new api.gcx.Encoder(options);
  let output = '';
  let error = null;
  try {
    for (const section of input.sections ?? []) {
      encoder.beginSection(section.header);
      for (const op of section.ops ?? []) {
        if ('row' in op) encoder.writeRow(op.row);
        else encoder.writeComment(op.comment);
      }
    }
  } catch (e) {
    error = e;
  }
  output = encoder.take();
  encoder.free();
  return { output, error };
}

function checkEncode(api, vector) {
  const { output, error } = runEncode(api, vector.input);
  if (typeof vector.expected === 'string') {
    if (error) fail(`unexpected error ${error.code}: ${error.message}`);
    sameText('payload', vector.expected, output);
  } else {
    if (!error) fail(`expected error ${show(vector.expected_error)}, got payload ${show(output)}`);
    checkError(vector.expected_error, null, error);
    sameText('output before error', vector.expected_output_before_error, output);
  }
}

function payloadOf(input) {
  if (typeof input.payload === 'string') return input.payload;
  return input.payload_parts.map((p) => (typeof p.text === 'string' ? p.text : p.repeat.repeat(p.count))).join('');
}

/** The canonical procedure with the push decoder: sections until the first error. */
function decodeUntilError(api, chunks) {
  const decoder = new api.gcx.Decoder();
  const sections = [];
  let error = null;
  const drain = () => {
    for (let item = decoder.next(); item !== null; item = decoder.next()) {
      if (item.type === 'section') {
        const { type, ...header } = item;
        sections.push({ ...header, rows: [] });
      } else if (item.type === 'row') {
        sections[sections.length - 1].rows.push(item.row);
      }
    }
  };
  try {
    for (const chunk of chunks) {
      decoder.push(chunk);
      drain();
    }
    decoder.finish();
    drain();
  } catch (e) {
    error = e;
  }
  decoder.free();
  return { sections, error };
}

function checkDecoded(expectation, got) {
  const { sections, error, kind, before } = expectation;
  if (error === undefined || error === null) {
    if (got.error) fail(`unexpected error ${got.error.code}: ${got.error.message}`);
    same('sections', sections, got.sections);
  } else {
    if (!got.error) fail(`expected error ${show(error)}, decoding succeeded`);
    checkError(error, kind, got.error);
    same('sections before error', before, got.sections);
  }
}

function chunksOf(text, size) {
  const bytes = new TextEncoder().encode(text);
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

function checkDecode(api, vector) {
  const payload = payloadOf(vector.input);
  const expectation = {
    sections: vector.expected?.sections,
    error: vector.expected_error,
    kind: vector.error_kind,
    before: vector.sections_before_error,
  };
  // One-shot decode: the whole result, or the error (it returns no partial sections).
  try {
    const { sections } = api.gcx.decode(payload);
    checkDecoded(expectation, { sections, error: null });
  } catch (e) {
    if (e instanceof Mismatch) throw e;
    if (expectation.error == null) fail(`unexpected error ${e.code}: ${e.message}`);
    checkError(expectation.error, expectation.kind, e);
  }
  checkDecoded(expectation, decodeUntilError(api, [payload]));
  // Pushed as UTF-8 bytes in small chunks (which may split characters).
  if (payload.length <= 4096) checkDecoded(expectation, decodeUntilError(api, chunksOf(payload, 1)));
  checkDecoded(expectation, decodeUntilError(api, chunksOf(payload, 7)));
}

function checkGeneric(api, vector) {
  const { tool, json } = vector.input;
  const typed = 'expected' in vector ? vector.expected : vector.expected_by_number_mode?.typed;
  if (typed === undefined) fail('vector has neither expected nor a typed expectation');
  checkGenericMode(api, vector, typed, PARITY, 'typed numbers');
  const literal = vector.expected_by_number_mode?.literal;
  if (literal !== undefined) checkGenericMode(api, vector, literal, { ...PARITY, literalNumbers: true }, 'literal numbers');
  if (typeof vector.bench_encoder_output === 'string') {
    const out = api.gcx.encodeToolJson(tool, json, { ...PARITY, strategy: 'bench', literalNumbers: true });
    sameText('bench strategy payload', vector.bench_encoder_output, out);
    if (vector.scorecard_bytes) same('published GCX bytes', vector.scorecard_bytes.gcx, new TextEncoder().encode(out).length);
  }
}

function checkGenericMode(api, vector, expected, options, mode) {
  const { tool, json } = vector.input;
  let output;
  let error = null;
  try {
    output = api.gcx.encodeGenericJson(tool, json, options);
  } catch (e) {
    error = e;
  }
  try {
    checkGenericOutcome(api, vector, expected, output, error);
  } catch (e) {
    if (e instanceof Mismatch) fail(`${mode}: ${e.message}`);
    throw e;
  }
}

function checkGenericOutcome(api, vector, expected, output, error) {
  if (typeof expected === 'string') {
    if (error) fail(`unexpected error ${error.code}: ${error.message}`);
    sameText('payload', expected, output);
    if (vector.note_decoding_output_fails) {
      const got = decodeUntilError(api, [output]);
      if (!got.error) fail(`decoding the output should fail with ${show(vector.note_decoding_output_fails)}`);
      checkError(vector.note_decoding_output_fails, null, got.error);
    }
  } else if (typeof expected.error === 'string') {
    if (!error) fail(`expected error ${show(expected.error)}, got payload ${show(output)}`);
    checkError(expected.error, null, error);
  } else if ('input_error' in expected) {
    if (!error || !error.code.startsWith('JSON_')) fail(`expected a JSON input error, got ${error?.code ?? show(output)}`);
  } else {
    fail(`malformed expectation ${show(expected)}`);
  }
}

/** Decoded sections hold exactly the input's tool, fields, meta and rows ("" for missing cells). */
function isLossless(input, decoded) {
  if (decoded.length !== input.sections.length) return false;
  return input.sections.every((section, i) => {
    const got = decoded[i];
    const { tool, fields, meta = {} } = section.header;
    if (got.tool !== tool || !deepEqual(got.fields, fields) || !deepEqual(got.meta, meta)) return false;
    const rows = (section.ops ?? []).filter((op) => 'row' in op).map((op) => op.row);
    if (rows.length !== got.rows.length) return false;
    return rows.every((cells, r) => fields.every((f, c) => got.rows[r][f] === (cells[c] ?? '')));
  });
}

function checkRoundtrip(api, vector) {
  const { input, expected } = vector;
  const { output, error } = runEncode(api, input);
  if (error) fail(`unexpected encode error ${error.code}: ${error.message}`);
  sameText('payload', expected.payload, output);
  const decoded = decodeUntilError(api, [output]);
  checkDecoded(
    {
      sections: expected.decoded_sections,
      error: expected.decode_error,
      kind: expected.decode_error_kind,
      before: expected.decoded_sections_before_error,
    },
    decoded,
  );
  const lossless = !decoded.error && isLossless(input, decoded.sections);
  same('lossless', expected.lossless, lossless);
  const strict = runEncode(api, input, { lossless: true });
  if (!strict.error) {
    const back = decodeUntilError(api, [strict.output]);
    if (back.error || !isLossless(input, back.sections)) {
      fail(`lossless option wrote ${show(strict.output)}, which does not read back`);
    }
  }
}

function checkPrimitive(api, vector) {
  const { input, expected } = vector;
  let got;
  if (input.function === 'escape') got = api.gcx.escape(input.s);
  else if (input.function === 'unescape') got = api.gcx.unescape(input.s);
  else if (input.function === 'stringify') got = api.gcx.cellText(input.cell);
  else fail(`unknown primitive function ${show(input.function)}`);
  sameText('result', expected, got);
}

/** A scope file: decode with the typed API of its shape, re-encode, compare the bytes. */
function checkScopeFile(api, payload) {
  const tool = api.gcx.decode(payload).sections[0]?.tool;
  let again;
  if (tool === 'tool_definitions') again = api.gcx.encodeToolDefinitions(api.gcx.decodeToolDefinitions(payload), PARITY);
  else if (tool === 'tool_request') again = api.gcx.encodeToolRequest(api.gcx.decodeToolRequest(payload), PARITY);
  else if (tool === 'error') again = api.gcx.encodeErrorEnvelope(api.gcx.decodeErrorEnvelope(payload), PARITY);
  else fail(`unknown scope shape ${show(tool)}`);
  sameText('re-encoded', payload, again);
}

function checkTokenCount(api, testCase) {
  same('tokens', testCase.expected.tokens, api.tokens.count(testCase.input, 'cl100k_base'));
}

/** Expected members equal ours; members the fixture leaves out hold their zero value. */
function samePayload(path, expected, got) {
  if (typeof expected === 'number' && typeof got === 'number') {
    if (expected !== got) fail(`${path}: expected ${expected}, got ${got}`);
    return;
  }
  if (expected && got && typeof expected === 'object' && typeof got === 'object') {
    if (Array.isArray(expected) !== Array.isArray(got)) fail(`${path}: expected ${show(expected)}, got ${show(got)}`);
    if (Array.isArray(expected)) {
      if (expected.length !== got.length) fail(`${path}: expected ${expected.length} items, got ${got.length}`);
      expected.forEach((e, i) => samePayload(`${path}[${i}]`, e, got[i]));
      return;
    }
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(got, key)) fail(`${path}.${key}: missing from the decoded payload`);
    }
    for (const [key, value] of Object.entries(got)) {
      if (Object.hasOwn(expected, key)) samePayload(`${path}.${key}`, expected[key], value);
      else if (!isZero(value)) fail(`${path}.${key}: expected the zero value, got ${show(value)}`);
    }
    return;
  }
  if (expected !== got) fail(`${path}: expected ${show(expected)}, got ${show(got)}`);
}

function isZero(value) {
  if (Array.isArray(value)) return value.length === 0;
  if (value && typeof value === 'object') return Object.values(value).every(isZero);
  return value === '' || value === 0 || value === false || value === null;
}

const GCF_CHECKS = {
  encode(api, f) {
    sameText('GCF', f.expected, api.gcf.encode(f.input));
  },
  decode(api, f) {
    samePayload('$', f.expected, api.gcf.decode(f.input));
  },
  session(api, f) {
    const session = api.gcf.createSession();
    f.calls.forEach((call, i) => sameText(`call ${i}`, call.expected, session.encode(call.input)));
    session.free();
  },
  delta(api, f) {
    sameText('delta', f.expected, api.gcf.encodeDelta(f.input));
  },
  errors(api, f) {
    let decoded;
    try {
      decoded = api.gcf.decode(f.input);
    } catch (e) {
      if (!e.code?.startsWith('GCF_') || e.line == null) fail(`error without a GCF code or line: ${e.code} ${e.message}`);
      return;
    }
    fail(`decoding should fail, got ${show(decoded)}`);
  },
};

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (text) => Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));

function checkGcbVector(api, v) {
  if (v.operation === 'encode') {
    const bytes = api.gcb.encode(v.input);
    sameText('bytes (hex)', v.expectedHex, hex(bytes));
    same('byteLength', v.byteLength, bytes.length);
    same('decoded', v.expectedDecoded, api.gcb.decode(bytes));
  } else if (v.operation === 'decode') {
    let decoded;
    try {
      decoded = api.gcb.decode(unhex(v.inputHex));
    } catch (e) {
      if (!e.code?.startsWith('GCB_') || e.offset == null) fail(`error without a GCB code or offset: ${e.code} ${e.message}`);
      return;
    }
    fail(`decoding should fail, got ${show(decoded)}`);
  } else {
    fail(`unknown operation ${show(v.operation)}`);
  }
}

const CHECKS = {
  'encode.json': checkEncode,
  'decode.json': checkDecode,
  'generic.json': checkGeneric,
  'roundtrip.json': checkRoundtrip,
  'primitives.json': checkPrimitive,
  'bench.json': checkGeneric,
  'token_counts.json': checkTokenCount,
};

/**
 * Runs the vectors of the given suite files.
 * @param {object} api  the agentwire module (gcx namespace)
 * @param {string} suite
 * @param {Record<string, object | string>} files  file name → parsed fixture file (absent files
 *   are skipped); for gcx1 also `scope/<name>.gcx` → the file's text
 * @returns {{passed: number, failures: {id: string, message: string}[]}}
 */
export function runSuite(api, suite, files, options = {}) {
  if (!(suite in SUITE_FILES)) throw new Error(`unknown suite ${show(suite)} (known: ${Object.keys(SUITE_FILES).join(', ')})`);
  if (suite === 'gateway') return runGatewaySuite(api, files, options);
  if (suite === 'events') return runEventsSuite(api, files);
  if (suite === 'gcf') return runGcfSuite(api, files);
  if (suite === 'toon') return runToonSuite(api, files);
  const { report, record } = newReport();
  const keys = Object.keys(files);
  if (keys.length === 0) throw new Error(`no ${suite} vector file found`);
  for (const name of SUITE_FILES[suite].filter((n) => files[n])) {
    const file = files[name];
    const vectors = file.vectors ?? file.cases;
    if (!Array.isArray(vectors)) throw new Error(`${name}: no "vectors" (or "cases") array`);
    if (typeof file.count === 'number' && file.count !== vectors.length) {
      throw new Error(`${name}: declares count ${file.count} but holds ${vectors.length} vectors`);
    }
    for (const vector of vectors) {
      record(`${suite}/${name}::${vector.name ?? vector.id}`, () => CHECKS[name](api, vector));
    }
  }
  for (const key of keys.filter((k) => k.includes('/')).sort()) {
    const [dir] = key.split('/');
    const id = `${suite}/${key}`;
    if (suite === 'gcx1' && dir === 'scope') record(id, () => checkScopeFile(api, files[key]));
    else if (suite === 'gcb1' && dir === 'vectors') record(id, () => checkGcbVector(api, files[key]));
    else if (suite === 'gcf-v1.1' && dir === 'generic') continue;
    else if (suite === 'gcf-v1.1') {
      const f = files[key];
      if (!('expected' in f || 'expectedError' in f || 'calls' in f)) report.notes.push(`NO EXPECTATION ${id} (not counted)`);
      else record(id, () => GCF_CHECKS[dir](api, f));
    }
  }
  const generic = keys.filter((k) => suite === 'gcf-v1.1' && k.startsWith('generic/')).length;
  if (generic > 0) report.notes.push(`NOT SUPPORTED gcf-v1.1/generic: ${generic} fixtures of the v1 tabular profile (not counted)`);
  return report;
}

/** `N passed, M failed`, the last line of every runner. */
export function summary(report) {
  return `${report.passed} passed, ${report.failures.length} failed`;
}
