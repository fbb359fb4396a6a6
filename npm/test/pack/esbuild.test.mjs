// esbuild (from the registry) bundles a small app against the packed tarballs, and the bundle
// runs in headless Chromium: once with each .wasm and the vocabulary imported as URLs
// (`--loader:.wasm=file --loader:.bin=file`), once with the files copied beside the bundle
// (docs/bundlers.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { withChromiumPage } from '../chromium.mjs';
import { withInstalled } from './packs.mjs';

const appDir = join(import.meta.dirname, 'esbuild-app');
const PAGE = '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>esbuild app</title><script type="module" src="./app.js"></script>\n';

async function bundleAndRun(dir, entry, prepare) {
  const out = join(dir, 'dist');
  const result = await build({
    entryPoints: { app: join(dir, entry) },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: out,
    loader: { '.wasm': 'file', '.bin': 'file' },
    logLevel: 'silent',
  });
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.warnings, []);
  writeFileSync(join(out, 'index.html'), PAGE);
  prepare?.(out);
  let seen;
  await withChromiumPage({ root: out, index: 'index.html' }, '/', async (page, problems) => {
    await page.waitForFunction(() => window.agentwireResult !== undefined, null, { timeout: 60_000 });
    seen = await page.evaluate(() => window.agentwireResult);
    assert.deepEqual(problems, []);
  });
  assert.equal(seen.error, undefined, seen.error);
  return { seen, files: readdirSync(out).sort() };
}

test('esbuild: a bundle with the wasm modules imported as URLs runs in Chromium', { timeout: 120_000 }, async () => {
  await withInstalled(['agentwire', 'agentwire-tokens'], async (dir) => {
    cpSync(appDir, dir, { recursive: true });
    const { seen, files } = await bundleAndRun(dir, 'app.js');
    assert.equal(seen.backend, 'wasm');
    assert.equal(seen.gcx, 'GCX1 tool=t fields=a\n1\n');
    assert.equal(seen.gcf, 'GCF profile=generic\n## rows [1]{id,name}\n1|Ada\n');
    assert.equal(seen.tokens, 2);
    // Only the modules and the vocabulary the app loads are emitted, each under its own name.
    const assets = files.filter((f) => f.endsWith('.wasm') || f.endsWith('.bin'));
    assert.deepEqual(assets.map((f) => f.replace(/-[A-Z0-9]+\.(wasm|bin)$/, '')).sort(), ['agentwire_core_bg', 'agentwire_gcf_bg', 'agentwire_tokens_bg', 'cl100k_base']);
    console.log(`esbuild (file loader): ${files.join(' ')}`);
  });
});

test('esbuild: a bundle with the .wasm files copied beside it runs in Chromium', { timeout: 120_000 }, async () => {
  await withInstalled(['agentwire', 'agentwire-tokens'], async (dir) => {
    cpSync(appDir, dir, { recursive: true });
    const copyWasm = (out) => {
      const tokens = join(dir, 'node_modules', 'agentwire-tokens');
      for (const from of [join(dir, 'node_modules', 'agentwire', 'wasm'), join(tokens, 'wasm'), tokens]) {
        for (const f of readdirSync(from).filter((f) => f.endsWith('.wasm') || f.endsWith('.bin'))) copyFileSync(join(from, f), join(out, f));
      }
    };
    const { seen } = await bundleAndRun(dir, 'app-copied.js', copyWasm);
    assert.equal(seen.gcx, 'GCX1 tool=t fields=a\n1\n');
    assert.equal(seen.tokens, 2);
  });
});
