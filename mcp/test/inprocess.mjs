// In-process parts for the protocol unit tests: SDK upstream servers and the gateway, linked by
// the SDK's InMemoryTransport (no process, no socket), and an SDK client in front.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createGateway } from '../src/gateway.js';

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });
const text = (t) => ({ content: [{ type: 'text', text: t }] });

/**
 * An SDK upstream: tools echo, graph (JSON worth compacting), slow (progress), hang, ask
 * (sampling to the client), log (a log message during the call), grow (adds a tool, says
 * list_changed); resources named after `name`. `events` records what reached it.
 */
export function upstreamServer(name = 'up', { tools: extraTools = [] } = {}) {
  const events = [];
  const server = new Server({ name: `test-${name}`, version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, resources: {}, logging: {} }, instructions: `${name} instructions` });
  const tools = [
    { name: 'echo', description: 'Its arguments back', inputSchema: { type: 'object' } },
    { name: 'graph', description: 'A graph as JSON', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
    { name: 'slow', description: 'Progress, then done', inputSchema: { type: 'object', properties: { steps: { type: 'integer' } } } },
    { name: 'hang', description: 'Never answers', inputSchema: { type: 'object' } },
    { name: 'ask', description: 'Asks the client to sample', inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] } },
    { name: 'log', description: 'Logs, then answers', inputSchema: { type: 'object' } },
    { name: 'grow', description: 'Adds a tool', inputSchema: { type: 'object' } },
    ...extraTools,
  ];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const args = req.params.arguments ?? {};
    events.push({ call: req.params.name, args, meta: req.params._meta });
    switch (req.params.name) {
      case 'echo':
        return text(JSON.stringify(args));
      case 'graph': {
        const n = args.n ?? 30;
        const entities = Array.from({ length: n }, (_, i) => ({ name: `e${i}`, entityType: i % 3 ? 'person' : 'org', score: (i * 37) % 101 }));
        return text(JSON.stringify({ entities }, null, 2));
      }
      case 'slow': {
        const token = extra._meta?.progressToken;
        for (let i = 1; i <= (args.steps ?? 3); i++) {
          await sleep(20);
          if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: args.steps ?? 3 } });
        }
        return text('done');
      }
      case 'hang':
        return new Promise((resolve) => {
          extra.signal.addEventListener('abort', () => {
            events.push({ cancelled: req.params.name, reason: String(extra.signal.reason) });
            resolve(text('cancelled'));
          });
        });
      case 'ask': {
        const reply = await extra.sendRequest(
          { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 10 } },
          CreateMessageResultSchema,
        );
        return text(`sampled: ${reply.content.text}`);
      }
      case 'log':
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `from ${name}` } });
        return text('logged');
      case 'grow':
        tools.push({ name: `grown${tools.length}`, description: 'A new tool', inputSchema: { type: 'object' } });
        await server.sendToolListChanged();
        return text('grown');
      default:
        throw new McpError(ErrorCode.InvalidParams, `Tool ${req.params.name} not found`);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: `test://${name}/a`, name: `${name}-a` }] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => ({ contents: [{ uri: req.params.uri, text: `read by ${name}` }] }));
  return { server, events };
}

/** An upstream spec that connects to a fresh in-process server from `make()` on each (re)connect. */
export function inMemoryUpstream(make) {
  const made = [];
  return {
    made,
    spec: {
      transport: async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const up = make();
        made.push(up);
        await up.server.connect(serverSide);
        return clientSide;
      },
    },
  };
}

/**
 * The gateway in process with in-memory upstreams, and a connected SDK client (sampling answered
 * with "sampled-by-<clientName>").
 */
export async function connectedGateway({ upstreams, clientName = 'client', ...options }) {
  const gateway = createGateway({ upstreams, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await gateway.connect(serverSide);
  const client = new Client({ name: clientName, version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    model: 'test',
    role: 'assistant',
    content: { type: 'text', text: `sampled-by-${clientName}` },
  }));
  await client.connect(clientSide);
  return { gateway, session, client };
}
