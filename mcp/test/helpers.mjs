// Real parts for the tests: the SDK client spawning the real agentwire-mcp (or an upstream
// directly), real upstream servers from npm, temp folders.

import { mkdtempSync, readFileSync, readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin/agentwire-mcp.js');
const pkg = (name, file) => join(ROOT, 'node_modules/@modelcontextprotocol', name, file);

export const tmp = (prefix) => mkdtempSync(join(tmpdir(), `agentwire-mcp-${prefix}-`));

/** Upstream commands (node from this process, so the tests need no npx and no network). */
export const upstreams = {
  memory: (file) => ({ command: process.execPath, args: [pkg('server-memory', 'dist/index.js')], env: { MEMORY_FILE_PATH: file } }),
  filesystem: (dir) => ({ command: process.execPath, args: [pkg('server-filesystem', 'dist/index.js'), dir] }),
  everything: () => ({ command: process.execPath, args: [pkg('server-everything', 'dist/index.js'), 'stdio'] }),
  /** The same upstream with every byte it receives appended to `log` (proves what reached it). */
  tee: (spec, log) => ({
    command: '/bin/sh',
    args: ['-c', 'log="$1"; shift; tee -a "$log" | exec "$@"', 'sh', log, spec.command, ...spec.args],
    env: spec.env,
  }),
};

async function client(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env: { ...process.env, ...env }, stderr: 'pipe' });
  const c = new Client({ name: 'agentwire-mcp-test', version: '1.0.0' }, { capabilities: {} });
  const stderr = [];
  transport.stderr?.on('data', (d) => stderr.push(d));
  await c.connect(transport);
  c.stderrText = () => Buffer.concat(stderr).toString();
  c.pid = transport.pid;
  return c;
}

/** The upstream itself, for the reference call. */
export const direct = (spec) => client(spec.command, spec.args, spec.env);

/** agentwire-mcp in front of one upstream (after `--`) or a config file. */
export function gateway(flags, spec) {
  const args = [BIN, '--name', 'up', ...flags];
  if (spec) args.push('--', spec.command, ...spec.args);
  return client(process.execPath, args, spec?.env);
}

/** Writes an mcpServers config file. */
export function config(servers) {
  const file = join(tmp('config'), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

/** The text of a result's only text block. */
export function textOf(result) {
  const texts = result.content.filter((b) => b.type === 'text');
  if (texts.length !== 1) throw new Error(`expected one text block, got ${JSON.stringify(result.content).slice(0, 200)}`);
  return texts[0].text;
}

/** A filesystem tree with enough entries that listings are worth compacting. */
export function sampleTree() {
  const dir = tmp('fs');
  for (let d = 0; d < 6; d++) {
    mkdirSync(join(dir, `module_${d}`, 'src'), { recursive: true });
    for (let f = 0; f < 8; f++) writeFileSync(join(dir, `module_${d}`, 'src', `file_${f}.txt`), `content ${d} ${f}\n`.repeat(f + 1));
    writeFileSync(join(dir, `module_${d}`, 'README.md'), `# module ${d}\n`);
  }
  return dir;
}

/** Entities and relations for server-memory. */
export function sampleGraph(n = 40) {
  const entities = Array.from({ length: n }, (_, i) => ({
    name: `person_${i}`,
    entityType: i % 4 ? 'person' : 'organization',
    observations: [`works on project ${i % 7}`, `based in city ${i % 5}`],
  }));
  const relations = Array.from({ length: n }, (_, i) => ({ from: `person_${i}`, to: `person_${(i * 7 + 3) % n}`, relationType: i % 2 ? 'knows' : 'works_with' }));
  return { entities, relations };
}

/** Child processes of a pid (the upstreams a gateway spawned). */
export function childrenOf(pid) {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether a process runs (a zombie, dead but not yet reaped, does not). */
export const alive = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Retries `fn` until it resolves or `ms` pass. */
export async function eventually(fn, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (Date.now() > end) throw e;
      await sleep(200);
    }
  }
}

/** The SDK upstream of the test folder (json-server.mjs): stdio, or HTTP with `listen`. */
export const JSON_SERVER = join(ROOT, 'test/upstream/json-server.mjs');
export const jsonServer = (env = {}) => ({ command: process.execPath, args: [JSON_SERVER], env });

/**
 * A process whose stdout or stderr prints a line matching `pattern`: resolves with the match's
 * first group and the child (killed by `stopAll`).
 */
export function startProcess(command, args, pattern, { env = {}, cwd } = {}) {
  const child = spawnTracked(command, args, { env, cwd });
  return new Promise((resolve, reject) => {
    const on = () => {
      const m = pattern.exec(child.output());
      if (m) resolve({ match: m[1], child });
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.once('exit', (code, signal) => reject(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before ${pattern}: ${child.output()}`)));
  });
}

/** A process killed by `stopAll`; `child.output()` is what it printed so far. */
export function spawnTracked(command, args, { env = {}, cwd } = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, cwd });
  started.add(child);
  child.once('exit', () => started.delete(child));
  let seen = '';
  child.output = () => seen;
  child.stdout.on('data', (d) => (seen += d));
  child.stderr.on('data', (d) => (seen += d));
  return child;
}
const started = new Set();

/**
 * agentwire-mcp --listen with `flags`: {url, child}. On port 0 its URL is read from its log; with
 * `quiet` (no log) it gets a free port and is ready when /health answers.
 */
export async function listeningGateway(flags, { env, quiet = false, nodeArgs = [] } = {}) {
  if (!quiet) {
    const { match, child } = await startProcess(process.execPath, [...nodeArgs, BIN, '--listen', '127.0.0.1:0', ...flags], /listening on (http:\/\/\S+\/mcp)/, { env, cwd: ROOT });
    return { url: match, child };
  }
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, BIN, '--listen', `127.0.0.1:${port}`, '--quiet', ...flags], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env }, cwd: ROOT });
  let seen = '';
  child.stderr.on('data', (d) => (seen += d));
  child.output = () => seen;
  started.add(child);
  child.once('exit', () => started.delete(child));
  const url = `http://127.0.0.1:${port}/mcp`;
  await eventually(async () => assertOk((await fetch(`http://127.0.0.1:${port}/health`)).ok), 20000);
  return { url, child };
}

const assertOk = (ok) => {
  if (!ok) throw new Error('not yet');
};

/** A TCP port free at the time of asking. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Kills every process startProcess started and waits for them: SIGKILL, or `child.stopSignal`
 * for one that must pass it on (nginx's master stops its workers on SIGTERM; killed, it leaves
 * them running).
 */
export async function stopAll() {
  await Promise.all(
    [...started].map(
      (child) =>
        new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill(child.stopSignal ?? 'SIGKILL');
        }),
    ),
  );
}

/** An SDK client over Streamable HTTP. */
export async function httpClient(url, { headers = {}, name = 'agentwire-mcp-test', capabilities = {} } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const c = new Client({ name, version: '1.0.0' }, { capabilities });
  await c.connect(transport);
  c.sessionId = transport.sessionId;
  c.http = transport;
  return c;
}

/**
 * One raw HTTP request (node:http, so any Host header can be sent): {status, headers, text}.
 * `headers.get(name)` as in fetch.
 */
export function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: { get: (name) => res.headers[name.toLowerCase()] ?? null }, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One raw JSON-RPC POST to the gateway: {status, headers, body (parsed JSON, or the SSE messages)}. */
export async function post(url, message, { session, headers = {}, raw } = {}) {
  const res = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(session ? { 'mcp-session-id': session } : {}),
      ...headers,
    },
    body: raw ?? JSON.stringify(message),
  });
  let body = res.text;
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    body = res.text
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l.length > 6)
      .map((l) => JSON.parse(l.slice(6)));
  } else if (res.text) {
    try {
      body = JSON.parse(res.text);
    } catch {
      // Not JSON: the text as it is.
    }
  }
  return { status: res.status, headers: res.headers, body };
}

/** A raw session: initialize and initialized; returns its id. */
export async function rawSession(url, { headers } = {}) {
  const init = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }, { headers });
  if (init.status !== 200) throw new Error(`initialize: HTTP ${init.status} ${JSON.stringify(init.body)}`);
  const session = init.headers.get('mcp-session-id');
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { session, headers });
  return session;
}

/** Every process below `pid` (children, grandchildren, …), from /proc. */
export function descendantsOf(pid) {
  const parents = new Map();
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      parents.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const out = [];
  const walk = (parent) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** A process's status field from /proc (`VmRSS`, `VmHWM`), in kB; the command line too. */
export const procStatus = (pid, field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
export const commandLine = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
};
