// A minimal MCP 2026-07-28 client for the tests, written from the revision's text (the pinned SDK
// has none): each request is a POST with the per-request `_meta` and the headers mirrored from
// the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name; Mcp-Param-* for tools whose schema asks),
// and its answer is JSON or an SSE stream of the request's notifications and its response.
// Independent of src/ on purpose: it checks the gateway, it does not share its code.

export const VERSION = '2026-07-28';
const NAME_FIELD = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** A header value: plain when it is safe ASCII, else the Base64 sentinel. */
export function headerValue(value) {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !/^=\?base64\?.*\?=$/.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The JSON messages of an SSE body. */
async function* sseMessages(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) yield JSON.parse(data);
    }
  }
}

export class RpcError extends Error {
  constructor(error, status) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
    this.status = status;
  }
}

/**
 * @param {string} url the MCP endpoint
 * @param {{ token?: string, capabilities?: object, clientInfo?: object }} [options]
 */
export function modernClient(url, { token, capabilities = {}, clientInfo = { name: 'agentwire-mcp-test-2026', version: '1.0.0' } } = {}) {
  let nextId = 1;
  const schemas = new Map();

  /**
   * One request. Returns { status, contentType, body, notifications } (body: the JSON-RPC response).
   * `meta` adds to the per-request _meta; `headers` replaces computed headers (null removes one);
   * `signal` aborts it.
   */
  async function send(method, params = {}, { meta = {}, headers = {}, signal, id = nextId++ } = {}) {
    const _meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientInfo': clientInfo, 'io.modelcontextprotocol/clientCapabilities': capabilities, ...meta };
    const message = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...params._meta, ..._meta } } };
    const h = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': VERSION, 'Mcp-Method': method };
    if (token) h.Authorization = `Bearer ${token}`;
    const field = NAME_FIELD[method];
    if (field && typeof params[field] === 'string') h['Mcp-Name'] = headerValue(params[field]);
    if (method === 'tools/call') {
      for (const [key, prop] of Object.entries(schemas.get(params.name)?.properties ?? {})) {
        const name = prop?.['x-mcp-header'];
        const value = params.arguments?.[key];
        if (typeof name === 'string' && value !== undefined && value !== null) h[`Mcp-Param-${name}`] = headerValue(String(value));
      }
    }
    for (const [k, v] of Object.entries(headers)) {
      for (const existing of Object.keys(h)) if (existing.toLowerCase() === k.toLowerCase()) delete h[existing];
      if (v !== null) h[k] = v;
    }
    const res = await fetch(url, { method: 'POST', headers: h, body: JSON.stringify(message), signal });
    const contentType = res.headers.get('content-type') ?? '';
    const notifications = [];
    let body;
    if (contentType.includes('text/event-stream')) {
      for await (const m of sseMessages(res.body)) {
        if (m.id === id && ('result' in m || 'error' in m)) {
          body = m;
          break;
        }
        notifications.push(m);
      }
    } else {
      const text = await res.text();
      body = text ? JSON.parse(text) : undefined;
    }
    if (method === 'tools/list') for (const t of body?.result?.tools ?? []) schemas.set(t.name, t.inputSchema);
    return { status: res.status, contentType, body, notifications };
  }

  /** A request's result; a JSON-RPC error is thrown as RpcError (with the HTTP status). */
  async function request(method, params, options) {
    const r = await send(method, params, options);
    if (r.body?.error) throw new RpcError(r.body.error, r.status);
    if (!r.body || !('result' in r.body)) throw new Error(`HTTP ${r.status}: no JSON-RPC response`);
    return Object.assign(r.body.result, { notifications: r.notifications, status: r.status, contentType: r.contentType });
  }

  return {
    send,
    request,
    discover: () => request('server/discover'),
    listTools: () => request('tools/list'),
    callTool: (name, args = {}, options) => request('tools/call', { name, arguments: args }, options),
  };
}
