// The published tarballs (make npm-pack): what they contain, their sizes, publint and
// @arethetypeswrong/cli verdicts, and that installed as npm lays them out they work: the
// platform package's addon is picked, agentwire-tokens and agentwire-schema are optional with a
// clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { bin, packOf, packs, runNode, tarballFiles, withInstalled } from './packs.mjs';

// The main package (no addon, no vocabulary, no schema validator), and with the addon npm
// installs beside it on linux-x64 (glibc): the 5 MB, as a regression guard on what a
// user downloads.
const MAIN_LIMIT = 5_000_000;
const LINUX_X64_LIMIT = 5_000_000;
const HOST_PLATFORM_PACKAGE = `agentwire-${process.platform}-${process.arch}-gnu`;

test('sizes: agentwire with its linux-x64 addon within 5 MB unpacked', () => {
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
    'agentwire_tokens_bg.wasm',
    'agentwire_toon_bg.wasm',
  ]);
  assert.equal(seen.get('agentwire_tokens_bg.wasm'), 'agentwire-tokens');
  assert.equal(seen.get('agentwire_schema_bg.wasm'), 'agentwire-schema');
  assert.equal(seen.get('agentwire_core_bg.wasm'), 'agentwire');
});

test('package.json: metadata, optional platform packages, tokens and schema, no dev fields', async () => {
  await withInstalled(['agentwire', 'agentwire-tokens', 'agentwire-schema'], (dir) => {
    const pkg = JSON.parse(runNode(dir, "console.log(JSON.stringify(require('agentwire/package.json')))", { type: 'commonjs' }));
    assert.equal(pkg.license, 'MIT OR Apache-2.0');
    assert.match(pkg.repository.url, /github\.com\/agentwire\/agentwire/);
    assert.ok(pkg.homepage && pkg.keywords.length > 3);
    assert.equal(pkg.scripts, undefined);
    assert.equal(pkg.devDependencies, undefined);
    assert.deepEqual(Object.keys(pkg.optionalDependencies).sort(), [
      'agentwire-darwin-arm64',
      'agentwire-darwin-x64',
      'agentwire-linux-arm64-gnu',
      'agentwire-linux-arm64-musl',
      'agentwire-linux-x64-gnu',
      'agentwire-linux-x64-musl',
      'agentwire-win32-arm64-msvc',
      'agentwire-win32-x64-msvc',
    ]);
    for (const v of Object.values(pkg.optionalDependencies)) assert.equal(v, pkg.version);
    for (const optional of ['agentwire-tokens', 'agentwire-schema']) {
      assert.equal(pkg.peerDependencies[optional], pkg.version);
      assert.equal(pkg.peerDependenciesMeta[optional].optional, true);
    }
    // Every wasm and vocabulary subpath resolves to a file in its package.
    const subpaths = [
      ...['agentwire.wasm', 'core.wasm', 'gcf.wasm', 'gateway.wasm', 'events.wasm', 'toon.wasm'].map((s) => `agentwire/${s}`),
      'agentwire-tokens/tokens.wasm',
      'agentwire-tokens/cl100k_base.bin',
      'agentwire-tokens/o200k_base.bin',
      'agentwire-schema/schema.wasm',
    ];
    for (const sub of subpaths) runNode(dir, `require('fs').statSync(require.resolve('${sub}'))`, { type: 'commonjs' });
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

for (const name of ['agentwire', 'agentwire-tokens', 'agentwire-schema', 'agentwire-linux-x64-gnu']) {
  test(`publint ${name}: no errors, warnings or suggestions`, () => {
    const run = spawnSync(bin('publint'), ['run', packOf(name).tarball, '--level', 'suggestion', '--strict'], { encoding: 'utf8' });
    const out = `${run.stdout}${run.stderr}`;
    console.log(out.trim());
    assert.equal(run.status, 0, out);
    assert.match(out, /All good!/, out);
  });
}

// The .wasm subpaths are assets (URLs for bundlers), not modules: no types apply to them.
// agentwire-tokens and agentwire-schema are ESM only, loaded by agentwire (never required,
// never resolved under node10), hence attw's esm-only profile for them.
const ENTRYPOINTS = {
  agentwire: ['.', './wasm', './tokens', './schema'],
  'agentwire-tokens': ['./tokens', './vocabulary'],
  'agentwire-schema': ['.'],
};
for (const [name, profile] of [['agentwire', 'strict'], ['agentwire-tokens', 'esm-only'], ['agentwire-schema', 'esm-only']]) {
  test(`@arethetypeswrong/cli ${name} (profile ${profile}): no problems`, () => {
    const entrypoints = ENTRYPOINTS[name];
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

// A tool whose arguments a gateway session validates, and one without a schema.
const SCHEMA_CATALOG = `[
  { name: 'gh.create_issue', description: 'Create an issue.', inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
  { name: 'gh.ping', description: 'Ping.' },
]`;
const SESSION_CHECK = `
  const session = new a.gateway.BrowseSession({ counter: (t) => t.length });
  const ids = session.register(${SCHEMA_CATALOG}).tool_ids;
  const create = ids.find((id) => id.includes('create'));
  const ping = ids.find((id) => id.includes('ping'));
  console.log(session.execute(ping).isError);
  try { console.log(session.execute(create, { title: 'x' }).isError, session.execute(create, { title: 5 }).isError); }
  catch (e) { console.log(e.name, e.code, e.message); }`;

test('with agentwire-schema: Node gateway sessions and agentwire/schema validate, native and wasm', async () => {
  await withInstalled(['agentwire', 'agentwire-schema', HOST_PLATFORM_PACKAGE], (dir) => {
    for (const env of [{}, { AGENTWIRE_FORCE_WASM: '1' }]) {
      const out = runNode(
        dir,
        `const a = await import('agentwire');
         const s = await import('agentwire/schema');
         console.log(a.backend, s.check({ type: 'integer' }, 1).valid, s.check({ type: 'integer' }, 'x').valid);
         ${SESSION_CHECK}`,
        { env },
      );
      assert.equal(out, `${env.AGENTWIRE_FORCE_WASM ? 'wasm' : 'native'} true false\nfalse\nfalse true`);
    }
    assert.equal(runNode(dir, "console.log(require('agentwire/schema').check({ type: 'string' }, 's').valid)", { type: 'commonjs' }), 'true');
  });
});

test('without agentwire-schema: validation says what to install; a validator of your own works', async () => {
  await withInstalled(['agentwire', HOST_PLATFORM_PACKAGE], (dir) => {
    for (const env of [{}, { AGENTWIRE_FORCE_WASM: '1' }]) {
      const out = runNode(
        dir,
        `const a = await import('agentwire');
         const s = await import('agentwire/schema');
         try { s.check({ type: 'integer' }, 1); } catch (e) { console.log(e.name, e.code, e.message); }
         ${SESSION_CHECK}`,
        { env },
      );
      const [checked, ping, validated] = out.split('\n');
      const hint = /^AgentwireError NOT_INSTALLED agentwire: JSON Schema validation needs the optional package agentwire-schema \(npm install agentwire-schema\); it is not installed beside agentwire\. Or pass your own validator/;
      assert.match(checked, hint);
      // Tools without a schema need no validator.
      assert.equal(ping, 'false');
      assert.match(validated, hint);
    }
    // The session's own validator replaces the package's.
    const own = runNode(
      dir,
      `const a = await import('agentwire');
       const validator = (schema, args) => JSON.stringify(JSON.parse(args).title === 'x' ? { valid: true } : { valid: false, message: 'title must be x', path: ['title'] });
       const session = new a.gateway.BrowseSession({ counter: (t) => t.length, validator });
       const ids = session.register(${SCHEMA_CATALOG}).tool_ids;
       const create = ids.find((id) => id.includes('create'));
       console.log(session.execute(create, { title: 'x' }).isError, session.execute(create, { title: 'y' }).isError);`,
    );
    assert.equal(own, 'false true');
  });
});
