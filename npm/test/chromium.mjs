// Real Chromium (Debian's, driven by playwright-core) on a page served from 127.0.0.1, for the
// browser tests. Fails (never skips) when Chromium is missing: `make test` installs it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticServer } from '../scripts/static-server.mjs';

const CHROMIUM = process.env.AGENTWIRE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Serves `serverOptions` (see staticServer), opens `path` in headless Chromium and runs
 * `fn(page, problems)`; `problems` collects page errors, console errors and warnings, failed
 * requests and HTTP errors, for the caller to assert empty.
 */
export async function withChromiumPage(serverOptions, path, fn, { viewport } = {}) {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (make test installs Debian's chromium)`);
  const { chromium } = await import('playwright-core');
  const server = await staticServer(serverOptions);
  const profile = mkdtempSync(join(tmpdir(), 'agentwire-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      ...(viewport ? { viewport } : {}),
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
    // Nothing but the served files: a request anywhere else is a problem (data: and blob: URLs stay in the page).
    const origin = `http://127.0.0.1:${server.address().port}/`;
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !/^(data|blob):/.test(r.url())) problems.push(`request to another origin: ${r.url()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    await page.goto(`http://127.0.0.1:${server.address().port}${path}`);
    await fn(page, problems);
  } finally {
    await context?.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
