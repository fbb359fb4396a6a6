// The MCP methods of a client, each passed to the mode (tools) or the relay (everything else),
// and a tools/call to an upstream with its result compacted and counted. Shared by a stateful
// session (session.js) and the stateless replica (stateless.js): they differ in who owns the
// relay and the catalog, not in how a request is served.

import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcError } from './jsonrpc.js';
import { log } from './log.js';
import { compactResultDetailed } from './result.js';

/**
 * @typedef {object} Scope what one request is served with
 * @property {Required<import('./gateway.js').GatewayOptions>} options
 * @property {import('./modes/compact.js').Mode} mode
 * @property {import('./relay.js').Relay} relay
 * @property {import('./catalog.js').Catalog} catalog
 * @property {import('./view.js').ResultStore} results
 * @property {import('./stats.js').Stats} stats
 * @property {import('./metrics.js').Metrics} metrics
 * @property {boolean} stateless no session: nothing can reach the client after its request's answer
 */

/** The tools the mode shows for the catalog. */
export function toolsList(/** @type {Scope} */ scope) {
  return scope.mode.toolsList(scope.catalog, scope.options);
}

/**
 * One client request (anything the SDK server does not answer itself).
 * @param {Scope} scope
 * @param {any} request
 * @param {import('./relay.js').RequestExtra} extra
 */
export async function route(scope, request, extra) {
  const { method, params } = request;
  const { relay } = scope;
  switch (method) {
    case 'tools/list':
      return { tools: toolsList(scope) };
    case 'tools/call':
      return scope.mode.callTool(context(scope), params ?? {}, extra);
    case 'resources/list':
      return relay.listMerged('resources', method, 'resources', params, extra);
    case 'resources/templates/list':
      return relay.listMerged('resources', method, 'resourceTemplates', params, extra);
    case 'prompts/list':
      return relay.listMerged('prompts', method, 'prompts', params, extra);
    case 'resources/subscribe':
    case 'resources/unsubscribe':
    case 'logging/setLevel':
      // Updates and log messages arrive later, on a stream only a session has.
      if (scope.stateless) throw new JsonRpcError(ErrorCode.MethodNotFound, `${method} needs a session: agentwire-mcp runs --stateless, and nothing reaches a client after its request's answer`);
      if (method === 'logging/setLevel') return relay.requestAll('logging', request, extra);
      return relay.forward(relay.owner('resources', params?.uri), request, extra);
    case 'resources/read':
      return relay.forward(relay.owner('resources', params?.uri), request, extra);
    case 'prompts/get':
      return relay.forward(relay.owner('prompts', params?.name), request, extra);
    case 'completion/complete': {
      const ref = params?.ref ?? {};
      const owner = ref.type === 'ref/prompt' ? relay.owner('prompts', ref.name) : relay.owner('resources', ref.uri);
      return relay.forward(owner, request, extra);
    }
    default:
      return relay.forward(relay.first(), request, extra);
  }
}

/** What the mode may use. @returns {import('./modes/compact.js').ModeContext} */
function context(/** @type {Scope} */ scope) {
  return {
    catalog: scope.catalog,
    options: scope.options,
    results: scope.results,
    callUpstream: (entry, args, params, extra, how) => callUpstream(scope, entry, args, params, extra, how),
  };
}

/** A tools/call to the entry's upstream, its result compacted; counted in stats and metrics. */
async function callUpstream(
  /** @type {Scope} */ scope,
  /** @type {import('./catalog.js').CatalogEntry} */ entry,
  /** @type {unknown} */ args,
  /** @type {any} */ params,
  /** @type {any} */ extra,
  /** @type {{ structured: 'keep'|'strip' }} */ how,
) {
  const { metrics, options, relay } = scope;
  const labels = { upstream: entry.upstream, tool: entry.def.name };
  metrics.toolCalls.inc(labels);
  const started = performance.now();
  let result;
  try {
    const request = { method: 'tools/call', params: { ...params, name: entry.def.name, arguments: args } };
    result = await relay.forward(relay.get(entry.upstream), request, extra);
  } catch (e) {
    const code = /** @type {any} */ (e)?.code;
    const kind = code === ErrorCode.RequestTimeout ? 'timeout' : code === ErrorCode.ConnectionClosed ? 'unavailable' : 'protocol';
    if (!extra.signal?.aborted) metrics.toolErrors.inc({ ...labels, kind });
    throw e;
  }
  const compactStarted = performance.now();
  const { result: out, report } = compactResultDetailed(result, {
    tool: entry.def.name,
    tokenizer: options.tokenizer,
    minSavings: options.minSavings,
    structured: how.structured,
    measure: options.measure,
  });
  const done = performance.now();
  metrics.compactSeconds.observe({}, (done - compactStarted) / 1000);
  metrics.callSeconds.observe({ upstream: entry.upstream }, (done - started) / 1000);
  if (result?.isError) {
    metrics.toolErrors.inc({ ...labels, kind: 'result' });
  } else {
    scope.stats.add(entry.name, report);
    for (const { code, message } of report.kept) {
      metrics.compactKept.inc({ ...labels, reason: code });
      log.debug(`${entry.name}: result text kept (${code}): ${message}`);
    }
    metrics.tokensBefore.inc(labels, report.tokensBefore);
    metrics.tokensAfter.inc(labels, report.tokensAfter);
    metrics.bytesBefore.inc(labels, report.bytesBefore);
    metrics.bytesAfter.inc(labels, report.bytesAfter);
  }
  return out;
}
