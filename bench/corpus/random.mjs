// The corpus generators' deterministic randomness: xorshift32 from a fixed seed, so every run
// writes the same bytes.
/** @param {number} seed */
export function xorshift(seed) {
  let state = seed;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  /** @template T @param {T[]} list */
  const pick = (list) => list[next() % list.length];
  return { next, pick };
}
