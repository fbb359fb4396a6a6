// @ts-check
// gateway: contextweaver's gateway contracts (tool ids, ChoiceCards, budgets, browse paths,
// cache-stable sessions). Token counts come from `options.counter` when given, else from
// agentwire's exact cl100k (the cl100k module of the optional package agentwire-tokens;
// `await tokens.load()` in browsers). Argument validation uses `options.validator` when given,
// else, in Node, the schema wasm module (`agentwire/schema`'s `validator`, for the addon too);
// a browser session needs one passed. In wasm the gateway is its own module (`await
// gateway.load()` in browsers).

import { asyncLoad } from './load.js';
import { argumentError, toAgentwireError } from './errors.js';
import { text, value } from './gcx.js';

/**
 * @param {{ boundary: import('./boundary.js').Boundary, load: (input?: unknown) => unknown }} area
 * @param {{ tokens: { count: (text: string, encoding?: string) => number },
 *   defaultValidator?: (schema: string, args: string) => string }} env
 */
export function makeGateway({ boundary, load }, { tokens, defaultValidator }) {
  const { callWithHooks, construct, methodWithHooks, method } = boundary;
  // Neither the addon nor a wasm module carries a vocabulary (it is in agentwire-tokens):
  // both are given agentwire's own counter.
  const defaultCounter = (t) => tokens.count(t, 'cl100k_base');

  const counterOf = (options) => {
    const counter = options?.counter ?? defaultCounter;
    if (counter !== undefined && typeof counter !== 'function') {
      throw argumentError('INVALID_ARGUMENT', 'options.counter must be a function (text) => number');
    }
    return counter;
  };
  // Options that cross as values (functions stay on this side).
  const plain = (options) => {
    if (options == null) return options;
    const { counter, validator, router, ...rest } = options;
    return rest;
  };

  /** A gateway over one catalog: meta-tool dispatch with cache-stable browsing (§5). */
  class BrowseSession {
    #raw;
    #hooks;
    #router;
    #topK;
    /**
     * @param {{ topK?: number, cacheStable?: boolean, targetTokens?: number, hardCapTokens?: number,
     *   counter?: (text: string) => number, validator?: (schema: string, args: string) => string,
     *   router?: (query: string, topK: number) => Array<{ id: string, score: number | null }> }} options
     */
    constructor(options = {}) {
      const validator = options?.validator;
      this.#router = options?.router;
      this.#topK = options?.topK ?? 5;
      if (validator != null && typeof validator !== 'function') {
        throw argumentError('INVALID_ARGUMENT', 'options.validator must be a function (schemaText, argsText) => resultText');
      }
      if (this.#router != null && typeof this.#router !== 'function') {
        throw argumentError('INVALID_ARGUMENT', 'options.router must be a function (query, topK) => [{id, score}]');
      }
      this.#hooks = { counter: counterOf(options), validator: validator ?? defaultValidator };
      this.#raw = construct('GatewaySession', undefined, plain(options));
    }
    /** Registers MCP tool definitions (a refresh: clears the seen-set). `{onInvalid, serverName}`. */
    register(toolDefs, options) {
      return method(this.#raw, 'GatewaySession', 'register', undefined, value(toolDefs, 'toolDefs'), options);
    }
    /** Cards for a router's ranking `[{id, score}]`, bounded and cache-stable. */
    browseRanked(ranked, options) {
      return methodWithHooks(this.#raw, 'GatewaySession', 'browseRanked', this.#hooks, undefined, value(ranked, 'ranked'), options);
    }
    /** One meta-tool call: `{isError: false, kind, result, text}` or `{isError: true, body, text}`. */
    dispatch(metaTool, args = {}) {
      text(metaTool, 'metaTool');
      let ranked = null;
      const isQuery = metaTool === 'tool_browse' && args?.query != null && args?.path == null;
      if (isQuery && this.#router && typeof args.query === 'string') {
        const topK = Number.isInteger(args.top_k) ? args.top_k : this.#topK;
        try {
          ranked = this.#router(args.query, topK);
        } catch (e) {
          throw toAgentwireError(e);
        }
      }
      return methodWithHooks(this.#raw, 'GatewaySession', 'dispatch', this.#hooks, undefined, metaTool, args ?? {}, ranked);
    }
    /** `tool_browse` by `{path}` or `{query, top_k}`. */
    browse(args) {
      return this.dispatch('tool_browse', args);
    }
    /** `tool_view`: the tool's schema (enters the seen-set). */
    view(toolId) {
      return this.dispatch('tool_view', { tool_id: toolId });
    }
    /** `tool_execute` up to the upstream call: arguments validated against the tool's schema. */
    execute(toolId, args = {}, { dryRun = false } = {}) {
      return this.dispatch('tool_execute', { tool_id: toolId, args, dry_run: dryRun });
    }
    /** Ids seen by the cache-stable session, sorted. */
    seen() {
      return method(this.#raw, 'GatewaySession', 'seen', undefined);
    }
    /** Forgets the seen-set and frozen cards (the catalog stays). */
    reset() {
      method(this.#raw, 'GatewaySession', 'reset', undefined);
    }
    free() {
      this.#raw?.free?.();
      this.#raw = null;
    }
    [Symbol.dispose]() {
      this.free();
    }
  }

  return Object.freeze({
    /** Browsers: fetch the gateway wasm module first (`input` as for init()); Node resolves at once. */
    load: asyncLoad(load),
    /** An MCP tool's canonical id with its derivation and catalog item. `{serverName}`. */
    toolId(tool, options) {
      return boundary.call('gateway.toolId', undefined, value(tool, 'tool'), options);
    },
    /** How an MCP tool's id is derived, before grammar checks. */
    toolIdDerivation(tool, options) {
      return boundary.call('gateway.toolIdDerivation', undefined, value(tool, 'tool'), options);
    },
    /** `{namespace, name, version, hash8}` of a tool id (non-strings fail TOOL_ID_NOT_A_STRING). */
    parseToolId(id) {
      return boundary.call('gateway.parseToolId', undefined, value(id, 'id'));
    },
    /** A tool id from its parts. */
    formatToolId(parts) {
      return boundary.call('gateway.formatToolId', undefined, value(parts, 'parts'));
    },
    /** One item's budgeted ChoiceCard with its renderings and token counts. */
    card(item, options) {
      return callWithHooks('gateway.card', { counter: counterOf(options) }, undefined, value(item, 'item'), plain(options));
    },
    /** A description truncated to `budget` tokens, with the branch and offsets used. */
    truncate(description, budget, options) {
      const t = text(description, 'text');
      if (!Number.isInteger(budget)) {
        throw argumentError('INVALID_ARGUMENT', 'budget must be an integer');
      }
      return callWithHooks('gateway.truncate', { counter: counterOf(options) }, t, budget);
    },
    /** A bounded tool_browse reply from items: `{mode, scores, maxCards}`. */
    browseCards(items, options) {
      return callWithHooks('gateway.browseCards', { counter: counterOf(options) }, undefined, value(items, 'items'), plain(options));
    },
    /** The segments of a browse path (`[]` for `/`). */
    parsePath(path) {
      return boundary.call('gateway.parsePath', undefined, value(path, 'path'));
    },
    BrowseSession,
  });
}
