// The small payloads of the suites (Node, browser, serde-wasm): the corpus's first rows, cut
// where their JSON text reaches a size.

/** The first rows of `rows` whose JSON text is at least `bytes` long (all of them if shorter). */
export function rowsUpTo(rows, bytes) {
  const taken = [];
  for (const row of rows) {
    taken.push(row);
    if (JSON.stringify(taken).length >= bytes) break;
  }
  return taken;
}
