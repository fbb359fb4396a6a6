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

/** Structural equality (object key order ignored), as serde_json compares in Rust. */
export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
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
