// --store redis://HOST:PORT/DB: state that must outlive a process, or be seen by every replica,
// in Redis (node-redis). It holds gateway mode's stored results for tool_view, so that a result
// stored through one replica can be read through another.
//
// Keys (prefix `agentwire-mcp:`):
//   result:HANDLE       the stored result as JSON {owner, tool, format, tokens, text}; EX --store-ttl
//   owner:OWNER         sorted set of "HANDLE:BYTES" by store time: the owner's results, oldest first
//   owner-bytes:OWNER   the bytes of those results together
// An owner is a session (`session:ID`) or, in stateless mode, a token (`token:…`, a prefix of its
// SHA-256; `token:none` without auth). Past --store-max-bytes an owner's oldest results are
// deleted (the newest stays), in one Lua script, so replicas storing for the same owner at once
// keep the bound. Handles are 128 random bits: a handle is not guessed, and one owner's handle is
// unknown to every other owner.
//
// While Redis is unreachable, every command fails at once (no offline queue) with a JSON-RPC
// error that names the store; the client reconnects with backoff (0.1 s doubling to 2 s).

import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { JsonRpcError, SERVER_ERROR } from './jsonrpc.js';
import { errorMessage, log } from './log.js';
import { ViewError } from './view.js';

const PREFIX = 'agentwire-mcp:';
/** A command with no answer for this long fails (Redis stopped with SIGSTOP, a network black hole). */
const COMMAND_TIMEOUT_MS = 5000;
const CONNECT_TIMEOUT_MS = 2000;
/** How long start() waits for Redis before the replica serves anyway (calls then get the store's error). */
const START_WAIT_MS = 5000;

// KEYS: result key, owner index, owner bytes. ARGV: value, ttl (s), now (ms), member, bytes,
// max bytes, result key prefix. Returns how many older results were deleted.
const PUT_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
local total = redis.call('INCRBY', KEYS[3], ARGV[5])
local dropped = 0
while total > tonumber(ARGV[6]) and redis.call('ZCARD', KEYS[2]) > 1 do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if oldest == ARGV[4] then oldest = redis.call('ZRANGE', KEYS[2], 1, 1)[1] end
  redis.call('ZREM', KEYS[2], oldest)
  local sep = string.find(oldest, ':', 1, true)
  redis.call('DEL', ARGV[7] .. string.sub(oldest, 1, sep - 1))
  total = redis.call('DECRBY', KEYS[3], tonumber(string.sub(oldest, sep + 1)))
  dropped = dropped + 1
end
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[3], ARGV[2])
return dropped
`;

/**
 * @typedef {{ url: string, ttlMs: number, maxBytes: number }} StoreOptions
 * @typedef {ReturnType<typeof createStore>} SharedStore
 */

/** The URL as logs and errors show it: without a password. */
export function displayUrl(/** @type {string} */ url) {
  const u = new URL(url);
  u.password = '';
  u.username = '';
  return u.toString().replace(/\/$/, '');
}

/** The store owner of a stateless request: its token (a prefix of the token's SHA-256), or none. */
export const tokenOwner = (/** @type {string | null} */ tokenId) => `token:${tokenId ? tokenId.slice(0, 32) : 'none'}`;

/** A Redis store; `start()` connects (and keeps reconnecting), `close()` ends it. */
export function createStore(/** @type {StoreOptions} */ { url, ttlMs, maxBytes }) {
  const where = displayUrl(url);
  const ttlSeconds = Math.max(1, Math.round(ttlMs / 1000));
  let up = false;
  /** @type {string | null} why the last connection attempt failed (named in errors) */
  let lastError = null;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
  });
  client.on('error', (e) => {
    const message = errorMessage(e) || e?.code || String(e);
    // The first error of an outage is a warning; the reconnect attempts after it, debug.
    if (up || lastError === null) log.warn(`store ${where}: ${message}; reconnecting`);
    else log.debug(`store ${where}: ${message}`);
    up = false;
    lastError = message;
  });
  client.on('ready', () => {
    log.info(`store ${where}: connected`);
    up = true;
    lastError = null;
  });

  /** The JSON-RPC error of a store that failed: it names the store and why. */
  const unavailable = (/** @type {unknown} */ e) => {
    const why = lastError && !up ? lastError : errorMessage(e);
    return new JsonRpcError(SERVER_ERROR, `the result store ${where} is unavailable: ${why}`, { store: where });
  };

  return {
    where,
    get up() {
      return up;
    },
    /** Connects; waits up to a few seconds, then serves anyway (the client keeps reconnecting). */
    async start() {
      const connected = client.connect().then(
        () => true,
        (e) => {
          log.error(`store ${where}: ${errorMessage(e)}`);
          return false;
        },
      );
      const timer = new Promise((resolve) => setTimeout(() => resolve(false), START_WAIT_MS).unref());
      if (!(await Promise.race([connected, timer]))) log.warn(`store ${where}: not reachable yet; calls that need it fail until it is`);
    },
    /**
     * The results of one owner.
     * @param {string} owner
     * @returns {import('./view.js').ResultStore}
     */
    forOwner(owner) {
      return {
        async put(entry) {
          const handle = `r-${randomBytes(16).toString('base64url')}`;
          const value = JSON.stringify({ owner, tool: entry.tool, format: entry.format, tokens: entry.tokens, text: entry.text });
          const bytes = Buffer.byteLength(value);
          try {
            await client.eval(PUT_SCRIPT, {
              keys: [`${PREFIX}result:${handle}`, `${PREFIX}owner:${owner}`, `${PREFIX}owner-bytes:${owner}`],
              arguments: [value, String(ttlSeconds), String(Date.now()), `${handle}:${bytes}`, String(bytes), String(maxBytes), `${PREFIX}result:`],
            });
          } catch (e) {
            throw unavailable(e);
          }
          return handle;
        },
        async get(handle) {
          let text;
          try {
            text = await client.get(`${PREFIX}result:${handle}`);
          } catch (e) {
            throw unavailable(e);
          }
          const stored = text === null ? null : JSON.parse(String(text));
          if (!stored || stored.owner !== owner) throw new ViewError(`unknown or expired handle ${JSON.stringify(handle)}`);
          return { tool: stored.tool, format: stored.format, tokens: stored.tokens, text: stored.text };
        },
      };
    },
    async close() {
      if (!client.isOpen) return;
      try {
        await client.close();
      } catch (e) {
        log.debug(`store ${where}: close: ${errorMessage(e)}`);
        client.destroy();
      }
    },
  };
}
