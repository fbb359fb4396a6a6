// A 2026-07-28 upstream on the official SDK's next major (@modelcontextprotocol/server 2.4.0, a
// devDependency), served by its own createMcpHandler on node:http: an implementation of the
// revision written by others, to check agentwire-mcp's client side against. Tools: `json {bytes}`
// (json-server.mjs's listing) and `ask {prompt}` (a sampling input request, answered on retry).
// `node sdk2-server.mjs` prints its URL on stdout.

import { createServer } from 'node:http';
import { createMcpHandler, inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { listing } from './json-server.mjs';

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'sdk2-upstream', version: '2.4.0' });
  server.registerTool('json', { description: 'A JSON listing of about `bytes` bytes', inputSchema: z.object({ bytes: z.number().int() }) }, async ({ bytes }) => ({
    content: [{ type: 'text', text: listing(bytes) }],
  }));
  server.registerTool('ask', { description: 'Asks the client to sample a reply to `prompt`', inputSchema: z.object({ prompt: z.string() }) }, async ({ prompt }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'sample');
    if (answer.kind === 'sampling') return { content: [{ type: 'text', text: `sampled: ${answer.result.content.text}` }] };
    return inputRequired({ inputRequests: { sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 50 }) } });
  });
  return server;
});

// node:http ⇄ the handler's fetch face (the SDK leaves this adapter to another package).
const http = createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, String(v)]])),
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const c of response.body) res.write(c);
    res.end();
  } catch (e) {
    process.stderr.write(`sdk2-upstream: ${e.stack}\n`);
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  }
});
http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
