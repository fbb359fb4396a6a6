// The comparison helpers every JS suite runner shares: a failed check throws Mismatch, which
// the runner records as a failure (anything else thrown is reported as a crash).

export class Mismatch extends Error {}

export function fail(message) {
  throw new Mismatch(message);
}

export const show = (v) => JSON.stringify(v);

export function sameText(what, expected, got) {
  if (expected !== got) fail(`${what}: expected ${show(expected)}, got ${show(got)}`);
}

/**
 * Structural equality of plain JS values (object key order ignored), as serde_json compares in
 * Rust. `subset`: every member of `a` is in `b` with an equal value, `b` may hold more (the GCF
 * graph decode contract); arrays still need equal lengths. The GCF suite compares order-kept
 * values with `sameOrdered` (conformance-gcf.mjs), the only other comparison.
 */
export function deepEqual(a, b, { subset = false } = {}) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (Array.isArray(a) ? a.length !== b.length : !subset && ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k], { subset }));
}

export function same(what, expected, got) {
  if (!deepEqual(expected, got)) fail(`${what}: expected ${show(expected)}, got ${show(got)}`);
}

/** A report and `record(id, check)`: a passing check counts, a Mismatch is a failure, any
 * other exception a crash with its stack. */
export function newReport() {
  const report = { passed: 0, failures: [], notes: [] };
  const record = (id, check) => {
    try {
      check();
      report.passed += 1;
    } catch (e) {
      report.failures.push({ id, message: e instanceof Mismatch ? e.message : `threw ${e?.code ?? ''} ${e?.stack ?? e}` });
    }
  };
  return { report, record };
}
