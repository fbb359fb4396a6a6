// The web build in real Chromium: every suite (GCX1, GCF v3.5.3, GCF v1.1, GCB1, tokens, gateway, events, TOON)
// runs in the page through the browser entry, with the same counts as in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withChromiumPage } from './chromium.mjs';
import { fixturesDir, packageDir } from './helpers.mjs';

test('every suite passes in headless Chromium (gcx1, gcf, gcf-v1.1, gcb1, tokens, gateway, events, toon)', { timeout: 120_000 }, async () => {
  const server = { root: packageDir, index: 'test/browser/index.html', fixtures: fixturesDir };
  await withChromiumPage(server, '/test/browser/index.html', async (page, problems) => {
    await page.waitForFunction(() => window.agentwireResult !== undefined, null, { timeout: 90_000 });
    const result = await page.evaluate(() => window.agentwireResult);
    const outDir = join(packageDir, 'test-output');
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: join(outDir, 'browser-suites.png') });
    assert.equal(result.error, undefined);
    for (const [suite, expected] of [['gcx1', 169], ['gcf', 281], ['gcf-v1.1', 37], ['gcb1', 20], ['tokens', 36], ['gateway', 362], ['events', 56], ['toon', 516]]) {
      const report = result.suites[suite];
      console.log(`${suite} browser: ${report.passed} passed, ${report.failures.length} failed`);
      assert.deepEqual(report.failures, [], suite);
      assert.equal(report.passed, expected, suite);
    }
    assert.equal(result.backend, 'wasm');
    assert.deepEqual(problems, []);
  });
});
