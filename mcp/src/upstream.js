// One upstream MCP server: connect (stdio or Streamable HTTP), forward its notifications and
// requests to the gateway, restart it with backoff when it goes away.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { log } from './log.js';

/** Accepts any result object: the gateway passes results through, it does not police them. */
export const AnyResult = { parse: (v) => v, safeParse: (v) => ({ success: true, data: v }) };

const BACKOFF_MS = [100, 250, 500, 1000, 2000, 5000, 10000];
// Long tool calls are the upstream's business; progress keeps them alive.
const CALL_TIMEOUT_MS = 10 * 60 * 1000;

export class Upstream {
  /**
   * @param {string} name server name (config key), the namespace hint of its tool ids
   * @param {{ command?: string, args?: string[], env?: Record<string,string>, cwd?: string,
   *   url?: string, headers?: Record<string,string> }} spec an `mcpServers` entry
   * @param {{ capabilities: object, clientInfo: object, onNotification: (n: object) => void,
   *   onRequest: (r: object, extra: object) => Promise<object>, onReconnect: () => void }} hooks
   */
  constructor(name, spec, hooks) {
    this.name = name;
    this.spec = spec;
    this.hooks = hooks;
    this.client = null;
    this.status = 'down';
    this.lastError = null;
    this.closed = false;
    this.attempt = 0;
    this.ready = null;
    this.pid = null;
  }

  /** Connects once; later outages reconnect by themselves. */
  start() {
    this.ready ??= this.#connect();
    return this.ready;
  }

  async #connect() {
    const client = new Client(this.hooks.clientInfo, { capabilities: this.hooks.capabilities });
    client.fallbackNotificationHandler = async (n) => this.hooks.onNotification(n);
    client.fallbackRequestHandler = async (r, extra) => this.hooks.onRequest(r, extra);
    const transport = this.spec.url
      ? new StreamableHTTPClientTransport(new URL(this.spec.url), { requestInit: { headers: this.spec.headers ?? {} } })
      : new StdioClientTransport({
          command: this.spec.command,
          args: this.spec.args ?? [],
          env: { ...process.env, ...(this.spec.env ?? {}) },
          cwd: this.spec.cwd,
          stderr: 'inherit',
        });
    client.onclose = () => this.#lost(client, 'connection closed');
    client.onerror = (e) => log(`upstream ${this.name}: ${e?.message ?? e}`);
    try {
      await client.connect(transport);
    } catch (e) {
      await client.close().catch(() => {});
      this.lastError = e;
      this.#scheduleRetry();
      throw this.unavailable();
    }
    this.client = client;
    this.pid = transport.pid ?? null;
    this.status = 'up';
    this.attempt = 0;
    this.lastError = null;
    log(`upstream ${this.name}: connected (${client.getServerVersion()?.name ?? '?'} ${client.getServerVersion()?.version ?? ''})`);
    return client;
  }

  #lost(client, why) {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.status = 'down';
    this.lastError = new Error(why);
    log(`upstream ${this.name}: ${why}; restarting`);
    this.#scheduleRetry();
  }

  #scheduleRetry() {
    if (this.closed || this.retryTimer) return;
    const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)];
    this.status = 'restarting';
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.ready = this.#connect().then(
        (c) => {
          this.hooks.onReconnect();
          return c;
        },
        () => null,
      );
    }, delay);
    this.retryTimer.unref?.();
  }

  /** The MCP error for a call made while the upstream is not connected. */
  unavailable() {
    const why = this.lastError?.message ?? 'not connected';
    return new McpError(ErrorCode.ConnectionClosed, `upstream "${this.name}" is unavailable (${this.status}): ${why}`, {
      upstream: this.name,
    });
  }

  /** Sends a request upstream; errors name the upstream. */
  async request(request, { signal, onprogress } = {}) {
    const client = this.client;
    if (!client) throw this.unavailable();
    try {
      return await client.request(request, AnyResult, {
        signal,
        onprogress,
        timeout: CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
      });
    } catch (e) {
      if (e instanceof McpError && e.code !== ErrorCode.ConnectionClosed) throw e;
      if (signal?.aborted) throw e;
      if (this.client !== client || e?.code === ErrorCode.ConnectionClosed) {
        throw new McpError(ErrorCode.ConnectionClosed, `upstream "${this.name}" closed during ${request.method}: ${e.message}`, {
          upstream: this.name,
        });
      }
      throw new McpError(ErrorCode.InternalError, `upstream "${this.name}": ${e.message}`, { upstream: this.name });
    }
  }

  notify(notification) {
    return this.client?.notification(notification).catch((e) => log(`upstream ${this.name}: ${e.message}`));
  }

  capabilities() {
    return this.client?.getServerCapabilities() ?? {};
  }

  async close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const c = this.client;
    this.client = null;
    await c?.close().catch(() => {});
  }
}

/** Every page of a paginated list request (`tools/list`, `resources/list`, …). */
export async function listAll(upstream, method, key) {
  const items = [];
  let cursor;
  do {
    const page = await upstream.request({ method, params: cursor ? { cursor } : {} });
    items.push(...(page[key] ?? []));
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
