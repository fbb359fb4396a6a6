// Interleaved rounds: the timing of `make bench-npm` (run.mjs), the same scheme as the Rust
// harness (bench/rust/benches/rounds.rs).
//
// Timing one task after another (as tinybench does) compares stretches of time seconds apart,
// and whatever else the machine does in one and not the other lands in the ratio: two
// `make bench` runs on one machine moved ratios 2×. Here every task runs a short slice in turn,
// forwards then backwards (A B C … C B A …), so the two sides of a ratio run alternately, at
// most a sweep apart. A round is several sweeps, and a task's time in a round is its fastest
// slice per call: a slice averages many calls (and the young-generation collections they
// cause), and on a shared machine the fastest one is the one that other processes disturbed
// least (the mean of the slices follows the machine's load). Slices are timed as a whole, so
// a 2 µs call is not measured against the timer's own cost.

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Keeps each call's result reachable, so no call can be optimised away.
let sink;

function timeCalls(fn, calls) {
  const start = performance.now();
  for (let i = 0; i < calls; i += 1) sink = fn();
  return performance.now() - start;
}

/**
 * How many calls make one slice: the most of four measures, after one that warms the JIT up.
 * A measure stops at the first quarter slice, so a cold first call or a collection can end it
 * early with far too few calls (in a browser, whose clock ticks every 100 µs, that left a
 * 1 ms task's time in whole ticks); the largest of several is the undisturbed one.
 */
function callsPerSlice(fn, sliceMs) {
  const measure = () => {
    for (let calls = 1; ; calls *= 2) {
      const elapsed = timeCalls(fn, calls);
      if (elapsed > 0 && elapsed * 4 >= sliceMs) return Math.max(1, Math.round((calls * sliceMs) / elapsed));
    }
  };
  measure();
  return Math.max(measure(), measure(), measure(), measure());
}

/**
 * Times `tasks` ({fn, …}) in interleaved rounds; returns, per task in the same order, the time
 * per call of every round in ns. `warmupSweeps` sweeps run first and are not recorded (the
 * JIT's later tiers and the heap's size settle there).
 */
export function timeInRounds(tasks, { rounds, sweeps, sliceMs, warmupSweeps }, log) {
  const calls = tasks.map((t) => callsPerSlice(t.fn, sliceMs));
  const roundsNs = tasks.map(() => []);
  let sweepIndex = 0;
  const sweep = (fastest) => {
    const order = sweepIndex % 2 === 0 ? tasks.keys() : [...tasks.keys()].reverse();
    for (const i of order) fastest[i] = Math.min(fastest[i], timeCalls(tasks[i].fn, calls[i]));
    sweepIndex += 1;
  };
  const discarded = new Float64Array(tasks.length).fill(Infinity);
  for (let s = 0; s < warmupSweeps; s += 1) sweep(discarded);
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) {
    const fastest = new Float64Array(tasks.length).fill(Infinity);
    for (let s = 0; s < sweeps; s += 1) sweep(fastest);
    fastest.forEach((ms, i) => roundsNs[i].push((ms * 1e6) / calls[i]));
    log(`  round ${round + 1}/${rounds} at ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  sink = undefined;
  return roundsNs;
}
