// @ts-check
// A 10 MB paste into the inspector, timed: shared by the inspector test (which checks what the
// page shows) and `make bench` (npm/scripts/bench-inspector.mjs, which records the times).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gcx } from 'agentwire';
import { packageDir } from './helpers.mjs';

/** The bench corpus (bench/corpus/generate.mjs) as pretty JSON and as GCX1, both over 10 MiB. */
export function largeCorpus() {
  execFileSync(process.execPath, [join(packageDir, '..', 'bench', 'corpus', 'generate.mjs')], { stdio: 'ignore' });
  const out = join(packageDir, '..', 'bench', 'corpus', 'out');
  const json = readFileSync(join(out, 'gcx-10mb.json'), 'utf8');
  const gcx1 = gcx.encode(JSON.parse(readFileSync(join(out, 'gcx-10mb.sections.json'), 'utf8')));
  assert.ok(json.length > 10 << 20 && gcx1.length > 10 << 20, `${json.length} and ${gcx1.length} bytes`);
  return { json, gcx1 };
}

const count = (/** @type {any} */ page, /** @type {string} */ testid) => page.locator(`[data-testid="${testid}"]`).count();

/** Pastes `corpus` into a fresh page, and measures the first render and how busy the page is after. */
export async function measureLargePaste(page, corpus, name) {
  // The corpus goes into the page first (a 13 MB argument takes Chromium a while to receive),
  // then the paste is timed: from the paste event to the first rows painted.
  await page.evaluate((text) => {
    window.corpus = text;
  }, corpus);
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  const firstRender = await page.evaluate(async () => {
    const started = performance.now();
    // A paste as the browser delivers it: a paste event with the text in clipboardData.
    const clipboardData = new DataTransfer();
    clipboardData.setData('text/plain', window.corpus);
    document.querySelector('[data-testid="input"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
    await new Promise((resolve) => {
      const check = () => (document.querySelector('[data-testid="row"]') ? requestAnimationFrame(() => resolve()) : setTimeout(check, 5));
      check();
    });
    return performance.now() - started;
  });
  const rows = await count(page, 'row');
  assert.match(await page.textContent('#large-input-text'), /^1\d\.\d MB payload: the box shows its first 16 KiB/);
  // While the worker counts the candidates (tens of MB), the page answers at once.
  const answer = [];
  for (let i = 0; i < 5; i += 1) {
    const t = Date.now();
    await page.evaluate(() => document.querySelectorAll('[data-testid="row"]').length);
    answer.push(Date.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.waitForFunction(() => window.agentwireInspector.timings.completed > 0 && document.querySelector('[data-testid="candidate"]'), null, { timeout: 300_000, polling: 500 });
  const costs = await page.evaluate(() => window.agentwireInspector.timings.costs);
  const longest = await page.evaluate(() => Math.max(0, ...window.longTasks));
  const record = { input: name, bytes: Buffer.byteLength(corpus), firstRenderMs: Math.round(firstRender), firstPageRows: rows, costsMs: Math.round(costs), longestMainThreadTaskMs: Math.round(longest), evaluateRoundTripsMs: answer };
  assert.ok(rows > 0 && rows <= 9 * 50, `${name}: ${rows} rows: the first page of each table only`);
  return record;
}
