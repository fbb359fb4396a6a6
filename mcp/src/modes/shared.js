// What proxy and gateway modes share: the spec's tool_execute and the meta-tool schemas.

import { errorResult } from '../catalog.js';

/** @typedef {import('./compact.js').ModeContext} ModeContext */

/**
 * tool_execute: the args are validated against the tool's schema (agentwire's validator)
 * before anything reaches the upstream. Returns the upstream result and the entry called.
 * @param {ModeContext} context
 * @returns {Promise<{ result: any, entry?: import('../catalog.js').CatalogEntry }>}
 */
export async function execute(context, /** @type {any} */ args, /** @type {any} */ params, /** @type {any} */ extra) {
  // tool_execute replies {tool_id, args, dry_run} (the union type covers every meta-tool).
  const reply = /** @type {{ text: string, isError: boolean, result: any }} */ (context.catalog.browse.dispatch('tool_execute', args));
  if (reply.isError) return { result: { content: [{ type: 'text', text: reply.text }], isError: true } };
  const entry = context.catalog.byId.get(reply.result.tool_id);
  if (!entry) {
    return { result: errorResult({ error: 'HYDRATE_FAILED', message: `unknown tool_id ${reply.result.tool_id}`, path: String(args?.tool_id), retryable: false }) };
  }
  if (reply.result.dry_run) return { result: { content: [{ type: 'text', text: reply.text }] }, entry };
  // Proxy and gateway list no output schemas, so structured content could not be checked.
  const result = await context.callUpstream(entry, reply.result.args, params, extra, { structured: 'strip' });
  return { result, entry };
}

const obj = (/** @type {object} */ properties, /** @type {string[]} */ required) => ({ type: 'object', properties, required, additionalProperties: false });

export const TOOL_EXECUTE = {
  name: 'tool_execute',
  description: 'Calls a tool listed here by its tool_id; args are checked against its schema first.',
  inputSchema: obj({ tool_id: { type: 'string' }, args: { type: 'object' }, dry_run: { type: 'boolean' } }, ['tool_id', 'args']),
};

export { obj };
