// Preloaded into the gateway by the soak benchmark only (node --expose-gc --import …): on
// SIGUSR2, a full garbage collection, then the memory figures on stderr as one line. So the
// soak reads what the gateway retains, not how much garbage happened to be uncollected.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stderr.write(`gc-probe ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external })}\n`);
});
