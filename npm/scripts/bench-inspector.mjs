#!/usr/bin/env node
// make bench-inspector: the inspector's time to first render of the 10 MB corpus in headless
// Chromium (pasted as JSON and as GCX1), how long the main thread stays busy, and how long the
// worker takes to count every candidate. Five fresh pages per input; the report takes the
// median and the spread. Writes bench/results/inspector.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withChromiumPage } from '../test/chromium.mjs';
import { largeCorpus, measureLargePaste } from '../test/inspector-large.mjs';
import { buildInspector } from './inspector-build.mjs';
import { packageDir } from '../test/helpers.mjs';

const RUNS = 5;
const out = join(packageDir, '..', 'bench', 'results', 'inspector.json');
const site = mkdtempSync(join(tmpdir(), 'agentwire-inspector-bench-'));
buildInspector(site);
try {
  const { json, gcx1 } = largeCorpus();
  const runs = { json: [], gcx1: [] };
  for (let i = 0; i < RUNS; i += 1) {
    for (const [key, text, name] of [['json', json, 'gcx-10mb.json'], ['gcx1', gcx1, 'gcx-10mb.sections.json as GCX1']]) {
      await withChromiumPage({ root: site, index: 'index.html' }, '/', async (page) => {
        await page.waitForFunction(() => window.agentwireInspector?.ready === true, null, { timeout: 60_000 });
        const record = await measureLargePaste(page, text, name);
        console.log(`inspector ${key} run ${i + 1}/${RUNS}: first render ${record.firstRenderMs} ms, longest task ${record.longestMainThreadTaskMs} ms, candidates counted in ${record.costsMs} ms`);
        runs[key].push(record);
      }, { viewport: { width: 1280, height: 900 } });
    }
  }
  writeFileSync(out, `${JSON.stringify(runs, null, 2)}\n`);
  console.log(`wrote ${out}`);
} finally {
  rmSync(site, { recursive: true, force: true });
}
