// index.d.ts against both builds' generated declarations: `tsc --noEmit` on test/types; and the
// JSDoc types of the package's JavaScript where it is written (test/types/lib.tsconfig.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageDir } from './helpers.mjs';

/** Runs tsc on a project of test/types and fails with its output. */
function tsc(project) {
  const bin = join(packageDir, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [bin, '-p', join(packageDir, 'test', 'types', project)], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`);
}

test('tsc --noEmit accepts index.d.ts usage and both raw builds', () => tsc('tsconfig.json'));

test('tsc checks the package\'s own JavaScript (the // @ts-check files of lib/ and the entries)', () =>
  tsc('lib.tsconfig.json'));
