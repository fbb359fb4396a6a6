// The command line as data: every option in one schema (flag, value, default, parser, help),
// parsed with node:util's parseArgs into a plain configuration object. Pure apart from reading
// the files it is given (--config, --auth-token-file), which tests can replace.

import { readFileSync } from 'node:fs';
import { parseArgs as parseArgv } from 'node:util';
import { LOG_LEVELS } from './log.js';

/** The three ways to show upstream tools (modes/*.js). */
export const MODES = /** @type {const} */ (['compact', 'proxy', 'gateway']);

/** How to speak to an HTTP upstream: the legacy revisions, MCP 2026-07-28, or whichever server/discover finds. */
export const UPSTREAM_PROTOCOLS = /** @type {const} */ (['legacy', 'auto', 'modern']);

/** The env var that carries the bearer token when no --auth-token-file is given. */
export const TOKEN_ENV = 'AGENTWIRE_MCP_TOKEN';

export class ConfigError extends Error {
  constructor(/** @type {string} */ message) {
    super(message);
    this.name = 'ConfigError';
    this.code = 'CONFIG_INVALID';
  }
}

/**
 * @typedef {{ command?: string, args?: string[], env?: Record<string, string>, cwd?: string,
 *   url?: string, headers?: Record<string, string>, protocol?: 'legacy'|'auto'|'modern',
 *   transport?: () => import('@modelcontextprotocol/sdk/shared/transport.js').Transport
 *     | Promise<import('@modelcontextprotocol/sdk/shared/transport.js').Transport> }} UpstreamSpec
 *   an `mcpServers` entry; or, embedded, a function that returns a connected-to-be client
 *   transport (an in-process server over InMemoryTransport)
 *
 * @typedef {object} GatewayConfig
 * @property {Record<string, UpstreamSpec>} upstreams
 * @property {'compact'|'proxy'|'gateway'} mode
 * @property {'legacy'|'auto'|'modern'} upstreamProtocol
 * @property {'keep'|'strip'} structured
 * @property {'cl100k_base'|'o200k_base'} tokenizer
 * @property {number} minSavings
 * @property {number} maxResultTokens
 * @property {boolean} cacheStable
 * @property {{ host: string, port: number } | undefined} listen
 * @property {boolean} printStats
 * @property {string | undefined} statsFile
 * @property {import('./log.js').LogLevel} logLevel
 * @property {number} callTimeoutMs
 * @property {number} maxUpstreamMessageBytes
 * @property {number} maxBodyBytes
 * @property {number} maxInflight
 * @property {number} sessionIdleMs
 * @property {number} maxSessions
 * @property {number} replayEvents
 * @property {number} replayBytes
 * @property {string[]} authTokens
 * @property {string | undefined} authTokenFile
 * @property {string[]} allowOrigins
 * @property {string[]} allowHosts
 * @property {boolean} stateless
 * @property {string | undefined} replicaId
 * @property {string | undefined} store
 * @property {number} storeTtlMs
 * @property {number} storeMaxBytes
 * @property {boolean} help
 * @property {boolean} version
 * @property {string[]} warnings things worth a log line that are not errors
 */

/**
 * @typedef {{ flag: string, key: string, value?: string, default?: unknown, multiple?: boolean,
 *   http?: boolean, parse?: (value: string, flag: string) => unknown, doc: string }} OptionSpec
 */

const oneOf = (/** @type {readonly string[]} */ allowed) => (/** @type {string} */ v, /** @type {string} */ flag) => {
  if (!allowed.includes(v)) throw new ConfigError(`${flag} wants one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  return v;
};

function positiveInt(/** @type {string} */ v, /** @type {string} */ flag) {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < 1) throw new ConfigError(`${flag} wants a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

/** `DURATION`: seconds, or a number with an s, m or h suffix (`90`, `1.5s`, `30m`, `2h`); in ms. */
export function parseDuration(/** @type {string} */ v, flag = 'duration') {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(String(v).trim());
  const ms = m ? Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'] : NaN;
  if (!(ms > 0) || !Number.isFinite(ms)) throw new ConfigError(`${flag} wants a duration above 0 (seconds, or 30s, 5m, 2h), got ${JSON.stringify(v)}`);
  return Math.round(ms);
}

/** `SIZE`: bytes, or a number with a k, m or g suffix (1024-based: `512k`, `4m`); in bytes. */
export function parseSize(/** @type {string} */ v, flag = 'size') {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg])?i?b?$/i.exec(String(v).trim());
  const bytes = m ? Number(m[1]) * 1024 ** ({ k: 1, m: 2, g: 3 }[(m[2] ?? '').toLowerCase()] ?? 0) : NaN;
  if (!(bytes >= 1) || !Number.isFinite(bytes)) throw new ConfigError(`${flag} wants a size in bytes (or 512k, 4m, 1g), got ${JSON.stringify(v)}`);
  return Math.floor(bytes);
}

function fraction(/** @type {string} */ v, /** @type {string} */ flag) {
  const f = v.endsWith('%') ? Number(v.slice(0, -1)) / 100 : Number(v);
  if (v === '' || !Number.isFinite(f) || f < 0 || f >= 1) throw new ConfigError(`${flag} wants a fraction in [0, 1) or a percent, got ${JSON.stringify(v)}`);
  return f;
}

function hostPort(/** @type {string} */ v, /** @type {string} */ flag) {
  const m = /^(?:(.*):)?(\d+)$/.exec(v);
  if (!m || Number(m[2]) > 65535) throw new ConfigError(`${flag} wants [HOST:]PORT, got ${JSON.stringify(v)}`);
  return { host: (m[1] || '127.0.0.1').replace(/^\[(.*)\]$/, '$1'), port: Number(m[2]) };
}

function origin(/** @type {string} */ v, /** @type {string} */ flag) {
  let url;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`${flag} wants an origin such as https://app.example.com, got ${JSON.stringify(v)}`);
  }
  if (url.origin === 'null' || url.origin !== v.replace(/\/$/, '')) {
    throw new ConfigError(`${flag} wants an origin (scheme://host[:port], no path), got ${JSON.stringify(v)}`);
  }
  return url.origin;
}

/** `--replica-id`: what a session id starts with, so it must be short and plain. */
function replicaName(/** @type {string} */ v, /** @type {string} */ flag) {
  if (!REPLICA_ID.test(v)) throw new ConfigError(`${flag} wants 1 to 63 letters, digits, _ or -, got ${JSON.stringify(v)}`);
  return v;
}
const REPLICA_ID = /^[A-Za-z0-9_-]{1,63}$/;

/** The default replica id: the host name and the port, as --replica-id allows them. */
export function defaultReplicaId(/** @type {string} */ hostname, /** @type {number} */ port) {
  const host = hostname.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 56) || 'replica';
  return `${host}-${port}`;
}

/** `--store`: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]. */
function storeUrl(/** @type {string} */ v, /** @type {string} */ flag) {
  let url;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`${flag} wants redis://HOST:PORT/DB, got ${JSON.stringify(v)}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(`${flag} wants a redis:// or rediss:// URL, got ${JSON.stringify(url.protocol.slice(0, -1))}`);
  if (!url.hostname) throw new ConfigError(`${flag} wants a host: redis://HOST:PORT/DB`);
  if (!/^(\/\d*)?$/.test(url.pathname)) throw new ConfigError(`${flag}: the path is the database number (redis://HOST:PORT/0), got ${JSON.stringify(url.pathname)}`);
  return v;
}

/** Every option: README's option tables and `--help` are written from this list. @type {OptionSpec[]} */
export const OPTIONS = [
  { flag: 'mode', key: 'mode', value: 'compact|proxy|gateway', default: 'compact', parse: oneOf(MODES), doc: 'compact: upstream tools, compact results; proxy: tool cards + tool_hydrate/tool_execute; gateway: tool_browse/tool_execute/tool_view' },
  { flag: 'config', key: 'configFiles', value: 'FILE', multiple: true, default: [], doc: 'upstreams from {"mcpServers": {name: {command, args, env, cwd} | {url, headers}}} (repeatable)' },
  { flag: 'name', key: 'name', value: 'NAME', doc: 'server name of the upstream after -- (default: from the command)' },
  { flag: 'upstream-protocol', key: 'upstreamProtocol', value: 'legacy|auto|modern', default: 'auto', parse: oneOf(UPSTREAM_PROTOCOLS), doc: 'the 2025 revisions (initialize), MCP 2026-07-28, or auto (server/discover, else initialize); default: auto for HTTP upstreams, legacy for stdio ones; a config entry\'s "protocol" wins' },
  { flag: 'structured', key: 'structured', value: 'keep|strip', default: 'strip', parse: oneOf(['keep', 'strip']), doc: 'structuredContent and outputSchema: kept, or dropped once a text block carries them' },
  { flag: 'tokenizer', key: 'tokenizer', value: 'cl100k_base|o200k_base', default: 'cl100k_base', parse: oneOf(['cl100k_base', 'o200k_base']), doc: 'the exact token counts that pick the format' },
  { flag: 'min-savings', key: 'minSavings', value: 'F', default: 0.1, parse: fraction, doc: 'least saving for a result to be replaced: a fraction or a percent (15%)' },
  { flag: 'max-result-tokens', key: 'maxResultTokens', value: 'N', default: 8000, parse: positiveInt, doc: 'gateway mode: larger results are stored for tool_view' },
  { flag: 'cache-stable', key: 'cacheStable', default: false, doc: 'gateway mode: tool_browse keeps cards seen before first (spec §5)' },
  { flag: 'call-timeout', key: 'callTimeoutMs', value: 'DURATION', default: 120_000, parse: parseDuration, doc: 'a call without an answer (or progress) from its upstream for this long fails, and is cancelled upstream' },
  { flag: 'max-upstream-message', key: 'maxUpstreamMessageBytes', value: 'SIZE', default: 32 * 1024 ** 2, parse: parseSize, doc: 'largest line a stdio upstream may write; a longer one fails the calls in flight there' },
  { flag: 'max-body', key: 'maxBodyBytes', value: 'SIZE', default: 4 * 1024 ** 2, parse: parseSize, doc: 'largest client message: an HTTP body (413 past it) or a stdio line' },
  { flag: 'max-inflight', key: 'maxInflight', value: 'N', default: 64, parse: positiveInt, doc: 'requests one session (--stateless: the replica) may have in flight; past it, JSON-RPC error -32000' },
  { flag: 'listen', key: 'listen', value: '[HOST:]PORT', parse: hostPort, doc: 'serve Streamable HTTP at /mcp (host default 127.0.0.1) instead of stdio' },
  { flag: 'session-idle', key: 'sessionIdleMs', value: 'DURATION', default: 30 * 60_000, parse: parseDuration, http: true, doc: 'an HTTP session with no request, call in flight or GET stream for this long is closed' },
  { flag: 'max-sessions', key: 'maxSessions', value: 'N', default: 256, parse: positiveInt, http: true, doc: 'HTTP sessions at once; past it the least recently used idle one is closed' },
  { flag: 'replay-events', key: 'replayEvents', value: 'N', default: 1000, parse: positiveInt, http: true, doc: 'SSE events kept per session for resumption (Last-Event-ID)' },
  { flag: 'replay-bytes', key: 'replayBytes', value: 'SIZE', default: 8 * 1024 ** 2, parse: parseSize, http: true, doc: 'bytes of SSE events kept per session for resumption' },
  { flag: 'auth-token-file', key: 'authTokenFile', value: 'FILE', http: true, doc: `bearer tokens, one a line (else the ${TOKEN_ENV} env var); required to listen beyond loopback` },
  { flag: 'allow-origin', key: 'allowOrigins', value: 'ORIGIN', multiple: true, default: [], parse: origin, http: true, doc: 'a browser Origin allowed besides loopback ones (repeatable)' },
  { flag: 'allow-host', key: 'allowHosts', value: 'HOST', multiple: true, default: [], http: true, doc: 'a Host header allowed besides loopback names (repeatable); checked whenever given, and always on loopback' },
  { flag: 'stateless', key: 'stateless', default: false, http: true, doc: 'HTTP without sessions: each POST stands alone, any replica serves any request; the upstream connections are the replica\'s, shared by its requests' },
  { flag: 'replica-id', key: 'replicaId', value: 'NAME', parse: replicaName, http: true, doc: 'session ids start with NAME. so that a load balancer can route them to this replica (default: host name and port)' },
  { flag: 'store', key: 'store', value: 'redis://HOST:PORT/DB', parse: storeUrl, doc: 'gateway mode: stored results in Redis, readable through every replica (default: in memory)' },
  { flag: 'store-ttl', key: 'storeTtlMs', value: 'DURATION', default: 3_600_000, parse: parseDuration, doc: 'how long a result stays in --store' },
  { flag: 'store-max-bytes', key: 'storeMaxBytes', value: 'SIZE', default: 32 * 1024 ** 2, parse: parseSize, doc: 'stored results of one session (stateless: of one token) in --store; oldest deleted first' },
  { flag: 'stats', key: 'printStats', default: false, doc: 'per-tool calls, bytes and tokens on stderr at exit' },
  { flag: 'stats-file', key: 'statsFile', value: 'FILE', doc: 'the same as JSON, written at exit' },
  { flag: 'log-level', key: 'logLevel', value: 'LEVEL', default: 'info', parse: oneOf(LOG_LEVELS), doc: `stderr logging: ${LOG_LEVELS.join(', ')}` },
  { flag: 'quiet', key: 'quiet', default: false, doc: 'no logs (--log-level silent)' },
  { flag: 'version', key: 'version', default: false, doc: 'print the version and exit' },
  { flag: 'help', key: 'help', default: false, doc: 'this help' },
];

/** The `--help` text, from OPTIONS. */
export function usage() {
  const lines = ['usage: agentwire-mcp [options] -- COMMAND [ARGS...]', '       agentwire-mcp [options] --config FILE', ''];
  for (const o of OPTIONS) {
    const left = `  --${o.flag}${o.value ? ` ${o.value}` : ''}`;
    const def = o.default !== undefined && o.value && !(Array.isArray(o.default) && !o.default.length) ? ` (default ${describeDefault(o)})` : '';
    // Wrapped at 100 columns, continuation lines under the text.
    const words = `${o.doc}${def}`.split(' ');
    let line = left.padEnd(38);
    for (const word of words) {
      if (line.length + word.length + 1 > 100 && line.trim().length) {
        lines.push(line.trimEnd());
        line = ' '.repeat(38);
      }
      line += ` ${word}`;
    }
    lines.push(line.trimEnd());
  }
  lines.push('', 'DURATION: seconds, or 30s, 5m, 2h. SIZE: bytes, or 512k, 4m (1024-based).');
  return `${lines.join('\n')}\n`;
}

/** A default as the command line would spell it (`30m`, `4m`). */
export function describeDefault(/** @type {OptionSpec} */ o) {
  const v = o.default;
  if (o.parse === parseDuration && typeof v === 'number') return v % 3_600_000 === 0 ? `${v / 3_600_000}h` : v % 60_000 === 0 ? `${v / 60_000}m` : `${v / 1000}s`;
  if (o.parse === parseSize && typeof v === 'number') return v % 1024 ** 2 === 0 ? `${v / 1024 ** 2}m` : v % 1024 === 0 ? `${v / 1024}k` : String(v);
  return String(v);
}

const LOOPBACK_HOSTS = new Set(['localhost', '::1', '0:0:0:0:0:0:0:1']);
/** Whether a listen address only accepts connections from this machine. */
export function isLoopback(/** @type {string} */ host) {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host) || /^::ffff:127\./i.test(host);
}

/**
 * Parses the command line (and the files it names) into a configuration.
 * @param {string[]} argv the arguments after the program name
 * @param {Record<string, string | undefined>} [env] where AGENTWIRE_MCP_TOKEN is looked up
 * @param {{ readFile?: (file: string) => string }} [io]
 * @returns {GatewayConfig}
 */
export function parseConfig(argv, env = {}, { readFile = (file) => readFileSync(file, 'utf8') } = {}) {
  const dash = argv.indexOf('--');
  const head = dash < 0 ? argv : argv.slice(0, dash);
  const command = dash < 0 ? [] : argv.slice(dash + 1);
  /** @type {Record<string, { type: 'string' | 'boolean', multiple?: boolean, short?: string }>} */
  const spec = {};
  for (const o of OPTIONS) spec[o.flag] = { type: o.value ? 'string' : 'boolean', ...(o.multiple ? { multiple: true } : {}) };
  spec.help.short = 'h';
  let values;
  try {
    ({ values } = parseArgv({ args: head, options: spec, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new ConfigError(argvErrorMessage(e));
  }
  /** @type {Record<string, any>} */
  const out = { warnings: [] };
  for (const o of OPTIONS) {
    const raw = /** @type {any} */ (values)[o.flag];
    if (raw === undefined) {
      out[o.key] = Array.isArray(o.default) ? [...o.default] : o.default;
    } else if (o.parse) {
      const parse = o.parse;
      out[o.key] = o.multiple ? raw.map((/** @type {string} */ v) => parse(v, `--${o.flag}`)) : parse(raw, `--${o.flag}`);
    } else {
      out[o.key] = raw;
    }
    if (raw !== undefined && o.http && !values.listen) out.warnings.push(`--${o.flag} only applies with --listen`);
  }
  if (out.quiet) out.logLevel = 'silent';

  out.upstreams = {};
  for (const file of out.configFiles) {
    let text;
    try {
      text = readFile(file);
    } catch (e) {
      throw new ConfigError(`--config ${file}: ${/** @type {Error} */ (e).message}`);
    }
    Object.assign(out.upstreams, parseServers(text, file));
  }
  if (command.length) out.upstreams[out.name ?? nameOf(command)] = { command: command[0], args: command.slice(1) };
  else if (out.name !== undefined) out.warnings.push('--name names the upstream after --, and there is none');
  // HTTP upstreams are asked server/discover unless told otherwise; a stdio upstream only when the
  // flag or its entry says so (a 2025 stdio server may never answer the probe).
  for (const spec of Object.values(out.upstreams)) {
    if (spec.url || values['upstream-protocol'] !== undefined) spec.protocol ??= out.upstreamProtocol;
  }
  delete out.configFiles;
  delete out.name;
  delete out.quiet;

  out.authTokens = [];
  if (out.authTokenFile !== undefined) {
    let text;
    try {
      text = readFile(out.authTokenFile);
    } catch (e) {
      throw new ConfigError(`--auth-token-file ${out.authTokenFile}: ${/** @type {Error} */ (e).message}`);
    }
    out.authTokens = parseTokens(text, out.authTokenFile);
    if (env[TOKEN_ENV]) out.warnings.push(`${TOKEN_ENV} is ignored: --auth-token-file is given`);
  } else if (env[TOKEN_ENV]) {
    out.authTokens = parseTokens(/** @type {string} */ (env[TOKEN_ENV]), TOKEN_ENV);
  }
  if (out.stateless) {
    if (!out.listen) throw new ConfigError('--stateless serves Streamable HTTP: give --listen [HOST:]PORT');
    if (out.mode === 'gateway' && !out.store) {
      throw new ConfigError('--mode gateway --stateless needs --store redis://HOST:PORT/DB: a result stored for tool_view through one replica must be readable through any replica');
    }
    if (out.cacheStable) throw new ConfigError('--cache-stable keeps what one client browsed before; --stateless has no client to keep it for');
    for (const flag of ['session-idle', 'max-sessions', 'replay-events', 'replay-bytes', 'replica-id']) {
      if (/** @type {any} */ (values)[flag] !== undefined) out.warnings.push(`--${flag} has no effect with --stateless (there are no sessions)`);
    }
  }
  if (out.store && out.mode !== 'gateway') out.warnings.push(`--store holds gateway mode's stored results; --mode ${out.mode} stores none`);
  if (out.listen && !isLoopback(out.listen.host) && !out.authTokens.length) {
    throw new ConfigError(
      `refusing to listen on ${out.listen.host}:${out.listen.port} without a token: anyone who can reach that address could call every upstream tool. ` +
        `Give --auth-token-file FILE or ${TOKEN_ENV}, or listen on 127.0.0.1.`,
    );
  }
  return /** @type {GatewayConfig} */ (out);
}

function argvErrorMessage(/** @type {any} */ e) {
  const flag = /'(-[^' ]+)/.exec(String(e?.message))?.[1];
  switch (e?.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag ?? e.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /argument missing/.test(e.message) ? `${flag} needs a value` : `${flag} takes no value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']+)'/.exec(e.message)?.[1] ?? ''}: put the upstream command after --`;
    default:
      return String(e?.message ?? e);
  }
}

/** Bearer tokens: one a line; blank lines and `#` comments skipped. */
export function parseTokens(/** @type {string} */ text, /** @type {string} */ source) {
  const tokens = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (!tokens.length) throw new ConfigError(`${source}: no token in it`);
  for (const t of tokens) {
    if (t.length < 16) throw new ConfigError(`${source}: a token is ${t.length} characters; use at least 16 (openssl rand -hex 32)`);
    if (!/^[\x21-\x7e]+$/.test(t)) throw new ConfigError(`${source}: tokens are printable ASCII without spaces`);
  }
  return tokens;
}

const SERVER_FIELDS = /** @type {const} */ ({
  command: 'string',
  args: 'string[]',
  env: 'record',
  cwd: 'string',
  url: 'string',
  headers: 'record',
  type: 'string',
  disabled: 'boolean',
  protocol: 'string',
});

/**
 * The `mcpServers` (or `servers`) of an MCP client config file, checked: each has a `command`
 * or an http(s) `url`, with fields of the right types. Other fields clients write (`timeout`,
 * `autoApprove`, …) are ignored; `disabled: true` servers are left out.
 * @returns {Record<string, UpstreamSpec>}
 */
export function parseServers(/** @type {string} */ text, /** @type {string} */ source) {
  let config;
  try {
    config = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${source}: not JSON (${/** @type {Error} */ (e).message})`);
  }
  const servers = config?.mcpServers ?? config?.servers;
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) throw new ConfigError(`${source}: no "mcpServers" object`);
  /** @type {Record<string, UpstreamSpec>} */
  const out = {};
  for (const [name, entry] of Object.entries(servers)) {
    const where = `${source}: server ${JSON.stringify(name)}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new ConfigError(`${where} is not an object`);
    for (const [field, kind] of Object.entries(SERVER_FIELDS)) {
      const v = entry[field];
      if (v === undefined) continue;
      const ok =
        kind === 'string' ? typeof v === 'string' :
        kind === 'boolean' ? typeof v === 'boolean' :
        kind === 'string[]' ? Array.isArray(v) && v.every((x) => typeof x === 'string') :
        v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
      if (!ok) throw new ConfigError(`${where}: "${field}" must be ${{ string: 'a string', boolean: 'true or false', 'string[]': 'an array of strings', record: 'an object of strings' }[kind]}`);
    }
    if (entry.disabled) continue;
    if (entry.type === 'sse') throw new ConfigError(`${where}: the SSE transport (deprecated) is not supported; use Streamable HTTP`);
    if (entry.protocol !== undefined && !UPSTREAM_PROTOCOLS.includes(entry.protocol)) throw new ConfigError(`${where}: "protocol" must be one of ${UPSTREAM_PROTOCOLS.join(', ')}`);
    if (!entry.command === !entry.url) throw new ConfigError(`${where} needs "command" or "url" (one of them)`);
    if (entry.url !== undefined) {
      let url;
      try {
        url = new URL(entry.url);
      } catch {
        throw new ConfigError(`${where}: "url" is not a URL: ${JSON.stringify(entry.url)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${where}: "url" must be http or https`);
      out[name] = { url: entry.url, ...(entry.headers ? { headers: entry.headers } : {}), ...(entry.protocol ? { protocol: entry.protocol } : {}) };
    } else {
      out[name] = {
        ...(entry.protocol ? { protocol: entry.protocol } : {}),
        command: entry.command,
        args: entry.args ?? [],
        ...(entry.env ? { env: entry.env } : {}),
        ...(entry.cwd ? { cwd: entry.cwd } : {}),
      };
    }
  }
  return out;
}

/** `npx -y @scope/server-memory` and `node …/server-memory/dist/index.js` → `server-memory`. */
export function nameOf(/** @type {string[]} */ command) {
  const last = [...command].reverse().find((a) => !a.startsWith('-')) ?? command[0];
  const parts = last.replace(/@[^/@]*$/, '').split(/[\\/]/).filter(Boolean);
  const generic = /^(index|main|cli|server|dist|build|lib|src|bin)(\.[cm]?[jt]s)?$/;
  while (parts.length > 1 && generic.test(parts.at(-1) ?? '')) parts.pop();
  return (parts.at(-1) ?? '').replace(/\.[cm]?[jt]s$/, '') || 'upstream';
}

/** The defaults of every option that has one, by key (what createGateway starts from). */
export function defaults() {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const o of OPTIONS) if (o.default !== undefined) out[o.key] = Array.isArray(o.default) ? [...o.default] : o.default;
  return out;
}
