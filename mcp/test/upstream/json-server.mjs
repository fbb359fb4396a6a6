// A stdio MCP server whose tool `json` returns a pretty-printed JSON document of about `bytes`
// bytes (a listing of file entries): the upstream of the latency benchmark.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** Deterministic file entries until the pretty JSON reaches `bytes`. */
export function listing(bytes) {
  const entries = [];
  let size = 40;
  for (let i = 0; size < bytes; i++) {
    const e = {
      id: i,
      name: `item_${i}.ts`,
      path: `src/module_${i % 17}/item_${i}.ts`,
      size: (i * 7919) % 100000,
      kind: i % 3 ? 'file' : 'directory',
      modified: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T10:${String(i % 60).padStart(2, '0')}:00Z`,
    };
    entries.push(e);
    size += JSON.stringify(e, null, 2).length + 6;
  }
  return JSON.stringify({ total: entries.length, entries }, null, 2);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cache = new Map();
  const server = new Server({ name: 'json-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'json', description: 'A JSON listing of about `bytes` bytes', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } }, required: ['bytes'] } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const bytes = req.params.arguments.bytes;
    if (!cache.has(bytes)) cache.set(bytes, listing(bytes));
    return { content: [{ type: 'text', text: cache.get(bytes) }] };
  });
  await server.connect(new StdioServerTransport());
}
