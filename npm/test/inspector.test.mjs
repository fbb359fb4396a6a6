// The payload inspector in real Chromium: every bundled sample renders its tables, rows and
// token figures (checked against the native addon's counts), a malformed payload shows its
// error location, and each format gets a screenshot in test-output/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gcx, tokens } from 'agentwire';
import { withChromiumPage } from './chromium.mjs';
import { SAMPLES } from '../inspector/samples.js';
import { packageDir } from './helpers.mjs';

const withPage = (fn) =>
  withChromiumPage({ root: packageDir, index: 'inspector/index.html' }, '/inspector/', async (page, problems) => {
    await page.waitForFunction(() => window.agentwireInspector?.ready === true, null, { timeout: 60_000 });
    await fn(page);
    assert.deepEqual(problems, []);
  }, { viewport: { width: 1280, height: 800 } });

const outDir = join(packageDir, 'test-output');
const count = (page, testid) => page.locator(`[data-testid="${testid}"]`).count();
const figure = (page, name) => page.locator(`[data-testid="tokens-${name}"]`).textContent();

async function pick(page, key) {
  await page.selectOption('[data-testid="sample"]', key);
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid="tokens-json"]')?.textContent ?? ''), null, {
    timeout: 60_000,
  });
}

test('every bundled sample renders with exact token figures', { timeout: 180_000 }, async () => {
  mkdirSync(outDir, { recursive: true });
  await withPage(async (page) => {
    // JSON: the tool response; GCX1 is the generic encoding of the same value.
    await pick(page, 'json');
    assert.equal(await page.textContent('[data-testid="format"]'), 'json');
    const value = JSON.parse(SAMPLES.json.text);
    assert.equal(await figure(page, 'json'), String(tokens.count(JSON.stringify(value))));
    assert.equal(await figure(page, 'gcx'), String(tokens.count(gcx.encodeGeneric(SAMPLES.json.tool, value))));
    assert.equal(await figure(page, 'gcf'), '–');
    await page.screenshot({ path: join(outDir, 'inspector-json.png') });

    await pick(page, 'gcx1');
    assert.equal(await page.textContent('[data-testid="format"]'), 'gcx1');
    assert.equal(await count(page, 'section'), 1);
    assert.equal(await count(page, 'row'), gcx.decode(SAMPLES.gcx1.text).sections[0].rows.length);
    assert.equal(await figure(page, 'gcx'), String(tokens.count(SAMPLES.gcx1.text)));
    await page.screenshot({ path: join(outDir, 'inspector-gcx1.png') });

    for (const key of ['gcf', 'gcb1']) {
      await pick(page, key);
      assert.equal(await page.textContent('[data-testid="format"]'), key);
      assert.equal(await count(page, 'section'), 3, 'one table per distance group');
      assert.equal(await count(page, 'row'), 4);
      assert.equal(await page.locator('svg.graph line').count(), 4, 'one line per edge');
      assert.match(await figure(page, 'gcf'), /^\d+$/);
      await page.screenshot({ path: join(outDir, `inspector-${key}.png`) });
    }
    assert.equal(await figure(page, 'gcf'), String(tokens.count(SAMPLES.gcf.text)));

    await pick(page, 'events');
    assert.equal(await page.textContent('[data-testid="format"]'), 'events');
    assert.equal(await count(page, 'row'), 6);
    assert.match(await page.textContent('.view'), /mock tool result: ok/);
    await page.screenshot({ path: join(outDir, 'inspector-events.png') });

    await pick(page, 'events-bad');
    assert.match(await page.textContent('[data-testid="diagnostics"]'), /line 2: duplicate_item/);
  });
});

test('a malformed payload shows its error and where it is', { timeout: 120_000 }, async () => {
  mkdirSync(outDir, { recursive: true });
  await withPage(async (page) => {
    await page.fill('[data-testid="input"]', 'GCX1 tool=t fields=a,b\n1\t2\nx\ty\tz\n');
    await page.waitForSelector('[data-testid="error"]:not([hidden])');
    const error = page.locator('[data-testid="error"]');
    assert.match(await error.textContent(), /^GCX_TOO_MANY_VALUES: .* at line 3 column \d+/);
    assert.equal(await error.getAttribute('data-line'), '3');
    await page.screenshot({ path: join(outDir, 'inspector-error.png') });
    // A malformed header is still GCX1 (detected by its prefix, as the reference decoder does):
    // the GCX1 error and its line, not a JSON syntax error.
    await page.fill('[data-testid="input"]', 'GCX1-stream tool=x fields=a\n1\n');
    await page.waitForFunction(() => document.querySelector('[data-testid="error"]').dataset.line === '1');
    assert.equal(await page.textContent('[data-testid="format"]'), 'gcx1');
    assert.match(await error.textContent(), /^GCX_[A-Z_]+: .*line 1\b/);
    assert.doesNotMatch(await error.textContent(), /JSON/);
    assert.equal(await error.getAttribute('data-line'), '1');
    await page.fill('[data-testid="input"]', '{"a": [1, 2,]}');
    await page.waitForFunction(() => /JSON/.test(document.querySelector('[data-testid="error"]').textContent));
  });
});

test('a 5 MB GCX1 payload renders its first page quickly and pages the rest', { timeout: 180_000 }, async () => {
  const row = 'internal/mcp/server.go::NewServer\tfunction\tNewServer\tinternal/mcp/server.go\t62\n';
  const payload = `GCX1 tool=search_symbols fields=id,kind,name,path,line\n${row.repeat(Math.ceil((5 << 20) / row.length))}`;
  await withPage(async (page) => {
    await page.evaluate((text) => {
      const input = document.querySelector('[data-testid="input"]');
      input.value = text;
      input.dispatchEvent(new Event('input'));
    }, payload);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="row"]').length > 0, null, { timeout: 60_000 });
    assert.equal(await count(page, 'row'), 200, 'the first page only');
    await page.click('button.more');
    assert.equal(await count(page, 'row'), 400);
  });
});
