// The small SDK upstream of the tests and benchmarks: stdio by default, Streamable HTTP with
// `--listen PORT` (prints its URL on stdout). Tools:
//
//   json {bytes}              a pretty-printed JSON listing of about `bytes` bytes (the benchmarks)
//   echo {...}                its arguments back as JSON text (who gets which answer)
//   size {data}               the length of `data` (large arguments)
//   slow {ms, steps, tag}     progress `steps` times over `ms`, then "done" (and the tag)
//   hang {}                   never answers; a cancellation is logged
//   garbage {kind}            stdio only: writes what is not protocol on stdout, then hangs —
//                             kind "text" (a line of text), "partial" (half a message, no newline),
//                             "utf8" (invalid UTF-8), "huge" (one 50 MB line)
//   env {name}                process.env[name] (what reached the upstream)
//   headers {}                the HTTP request headers of the call (HTTP mode)
//
// UPSTREAM_LOG=FILE appends one JSON line per event: {"event":"cancelled","tool",...} and
// {"event":"request","method","authorization"} for every HTTP request.

import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, isInitializeRequest, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

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

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const record = (event) => process.env.UPSTREAM_LOG && appendFileSync(process.env.UPSTREAM_LOG, `${JSON.stringify({ pid: process.pid, ...event })}\n`);
const object = (properties = {}, required = []) => ({ type: 'object', properties, required });

const TOOLS = [
  { name: 'json', description: 'A JSON listing of about `bytes` bytes', inputSchema: object({ bytes: { type: 'integer' } }, ['bytes']) },
  { name: 'echo', description: 'Its arguments back as JSON text', inputSchema: { type: 'object' } },
  { name: 'size', description: 'The length of data', inputSchema: object({ data: { type: 'string' } }, ['data']) },
  { name: 'slow', description: 'Progress steps over ms, then done', inputSchema: object({ ms: { type: 'integer' }, steps: { type: 'integer' }, tag: { type: 'string' } }) },
  { name: 'hang', description: 'Never answers', inputSchema: object() },
  { name: 'garbage', description: 'Writes what is not protocol on stdout', inputSchema: object({ kind: { type: 'string', enum: ['text', 'partial', 'utf8', 'huge'] } }, ['kind']) },
  { name: 'env', description: 'An environment variable', inputSchema: object({ name: { type: 'string' } }, ['name']) },
  { name: 'headers', description: 'The HTTP request headers of this call', inputSchema: object() },
];

function newServer() {
  const cache = new Map();
  const server = new Server({ name: 'json-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const args = req.params.arguments ?? {};
    switch (req.params.name) {
      case 'json':
        if (!cache.has(args.bytes)) cache.set(args.bytes, listing(args.bytes));
        return text(cache.get(args.bytes));
      case 'echo':
        if (args.delay_ms) await sleep(args.delay_ms, extra.signal);
        return text(JSON.stringify(args));
      case 'size':
        return text(JSON.stringify({ bytes: String(args.data ?? '').length }));
      case 'slow': {
        const steps = args.steps ?? 4;
        const token = extra._meta?.progressToken;
        for (let i = 1; i <= steps; i++) {
          await sleep((args.ms ?? 400) / steps, extra.signal);
          if (extra.signal.aborted) {
            record({ event: 'cancelled', tool: 'slow', tag: args.tag ?? null, reason: String(extra.signal.reason) });
            return text('cancelled');
          }
          if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
        }
        return text(args.tag === undefined ? 'done' : `done ${args.tag}`);
      }
      case 'hang':
        return new Promise((resolve) => {
          extra.signal.addEventListener('abort', () => {
            record({ event: 'cancelled', tool: 'hang', reason: String(extra.signal.reason) });
            resolve(text('cancelled'));
          });
        });
      case 'garbage':
        garbage(args.kind);
        return new Promise(() => {});
      case 'env':
        return text(JSON.stringify({ [args.name]: process.env[args.name] ?? null }));
      case 'headers':
        return text(JSON.stringify(extra.requestInfo?.headers ?? null));
      default:
        throw new McpError(ErrorCode.InvalidParams, `Tool ${req.params.name} not found`);
    }
  });
  return server;
}

function garbage(kind) {
  if (kind === 'text') process.stdout.write('this is not JSON-RPC\n');
  else if (kind === 'partial') process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"content":[');
  else if (kind === 'utf8') process.stdout.write(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]));
  else if (kind === 'huge') {
    const chunk = Buffer.alloc(1 << 20, 0x61);
    let left = 50;
    const more = () => {
      while (left > 0) {
        left--;
        if (!process.stdout.write(chunk)) return process.stdout.once('drain', more);
      }
      process.stdout.write('\n');
    };
    more();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--listen');
  if (at < 0) {
    await newServer().connect(new StdioServerTransport());
  } else {
    const transports = new Map();
    const http = createServer(async (req, res) => {
      record({ event: 'request', method: req.method, authorization: req.headers.authorization ?? null });
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      const sid = req.headers['mcp-session-id'];
      let transport = transports.get(sid);
      if (!transport) {
        if (sid !== undefined || !isInitializeRequest(body)) {
          res.writeHead(sid === undefined ? 400 : 404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, transport) });
        transport.onclose = () => transports.delete(transport.sessionId);
        await newServer().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    });
    http.listen(Number(process.argv[at + 1] ?? 0), '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
  }
}
