// The TOON suite through the npm API (`toon.encode`, `toon.decode`), as the Rust runner checks it
// (tests/runner/src/toon.rs): the spec's fixtures, every test counted. Encode tests compare the
// text byte for byte; decode tests compare the value member by member in order (the fixture as
// JSON.parse reads it); `shouldError` tests must fail with a TOON_ code and a line. An option the
// runner does not know fails the test rather than being ignored.

import { fail, newReport, show, sameText } from './conformance-check.mjs';

/** The fixture directories, under the suite's root (tests/fixtures/toon). */
export const TOON_DIRECTORIES = ['tests/fixtures/encode', 'tests/fixtures/decode'];

/** Equal JSON values, object members in the same order. */
function sameOrdered(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameOrdered(a[k], b[k]));
}

function encodeOptions(options = {}) {
  const out = {};
  for (const [name, value] of Object.entries(options)) {
    if (name === 'indentSize') out.indent = value;
    else if (name === 'delimiter') out.delimiter = value;
    else fail(`unknown encode option ${show(name)}`);
  }
  return out;
}

function decodeOptions(options = {}) {
  const out = {};
  for (const [name, value] of Object.entries(options)) {
    if (name === 'indentSize') out.indent = value;
    else if (name === 'strict') out.strict = value;
    else fail(`unknown decode option ${show(name)}`);
  }
  return out;
}

function checkEncode(api, test) {
  const options = encodeOptions(test.options);
  let text;
  try {
    text = api.toon.encode(test.input, options);
  } catch (e) {
    if (test.shouldError) return;
    fail(`encode failed: ${e.code} ${e.message}`);
  }
  if (test.shouldError) fail(`expected an error, got ${show(text)}`);
  sameText('encode', test.expected, text);
}

function checkDecode(api, test) {
  const options = decodeOptions(test.options);
  let value;
  try {
    value = api.toon.decode(test.input, options);
  } catch (e) {
    if (!test.shouldError) fail(`decode failed: ${e.code} ${e.message}`);
    if (!e.code?.startsWith('TOON_')) fail(`expected a TOON_ error, got ${e.code}: ${e.message}`);
    if (e.line == null) fail(`error without a line: ${e.message}`);
    return;
  }
  if (test.shouldError) fail(`expected an error, got ${show(value)}`);
  if (!sameOrdered(test.expected, value)) fail(`decode: expected ${show(test.expected)}, got ${show(value)}`);
}

/** Runs every test of every fixture file (`files`: path → parsed JSON). */
export function runToonSuite(api, files) {
  const { report, record } = newReport();
  let counted = 0;
  for (const path of Object.keys(files).sort()) {
    const file = files[path];
    if (file?.category !== 'encode' && file?.category !== 'decode') continue;
    counted += 1;
    const name = path.split('/').pop();
    for (const test of file.tests) {
      const check = file.category === 'encode' ? checkEncode : checkDecode;
      record(`${file.category}/${name}::${test.name}`, () => check(api, test));
    }
  }
  if (counted === 0) throw new Error('no TOON fixture file (JSON with "category" and "tests")');
  return report;
}
