// Every GCX1 golden vector through the npm API, once native and once wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSuite, summary } from '../scripts/conformance-lib.mjs';
import { backends, loadSuite } from './helpers.mjs';

const { native, wasm } = await backends();
const counts = {};

for (const [runtime, api] of [['native', native], ['wasm', wasm]]) {
  test(`gcx1 vectors (${runtime})`, async () => {
    assert.equal(api.backend, runtime, `the ${runtime} build must be the one under test`);
    const report = runSuite(api, 'gcx1', await loadSuite('gcx1'));
    console.log(`gcx1 ${runtime}: ${summary(report)}`);
    for (const f of report.failures) console.log(`FAIL ${f.id}: ${f.message}`);
    counts[runtime] = { ...counts[runtime], gcx1: report.passed };
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 169);
  });

  test(`token counts (${runtime})`, async () => {
    const report = runSuite(api, 'tokens', await loadSuite('tokens', 'gateway'));
    console.log(`tokens ${runtime}: ${summary(report)}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 36);
  });

  test(`GCF v3.5.3 fixtures, all 16 operations (${runtime})`, async () => {
    const report = runSuite(api, 'gcf', await loadSuite('gcf', 'gcf/conformance'));
    console.log(`gcf ${runtime}: ${summary(report)}`);
    for (const f of report.failures) console.log(`FAIL ${f.id}: ${f.message}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 281);
    // As in Rust (tests/runner/tests/fixtures.rs): the fixtures whose value matches only with
    // member order ignored (sorted expectation keys, `>`-named fields moved to attachments).
    assert.deepEqual(
      report.notes.filter((n) => n.startsWith('ORDER ')).map((n) => n.slice('ORDER gcf/'.length).split(':')[0]),
      [
        'flatten/016_gt_in_field_name.json',
        'inline-schema/008_no_inline_when_first_row_missing.json',
        'inline-schema/009_decode_inline_schema.json',
        'inline-schema/010_decode_shared_array_schema.json',
        'inline-schema/011_decode_mixed_attachments.json',
        'scalar/027_grapheme_extending_scalar_delimiter.json',
      ],
    );
    counts[runtime] = { ...counts[runtime], gcf3: report.passed };
  });

  test(`TOON spec 4.0 fixtures, encode and decode (${runtime})`, async () => {
    const report = runSuite(api, 'toon', await loadSuite('toon'));
    console.log(`toon ${runtime}: ${summary(report)}`);
    for (const f of report.failures) console.log(`FAIL ${f.id}: ${f.message}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 516);
    counts[runtime] = { ...counts[runtime], toon: report.passed };
  });

  test(`GCF v1.1 graph fixtures (${runtime})`, async () => {
    const report = runSuite(api, 'gcf-v1.1', await loadSuite('gcf-v1.1', 'gcf/conformance-v1.1'));
    console.log(`gcf-v1.1 ${runtime}: ${summary(report)}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 37);
    assert.deepEqual(report.notes.length, 2, 'encode/011 and generic/ are reported, not counted');
    counts[runtime] = { ...counts[runtime], gcf: report.passed };
  });

  test(`gateway vectors (${runtime})`, async () => {
    // The wasm build takes its JSON Schema validator from agentwire/schema; native has its own.
    const { validator } = await import('agentwire/schema');
    const report = runSuite(api, 'gateway', await loadSuite('gateway'), { validator });
    console.log(`gateway ${runtime}: ${summary(report)}`);
    for (const f of report.failures) console.log(`FAIL ${f.id}: ${f.message}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 362);
    counts[runtime] = { ...counts[runtime], gateway: report.passed };
  });

  test(`events vectors, each stream in random chunkings too (${runtime})`, async () => {
    const report = runSuite(api, 'events', await loadSuite('events'));
    console.log(`events ${runtime}: ${summary(report)}`);
    for (const f of report.failures) console.log(`FAIL ${f.id}: ${f.message}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 56);
    counts[runtime] = { ...counts[runtime], events: report.passed };
  });

  test(`GCB1 vectors (${runtime})`, async () => {
    const report = runSuite(api, 'gcb1', await loadSuite('gcb1'));
    console.log(`gcb1 ${runtime}: ${summary(report)}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 20);
    counts[runtime] = { ...counts[runtime], gcb: report.passed };
  });
}

test('native and wasm ran the same number of vectors', () => {
  assert.deepEqual(counts.native, counts.wasm);
});
