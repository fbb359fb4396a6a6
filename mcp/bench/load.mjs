#!/usr/bin/env node
// Load on agentwire-mcp, measured: sessions calling a zero-latency upstream (the SDK upstream of
// the test folder, tool `json`, 1 KB results), directly and through the gateway (--mode
// compact), at 1, 16 and 64 concurrent sessions over Streamable HTTP and over stdio; then a ramp
// to saturation (HTTP), and a soak: 1,000 sessions opened and abandoned (no DELETE).
//
// At each level every session calls at a steady pace, together 64 calls/s (one session: 10/s):
// what the gateway adds at that concurrency, not a queue. Latency counts from when a call was
// due, so a late call is not forgotten. The ramp then adds sessions that call as fast as they
// can until calls/s stops growing: where it saturates.
//
// Records p50/p95/p99 latency (and what the gateway adds to the direct figures), calls/s,
// errors and the gateway's peak RSS; writes records and ratios in bench/results' shape
// (`--out FILE`, default ../bench/results/mcp-load.json), which bench/report.mjs merges into
// latest.json. `--quick` is the short form the tests run (test/load.test.mjs).

import { freemem } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeCompact, deepEqual } from '../src/index.js';
import { config, JSON_SERVER, listeningGateway, BIN, post, sleep, startProcess, stopAll } from '../test/helpers.mjs';
import { listing } from '../test/upstream/json-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULT_BYTES = 1024;
const EXPECTED = JSON.parse(listing(RESULT_BYTES));
/** Calls per second of all sessions of a level together, and of one session at most. */
const LEVEL_RATE = 64;
const SESSION_RATE_MAX = 10;

/** Full run, and the short form of `make test`. */
export const PLANS = {
  full: { levels: { http: [1, 16, 64], stdio: [1, 16, 64] }, seconds: 20, ramp: [1, 2, 4, 8, 16, 32, 64, 128, 256], rampSeconds: 5, soakSessions: 1000, soakWarmup: 200, soakConcurrency: 16, soakCheckpoints: 5, replicas: { sessions: 64, seconds: 15 } },
  quick: { levels: { http: [16], stdio: [2] }, seconds: 1.5, ramp: [], rampSeconds: 0, soakSessions: 40, soakWarmup: 10, soakConcurrency: 8, soakCheckpoints: 1, replicas: null },
};

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const mb = (kb) => kb / 1024;
const status = (pid, field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const log = (line) => process.stderr.write(`${line}\n`);

/** An SDK client over HTTP or stdio, and the pid of what it spawned (stdio). */
async function client(kind, target) {
  const transport =
    kind === 'http'
      ? new StreamableHTTPClientTransport(new URL(target))
      : new StdioClientTransport({ command: target[0], args: target.slice(1), stderr: 'ignore', env: process.env });
  const c = new Client({ name: 'agentwire-mcp-load', version: '1.0.0' });
  await c.connect(transport);
  return { c, pid: transport.pid ?? null };
}

/** One result checked in full: the compact text must decode to the upstream's JSON. */
function check(result) {
  const text = result.content?.[0]?.text;
  const value = text?.startsWith('{') ? JSON.parse(text) : decodeCompact(text);
  if (!deepEqual(value, EXPECTED)) throw new Error(`wrong result: ${String(text).slice(0, 80)}`);
}

const call = (c) => c.callTool({ name: 'json', arguments: { bytes: RESULT_BYTES } });

/** Latencies and errors of a run, summed up. */
function summary(latencies, errors, firstErrors, seconds) {
  latencies.sort((a, b) => a - b);
  return { latencies, calls: latencies.length + errors, errors, firstErrors, seconds };
}

/** Each client's first result checked in full, and a few more calls to warm up. */
async function warmUp(clients) {
  await Promise.all(clients.map(async ({ c }) => { check(await call(c)); await call(c); }));
}

/**
 * Every client calling `json` at `rate` calls/s for `seconds`, phases spread; a call's latency
 * counts from when it was due.
 */
async function paced(clients, rate, seconds) {
  const interval = 1000 / rate;
  const latencies = [];
  const firstErrors = [];
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    clients.map(async ({ c }, i) => {
      const first = started + (i / clients.length) * interval;
      for (let due = first; due < end; due += interval) {
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        try {
          const r = await call(c);
          if (!r.content?.[0]?.text) throw new Error('empty result');
          latencies.push(performance.now() - due);
        } catch (e) {
          errors++;
          if (firstErrors.length < 3) firstErrors.push(String(e?.message ?? e));
        }
      }
    }),
  );
  return summary(latencies, errors, firstErrors, (performance.now() - started) / 1000);
}

/** Every client calling `json` as fast as it can for `seconds`. */
async function closedLoop(clients, seconds) {
  const latencies = [];
  const firstErrors = [];
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    clients.map(async ({ c }) => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await call(c);
          latencies.push(performance.now() - t);
        } catch (e) {
          errors++;
          if (firstErrors.length < 3) firstErrors.push(String(e?.message ?? e));
        }
      }
    }),
  );
  return summary(latencies, errors, firstErrors, (performance.now() - started) / 1000);
}

/** One transport at one concurrency: direct, then through the gateway. */
export async function level(transport, sessions, { seconds }) {
  const rate = Math.min(SESSION_RATE_MAX, LEVEL_RATE / sessions);
  const out = { transport, sessions, calls_per_s_per_session: rate };
  for (const via of ['direct', 'gateway']) {
    let targets;
    let gatewayPids = [];
    let upstream;
    if (transport === 'http') {
      upstream = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/);
      if (via === 'gateway') {
        const gw = await listeningGateway(['--config', config({ json: { url: upstream.match } })], { quiet: true });
        gatewayPids = [gw.child.pid];
        targets = Array(sessions).fill(gw.url);
      } else {
        targets = Array(sessions).fill(upstream.match);
      }
    } else {
      const server = [process.execPath, JSON_SERVER];
      targets = Array(sessions).fill(via === 'gateway' ? [process.execPath, BIN, '--quiet', '--', ...server] : server);
    }
    const clients = [];
    for (const target of targets) clients.push(await client(transport, target));
    if (transport === 'stdio' && via === 'gateway') gatewayPids = clients.map((x) => x.pid);
    await warmUp(clients);
    const run = await paced(clients, rate, seconds);
    const peaks = gatewayPids.map((pid) => mb(status(pid, 'VmHWM')));
    await Promise.all(clients.map(({ c }) => c.close()));
    await stopAll();
    out[via] = {
      calls: run.calls,
      errors: run.errors,
      firstErrors: run.firstErrors,
      calls_per_s: run.calls / run.seconds,
      p50_ms: pct(run.latencies, 50),
      p95_ms: pct(run.latencies, 95),
      p99_ms: pct(run.latencies, 99),
      ...(peaks.length ? { peak_rss_mb: Math.max(...peaks), peak_rss_total_mb: peaks.reduce((a, b) => a + b, 0) } : {}),
    };
  }
  const d = out.direct;
  const g = out.gateway;
  out.added = { p50_ms: g.p50_ms - d.p50_ms, p95_ms: g.p95_ms - d.p95_ms, p99_ms: g.p99_ms - d.p99_ms };
  out.error_rate = g.errors / Math.max(1, g.calls);
  log(
    `${transport.padEnd(5)} ${String(sessions).padStart(3)} sessions x ${rate} calls/s: direct p50/p95/p99 ${[d.p50_ms, d.p95_ms, d.p99_ms].map((x) => x.toFixed(2)).join('/')} ms, ${d.calls_per_s.toFixed(0)} calls/s; ` +
      `through agentwire-mcp ${[g.p50_ms, g.p95_ms, g.p99_ms].map((x) => x.toFixed(2)).join('/')} ms, ${g.calls_per_s.toFixed(0)} calls/s, ` +
      `added p99 ${out.added.p99_ms.toFixed(2)} ms, errors ${g.errors}/${g.calls}${g.firstErrors.length ? ` (${g.firstErrors[0]})` : ''}, peak RSS ${g.peak_rss_mb.toFixed(0)} MB`,
  );
  return out;
}

/** HTTP sessions doubling until calls/s stops growing (or calls fail): where it saturates. */
export async function ramp(steps, seconds) {
  const upstream = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/);
  const gw = await listeningGateway(['--config', config({ json: { url: upstream.match } })], { quiet: true });
  const points = [];
  const clients = [];
  let best = 0;
  let flat = 0;
  for (const n of steps) {
    while (clients.length < n) clients.push(await client('http', gw.url));
    const run = await closedLoop(clients, seconds);
    const point = { sessions: n, calls_per_s: run.calls / run.seconds, p99_ms: pct(run.latencies, 99), errors: run.errors };
    points.push(point);
    log(`ramp ${String(n).padStart(3)} sessions: ${point.calls_per_s.toFixed(0)} calls/s, p99 ${point.p99_ms.toFixed(1)} ms, errors ${run.errors}`);
    if (run.errors) break;
    // Saturated: two steps in a row without 5 % more calls/s.
    if (point.calls_per_s > best * 1.05) {
      best = point.calls_per_s;
      flat = 0;
    } else if (++flat === 2) break;
  }
  const peak = points.reduce((a, b) => (b.calls_per_s > a.calls_per_s ? b : a));
  const peakRss = mb(status(gw.child.pid, 'VmHWM'));
  await Promise.all(clients.map(({ c }) => c.close()));
  await stopAll();
  return { points, saturation_sessions: peak.sessions, saturation_calls_per_s: peak.calls_per_s, peak_rss_mb: peakRss };
}

/**
 * Sessions opened and abandoned (one call, then the TS SDK's close(), which sends no DELETE):
 * the gateway's memory after a warm-up and then every `sessions / checkpoints` sessions, each
 * read once the abandoned sessions have expired and after a full garbage collection
 * (bench/gc-probe.mjs, preloaded for this run only), so it says what the gateway retains, not
 * how much garbage was left uncollected. Even so, RSS moves by tens of MB between readings
 * (malloc returning and taking memory), so the growth reported is the least-squares trend of
 * those readings over `sessions` sessions; the first and last readings are kept too.
 */
export async function soak({ sessions, warmup, concurrency, checkpoints }) {
  const upstream = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/);
  const idle = 2;
  const gw = await listeningGateway(['--session-idle', `${idle}s`, '--config', config({ json: { url: upstream.match } })], {
    quiet: true,
    nodeArgs: ['--expose-gc', '--import', join(root, 'bench/gc-probe.mjs')],
  });
  const ids = [];
  const abandon = async (n) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < n) {
          next++;
          const { c } = await client('http', gw.url);
          check(await call(c));
          ids.push(c.transport.sessionId);
          await c.close();
        }
      }),
    );
  };
  const probes = () => gw.child.output().split('\n').filter((l) => l.startsWith('gc-probe ')).map((l) => JSON.parse(l.slice(9)));
  const memory = async () => {
    // Expired: the idle time and a sweep (a quarter of it), with margin.
    await sleep(idle * 1000 * 1.5 + 1000);
    const seen = probes().length;
    gw.child.kill('SIGUSR2');
    while (probes().length === seen) await sleep(50);
    return probes().at(-1);
  };
  const MB = 1024 * 1024;
  await abandon(warmup);
  const readings = [{ sessions: 0, ...(await memory()) }];
  const started = performance.now();
  const step = Math.ceil(sessions / checkpoints);
  for (let done = 0; done < sessions; ) {
    const n = Math.min(step, sessions - done);
    await abandon(n);
    done += n;
    readings.push({ sessions: done, ...(await memory()) });
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = mb(status(gw.child.pid, 'VmHWM'));
  // Every abandoned session is gone: its id gets 404.
  const sample = ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 20)) === 0);
  const stillOpen = (await Promise.all(sample.map((session) => post(gw.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session })))).filter((r) => r.status !== 404).length;
  // And the gateway counts none open (its /metrics).
  const metrics = await (await fetch(gw.url.replace(/\/mcp$/, '/metrics'))).text();
  const sessionsOpen = Number(/^agentwire_mcp_sessions (\d+)$/m.exec(metrics)?.[1]);
  await stopAll();
  const trend = (key) => slope(readings.map((r) => [r.sessions, r[key] / MB])) * sessions;
  const [first, last] = [readings[0], readings.at(-1)];
  const out = {
    sessions,
    warmup,
    seconds,
    readings: readings.map((r) => ({ sessions: r.sessions, rss_mb: r.rss / MB, heap_used_mb: r.heapUsed / MB })),
    rss_first_mb: first.rss / MB,
    rss_last_mb: last.rss / MB,
    rss_growth_mb: trend('rss'),
    heap_used_growth_mb: trend('heapUsed'),
    heap_used_before_mb: first.heapUsed / MB,
    heap_used_after_mb: last.heapUsed / MB,
    peak_rss_mb: peak,
    sampled: sample.length,
    still_open: stillOpen,
    sessions_open: sessionsOpen,
  };
  log(
    `soak: ${sessions} sessions opened and abandoned in ${seconds.toFixed(1)} s; after a full GC, RSS ${readings.map((r) => (r.rss / MB).toFixed(0)).join(' → ')} MB ` +
      `(trend over ${sessions} sessions ${out.rss_growth_mb.toFixed(1)} MB), heap ${out.heap_used_before_mb.toFixed(1)} → ${out.heap_used_after_mb.toFixed(1)} MB; peak RSS ${peak.toFixed(0)} MB; ` +
      `${stillOpen}/${sample.length} sampled sessions still open, ${sessionsOpen} open in /metrics`,
  );
  return out;
}

/**
 * Replicas behind nginx (deploy/nginx.conf as the README shows it), --stateless, in front of one
 * HTTP upstream: `sessions` clients calling as fast as they can through one replica and through
 * three (calls/s), then the same number paced at 64 calls/s together, directly and through the
 * three (added p99). One replica is the same nginx config with its three addresses on it.
 */
export async function replicas({ sessions, seconds }) {
  const { startNginx, startReplicas } = await import('../test/deploy.mjs');
  const upstream = await startProcess(process.execPath, [JSON_SERVER, '--listen', '0'], /(http:\/\/\S+\/mcp)/);
  const flags = ['--stateless', '--config', config({ json: { url: upstream.match } })];
  const out = {};
  for (const n of [1, 3]) {
    const set = await startReplicas(n, flags);
    const lb = await startNginx([0, 1, 2].map((i) => set.ports[i % n]));
    const clients = [];
    for (let i = 0; i < sessions; i++) clients.push(await client('http', lb.url));
    await warmUp(clients);
    const run = await closedLoop(clients, seconds);
    const point = { replicas: n, sessions, calls: run.calls, errors: run.errors, firstErrors: run.firstErrors, calls_per_s: run.calls / run.seconds, p99_ms: pct(run.latencies, 99) };
    if (n === 3) {
      const rate = Math.min(SESSION_RATE_MAX, LEVEL_RATE / sessions);
      const through = await paced(clients, rate, seconds);
      const directClients = [];
      for (let i = 0; i < sessions; i++) directClients.push(await client('http', upstream.match));
      await warmUp(directClients);
      const directRun = await paced(directClients, rate, seconds);
      await Promise.all(directClients.map(({ c }) => c.close()));
      point.paced = { calls: through.calls, errors: through.errors, firstErrors: through.firstErrors, p99_ms: pct(through.latencies, 99), direct_p99_ms: pct(directRun.latencies, 99) };
      point.paced.p99_added_ms = point.paced.p99_ms - point.paced.direct_p99_ms;
    }
    point.peak_rss_mb = set.children.reduce((a, c) => a + mb(status(c.pid, 'VmHWM')), 0);
    log(
      `replicas ${n} (stateless, nginx round robin) ${sessions} sessions: ${point.calls_per_s.toFixed(0)} calls/s, p99 ${point.p99_ms.toFixed(1)} ms, errors ${run.errors}/${run.calls}` +
        (point.paced ? `; paced 64 calls/s: p99 ${point.paced.p99_ms.toFixed(2)} ms (direct ${point.paced.direct_p99_ms.toFixed(2)}), added ${point.paced.p99_added_ms.toFixed(2)} ms, errors ${point.paced.errors}` : ''),
    );
    await Promise.all(clients.map(({ c }) => c.close()));
    lb.child.kill(lb.child.stopSignal);
    for (const child of set.children) child.kill('SIGKILL');
    out[`replicas${n}`] = point;
  }
  await stopAll();
  return out;
}

/** The least-squares slope of [x, y] points (two points: the line through them). */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx ? points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx : 0;
}

/** Every measurement of a plan. */
export async function run(plan) {
  const levels = [];
  const skipped = [];
  for (const [transport, counts] of Object.entries(plan.levels)) {
    for (const n of counts) {
      // stdio: a gateway and an upstream process per session (~150 MB each, together).
      const needed = transport === 'stdio' ? n * 160 * 1024 * 1024 : 0;
      if (needed > freemem()) {
        skipped.push({ transport, sessions: n, why: `needs about ${(needed / 2 ** 30).toFixed(1)} GiB free, ${(freemem() / 2 ** 30).toFixed(1)} GiB are` });
        log(`${transport} ${n} sessions: not measured (${skipped.at(-1).why})`);
        continue;
      }
      levels.push(await level(transport, n, plan));
    }
  }
  const saturation = plan.ramp.length ? await ramp(plan.ramp, plan.rampSeconds) : null;
  const soaked = await soak({ sessions: plan.soakSessions, warmup: plan.soakWarmup, concurrency: plan.soakConcurrency, checkpoints: plan.soakCheckpoints });
  const replicated = plan.replicas ? await replicas(plan.replicas) : null;
  return { levels, skipped, saturation, soak: soaked, replicas: replicated };
}

/** Records and ratios in bench/results' shape. */
export function report(results) {
  const records = [];
  const ratios = {};
  const ratio = (name, value, target, what, bound = 'max') => {
    const met = bound === 'none' ? null : bound === 'max' ? value <= target : value >= target;
    ratios[name] = { value: Number(Number(value).toPrecision(4)), target: bound === 'none' ? null : target, bound, met, what };
  };
  for (const l of results.levels) {
    for (const impl of ['direct', 'gateway']) {
      const r = l[impl];
      const name = impl === 'gateway' ? 'agentwire-mcp' : 'direct';
      records.push({ name: `mcp-load-${l.transport}-${l.sessions}-sessions/p50/node/${name}`, runtime: 'node', impl: name, op: 'tools-call-under-load', bytes: RESULT_BYTES, ns_per_op: r.p50_ms * 1e6, mb_per_s: (r.calls_per_s * RESULT_BYTES) / 1e6 });
    }
    const over = l.transport === 'http' ? 'Streamable HTTP' : 'stdio (one gateway process per session)';
    const key = `mcp_load_${l.transport}_${l.sessions}_sessions`;
    if (l.transport === 'http' && l.sessions === 64) {
      ratio('mcp_load_64_sessions_p99_added_ms', l.added.p99_ms, 10, `agentwire-mcp added p99 latency per tools/call at 64 concurrent sessions over ${over} (64 calls/s together), 1 KB results, ms`);
    } else {
      ratio(`${key}_p99_added_ms`, l.added.p99_ms, null, `agentwire-mcp added p99 latency per tools/call at ${l.sessions} concurrent sessions over ${over}, 1 KB results, ms`, 'none');
    }
    ratio(`${key}_calls_per_s`, l.gateway.calls_per_s, null, `tools/call per second through agentwire-mcp at ${l.sessions} concurrent sessions over ${over}`, 'none');
    if (l.sessions === 64) {
      ratio(`${key}_p50_added_ms`, l.added.p50_ms, null, `agentwire-mcp added p50 latency at 64 sessions over ${over}, ms`, 'none');
      ratio(`${key}_p95_added_ms`, l.added.p95_ms, null, `agentwire-mcp added p95 latency at 64 sessions over ${over}, ms`, 'none');
      ratio(`${key}_peak_rss_mb`, l.gateway.peak_rss_mb, null, `peak RSS of ${l.transport === 'http' ? 'the agentwire-mcp process' : 'one agentwire-mcp process'} at 64 sessions over ${over}, MB`, 'none');
    }
  }
  const at64 = results.levels.filter((l) => l.sessions === 64);
  if (at64.length) {
    const calls = at64.reduce((a, l) => a + l.gateway.calls, 0);
    const errors = at64.reduce((a, l) => a + l.gateway.errors, 0);
    ratio('mcp_load_64_sessions_error_rate', errors / Math.max(1, calls), 0, `failed tools/call through agentwire-mcp at 64 concurrent sessions (HTTP and stdio, ${calls} calls), fraction`);
  }
  if (results.saturation) {
    ratio('mcp_load_http_saturation_calls_per_s', results.saturation.saturation_calls_per_s, null, 'tools/call per second where agentwire-mcp over HTTP saturates (sessions doubled until calls/s stopped growing)', 'none');
    ratio('mcp_load_http_saturation_sessions', results.saturation.saturation_sessions, null, 'concurrent HTTP sessions at that point', 'none');
  }
  if (results.replicas) {
    const { replicas1: one, replicas3: three } = results.replicas;
    const over = `agentwire-mcp --stateless behind nginx round robin (deploy/nginx.conf), ${three.sessions} sessions calling as fast as they can, 1 KB results`;
    ratio('mcp_replicas1_stateless_calls_per_s', one.calls_per_s, null, `tools/call per second, one replica: ${over}`, 'none');
    ratio('mcp_replicas3_stateless_calls_per_s', three.calls_per_s, null, `tools/call per second, three replicas on the same machine: ${over}`, 'none');
    ratio('mcp_replicas3_vs_1_calls_per_s', three.calls_per_s / one.calls_per_s, 1, 'three replicas against one: calls/s ratio (not slower: at least 1)', 'min');
    ratio('mcp_replicas3_p99_added_ms', three.paced.p99_added_ms, null, `p99 latency added by nginx and three --stateless replicas at ${three.sessions} sessions (64 calls/s together), 1 KB results, ms`, 'none');
    const calls = one.calls + three.calls + three.paced.calls;
    ratio('mcp_replicas_error_rate', (one.errors + three.errors + three.paced.errors) / Math.max(1, calls), 0, `failed tools/call through the replicas (${calls} calls), fraction`);
  }
  const { soak: soaked } = results;
  ratio('mcp_soak_rss_growth_mb', soaked.rss_growth_mb, 20, `agentwire-mcp RSS growth over ${soaked.sessions} HTTP sessions opened and abandoned (no DELETE) and expired: trend of ${soaked.readings.length} readings after a full GC, MB`);
  ratio('mcp_soak_heap_growth_mb', soaked.heap_used_growth_mb, null, `agentwire-mcp JS heap growth (after a full GC) over the same ${soaked.sessions} sessions, MB`, 'none');
  ratio('mcp_soak_rss_first_last_mb', soaked.rss_last_mb - soaked.rss_first_mb, null, 'the same RSS growth from the first and last readings alone, MB', 'none');
  return { records, ratios };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? process.argv[at + 1] : join(root, '../bench/results/mcp-load.json');
  const plan = process.argv.includes('--quick') ? PLANS.quick : PLANS.full;
  const results = await run(plan);
  const { records, ratios } = report(results);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ records, ratios, load: results }, null, 2)}\n`);
  const missed = Object.entries(ratios).filter(([, r]) => r.met === false);
  log(`${out}: ${records.length} records, ${Object.keys(ratios).length} ratios${missed.length ? `, missed: ${missed.map(([k]) => k).join(', ')}` : ''}`);
}
