// Prometheus text exposition (`GET /metrics`): a small registry of counters, gauges and
// histograms, and the gateway's own set. No dependency; labels are bounded by the catalog
// (tool and upstream names) or by fixed lists.

/** @typedef {Record<string, string>} Labels */

const escape = (/** @type {string} */ v) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labelText = (/** @type {Labels} */ labels) => {
  const entries = Object.entries(labels);
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escape(String(v))}"`).join(',')}}` : '';
};
/** A series' key, whatever the order of its labels: length-prefixed (unambiguous), and cheap, as it is built several times per call. */
const key = (/** @type {Labels} */ labels) => {
  const names = Object.keys(labels);
  if (names.length > 1) names.sort();
  let k = '';
  for (const name of names) {
    const value = String(labels[name]);
    k += `${name.length}:${name}=${value.length}:${value};`;
  }
  return k;
};

class Family {
  constructor(/** @type {string} */ name, /** @type {string} */ help, /** @type {'counter'|'gauge'|'histogram'} */ type) {
    this.name = name;
    this.help = help;
    this.type = type;
    /** @type {Map<string, { labels: Labels, value: any }>} */
    this.series = new Map();
  }

  /** @param {Labels} labels @param {() => any} init */
  slot(labels, init) {
    const k = key(labels);
    let s = this.series.get(k);
    if (!s) {
      s = { labels, value: init() };
      this.series.set(k, s);
    }
    return s;
  }

  header() {
    return `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} ${this.type}\n`;
  }
}

export class Counter extends Family {
  constructor(/** @type {string} */ name, /** @type {string} */ help) {
    super(name, help, 'counter');
  }

  inc(/** @type {Labels} */ labels = {}, n = 1) {
    this.slot(labels, () => 0).value += n;
  }

  get(/** @type {Labels} */ labels = {}) {
    return this.series.get(key(labels))?.value ?? 0;
  }

  render() {
    return this.header() + [...this.series.values()].map((s) => `${this.name}${labelText(s.labels)} ${s.value}\n`).join('');
  }
}

export class Gauge extends Family {
  /** @param {string} name @param {string} help @param {() => Array<[Labels, number]>} collect read when rendered */
  constructor(name, help, collect) {
    super(name, help, 'gauge');
    this.collect = collect;
  }

  render() {
    return this.header() + this.collect().map(([labels, v]) => `${this.name}${labelText(labels)} ${v}\n`).join('');
  }
}

export class Histogram extends Family {
  constructor(/** @type {string} */ name, /** @type {string} */ help, /** @type {number[]} */ buckets) {
    super(name, help, 'histogram');
    this.buckets = buckets;
  }

  observe(/** @type {Labels} */ labels, /** @type {number} */ value) {
    const s = this.slot(labels, () => ({ counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) s.value.counts[i]++;
    s.value.sum += value;
    s.value.count++;
  }

  render() {
    let out = this.header();
    for (const s of this.series.values()) {
      this.buckets.forEach((le, i) => {
        out += `${this.name}_bucket${labelText({ ...s.labels, le: String(le) })} ${s.value.counts[i]}\n`;
      });
      out += `${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.value.count}\n`;
      out += `${this.name}_sum${labelText(s.labels)} ${s.value.sum}\n`;
      out += `${this.name}_count${labelText(s.labels)} ${s.value.count}\n`;
    }
    return out;
  }
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Why sessions end (`agentwire_mcp_sessions_closed_total{reason}`). */
export const CLOSE_REASONS = ['deleted', 'idle', 'evicted', 'client', 'shutdown'];
/** Why HTTP requests are refused (`agentwire_mcp_http_rejected_total{reason}`). */
export const REJECT_REASONS = ['unauthorized', 'origin', 'host', 'too_large', 'bad_request', 'session_not_found', 'sessions_full', 'busy'];

/**
 * The gateway's metrics. `sessions` and `upstreams` are read at render time.
 * @param {{ version: string, sessions: () => number, upstreams: () => Array<{ name: string, status: string }> }} sources
 */
export function createMetrics({ version, sessions, upstreams }) {
  const started = Date.now() / 1000;
  const m = {
    toolCalls: new Counter('agentwire_mcp_tool_calls_total', 'tools/call requests forwarded to an upstream.'),
    toolErrors: new Counter('agentwire_mcp_tool_errors_total', 'tools/call that failed: kind="result" (isError), "protocol" (JSON-RPC error), "timeout", "unavailable".'),
    tokensBefore: new Counter('agentwire_mcp_tokens_before_total', 'Tokens of upstream results before compaction (JSON text; all text with --stats/--stats-file).'),
    tokensAfter: new Counter('agentwire_mcp_tokens_after_total', 'Tokens of the same results as sent to the client.'),
    bytesBefore: new Counter('agentwire_mcp_bytes_before_total', 'Bytes of upstream results before compaction.'),
    bytesAfter: new Counter('agentwire_mcp_bytes_after_total', 'Bytes of the same results as sent to the client.'),
    callSeconds: new Histogram('agentwire_mcp_tool_call_duration_seconds', 'tools/call time in the gateway: upstream and compaction.', SECONDS),
    compactSeconds: new Histogram('agentwire_mcp_compact_duration_seconds', 'Compaction time per tools/call result.', SECONDS),
    compactKept: new Counter('agentwire_mcp_compact_kept_total', 'Text blocks of tool results sent as the upstream wrote them, by reason: NOT_JSON (prose), INEXACT_NUMBER, DUPLICATE_KEY, LONE_SURROGATE, BELOW_MIN_SAVINGS, NO_LOSSLESS_CANDIDATE.'),
    requests: new Counter('agentwire_mcp_requests_total', 'Client requests by MCP method (others: method="other"), of both protocol eras.'),
    modernRequests: new Counter('agentwire_mcp_modern_requests_total', 'Requests of MCP 2026-07-28 clients by method (counted in agentwire_mcp_requests_total too).'),
    sessionsOpened: new Counter('agentwire_mcp_sessions_opened_total', 'Sessions opened.'),
    sessionsClosed: new Counter('agentwire_mcp_sessions_closed_total', 'Sessions closed, by reason: deleted (HTTP DELETE), idle (--session-idle), evicted (--max-sessions), client (transport closed), shutdown.'),
    upstreamRestarts: new Counter('agentwire_mcp_upstream_restarts_total', 'Upstream connections lost (process exit, connection closed, HTTP session gone), each the start of a restart.'),
    httpRejected: new Counter('agentwire_mcp_http_rejected_total', 'HTTP requests refused, by reason.'),
  };
  const gauges = [
    new Gauge('agentwire_mcp_info', 'The running version.', () => [[{ version }, 1]]),
    new Gauge('agentwire_mcp_sessions', 'Sessions open now.', () => [[{}, sessions()]]),
    new Gauge('agentwire_mcp_upstream_connections', 'Upstream connections of open sessions, by upstream and status.', () => {
      /** @type {Map<string, [Labels, number]>} */
      const counts = new Map();
      for (const u of upstreams()) {
        const k = `${u.name}\u0000${u.status}`;
        const slot = counts.get(k) ?? [{ upstream: u.name, status: u.status }, 0];
        slot[1]++;
        counts.set(k, slot);
      }
      return [...counts.values()];
    }),
    new Gauge('process_resident_memory_bytes', 'Resident memory of the gateway process.', () => [[{}, process.memoryUsage.rss()]]),
    new Gauge('nodejs_heap_used_bytes', 'V8 heap in use.', () => [[{}, process.memoryUsage().heapUsed]]),
    new Gauge('process_start_time_seconds', 'Start time of the gateway process, Unix seconds.', () => [[{}, started]]),
  ];
  return {
    ...m,
    /** The text exposition format, version 0.0.4. */
    render() {
      return [...Object.values(m), ...gauges].map((f) => f.render()).join('');
    },
  };
}

/** @typedef {ReturnType<typeof createMetrics>} Metrics */

const KNOWN_METHODS = new Set([
  'initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read',
  'resources/subscribe', 'resources/unsubscribe', 'prompts/list', 'prompts/get', 'completion/complete', 'logging/setLevel',
  'server/discover', 'subscriptions/listen',
]);

/** A method as a bounded label value. */
export function methodLabel(/** @type {string} */ method) {
  return KNOWN_METHODS.has(method) ? method : 'other';
}
