// The published types under the tsconfigs people use: `tsc` on a small consumer of the packed
// tarballs for every target (es2020, es2022, esnext) × moduleResolution (node16, nodenext,
// bundler) × skipLibCheck (on, off), strict, default lib; plus a Node-style config (lib
// es2022 without DOM, @types/node). CommonJS consumers (.cts) are checked under node16/nodenext.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from '../helpers.mjs';
import { withInstalled } from './packs.mjs';

const tsc = join(packageDir, 'node_modules', 'typescript', 'bin', 'tsc');

const ESM = `import { AgentwireError, backend, gcx, gcf, gateway, init, tokens, type DecodeItem } from 'agentwire';
import * as wasm from 'agentwire/wasm';
import { count, load } from 'agentwire/tokens';
import { check } from 'agentwire/schema';

await init();
await load('cl100k_base');
const text: string = gcx.encodeGeneric('t', { a: 1 });
const items: DecodeItem[] = [];
const decoder = new gcx.Decoder();
decoder.push(text);
decoder.finish();
for (const item of decoder) items.push(item);
decoder[Symbol.dispose]();
const encoder = new wasm.gcx.Encoder();
encoder.free();
const n: number = count('hello') + tokens.count('hello', 'o200k_base');
const which: 'native' | 'wasm' = backend;
const verdict = check({ type: 'object' }, {});
await gcf.load();
let code: string | undefined;
try {
  gcx.decode('x');
} catch (e) {
  if (e instanceof AgentwireError) code = e.code;
}
void [n, which, verdict, code, gateway];
export {};
`;

const CJS = `import agentwire = require('agentwire');
import tokens = require('agentwire/tokens');
const text: string = agentwire.gcx.encodeGeneric('t', [1]);
const n: number = tokens.count(text);
const decoder = new agentwire.gcx.Decoder();
decoder[Symbol.dispose]();
export = n;
`;

const MODULE_OF = { node16: 'node16', nodenext: 'nodenext', bundler: 'esnext' };

function configs() {
  const out = [];
  for (const target of ['es2020', 'es2022', 'esnext']) {
    for (const moduleResolution of ['node16', 'nodenext', 'bundler']) {
      for (const skipLibCheck of [false, true]) {
        out.push({ target, module: MODULE_OF[moduleResolution], moduleResolution, skipLibCheck });
      }
    }
  }
  // A Node project (as @tsconfig/node20): no DOM lib, Node's globals from @types/node.
  out.push({ target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: false, lib: ['es2022'], types: ['node'] });
  return out;
}

test('tsc accepts the packed types under every common tsconfig (strict, with and without skipLibCheck)', { timeout: 300_000 }, async () => {
  await withInstalled(['agentwire', 'agentwire-tokens'], (dir) => {
    cpSync(join(packageDir, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'), { recursive: true });
    cpSync(join(packageDir, 'node_modules', 'undici-types'), join(dir, 'node_modules', 'undici-types'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
    writeFileSync(join(dir, 'esm.ts'), ESM);
    writeFileSync(join(dir, 'cjs.cts'), CJS);
    const failures = [];
    let checked = 0;
    for (const config of configs()) {
      const { lib, types = [], ...options } = config;
      const files = options.moduleResolution === 'bundler' ? ['esm.ts'] : ['esm.ts', 'cjs.cts'];
      const compilerOptions = { ...options, strict: true, noEmit: true, types, ...(lib ? { lib } : {}) };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
      const run = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
      checked++;
      if (run.status !== 0) failures.push(`${JSON.stringify(config)}:\n${run.stdout}${run.stderr}`);
    }
    console.log(`tsc: ${checked - failures.length} of ${checked} tsconfigs accept the types`);
    assert.deepEqual(failures, []);
  });
});
