// Runs every GCX1 vector through the package's browser entry (wasm, web target).
import * as agentwire from 'agentwire';
import { runSuite, summary, SUITE_FILES } from '/scripts/conformance-lib.mjs';

const status = document.querySelector('#status');
try {
  await agentwire.init();
  const files = {};
  for (const name of SUITE_FILES.gcx1) {
    const response = await fetch(`/fixtures/gcx1/${name}`);
    if (response.ok) files[name] = await response.json();
  }
  const report = runSuite(agentwire, 'gcx1', files);
  status.textContent = `backend ${agentwire.backend} · gcx1 ${summary(report)}`;
  document.querySelector('#failures').textContent = report.failures.map((f) => `FAIL ${f.id}: ${f.message}`).join('\n');
  window.agentwireResult = { backend: agentwire.backend, passed: report.passed, failures: report.failures };
} catch (e) {
  status.textContent = `error: ${e?.stack ?? e}`;
  window.agentwireResult = { error: String(e?.stack ?? e) };
}
