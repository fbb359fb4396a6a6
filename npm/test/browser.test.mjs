// The web build in real Chromium (Debian's, driven by playwright-core): every GCX1 vector runs
// in the page. Fails (never skips) when Chromium is missing: `make test` installs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fixturesDir, packageDir } from './helpers.mjs';

const CHROMIUM = process.env.AGENTWIRE_CHROMIUM ?? '/usr/bin/chromium';
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Serves the package at / and the fixtures at /fixtures/ on 127.0.0.1. */
function serve() {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const [root, rest] = path.startsWith('/fixtures/') ? [fixturesDir, path.slice('/fixtures/'.length)] : [packageDir, path.slice(1)];
    const file = normalize(join(root, rest || 'test/browser/index.html'));
    if (file.startsWith(root + sep) && path.endsWith('/') && existsSync(file) && statSync(file).isDirectory()) {
      // A directory listing (JSON array of names), so the page can find fixture files.
      res.writeHead(200, { 'content-type': TYPES['.json'] }).end(JSON.stringify(readdirSync(file)));
      return;
    }
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('every suite passes in headless Chromium (gcx1, gcf-v1.1, gcb1, tokens, gateway, events)', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (make test installs Debian's chromium)`);
  const { chromium } = await import('playwright-core');
  const server = await serve();
  const profile = mkdtempSync(join(tmpdir(), 'agentwire-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    const { port } = server.address();
    await page.goto(`http://127.0.0.1:${port}/test/browser/index.html`);
    await page.waitForFunction(() => window.agentwireResult !== undefined, null, { timeout: 90_000 });
    const result = await page.evaluate(() => window.agentwireResult);
    const outDir = join(packageDir, 'test-output');
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: join(outDir, 'browser-suites.png') });
    assert.equal(result.error, undefined);
    for (const [suite, expected] of [['gcx1', 169], ['gcf-v1.1', 37], ['gcb1', 20], ['tokens', 36], ['gateway', 362], ['events', 56]]) {
      const report = result.suites[suite];
      console.log(`${suite} browser: ${report.passed} passed, ${report.failures.length} failed`);
      assert.deepEqual(report.failures, [], suite);
      assert.equal(report.passed, expected, suite);
    }
    assert.equal(result.backend, 'wasm');
    assert.deepEqual(problems, []);
  } finally {
    await context?.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
