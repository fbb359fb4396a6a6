#!/usr/bin/env node
// npm run inspector:build [-- --out DIR]: writes the inspector as a folder of static files
// (default npm/inspector-dist/) that any static host can serve: the page, its modules, the
// package's browser entry, the wasm modules it loads and the token vocabularies, all linked by
// relative paths. It keeps the package's layout, so the page's imports work unchanged.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The wasm modules the page loads: core (init), gcf (v3, compact.decode), events, toon (pasted TOON); tokens in the worker. */
const WASM = ['core', 'gcf', 'events', 'toon'];

/**
 * Writes the folder and returns the files written (relative to it).
 * @param {string} out
 */
export function buildInspector(out) {
  const files = [
    'browser.js',
    ...readdirSync(join(packageDir, 'lib')).filter((f) => f.endsWith('.js')).map((f) => `lib/${f}`),
    ...readdirSync(join(packageDir, 'inspector')).filter((f) => /\.(js|css)$/.test(f)).map((f) => `inspector/${f}`),
    ...WASM.flatMap((m) => [`wasm/agentwire_${m}.js`, `wasm/agentwire_${m}_bg.wasm`]),
    'packages/tokens/vocabulary.js',
    'packages/tokens/wasm/agentwire_tokens.js',
    'packages/tokens/wasm/agentwire_tokens_bg.wasm',
    'packages/tokens/cl100k_base.bin',
    'packages/tokens/o200k_base.bin',
  ];
  const missing = files.filter((f) => !existsSync(join(packageDir, f)));
  if (missing.length) throw new Error(`missing build outputs (run \`make npm-build\` first): ${missing.join(', ')}`);
  rmSync(out, { recursive: true, force: true });
  for (const file of files) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    copyFileSync(join(packageDir, file), join(out, file));
  }
  // The page moves up one folder (index.html at the root): its two links follow.
  const page = readFileSync(join(packageDir, 'inspector/index.html'), 'utf8');
  const rewritten = page.replace('href="./inspector.css"', 'href="./inspector/inspector.css"').replace('src="./inspector.js"', 'src="./inspector/inspector.js"');
  if (rewritten === page || /(?:href|src)="\.\/inspector\.(?:css|js)"/.test(rewritten)) throw new Error('inspector/index.html: its stylesheet and script links changed; update inspector-build.mjs');
  writeFileSync(join(out, 'index.html'), rewritten);
  return ['index.html', ...files];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  const out = resolve(at >= 0 ? args[at + 1] : join(packageDir, 'inspector-dist'));
  try {
    const files = buildInspector(out);
    const bytes = files.reduce((n, f) => n + statSync(join(out, f)).size, 0);
    console.log(`agentwire inspector: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${relative(process.cwd(), out) || '.'}/ (serve it with any static file server; open index.html over http)`);
  } catch (e) {
    console.error(`inspector:build: ${e.message}`);
    process.exit(1);
  }
}
