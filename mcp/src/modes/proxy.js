// --mode proxy (spec §4.1): one card per upstream tool ({name: tool_id, short description,
// sentinel schema}), plus tool_hydrate (the real schema) and tool_execute.

import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcError } from '../jsonrpc.js';
import { cardDescription, errorResult } from '../catalog.js';
import { execute, obj, TOOL_EXECUTE } from './shared.js';

const META_TOOLS = [
  {
    name: 'tool_hydrate',
    description: 'The input schema of a tool listed here, by its tool_id.',
    inputSchema: obj({ tool_id: { type: 'string' } }, ['tool_id']),
  },
  TOOL_EXECUTE,
];

/** @type {import('./compact.js').Mode} */
export const proxyMode = {
  name: 'proxy',
  toolsList(catalog) {
    const cards = [...catalog.byId.values()].map((t) => ({ name: t.id, description: cardDescription(t), inputSchema: { type: 'object' } }));
    return [...cards, ...META_TOOLS];
  },
  async callTool(context, params, extra) {
    const name = String(params.name);
    const args = params.arguments ?? {};
    if (name === 'tool_execute') return (await execute(context, args, params, extra)).result;
    if (name === 'tool_hydrate') return context.catalog.meta('tool_view', { tool_id: args.tool_id });
    if (context.catalog.byId.has(name)) {
      return errorResult({
        error: 'ARGS_INVALID',
        message: `${name} is a discovery entry: call tool_execute with {"tool_id": ${JSON.stringify(name)}, "args": {...}}`,
        path: name,
        retryable: false,
      });
    }
    throw new JsonRpcError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  },
};
