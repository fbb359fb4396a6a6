// --listen: the gateway over Streamable HTTP, one gateway session per MCP session.

import { randomUUID } from 'node:crypto';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, log } from './log.js';

/** In-memory event store: lets clients resume an SSE stream (Last-Event-ID). */
function memoryEventStore() {
  const events = new Map();
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}::${String(events.size).padStart(12, '0')}`;
      events.set(id, { streamId, message });
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = events.get(lastEventId)?.streamId ?? lastEventId.split('::')[0];
      for (const [id, e] of events) {
        if (e.streamId === streamId && id > lastEventId && Object.keys(e.message).length) await send(id, e.message);
      }
      return streamId;
    },
  };
}

/**
 * Serves `gateway` at http://HOST:PORT/mcp. Host-header checks against DNS rebinding are on for
 * loopback hosts (the SDK's express app).
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function listen(gateway, { host = '127.0.0.1', port = 0 } = {}) {
  const app = createMcpExpressApp({ host });
  const transports = new Map();
  app.all('/mcp', async (req, res) => {
    try {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (!transport) {
        if (id !== undefined || req.method !== 'POST' || !isInitializeRequest(req.body)) {
          res.status(id === undefined ? 400 : 404).json({
            jsonrpc: '2.0',
            error: { code: -32000, message: id === undefined ? 'Bad Request: no session; send initialize first' : 'Session not found' },
            id: null,
          });
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          eventStore: memoryEventStore(),
          retryInterval: 1000,
          onsessioninitialized: (sid) => {
            transports.set(sid, transport);
          },
        });
        transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
        await gateway.connect(transport);
      }
      await transport.handleRequest(req, res, req.body);
    } catch (e) {
      log.error(`http: ${/** @type {Error} */ (e).stack ?? e}`);
      if (!res.headersSent) res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: errorMessage(e) }, id: null });
    }
  });
  const server = await new Promise((resolve, reject) => {
    const s = app.listen(port, host, () => resolve(s));
    s.on('error', reject);
  });
  const { port: bound } = server.address();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}/mcp`;
  log.info(`listening on ${url}`);
  return {
    url,
    async close() {
      await Promise.all([...transports.values()].map((t) => t.close().catch((e) => log.debug(`closing a session: ${errorMessage(e)}`))));
      await new Promise((r) => server.close(r));
    },
  };
}
