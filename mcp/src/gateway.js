// The gateway: one MCP server in front of several upstreams, in one of three modes (compact;
// proxy, §4.1; gateway, §4.2 of the gateway surface spec). Each downstream session gets its own
// upstream connections (session.js), opened when the client initializes, with the client's own
// capabilities: sampling, elicitation and roots requests from an upstream then reach the client
// that asked for the tool call.

import { defaults, MODES } from './config.js';
import { errorMessage, log } from './log.js';
import { createMetrics } from './metrics.js';
import { Session } from './session.js';
import { Stats } from './stats.js';
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
 * @property {number} [maxInflight] requests one session may have in flight
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
  const metrics = createMetrics({
    version: VERSION,
    sessions: () => sessions.size,
    upstreams: () => [...sessions].flatMap((s) => s.relay.states()),
  });
  return {
    stats,
    metrics,
    options: opts,
    sessions,
    /**
     * Serves one downstream session; resolves once the transport is started.
     * @param {import('@modelcontextprotocol/sdk/shared/transport.js').Transport} transport
     */
    async connect(transport) {
      const session = new Session(opts, { stats, metrics });
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
    /** Closes every session (and so every upstream process). */
    async close() {
      await Promise.all([...sessions].map((s) => s.close('shutdown')));
    },
  };
}

/** @typedef {ReturnType<typeof createGateway>} Gateway */
