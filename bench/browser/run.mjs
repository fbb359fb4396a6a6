#!/usr/bin/env node
// node bench/browser/run.mjs [--quick] [--out FILE]   (after make npm-build bench-corpus setup-bench-node setup-chromium)
//
// The browser_wasm_* rows: agentwire's wasm build in headless Chromium (the browser is where the
// inspector runs) against @blackwell-systems/gcf and JSON.parse in the same page
// (bench/browser/page.mjs), in interleaved rounds. Prints each ratio (peer time / agentwire
// time, round by round: median [min–max]); --out writes the records as JSON for report.mjs
// ({userAgent, records}; names as the Node suites', runtime browser-wasm or browser-js,
// schedule browser). `make bench-browser` writes bench/results/browser.json.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { withChromiumPage } from '../../npm/test/chromium.mjs';
import { median } from '../node/rounds.mjs';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false }, out: { type: 'string' } } });
// The repository root, without its trailing separator (the static server compares prefixes).
const root = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\/]$/, '');

let result;
await withChromiumPage({ root, index: 'index.html' }, `/bench/browser/index.html${args.quick ? '#quick' : ''}`, async (page, problems) => {
  await page.waitForFunction(() => window.benchResult !== undefined, null, { timeout: 600_000, polling: 1000 });
  result = await page.evaluate(() => window.benchResult);
  if (problems.length > 0) process.stderr.write(`page problems: ${problems.join('; ')}\n`);
});
if (result.error) throw new Error(`the page failed: ${result.error}`);

const find = (name) => result.records.find((r) => r.name === name);
const ratio = (key, ours, peer, target) => {
  const a = find(ours);
  const b = find(peer);
  const r = a.rounds_ns.map((ns, i) => b.rounds_ns[i] / ns);
  const lo = Math.min(...r);
  const hi = Math.max(...r);
  const met = lo >= target ? 'met' : hi < target ? 'missed' : 'spread crosses';
  console.log(`${key.padEnd(52)} ${median(r).toFixed(2).padStart(6)}  [${lo.toFixed(2)}–${hi.toFixed(2)}]  target ≥ ${target}: ${met}`);
  return { key, value: median(r), spread: [lo, hi], target, met };
};
console.log(result.userAgent);
const rows = [];
const peer = '@blackwell-systems/gcf';
for (const op of ['encode', 'decode']) {
  rows.push(ratio(`browser_wasm_gcf3_graph_${op}_vs_blackwell_gcf`, `gcf3-graph-500/${op}/browser-wasm/agentwire`, `gcf3-graph-500/${op}/browser-js/${peer}`, 1));
  for (const set of ['graph-500', '1kb', '10kb']) {
    const bench = `gcf3-generic-${set}`;
    rows.push(ratio(`browser_wasm_gcf3_generic_${set.replace('-', '')}_${op}_vs_blackwell_gcf`, `${bench}/${op}/browser-wasm/agentwire`, `${bench}/${op}/browser-js/${peer}`, 1));
  }
}
for (const label of ['1kb', '10kb']) {
  rows.push(ratio(`browser_wasm_gcx1_${label}_decode_vs_json_parse`, `gcx1-${label}/decode/browser-wasm/agentwire`, `gcx1-${label}/decode/browser-js/JSON`, 0.5));
}
if (args.out) {
  // As run.mjs writes them: one schedule (every task was timed in the same rounds).
  const records = result.records.map((r) => {
    const [, op, runtime, ...impl] = r.name.split('/');
    return { name: r.name, runtime, impl: impl.join('/'), op, ns_per_op: median(r.rounds_ns), schedule: 'browser', rounds_ns: r.rounds_ns };
  });
  writeFileSync(args.out, `${JSON.stringify({ userAgent: result.userAgent, records }, null, 2)}\n`);
}
