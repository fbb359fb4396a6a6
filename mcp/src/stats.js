// Per-tool counters of what compaction did (`--stats`, `--stats-file`).

export class Stats {
  constructor() {
    this.tools = new Map();
  }

  /** @param {string} tool @param {import('./result.js').CompactReport} report */
  add(tool, report) {
    const t = this.tools.get(tool) ?? { calls: 0, bytesBefore: 0, bytesAfter: 0, tokensBefore: 0, tokensAfter: 0, formats: {} };
    t.calls += 1;
    t.bytesBefore += report.bytesBefore;
    t.bytesAfter += report.bytesAfter;
    t.tokensBefore += report.tokensBefore;
    t.tokensAfter += report.tokensAfter;
    for (const f of report.formats) t.formats[f] = (t.formats[f] ?? 0) + 1;
    this.tools.set(tool, t);
  }

  toJSON() {
    return { tools: Object.fromEntries([...this.tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
  }

  /** A fixed-width table for stderr. */
  table() {
    const rows = [['tool', 'calls', 'bytes before', 'bytes after', 'tokens before', 'tokens after', 'saved']];
    for (const [tool, t] of Object.entries(this.toJSON().tools)) {
      const saved = t.tokensBefore ? `${(100 * (1 - t.tokensAfter / t.tokensBefore)).toFixed(1)} %` : '-';
      rows.push([tool, t.calls, t.bytesBefore, t.bytesAfter, t.tokensBefore, t.tokensAfter, saved].map(String));
    }
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    return rows.map((r) => r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')).join('\n');
  }
}
