// Every GCX1 golden vector through the npm API, once native and once wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSuite, summary } from '../scripts/conformance-lib.mjs';
import { backends, loadSuite } from './helpers.mjs';

const { native, wasm } = await backends();
const counts = {};

for (const [runtime, api] of [['native', native], ['wasm', wasm]]) {
  test(`gcx1 vectors (${runtime})`, () => {
    assert.equal(api.backend, runtime, `the ${runtime} build must be the one under test`);
    const report = runSuite(api, 'gcx1', loadSuite('gcx1'));
    console.log(`gcx1 ${runtime}: ${summary(report)}`);
    for (const f of report.failures) console.log(`FAIL ${f.id}: ${f.message}`);
    counts[runtime] = report.passed;
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 169);
  });

  test(`token counts (${runtime})`, () => {
    const report = runSuite(api, 'tokens', loadSuite('tokens', 'gateway'));
    console.log(`tokens ${runtime}: ${summary(report)}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.passed, 36);
  });
}

test('native and wasm ran the same number of vectors', () => {
  assert.equal(counts.native, counts.wasm);
});
