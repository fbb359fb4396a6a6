// The published tarballs (make npm-pack): what they contain, their sizes, publint and
// @arethetypeswrong/cli verdicts, and that installed as npm lays them out they work: the
// platform package's addon is picked, agentwire-tokens is optional with a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { bin, packOf, packs, runNode, tarballFiles, withInstalled } from './packs.mjs';

// The main package (no addon, no vocabulary), and with the addon npm installs beside it on
// linux-x64 (glibc): a regression guard on what a user downloads.
const MAIN_LIMIT = 5_000_000;
const LINUX_X64_LIMIT = 6_000_000;
const HOST_PLATFORM_PACKAGE = `agentwire-${process.platform}-${process.arch}-gnu`;

test('sizes: agentwire within 5 MB unpacked, with its linux-x64 addon within 6 MB', () => {
  const { packs: all } = packs();
  for (const p of all) console.log(`${p.name}: packed ${p.size} B, unpacked ${p.unpackedSize} B, ${p.files} files`);
  const main = packOf('agentwire');
  const addon = packOf('agentwire-linux-x64-gnu');
  assert.ok(main.unpackedSize <= MAIN_LIMIT, `agentwire is ${main.unpackedSize} B unpacked, over ${MAIN_LIMIT}`);
  const total = main.unpackedSize + addon.unpackedSize;
  console.log(`agentwire + agentwire-linux-x64-gnu unpacked: ${total} B (limit ${LINUX_X64_LIMIT})`);
  assert.ok(total <= LINUX_X64_LIMIT, `${total} B unpacked is over ${LINUX_X64_LIMIT}`);
});

test('contents: README and licences shipped, no dev files, every wasm file once with a unique name', () => {
  const seen = new Map();
  for (const p of packs().packs) {
    const files = tarballFiles(p.tarball);
    for (const required of ['package.json', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE']) {
      assert.ok(files.includes(required), `${p.name} lacks ${required}`);
    }
    for (const f of files) {
      assert.doesNotMatch(f, /^(scripts|test|bench|packages|native)\/|\.test\.|^tsconfig|\.map$/, `${p.name} ships ${f}`);
      if (f.endsWith('.wasm')) {
        assert.ok(!seen.has(basename(f)), `${basename(f)} is in ${seen.get(basename(f))} and ${p.name}`);
        seen.set(basename(f), p.name);
      }
    }
  }
  const wasm = [...seen.keys()].sort();
  assert.deepEqual(wasm, [
    'agentwire_core_bg.wasm',
    'agentwire_events_bg.wasm',
    'agentwire_gateway_bg.wasm',
    'agentwire_gcf_bg.wasm',
    'agentwire_schema_bg.wasm',
    'agentwire_tokens_cl100k_bg.wasm',
    'agentwire_tokens_o200k_bg.wasm',
  ]);
  assert.equal(seen.get('agentwire_tokens_cl100k_bg.wasm'), 'agentwire-tokens');
});

test('package.json: metadata, optional platform packages and tokens, no dev fields', async () => {
  await withInstalled(['agentwire', 'agentwire-tokens'], (dir) => {
    const pkg = JSON.parse(runNode(dir, "console.log(JSON.stringify(require('agentwire/package.json')))", { type: 'commonjs' }));
    assert.equal(pkg.license, 'MIT OR Apache-2.0');
    assert.match(pkg.repository.url, /github\.com\/agentwire\/agentwire/);
    assert.ok(pkg.homepage && pkg.keywords.length > 3);
    assert.equal(pkg.scripts, undefined);
    assert.equal(pkg.devDependencies, undefined);
    assert.deepEqual(Object.keys(pkg.optionalDependencies).sort(), [
      'agentwire-linux-arm64-gnu',
      'agentwire-linux-arm64-musl',
      'agentwire-linux-x64-gnu',
      'agentwire-linux-x64-musl',
    ]);
    for (const v of Object.values(pkg.optionalDependencies)) assert.equal(v, pkg.version);
    assert.equal(pkg.peerDependencies['agentwire-tokens'], pkg.version);
    assert.equal(pkg.peerDependenciesMeta['agentwire-tokens'].optional, true);
    // Every wasm subpath resolves to a file in the package.
    for (const sub of ['agentwire.wasm', 'core.wasm', 'gcf.wasm', 'gateway.wasm', 'events.wasm', 'schema.wasm']) {
      runNode(dir, `require('fs').statSync(require.resolve('agentwire/${sub}'))`, { type: 'commonjs' });
    }
    for (const sub of ['cl100k.wasm', 'o200k.wasm']) {
      runNode(dir, `require('fs').statSync(require.resolve('agentwire-tokens/${sub}'))`, { type: 'commonjs' });
    }
  });
  for (const p of packs().packs.filter((p) => p.name.startsWith('agentwire-linux-'))) {
    await withInstalled([p.name], (dir) => {
      const pkg = JSON.parse(runNode(dir, `console.log(JSON.stringify(require('${p.name}/package.json')))`, { type: 'commonjs' }));
      assert.deepEqual(pkg.os, ['linux']);
      assert.equal(pkg.cpu.length, 1);
      assert.equal(pkg.libc.length, 1);
      assert.match(pkg.main, /^agentwire\.linux-(x64|arm64)-(gnu|musl)\.node$/);
    });
  }
});

for (const name of ['agentwire', 'agentwire-tokens', 'agentwire-linux-x64-gnu']) {
  test(`publint ${name}: no errors, warnings or suggestions`, () => {
    const run = spawnSync(bin('publint'), ['run', packOf(name).tarball, '--level', 'suggestion', '--strict'], { encoding: 'utf8' });
    const out = `${run.stdout}${run.stderr}`;
    console.log(out.trim());
    assert.equal(run.status, 0, out);
    assert.match(out, /All good!/, out);
  });
}

// The .wasm subpaths are assets (URLs for bundlers), not modules: no types apply to them.
// agentwire-tokens is ESM only, loaded by agentwire (never required, never resolved under
// node10), hence attw's esm-only profile for it.
for (const [name, profile] of [['agentwire', 'strict'], ['agentwire-tokens', 'esm-only']]) {
  test(`@arethetypeswrong/cli ${name} (profile ${profile}): no problems`, () => {
    const entrypoints = name === 'agentwire' ? ['.', './wasm', './tokens', './schema'] : ['./cl100k', './o200k'];
    const run = spawnSync(bin('attw'), [packOf(name).tarball, '--format', 'json', '--profile', profile, '--entrypoints', ...entrypoints], { encoding: 'utf8' });
    const report = JSON.parse(run.stdout);
    const problems = report.problems ?? report.analysis?.problems ?? [];
    assert.equal(run.status, 0, `${JSON.stringify(problems, null, 2)}\n${run.stderr}`);
    assert.deepEqual(Object.keys(report.analysis.entrypoints).sort(), [...entrypoints].sort());
    console.log(`attw ${name}: ${entrypoints.join(' ')} under ${Object.keys(Object.values(report.analysis.entrypoints)[0].resolutions).join(', ')}: no problems`);
  });
}

test('installed with its platform package: the native addon from the package, tokens from agentwire-tokens', async () => {
  await withInstalled(['agentwire', 'agentwire-tokens', HOST_PLATFORM_PACKAGE], (dir) => {
    const out = runNode(
      dir,
      `const a = await import('agentwire');
       const t = await import('agentwire/tokens');
       console.log(a.backend, a.nativeLoadError, a.gcx.encodeGeneric('t', { a: 1 }).length, t.count('hello world'), a.tokens.count('hello world', 'o200k'));
       const card = a.gateway.card({ id: 'search', description: 'Find things in the code base quickly.' });
       console.log(typeof card === 'object');`,
    );
    assert.equal(out, 'native null 23 2 2\ntrue');
    const cjs = runNode(dir, "const a = require('agentwire'); console.log(a.backend, require('agentwire/tokens').count('hello world'))", { type: 'commonjs' });
    assert.equal(cjs, 'native 2');
  });
});

test('without agentwire-tokens: everything but token counts works; counting says what to install', async () => {
  await withInstalled(['agentwire', HOST_PLATFORM_PACKAGE], (dir) => {
    for (const env of [{}, { AGENTWIRE_FORCE_WASM: '1' }]) {
      const out = runNode(
        dir,
        `const a = await import('agentwire');
         console.log(a.backend, a.gcx.escape('a\\tb'));
         try { a.tokens.count('x'); } catch (e) { console.log(e.name, e.code, e.message); }
         try { a.gateway.card({ id: 'search', description: 'd' }); } catch (e) { console.log(e.name, e.code); }`,
        { env },
      );
      const [first, counted, card] = out.split('\n');
      assert.equal(first, `${env.AGENTWIRE_FORCE_WASM ? 'wasm' : 'native'} a\\tb`);
      assert.match(counted, /^AgentwireError NOT_INSTALLED agentwire: exact token counts need the optional package agentwire-tokens \(npm install agentwire-tokens\)/);
      assert.equal(card, 'AgentwireError NOT_INSTALLED');
    }
  });
});

test('without the platform package: the wasm build, and nativeLoadError names the package', async () => {
  await withInstalled(['agentwire', 'agentwire-tokens'], (dir) => {
    const out = runNode(
      dir,
      `const a = await import('agentwire');
       console.log(a.backend, a.nativeLoadError.cause.message, a.tokens.count('hello world'));`,
    );
    assert.equal(out, `wasm neither native/agentwire.linux-x64-gnu.node nor the package ${HOST_PLATFORM_PACKAGE} is installed 2`);
  });
});
