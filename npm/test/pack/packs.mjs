// The packed tarballs of `make npm-pack` (scripts/pack.mjs), and projects that have them
// installed the way npm lays them out (node_modules/<name>/ = the tarball's package/).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageDir } from '../helpers.mjs';

export const packDir = process.env.AGENTWIRE_PACK_DIR ?? join(packageDir, '..', 'target', 'npm-pack');

/** packs.json: `{ platformsMissing, packs: [{ name, dir, tarball, size, unpackedSize, files }] }`. */
export function packs() {
  const file = join(packDir, 'packs.json');
  assert.ok(existsSync(file), `${file} is missing: run \`make npm-pack\` first`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The pack of package `name`. */
export function packOf(name) {
  const found = packs().packs.find((p) => p.name === name);
  assert.ok(found, `no tarball for ${name} in ${packDir}`);
  return found;
}

/** The file list of a tarball. */
export function tarballFiles(tarball) {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
}

/**
 * A fresh project folder with the named packages' tarballs unpacked into node_modules, as
 * npm installs them. `fn(dir)` runs in it; the folder is removed afterwards.
 */
export async function withInstalled(names, fn, { prefix = 'agentwire-pack-' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    for (const name of names) {
      const target = join(dir, 'node_modules', name);
      mkdirSync(target, { recursive: true });
      execFileSync('tar', ['-xzf', packOf(name).tarball, '-C', target, '--strip-components=1']);
    }
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs an ES module snippet with Node in `cwd`; its stdout (trimmed), or throws with stderr. */
export function runNode(cwd, code, { type = 'module', env = {} } = {}) {
  return execFileSync(process.execPath, [`--input-type=${type}`, '-e', code], {
    cwd,
    env: { ...process.env, AGENTWIRE_FORCE_WASM: '', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A tool from this package's devDependencies. */
export const bin = (name) => join(packageDir, 'node_modules', '.bin', name);
