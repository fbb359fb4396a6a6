// The tool catalog of one session: what the upstreams list, under the names each mode shows.
// Pure: built from plain `{upstream, def}` entries (no connections), so it is unit-tested alone.

import { gateway as gw } from 'agentwire';
import { log } from './log.js';
import { createRouter } from './router.js';

/**
 * @typedef {{ name: string, description?: string, inputSchema?: object, outputSchema?: object,
 *   [key: string]: unknown }} ToolDef a tool as an upstream lists it
 * @typedef {{ upstream: string, def: ToolDef, name: string, id?: string }} CatalogEntry
 *   `name`: the compact-mode name; `id`: the spec tool id (proxy and gateway modes), when valid
 */

export class Catalog {
  /**
   * @param {{ upstream: string, def: ToolDef }[]} listed every upstream's tools, in order
   * @param {{ cacheStable?: boolean }} [options]
   */
  constructor(listed, { cacheStable = false } = {}) {
    /** @type {CatalogEntry[]} */
    this.tools = [];
    /** @type {Map<string, CatalogEntry>} compact-mode name → entry */
    this.byName = new Map();
    /** @type {Map<string, CatalogEntry>} tool id → entry */
    this.byId = new Map();
    const counts = new Map();
    for (const t of listed) counts.set(t.def.name, (counts.get(t.def.name) ?? 0) + 1);
    // Compact mode keeps upstream names; a name two upstreams share gets the server prefix.
    for (const t of listed) {
      const name = counts.get(t.def.name) > 1 ? `${t.upstream}__${t.def.name}` : t.def.name;
      if (this.byName.has(name)) {
        log.warn(`upstream ${JSON.stringify(t.upstream)} lists tool ${JSON.stringify(t.def.name)} twice; the first is kept`);
        continue;
      }
      const entry = { upstream: t.upstream, def: t.def, name };
      this.tools.push(entry);
      this.byName.set(name, entry);
    }
    // Proxy and gateway: spec tool ids, the server name as namespace hint (§1.8).
    const defs = [];
    for (const entry of this.tools) {
      const def = { ...entry.def, name: `${namespaceOf(entry.upstream)}.${entry.def.name}`, description: entry.def.description || entry.def.name };
      let id;
      try {
        id = gw.toolId(/** @type {any} */ (def)).tool_id;
      } catch (e) {
        log.warn(`tool ${entry.def.name} of ${entry.upstream} has no valid tool id (${/** @type {Error} */ (e).message}); not offered in proxy and gateway modes`);
        continue;
      }
      if (this.byId.has(id)) {
        log.warn(`tool id ${id} of ${entry.upstream} collides with another tool; the first is kept`);
        continue;
      }
      entry.id = id;
      this.byId.set(id, entry);
      defs.push(def);
    }
    const withIds = this.tools.filter((t) => t.id).map((t) => ({ id: /** @type {string} */ (t.id), def: t.def }));
    /** The spec's browse/hydrate/execute state (agentwire's gateway), freed with `free()`. */
    this.browse = new gw.BrowseSession({ cacheStable, router: createRouter(withIds) });
    this.browse.register(defs, { onInvalid: 'skip' });
  }

  /** The spec meta-tool reply (`tool_browse`, `tool_view`, `tool_execute`) as a tool result. */
  meta(/** @type {string} */ metaTool, /** @type {Record<string, unknown>} */ args) {
    const reply = this.browse.dispatch(metaTool, args);
    return { content: [{ type: 'text', text: reply.text }], ...(reply.isError ? { isError: true } : {}) };
  }

  free() {
    this.browse?.free();
  }
}

/** The §2.4-truncated description a card shows (a card over its hard cap: truncated alone). */
export function cardDescription(/** @type {CatalogEntry} */ t) {
  const description = t.def.description ?? '';
  try {
    return gw.card({ id: /** @type {string} */ (t.id), description }).card.description;
  } catch {
    return gw.truncate(description, 40).output;
  }
}

/** A server name as a tool-id namespace (§1.1: [a-z][a-z0-9_-]{0,63}). */
export function namespaceOf(/** @type {string} */ name) {
  const ns = String(name).toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[^a-z]+/, '').slice(0, 64);
  return ns || 'mcp';
}

/** A tool result that reports an error in the spec's shape (§3.4): `{error, message, path, retryable}`. */
export function errorResult(/** @type {{ error: string, message: string, path: string, retryable: boolean }} */ body) {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
