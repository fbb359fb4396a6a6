// --mode gateway (spec §4.2): exactly tool_browse, tool_execute and tool_view. A result above
// --max-result-tokens is stored; tool_view reads it in parts (view.js).

import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { compact } from 'agentwire';
import { JsonRpcError } from '../jsonrpc.js';
import { errorResult } from '../catalog.js';
import { infoOf, tokensOf, viewOf, ViewError } from '../view.js';
import { execute, obj, TOOL_EXECUTE } from './shared.js';

const META_TOOLS = [
  {
    name: 'tool_browse',
    description: 'Finds tools: {"query": "what you need"} ranks them, {"path": "/"} lists the catalog tree. Returns cards with tool_id.',
    inputSchema: obj({ query: { type: 'string' }, path: { type: 'string' }, top_k: { type: 'integer', minimum: 1, maximum: 50 } }, []),
  },
  {
    ...TOOL_EXECUTE,
    description: 'Calls a tool by tool_id; args are checked against its schema first. Large results come back as a handle for tool_view.',
  },
  {
    name: 'tool_view',
    description:
      'Reads part of a stored result: handle from tool_execute, selector "info", "lines:A-B", "rows:A-B[@SECTION]" (GCX1) or a JSON pointer "/a/0". With a tool_id as handle: its input schema.',
    inputSchema: obj({ handle: { type: 'string' }, selector: { type: 'string' } }, ['handle']),
  },
];

/** @typedef {import('./compact.js').ModeContext} ModeContext */

/** @type {import('./compact.js').Mode} */
export const gatewayMode = {
  name: 'gateway',
  toolsList() {
    return META_TOOLS;
  },
  async callTool(context, params, extra) {
    const name = String(params.name);
    const args = params.arguments ?? {};
    if (name === 'tool_browse') return context.catalog.meta('tool_browse', args);
    if (name === 'tool_view') return await view(context, args);
    if (name === 'tool_execute') {
      const { result, entry } = await execute(context, args, params, extra);
      return entry ? await bounded(context, entry, result) : result;
    }
    throw new JsonRpcError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  },
};

/** A result above --max-result-tokens is stored; the reply says how to read it. */
async function bounded(/** @type {ModeContext} */ context, /** @type {import('../catalog.js').CatalogEntry} */ entry, /** @type {any} */ result) {
  const { maxResultTokens, tokenizer } = context.options;
  if (result.isError || !Array.isArray(result.content)) return result;
  const texts = result.content.filter((/** @type {any} */ b) => b.type === 'text');
  if (texts.length !== 1) return result;
  const text = texts[0].text;
  const tokens = tokensOf(text, tokenizer);
  if (tokens <= maxResultTokens) return result;
  /** @type {import('../view.js').StoredResult} */
  const stored = { tool: entry.def.name, text, format: 'text', tokens };
  if (text.startsWith('GCX1')) stored.format = 'gcx1';
  else if (text.startsWith('GCF')) stored.format = 'gcf-generic';
  else {
    try {
      stored.value = JSON.parse(text);
      stored.format = 'json';
    } catch {
      // Not JSON: TOON that compaction wrote (compact.decode reads it only as an array or an
      // object), else plain text, stored as lines only.
      try {
        stored.value = compact.decode(text);
        stored.format = 'toon';
      } catch {
        stored.format = 'text';
      }
    }
  }
  const handle = await context.results.put(stored);
  const body = {
    stored: infoOf(handle, stored),
    message: `result is ${tokens} tokens, above the ${maxResultTokens}-token limit; read it with tool_view(handle, selector)`,
    selectors: ['info', 'lines:A-B', 'rows:A-B[@SECTION]', '/json/pointer'],
  };
  const content = result.content.map((/** @type {any} */ b) => (b === texts[0] ? { type: 'text', text: JSON.stringify(body) } : b));
  return { ...result, content };
}

async function view(/** @type {ModeContext} */ context, /** @type {any} */ args) {
  const { handle, selector = '' } = args ?? {};
  if (typeof handle !== 'string' || typeof selector !== 'string') {
    return errorResult({ error: 'ARGS_INVALID', message: 'tool_view requires string handle and optional string selector', path: '', retryable: false });
  }
  // A tool id instead of a result handle: its schema (the hydrate step of the gateway).
  if (context.catalog.byId.has(handle)) return context.catalog.meta('tool_view', { tool_id: handle });
  const { maxResultTokens, tokenizer } = context.options;
  try {
    const text = viewOf(handle, await context.results.get(handle), selector, { tokenizer });
    const tokens = tokensOf(text, tokenizer);
    if (tokens > maxResultTokens) {
      throw new ViewError(`selection is ${tokens} tokens, above the ${maxResultTokens}-token limit; narrow the selector`);
    }
    return { content: [{ type: 'text', text }] };
  } catch (e) {
    if (!(e instanceof ViewError)) throw e;
    return errorResult({ error: 'VIEW_FAILED', message: e.message, path: handle, retryable: false });
  }
}
