// Runs every suite through the package's browser entry (wasm, web target): GCX1 (with the
// scope files), GCF v1.1, GCB1, and, after loading the GCF v3 module, GCF v3.5.3; after loading `agentwire/tokens` and `agentwire/schema`
// separately, token counts and the gateway contracts; the event protocol vectors.
import * as agentwire from 'agentwire';
import * as schema from 'agentwire/schema';
import * as tokens from 'agentwire/tokens';
import { loadSuiteFiles, runSuite, summary } from '/scripts/conformance-lib.mjs';

const status = document.querySelector('#status');

/** The suite's files under /fixtures/<dir>, listed by the test server. */
function loadSuite(suite, dir) {
  const listDir = async (rel) => {
    const response = await fetch(`/fixtures/${dir}/${rel ? `${rel}/` : ''}`);
    return response.ok ? response.json() : [];
  };
  const readText = async (rel) => (await fetch(`/fixtures/${dir}/${rel}`)).text();
  const readBytes = async (rel) => (await fetch(`/fixtures/${dir}/${rel}`)).arrayBuffer();
  return loadSuiteFiles(suite, listDir, readText, readBytes);
}

try {
  await agentwire.init();
  const suites = {};
  suites.gcx1 = runSuite(agentwire, 'gcx1', await loadSuite('gcx1', 'gcx1'));
  suites['gcf-v1.1'] = runSuite(agentwire, 'gcf-v1.1', await loadSuite('gcf-v1.1', 'gcf/conformance-v1.1'));
  suites.gcb1 = runSuite(agentwire, 'gcb1', await loadSuite('gcb1', 'gcb1'));
  await agentwire.gcf.load();
  suites.gcf = runSuite(agentwire, 'gcf', await loadSuite('gcf', 'gcf/conformance'));
  await tokens.load('cl100k_base');
  suites.tokens = runSuite(agentwire, 'tokens', await loadSuite('tokens', 'gateway'));
  // The gateway counts with the cl100k module loaded above and validates with agentwire/schema.
  await Promise.all([schema.load(), agentwire.gateway.load(), agentwire.events.load()]);
  suites.gateway = runSuite(agentwire, 'gateway', await loadSuite('gateway', 'gateway'), { validator: schema.validator });
  suites.events = runSuite(agentwire, 'events', await loadSuite('events', 'events'));
  await agentwire.toon.load();
  suites.toon = runSuite(agentwire, 'toon', await loadSuite('toon', 'toon'));
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
