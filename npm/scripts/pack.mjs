#!/usr/bin/env node
// Stages the publishable npm packages and packs them (`make npm-pack`):
//   agentwire                 this folder's `files`, README and licences; the platform packages
//                             as optionalDependencies (napi-rs's layout), agentwire-tokens and
//                             agentwire-schema as optional peers; no dev scripts or
//                             devDependencies
//   agentwire-tokens          packages/tokens (the token counter wasm module and the two vocabularies)
//   agentwire-schema          packages/schema (the JSON Schema validator's wasm module)
//   agentwire-<triple>        one per native addon in native/ (os, cpu and, on linux, libc
//                             fields, so npm installs only the one that runs)
//   agentwire-mcp             ../mcp (the MCP gateway), its `file:` dependencies on the packages
//                             above turned into version ranges
// Usage: node scripts/pack.mjs [--out DIR] [--require-all-platforms]
// Prints each tarball's packed and unpacked size (from `npm pack --json`) and writes
// DIR/packs.json.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(packageDir, '..');
const REPO_URL = 'https://github.com/agentwire/agentwire';

/**
 * Every platform agentwire publishes an addon for: napi triple → package.json fields and the
 * Rust target it is built for. The Windows addons are gnu(llvm) builds under napi-rs's -msvc
 * names: a napi addon's ABI is plain C (docs/packaging.md).
 */
export const PLATFORMS = {
  'linux-x64-gnu': { os: ['linux'], cpu: ['x64'], libc: ['glibc'], rust: 'x86_64-unknown-linux-gnu' },
  'linux-arm64-gnu': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'], rust: 'aarch64-unknown-linux-gnu' },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'], rust: 'x86_64-unknown-linux-musl' },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'], rust: 'aarch64-unknown-linux-musl' },
  'win32-x64-msvc': { os: ['win32'], cpu: ['x64'], rust: 'x86_64-pc-windows-gnu' },
  'win32-arm64-msvc': { os: ['win32'], cpu: ['arm64'], rust: 'aarch64-pc-windows-gnullvm' },
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'], rust: 'aarch64-apple-darwin' },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'], rust: 'x86_64-apple-darwin' },
};

function parseArgs(argv) {
  const args = { out: join(repoDir, 'target', 'npm-pack'), requireAll: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') args.out = resolve(argv[++i]);
    else if (argv[i] === '--require-all-platforms') args.requireAll = true;
    else throw new Error(`pack.mjs: unknown argument ${argv[i]}`);
  }
  return args;
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** The repository README with relative links made absolute (they would break on npm). */
function readme() {
  const text = readFileSync(join(repoDir, 'README.md'), 'utf8');
  return text.replace(/\]\((?!https?:|#|mailto:)([^)\s]+)\)/g, (_, target) => `](${REPO_URL}/blob/main/${target})`);
}

function copyLicences(dir) {
  for (const name of ['LICENSE-MIT', 'LICENSE-APACHE']) copyFileSync(join(repoDir, name), join(dir, name));
}

/** The files `npm pack` would take from `dir` (its `files` list and npm's own rules). */
function packFiles(dir) {
  const [report] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' }));
  return report.files.map((f) => f.path);
}

function stageMain(out, triples) {
  const dir = join(out, 'agentwire');
  mkdirSync(dir, { recursive: true });
  for (const file of packFiles(packageDir)) {
    if (file === 'package.json') continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(packageDir, file), join(dir, file));
  }
  const pkg = readJson(join(packageDir, 'package.json'));
  // Development-only fields stay in the repository.
  delete pkg.scripts;
  delete pkg.devDependencies;
  delete pkg.napi;
  pkg.optionalDependencies = Object.fromEntries(triples.map((t) => [`agentwire-${t}`, pkg.version]));
  pkg.files = [...pkg.files, 'README.md'];
  writeJson(join(dir, 'package.json'), pkg);
  writeFileSync(join(dir, 'README.md'), readme());
  copyLicences(dir);
  return dir;
}

/** An optional package (packages/<folder>, named agentwire-<folder>), as it is. */
function stageOptional(out, folder, version) {
  const source = join(packageDir, 'packages', folder);
  const name = `agentwire-${folder}`;
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  for (const file of packFiles(source)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(source, file), join(dir, file));
  }
  copyLicences(dir);
  const pkg = readJson(join(dir, 'package.json'));
  if (pkg.version !== version || pkg.peerDependencies.agentwire !== version) {
    throw new Error(`${name} must have agentwire's version ${version} (and peer on it)`);
  }
  return dir;
}

function stagePlatform(out, triple, main) {
  const dir = join(out, `agentwire-${triple}`);
  mkdirSync(dir, { recursive: true });
  const file = `agentwire.${triple}.node`;
  copyFileSync(join(packageDir, 'native', file), join(dir, file));
  const { os, cpu, libc, rust } = PLATFORMS[triple];
  writeJson(join(dir, 'package.json'), {
    name: `agentwire-${triple}`,
    version: main.version,
    description: `The ${rust} native addon of agentwire (installed by agentwire on that platform).`,
    keywords: main.keywords,
    homepage: main.homepage,
    bugs: main.bugs,
    repository: main.repository,
    license: main.license,
    engines: main.engines,
    type: 'commonjs',
    os,
    cpu,
    ...(libc ? { libc } : {}),
    main: file,
    files: [file, 'LICENSE-MIT', 'LICENSE-APACHE'],
  });
  writeFileSync(
    join(dir, 'README.md'),
    `# agentwire-${triple}\n\nThe \`${rust}\` native addon of [agentwire](${REPO_URL}). ` +
      `Install \`agentwire\`, not this package: npm picks the addon for your platform.\n`,
  );
  copyLicences(dir);
  return dir;
}

/** agentwire-mcp: its `files`, README (links made absolute) and licences, no dev fields. */
function stageMcp(out, staged) {
  const source = join(repoDir, 'mcp');
  const dir = join(out, 'agentwire-mcp');
  mkdirSync(dir, { recursive: true });
  for (const file of packFiles(source)) {
    if (file === 'package.json' || file === 'README.md') continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(source, file), join(dir, file));
  }
  const pkg = readJson(join(source, 'package.json'));
  delete pkg.scripts;
  delete pkg.devDependencies;
  // npm publish rewrites "./bin/x.js" to "bin/x.js" and warns: written as it wants it.
  pkg.bin = Object.fromEntries(Object.entries(pkg.bin).map(([name, file]) => [name, file.replace(/^\.\//, '')]));
  for (const [name, spec] of Object.entries(pkg.dependencies)) {
    if (!spec.startsWith('file:')) continue;
    if (!staged[name]) throw new Error(`agentwire-mcp depends on ${name} through ${spec}, which is not packed here`);
    pkg.dependencies[name] = `^${staged[name]}`;
  }
  const main = readJson(join(packageDir, 'package.json'));
  Object.assign(pkg, { homepage: `${REPO_URL}/tree/main/mcp#readme`, bugs: main.bugs, repository: { ...main.repository, directory: 'mcp' } });
  pkg.files = [...pkg.files, 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE'];
  writeJson(join(dir, 'package.json'), pkg);
  const base = `${REPO_URL}/blob/main/mcp/`;
  const text = readFileSync(join(source, 'README.md'), 'utf8');
  writeFileSync(join(dir, 'README.md'), text.replace(/\]\((?!https?:|#|mailto:)([^)\s]+)\)/g, (_, target) => `](${new URL(target, base)})`));
  copyLicences(dir);
  return dir;
}

function pack(dir, tarballs) {
  const [report] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tarballs], { cwd: dir, encoding: 'utf8' }));
  return { name: report.name, dir, tarball: join(tarballs, report.filename), size: report.size, unpackedSize: report.unpackedSize, files: report.entryCount };
}

export function main(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  rmSync(args.out, { recursive: true, force: true });
  const tarballs = join(args.out, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const built = Object.keys(PLATFORMS).filter((t) => existsSync(join(packageDir, 'native', `agentwire.${t}.node`)));
  const missing = Object.keys(PLATFORMS).filter((t) => !built.includes(t));
  if (args.requireAll && missing.length) throw new Error(`pack.mjs: native addons missing for ${missing.join(', ')} (make npm-platforms)`);
  const mainDir = stageMain(args.out, Object.keys(PLATFORMS));
  const mainPkg = readJson(join(mainDir, 'package.json'));
  const optional = ['tokens', 'schema'].map((folder) => stageOptional(args.out, folder, mainPkg.version));
  const staged = Object.fromEntries([mainDir, ...optional].map((dir) => [readJson(join(dir, 'package.json')).name, mainPkg.version]));
  const dirs = [mainDir, ...optional, ...built.map((t) => stagePlatform(args.out, t, mainPkg)), stageMcp(args.out, staged)];
  const packs = dirs.map((dir) => pack(dir, tarballs));
  writeJson(join(args.out, 'packs.json'), { platformsMissing: missing, packs });
  for (const p of packs) {
    console.log(`${p.name.padEnd(26)} packed ${String(p.size).padStart(10)} B, unpacked ${String(p.unpackedSize).padStart(10)} B, ${p.files} files`);
  }
  if (missing.length) console.log(`(no addon built for ${missing.join(', ')}: those packages were not staged)`);
  return { out: args.out, packs, missing };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
