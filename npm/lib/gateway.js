// gateway: contextweaver's gateway contracts (tool ids, ChoiceCards, budgets, browse paths,
// cache-stable sessions). The native addon counts with exact cl100k and validates with its
// built-in JSON Schema validator. In wasm the gateway is its own module (`await
// gateway.load()` in browsers) and takes both as functions: `counter` defaults to agentwire's
// cl100k tokens (`await tokens.load()` in browsers), `validator` comes from `agentwire/schema`.

import { asyncLoad } from './call.js';
import { argumentError, toAgentwireError } from './errors.js';

/**
 * @param {ReturnType<import('./call.js').makeBoundary>} boundary
 * @param {{ native: boolean, tokens: { count: (text: string, encoding?: string) => number },
 *   load: (input?: unknown) => unknown }} env
 */
export function makeGateway({ call, text, optionsText, toJsonText }, { native, tokens, load }) {
  const defaultCounter = (t) => tokens.count(t, 'cl100k_base');

  const counterOf = (options) => {
    const counter = options?.counter ?? defaultCounter;
    if (typeof counter !== 'function') {
      throw argumentError('INVALID_ARGUMENT', 'options.counter must be a function (text) => number');
    }
    return counter;
  };
  // Options that cross the boundary as JSON (functions stay on this side).
  const plain = (options) => {
    if (options == null) return '';
    const { counter, validator, router, ...rest } = options;
    return optionsText(rest);
  };
  const json = (fn) => JSON.parse(call(fn));

  /** A gateway over one catalog: meta-tool dispatch with cache-stable browsing (§5). */
  class BrowseSession {
    #raw;
    #counter;
    #validator;
    #router;
    #topK;
    /**
     * @param {{ topK?: number, cacheStable?: boolean, targetTokens?: number, hardCapTokens?: number,
     *   counter?: (text: string) => number, validator?: (schema: string, args: string) => string,
     *   router?: (query: string, topK: number) => Array<{ id: string, score: number | null }> }} options
     */
    constructor(options = {}) {
      this.#counter = counterOf(options);
      this.#validator = options?.validator;
      this.#router = options?.router;
      this.#topK = options?.topK ?? 5;
      if (this.#validator != null && typeof this.#validator !== 'function') {
        throw argumentError('INVALID_ARGUMENT', 'options.validator must be a function (schemaText, argsText) => resultText');
      }
      if (this.#router != null && typeof this.#router !== 'function') {
        throw argumentError('INVALID_ARGUMENT', 'options.router must be a function (query, topK) => [{id, score}]');
      }
      const o = plain(options);
      this.#raw = call((raw) => new raw.GatewaySession(o));
    }
    /** Registers MCP tool definitions (a refresh: clears the seen-set). `{onInvalid, serverName}`. */
    register(toolDefs, options) {
      const defs = toJsonText(toolDefs, 'toolDefs');
      const o = optionsText(options);
      return json(() => this.#raw.register(defs, o));
    }
    /** Cards for a router's ranking `[{id, score}]`, bounded and cache-stable. */
    browseRanked(ranked, options) {
      const r = toJsonText(ranked, 'ranked');
      const o = optionsText(options);
      return json(() => (native ? this.#raw.browseRanked(r, o) : this.#raw.browseRanked(r, o, this.#counter)));
    }
    /** One meta-tool call: `{isError: false, kind, result, text}` or `{isError: true, body, text}`. */
    dispatch(metaTool, args = {}) {
      const name = text(metaTool, 'metaTool');
      const a = toJsonText(args ?? {}, 'arguments');
      let ranked = '';
      const isQuery = name === 'tool_browse' && args?.query != null && args?.path == null;
      if (isQuery && this.#router && typeof args.query === 'string') {
        const topK = Number.isInteger(args.top_k) ? args.top_k : this.#topK;
        try {
          ranked = toJsonText(this.#router(args.query, topK), 'router result');
        } catch (e) {
          throw toAgentwireError(e);
        }
      }
      return json(() =>
        native ? this.#raw.dispatch(name, a, ranked) : this.#raw.dispatch(name, a, ranked, this.#counter, this.#validator),
      );
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
      return json(() => this.#raw.seen());
    }
    /** Forgets the seen-set and frozen cards (the catalog stays). */
    reset() {
      call(() => this.#raw.reset());
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
      const t = toJsonText(tool, 'tool');
      const o = optionsText(options);
      return json((raw) => raw.gatewayToolId(t, o));
    },
    /** How an MCP tool's id is derived, before grammar checks. */
    toolIdDerivation(tool, options) {
      const t = toJsonText(tool, 'tool');
      const o = optionsText(options);
      return json((raw) => raw.gatewayToolIdDerivation(t, o));
    },
    /** `{namespace, name, version, hash8}` of a tool id (non-strings fail TOOL_ID_NOT_A_STRING). */
    parseToolId(id) {
      const v = toJsonText(id, 'id');
      return json((raw) => raw.gatewayParseToolId(v));
    },
    /** A tool id from its parts. */
    formatToolId(parts) {
      const p = toJsonText(parts, 'parts');
      return json((raw) => raw.gatewayFormatToolId(p));
    },
    /** One item's budgeted ChoiceCard with its renderings and token counts. */
    card(item, options) {
      const i = toJsonText(item, 'item');
      const o = plain(options);
      const counter = counterOf(options);
      return json((raw) => (native ? raw.gatewayCard(i, o) : raw.gatewayCard(i, o, counter)));
    },
    /** A description truncated to `budget` tokens, with the branch and offsets used. */
    truncate(description, budget, options) {
      const t = text(description, 'text');
      if (!Number.isInteger(budget)) {
        throw argumentError('INVALID_ARGUMENT', 'budget must be an integer');
      }
      const counter = counterOf(options);
      return json((raw) => (native ? raw.gatewayTruncate(t, budget) : raw.gatewayTruncate(t, budget, counter)));
    },
    /** A bounded tool_browse reply from items: `{mode, scores, maxCards}`. */
    browseCards(items, options) {
      const i = toJsonText(items, 'items');
      const o = plain(options);
      const counter = counterOf(options);
      return json((raw) => (native ? raw.gatewayBrowseCards(i, o) : raw.gatewayBrowseCards(i, o, counter)));
    },
    /** The segments of a browse path (`[]` for `/`). */
    parsePath(path) {
      const v = toJsonText(path, 'path');
      return json((raw) => raw.gatewayParsePath(v));
    },
    BrowseSession,
  });
}
