// --mode compact: the upstream tools under their own names (a shared name gets the server
// prefix), every JSON result compacted.

import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcError } from '../jsonrpc.js';

/**
 * @typedef {import('../catalog.js').Catalog} Catalog
 * @typedef {import('../catalog.js').CatalogEntry} CatalogEntry
 * @typedef {object} ModeContext what a mode may use of its session
 * @property {Catalog} catalog
 * @property {{ structured: 'keep'|'strip', maxResultTokens: number, tokenizer: 'cl100k_base'|'o200k_base' }} options
 * @property {(entry: CatalogEntry, args: unknown, params: any, extra: any, how: { structured: 'keep'|'strip' }) => Promise<any>} callUpstream
 *   forwards a tools/call to the entry's upstream and compacts the result
 * @property {import('../view.js').ResultStore} results stored large results (gateway mode)
 * @typedef {object} Mode
 * @property {string} name
 * @property {(catalog: Catalog, options: { structured: 'keep'|'strip' }) => object[]} toolsList
 * @property {(context: ModeContext, params: { name?: string, arguments?: any }, extra: any) => Promise<any>} callTool
 */

/** @type {Mode} */
export const compactMode = {
  name: 'compact',
  toolsList(catalog, { structured }) {
    return catalog.tools.map((t) => {
      const tool = { ...t.def, name: t.name };
      if (structured === 'strip') delete tool.outputSchema;
      return tool;
    });
  },
  async callTool(context, params, extra) {
    const entry = context.catalog.byName.get(String(params.name));
    if (!entry) throw new JsonRpcError(ErrorCode.InvalidParams, `Tool ${params.name} not found`);
    return context.callUpstream(entry, params.arguments, params, extra, { structured: context.options.structured });
  },
};
