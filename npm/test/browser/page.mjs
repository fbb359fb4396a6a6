// Runs every GCX1 vector (and the scope files) through the package's browser entry (wasm, web
// target), then loads `agentwire/tokens` separately and checks every token count.
import * as agentwire from 'agentwire';
import { runSuite, summary, SUITE_FILES } from '/scripts/conformance-lib.mjs';

const status = document.querySelector('#status');

async function loadSuite(suite, dir) {
  const files = {};
  for (const name of SUITE_FILES[suite]) {
    const response = await fetch(`/fixtures/${dir}/${name}`);
    if (response.ok) files[name] = await response.json();
  }
  if (suite === 'gcx1') {
    const names = await (await fetch(`/fixtures/${dir}/scope/`)).json();
    for (const name of names.filter((n) => n.endsWith('.gcx'))) {
      files[`scope/${name}`] = await (await fetch(`/fixtures/${dir}/scope/${name}`)).text();
    }
  }
  return files;
}

try {
  await agentwire.init();
  const suites = {};
  suites.gcx1 = runSuite(agentwire, 'gcx1', await loadSuite('gcx1', 'gcx1'));
  await agentwire.tokens.load('cl100k_base');
  suites.tokens = runSuite(agentwire, 'tokens', await loadSuite('tokens', 'gateway'));
  status.textContent = `backend ${agentwire.backend} · ${Object.entries(suites)
    .map(([name, report]) => `${name} ${summary(report)}`)
    .join(' · ')}`;
  document.querySelector('#failures').textContent = Object.values(suites)
    .flatMap((r) => r.failures.map((f) => `FAIL ${f.id}: ${f.message}`))
    .join('\n');
  window.agentwireResult = { backend: agentwire.backend, suites };
} catch (e) {
  status.textContent = `error: ${e?.stack ?? e}`;
  window.agentwireResult = { error: String(e?.stack ?? e) };
}
