// The gateway: one MCP server in front of several upstreams, in one of three modes (compact;
// proxy, §4.1; gateway, §4.2 of the gateway surface spec). Each downstream session gets its own
// upstream connections (session.js), opened when the client initializes, with the client's own
// capabilities: sampling, elicitation and roots requests from an upstream then reach the client
// that asked for the tool call. Stateless (stateless.js), the replica has one set of upstream
// connections for all its requests. With --store, stored results live in Redis (store.js).

import { defaults, MODES } from './config.js';
import { errorMessage, log } from './log.js';
import { createMetrics } from './metrics.js';
import { Session } from './session.js';
import { StatelessReplica } from './stateless.js';
import { Stats } from './stats.js';
import { createStore } from './store.js';
import { VERSION } from './version.js';

export { MODES } from './config.js';
export { namespaceOf } from './catalog.js';

/**
 * @typedef {import('./config.js').UpstreamSpec} UpstreamSpec
 * @typedef {object} GatewayOptions
 * @property {Record<string, UpstreamSpec>} upstreams
 * @property {'compact'|'proxy'|'gateway'} [mode]
 * @property {'keep'|'strip'} [structured]
 * @property {'cl100k_base'|'o200k_base'} [tokenizer]
 * @property {number} [minSavings]
 * @property {number} [maxResultTokens]
 * @property {boolean} [cacheStable]
 * @property {number} [callTimeoutMs]
 * @property {number} [maxUpstreamMessageBytes]
 * @property {number} [maxInflight] requests one session (stateless: the replica) may have in flight
 * @property {boolean} [stateless] serve HTTP requests without sessions (`gateway.stateless`)
 * @property {string} [store] `redis://HOST:PORT/DB`: stored results there, not in memory
 * @property {number} [storeTtlMs]
 * @property {number} [storeMaxBytes] stored results of one owner (a session; stateless, a token)
 * @property {Stats} [stats]
 * @property {boolean} [measure] `false`: stats count only the JSON that was compacted (saves a
 *   token count per call)
 */

/**
 * A gateway; `connect(transport)` serves one downstream session on an MCP server transport.
 * @param {GatewayOptions} options
 */
export function createGateway(options) {
  const opts = /** @type {Required<GatewayOptions>} */ ({ measure: true, ...defaults(), ...options });
  if (!MODES.includes(opts.mode)) throw new Error(`unknown mode ${opts.mode} (${MODES.join(', ')})`);
  if (!Object.keys(opts.upstreams ?? {}).length) throw new Error('no upstream servers');
  const stats = opts.stats ?? new Stats();
  /** @type {Set<Session>} */
  const sessions = new Set();
  const store = opts.store ? createStore({ url: opts.store, ttlMs: opts.storeTtlMs, maxBytes: opts.storeMaxBytes }) : undefined;
  /** @type {StatelessReplica | undefined} */
  let stateless;
  const metrics = createMetrics({
    version: VERSION,
    sessions: () => sessions.size,
    upstreams: () => [...(modernReplica ? [modernReplica.relay] : []), ...[...sessions].map((s) => s.relay)].flatMap((r) => r.states()),
  });
  if (opts.stateless) stateless = new StatelessReplica(opts, { stats, metrics, store });
  /** @type {Promise<void> | null} */
  let started = null;
  /**
   * MCP 2026-07-28 clients have no session: they share one set of upstream connections. With
   * --stateless that is the replica's; otherwise one more, opened at the first modern request.
   * @type {Promise<StatelessReplica> | null}
   */
  let modern = stateless ? Promise.resolve(stateless) : null;
  /** @type {StatelessReplica | undefined} */
  let modernReplica = stateless;
  const gateway = {
    stats,
    metrics,
    options: opts,
    sessions,
    store,
    stateless,
    /** Connects the store and, stateless, the replica's upstreams (once; connect() waits for it). */
    start() {
      started ??= (async () => {
        await store?.start();
        await stateless?.start();
      })();
      return started;
    },
    /** The shared replica that serves MCP 2026-07-28 clients (started once). */
    modern() {
      modern ??= (async () => {
        await gateway.start();
        const replica = new StatelessReplica(opts, { stats, metrics, store }, { memoryResults: true });
        modernReplica = replica;
        await replica.start();
        log.info('MCP 2026-07-28 clients: upstream connections opened (shared by every modern client)');
        return replica;
      })();
      return modern;
    },
    /**
     * Serves one downstream session; resolves once the transport is started.
     * @param {import('@modelcontextprotocol/sdk/shared/transport.js').Transport} transport
     */
    async connect(transport) {
      await gateway.start();
      const session = new Session(opts, { stats, metrics, store });
      sessions.add(session);
      metrics.sessionsOpened.inc();
      session.onclose = (reason) => {
        sessions.delete(session);
        metrics.sessionsClosed.inc({ reason });
        log.debug(`session closed (${reason}); ${sessions.size} open`);
      };
      try {
        await session.connect(transport);
      } catch (e) {
        log.error(`session: ${errorMessage(e)}`);
        await session.close('client');
        throw e;
      }
      return session;
    },
    /** Closes every session (and so every upstream process), the stateless replica and the store. */
    async close() {
      await Promise.all([...sessions].map((s) => s.close('shutdown')));
      await stateless?.close();
      if (modern && modernReplica !== stateless) await (await modern).close();
      await store?.close();
    },
  };
  return gateway;
}

/** @typedef {ReturnType<typeof createGateway>} Gateway */
