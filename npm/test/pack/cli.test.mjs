// `npx agentwire compact|tokens` as npm installs the package (make test-pack, after make
// npm-pack): the tarballs installed with `npm install` into an empty folder, the bin run
// through npx on the native addon and on wasm, its stdout, stderr and exit code equal to the
// Rust CLI's (AGENTWIRE_CLI, the debug build of cli/ by default) on the same input.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageDir } from '../helpers.mjs';
import { packOf } from './packs.mjs';

const root = join(packageDir, '..');
const rustCli = process.env.AGENTWIRE_CLI ?? join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'debug', 'agentwire');
const corpus = (file) => join(root, 'tests', 'realworld', file);
const HOST_PLATFORM_PACKAGE = `agentwire-${process.platform}-${process.arch}-gnu`;

/** Each case: the arguments after `agentwire`, and the input file (or stdin bytes). */
function cases(dir) {
  const write = (name, data) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };
  const notUtf8 = write('not-utf8.json', Buffer.from([0x7b, 0x0a, 0x22, 0x61, 0xff, 0x22, 0x3a, 0x31, 0x7d]));
  const pretty = write('rows.json', JSON.stringify({ rows: Array.from({ length: 30 }, (_, i) => ({ id: i, name: `item ${i}`, ok: i % 2 === 0 })) }, null, 2));
  return [
    { args: ['compact', '--report', corpus('npm-view-react.json')] },
    { args: ['compact', '--report', '--min-savings', '0', corpus('npm-view-react.json')] },
    { args: ['compact', '--report', '--encoding', 'o200k_base', corpus('npm-sbom-cyclonedx-legacy-webshop.json')] },
    { args: ['compact', '--report', corpus('node-process-report.json')] },
    { args: ['compact', '--report', corpus('rustc-diagnostics-broken.jsonl')] },
    { args: ['compact', '--report', '--encoding', 'bytes', '--min-savings', '0', pretty] },
    { args: ['compact', '--tool', 'search_symbols', pretty] },
    { args: ['compact', '--report', '--min-savings', '0.99', pretty] },
    { args: ['compact', '--report', notUtf8] },
    { args: ['compact', '--report', '-'], stdin: readFileSync(pretty) },
    { args: ['compact', '--encoding', 'p50k_base', pretty] },
    { args: ['tokens', corpus('npm-view-typescript.json')] },
    { args: ['tokens', '--encoding', 'o200k_base', '--ids', pretty] },
    { args: ['tokens', notUtf8] },
    { args: ['tokens', '--ids', notUtf8] },
    { args: ['tokens'], stdin: Buffer.from('from stdin, ünïcödé\n') },
  ];
}

function run(command, args, { cwd, stdin, env = {} }) {
  const result = spawnSync(command[0], [...command.slice(1), ...args], {
    cwd,
    input: stdin ?? Buffer.alloc(0),
    env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  });
  return { status: result.status, stdout: result.stdout.toString('latin1'), stderr: result.stderr.toString('utf8') };
}

test('npx agentwire compact|tokens from the installed tarball equals the Rust CLI (native and wasm)', { timeout: 600_000 }, () => {
  assert.ok(existsSync(rustCli), `${rustCli} is missing: cargo build -p agentwire-cli (or set AGENTWIRE_CLI)`);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agentwire-cli-install-')));
  try {
    const names = ['agentwire', 'agentwire-tokens', HOST_PLATFORM_PACKAGE];
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...names.map((n) => packOf(n).tarball)], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const npx = ['npx', '--no-install', 'agentwire'];
    const version = run(npx, ['--version'], { cwd: dir });
    assert.equal(version.status, 0, version.stderr);
    assert.match(version.stdout, /^agentwire \d+\.\d+\.\d+/);
    for (const { args, stdin } of cases(dir)) {
      const rust = run([rustCli], args, { cwd: dir, stdin });
      for (const [backend, env] of [['native', {}], ['wasm', { AGENTWIRE_FORCE_WASM: '1' }]]) {
        const js = run(npx, args, { cwd: dir, stdin, env });
        const name = `agentwire ${args.join(' ')} (${backend})`;
        assert.equal(js.status, rust.status, `${name}: exit code\n${js.stderr}`);
        assert.equal(js.stdout, rust.stdout, `${name}: stdout`);
        assert.equal(js.stderr, rust.stderr, `${name}: stderr`);
      }
    }
    // On real data with hashes and versions in its strings: candidates and the best of them,
    // chosen once it saves enough (minified JSON saves 8.7 % of `npm view react --json`: under
    // the default 10 %, so the report says so, with both numbers).
    const react = run(npx, ['compact', '--report', corpus('npm-view-react.json')], { cwd: dir });
    assert.match(react.stderr, /^json-min +\d+ tokens +\d+ bytes {2}lossless$/m);
    assert.match(react.stderr, /^kept: input \(\d+ tokens\): BELOW_MIN_SAVINGS the best candidate, json-min with \d+ tokens, saves 8\.\d % of the input's \d+: less than minSavings 10\.0 %$/m);
    const reactAll = run(npx, ['compact', '--report', '--min-savings', '0', corpus('npm-view-react.json')], { cwd: dir });
    assert.match(reactAll.stderr, /^chosen: json-min \(\d+ tokens\)$/m);
    const sbom = run(npx, ['compact', '--report', corpus('npm-sbom-cyclonedx-legacy-webshop.json')], { cwd: dir });
    assert.match(sbom.stderr, /^chosen: (?!input)/m);
    // A usage error is exit code 2, as clap's; a missing file is an IO error.
    assert.equal(run(npx, ['compact', '--min-savings', 'x'], { cwd: dir }).status, 2);
    assert.equal(run(npx, ['frobnicate'], { cwd: dir }).status, 2);
    const missing = run(npx, ['tokens', join(dir, 'nope.json')], { cwd: dir });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^error\[IO\]: .*nope\.json: /);
    // Without agentwire-tokens, exact counts say which package to install.
    rmSync(join(dir, 'node_modules', 'agentwire-tokens'), { recursive: true });
    const bare = run(npx, ['compact', corpus('npm-view-react.json')], { cwd: dir });
    assert.equal(bare.status, 1);
    assert.match(bare.stderr, /^error\[NOT_INSTALLED\]: .*npm install agentwire-tokens/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
