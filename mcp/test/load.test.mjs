// The load and soak benchmark (bench/load.mjs) in its short form: real agentwire-mcp processes
// in front of the SDK upstream of the test folder, over HTTP and stdio, and 40 HTTP sessions
// opened and abandoned. What is asserted is correctness, not speed (`make bench-mcp` measures
// that): no call fails, results decode to the upstream's JSON, every abandoned session is gone,
// and the gateway retains nothing of them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLANS, run } from '../bench/load.mjs';

test('load (short form): no failed call over HTTP or stdio; 40 abandoned sessions leave nothing behind', async () => {
  const results = await run(PLANS.quick);
  assert.deepEqual(results.skipped, []);
  assert.equal(results.levels.length, 2);
  for (const l of results.levels) {
    assert.equal(l.gateway.errors, 0, `${l.transport} ${l.sessions}: ${l.gateway.firstErrors.join('; ')}`);
    assert.equal(l.direct.errors, 0);
    assert.ok(l.gateway.calls > 0);
  }
  const { soak } = results;
  assert.equal(soak.still_open, 0, 'every sampled abandoned session gets 404');
  assert.equal(soak.sessions_open, 0, 'the gateway counts no session open');
  // Retained after a full GC: a leaked session would be hundreds of kB each.
  const heapGrowth = soak.heap_used_after_mb - soak.heap_used_before_mb;
  assert.ok(heapGrowth < 8, `heap grew ${heapGrowth.toFixed(1)} MB over ${soak.sessions} abandoned sessions`);
});
