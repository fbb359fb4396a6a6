// index.d.ts against both builds' generated declarations: `tsc --noEmit` on test/types.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageDir } from './helpers.mjs';

test('tsc --noEmit accepts index.d.ts usage and both raw builds', () => {
  const tsc = join(packageDir, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', join(packageDir, 'test', 'types', 'tsconfig.json')], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`);
});
