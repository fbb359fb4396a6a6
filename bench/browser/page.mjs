// The browser_wasm_* rows (bench/browser/run.mjs): agentwire's wasm build through the package's
// browser entry against @blackwell-systems/gcf and JSON in the same page, timed in interleaved
// rounds (bench/node/rounds.mjs), on the data of the Node suites: GCF 3.5.3 graph and generic
// (graph-500, 1 KB, 10 KB) and gcx.decode of 1 KB and 10 KB. Outputs are checked equal first.
import * as agentwire from 'agentwire';
import * as blackwell from '@blackwell-systems/gcf';
import * as reference from '@toon-format/toon';
import { rowsUpTo } from '/bench/node/rows.mjs';
import { timeInRounds } from '/bench/node/rounds.mjs';

const { gcf, gcx, toon } = agentwire;
const quick = location.hash === '#quick';
const check = (ok, what) => {
  if (!ok) throw new Error(`check failed: ${what}`);
};
const json = async (path) => (await fetch(path)).json();

try {
  await agentwire.init();
  await gcf.load();
  await toon.load();
  const graph = await json('/bench/corpus/out/graph-500.json');
  const data = await json('/bench/corpus/out/gcx-10mb.json');
  const single = (target) => rowsUpTo(data[0].rows, target);
  const tasks = [];
  const task = (bench, runtime, impl, op, fn) => tasks.push({ name: `${bench}/${op}/${runtime}/${impl}`, fn });
  const peer = '@blackwell-systems/gcf';

  // GCF 3.5.3 graph profile.
  const peerText = blackwell.encode(graph);
  check(gcf.encodeGraph(graph) === peerText, 'gcf.encodeGraph equals the peer');
  task('gcf3-graph-500', 'browser-wasm', 'agentwire', 'decode', () => gcf.decodeGraph(peerText));
  task('gcf3-graph-500', 'browser-wasm', 'agentwire', 'encode', () => gcf.encodeGraph(graph));
  task('gcf3-graph-500', 'browser-js', peer, 'decode', () => blackwell.decode(peerText));
  task('gcf3-graph-500', 'browser-js', peer, 'encode', () => blackwell.encode(graph));

  // GCF 3.5.3 generic profile.
  const V3_5_3 = { version: '3.5.3' };
  for (const [set, value] of [['graph-500', graph], ['1kb', single(1000)], ['10kb', single(10000)]]) {
    const bench = `gcf3-generic-${set}`;
    const text = blackwell.encodeGeneric(value);
    check(gcf.encodeGeneric(value, V3_5_3) === text, `${bench}: gcf.encodeGeneric equals the peer`);
    check(JSON.stringify(gcf.decodeGeneric(text)) === JSON.stringify(value), `${bench}: round trip`);
    task(bench, 'browser-wasm', 'agentwire', 'decode', () => gcf.decodeGeneric(text));
    task(bench, 'browser-wasm', 'agentwire', 'encode', () => gcf.encodeGeneric(value, V3_5_3));
    task(bench, 'browser-js', peer, 'decode', () => blackwell.decodeGeneric(text));
    task(bench, 'browser-js', peer, 'encode', () => blackwell.encodeGeneric(value));
  }

  // TOON on its own 8 benchmark datasets, against @toon-format/toon (recorded, no target).
  const names = ['analytics', 'event-logs', 'github', 'keyed', 'nested-config', 'nested-group', 'nested', 'tabular'];
  const values = await Promise.all(names.map((name) => json(`/bench/data/toon/${name}.json`)));
  const toonTexts = values.map((value) => reference.encode(value));
  values.forEach((value, i) => check(toon.encode(value) === toonTexts[i], `toon.encode of ${names[i]} equals the reference's`));
  task('toon-8', 'browser-wasm', 'agentwire', 'encode', () => values.map((v) => toon.encode(v)));
  task('toon-8', 'browser-wasm', 'agentwire', 'decode', () => toonTexts.map((t) => toon.decode(t)));
  task('toon-8', 'browser-js', '@toon-format/toon', 'encode', () => values.map((v) => reference.encode(v)));
  task('toon-8', 'browser-js', '@toon-format/toon', 'decode', () => toonTexts.map((t) => reference.decode(t)));

  // gcx.decode against JSON.parse.
  for (const [label, target] of [['1kb', 1000], ['10kb', 10000]]) {
    const rows = single(target);
    const payload = gcx.encodeGeneric(data[0].tool, rows);
    const jsonText = JSON.stringify(rows);
    check(gcx.decode(payload).sections[0].rows.length === rows.length, `gcx1-${label}: round trip`);
    task(`gcx1-${label}`, 'browser-wasm', 'agentwire', 'decode', () => gcx.decode(payload));
    task(`gcx1-${label}`, 'browser-js', 'JSON', 'decode', () => JSON.parse(jsonText));
  }

  const timing = quick
    ? { rounds: 3, sweeps: 2, sliceMs: 5, warmupSweeps: 0 }
    : { rounds: 9, sweeps: 16, sliceMs: 10, warmupSweeps: 1 };
  const status = document.querySelector('#status');
  const roundsNs = timeInRounds(tasks, timing, (line) => {
    status.textContent = line;
  });
  window.benchResult = { records: tasks.map((t, i) => ({ name: t.name, rounds_ns: roundsNs[i] })), userAgent: navigator.userAgent };
} catch (e) {
  window.benchResult = { error: `${e.message}\n${e.stack}` };
}
