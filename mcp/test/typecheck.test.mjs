// mcp/src is checked as TypeScript sees its JSDoc (tsconfig.json: checkJs, strict), with the
// TypeScript of the npm package's devDependencies (`make setup` installs them).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

test('tsc --checkJs: no type error in src/', () => {
  const tsc = join(ROOT, '../npm/node_modules/.bin/tsc');
  assert.ok(existsSync(tsc), `${tsc} is missing: run \`make setup-npm\``);
  const r = spawnSync(tsc, ['-p', join(ROOT, 'tsconfig.json')], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
