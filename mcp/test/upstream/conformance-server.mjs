// The upstream of the conformance run: an MCP server on the SDK (the 2025 revisions) with the
// tools, resources and prompts the server scenarios of @modelcontextprotocol/conformance ask
// for, and the diagnostic tools of its 2026-07-28 scenarios that a 2025 server can have (a log
// message, an elicitation request, list changes, an x-mcp-header argument), so that the
// 2026-07-28 suite can be run through agentwire-mcp in front of it. Streamable HTTP with
// `--listen PORT` (prints the URL on stdout), stdio otherwise.

import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const AnyResult = { parse: (v) => v, safeParse: (v) => ({ success: true, data: v }) };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const noArgs = { type: 'object', properties: {} };

/** What test_trigger_tool_change and test_trigger_prompt_change toggle (one server per session, one state). */
const dynamic = { tool: false, prompt: false };

function tools(server) {
  const ask = async (method, params) => server.request({ method, params }, method === 'elicitation/create' ? ElicitResultSchema : AnyResult);
  const elicit = (message, properties) => async () => {
    try {
      const r = await ask('elicitation/create', { mode: 'form', message, requestedSchema: { type: 'object', properties, required: [] } });
      return text(`Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
    } catch (e) {
      return text(`Elicitation not supported or error: ${e.message}`);
    }
  };
  const titled = (prefix, label) => [1, 2, 3].map((i) => ({ const: `${prefix}${i}`, title: `${['First', 'Second', 'Third'][i - 1]} ${label}` }));
  return {
    test_simple_text: { run: async () => text('This is a simple text response for testing.') },
    test_image_content: { run: async () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }) },
    test_audio_content: { run: async () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }) },
    test_embedded_resource: {
      run: async () => ({
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      }),
    },
    test_multiple_content_types: {
      run: async () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
        ],
      }),
    },
    test_tool_with_logging: {
      run: async (_args, extra) => {
        for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
          if (i) await sleep(50);
          await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
        }
        return text('Tool with logging executed successfully');
      },
    },
    test_tool_with_progress: {
      run: async (_args, extra) => {
        const progressToken = extra._meta?.progressToken ?? 0;
        for (const progress of [0, 50, 100]) {
          if (progress) await sleep(50);
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
          });
        }
        return text(String(progressToken));
      },
    },
    test_error_handling: {
      run: async () => ({ content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }], isError: true }),
    },
    test_reconnection: {
      run: async (_args, extra) => {
        extra.closeSSEStream?.();
        await sleep(100);
        return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.');
      },
    },
    test_sampling: {
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
      run: async ({ prompt }) => {
        try {
          const r = await ask('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
          return text(`LLM response: ${r.content?.text ?? 'No response'}`);
        } catch (e) {
          return text(`Sampling not supported or error: ${e.message}`);
        }
      },
    },
    test_elicitation: {
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      run: async ({ message }) => {
        try {
          const r = await ask('elicitation/create', {
            mode: 'form',
            message,
            requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "User's response" } }, required: ['response'] },
          });
          return text(`User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
        } catch (e) {
          return text(`Elicitation not supported or error: ${e.message}`);
        }
      },
    },
    test_elicitation_sep1034_defaults: {
      run: elicit('Please review and update the form fields with defaults', {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      }),
    },
    test_elicitation_sep1330_enums: {
      run: elicit('Please select options from the enum fields', {
        untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
        titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: titled('value', 'Option') },
        legacyEnum: {
          type: 'string',
          description: 'Select one option (legacy)',
          enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'],
        },
        untitledMulti: {
          type: 'array',
          description: 'Select multiple options',
          minItems: 1,
          maxItems: 3,
          items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        },
        titledMulti: {
          type: 'array',
          description: 'Select multiple options with titles',
          minItems: 1,
          maxItems: 3,
          items: { anyOf: titled('value', 'Choice') },
        },
      }),
    },
    test_logging_tool: {
      run: async (_args, extra) => {
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'test_logging_tool ran' } });
        return text('logged');
      },
    },
    test_streaming_elicitation: { run: elicit('Continue?', { ok: { type: 'boolean' } }) },
    test_trigger_tool_change: {
      run: async () => {
        dynamic.tool = !dynamic.tool;
        await server.sendToolListChanged();
        return text(`test_dynamic_tool is ${dynamic.tool ? 'listed' : 'gone'}`);
      },
    },
    test_trigger_prompt_change: {
      run: async () => {
        dynamic.prompt = !dynamic.prompt;
        await server.sendPromptListChanged();
        return text(`test_dynamic_prompt is ${dynamic.prompt ? 'listed' : 'gone'}`);
      },
    },
    test_dynamic_tool: { run: async () => text('the dynamic tool') },
    test_header_param: {
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', description: 'mirrored into Mcp-Param-Region by 2026-07-28 clients', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
        required: ['region'],
      },
      run: async (args) => text(`region=${args.region} query=${args.query ?? ''}`),
    },
    json_schema_2020_12_tool: {
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
      run: async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
    },
  };
}

const RESOURCES = [
  { uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain', contents: { text: 'This is the content of the static text resource.' } },
  { uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png', contents: { blob: PNG } },
  { uri: 'test://watched-resource', name: 'watched-resource', mimeType: 'text/plain', contents: { text: 'Watched resource content' } },
];

const PROMPTS = {
  test_simple_prompt: { run: () => [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] },
  test_prompt_with_arguments: {
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    run: (a) => [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'` } }],
  },
  test_prompt_with_embedded_resource: {
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    run: (a) => [
      { role: 'user', content: { type: 'resource', resource: { uri: a.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  },
  test_prompt_with_image: {
    run: () => [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  },
  test_dynamic_prompt: { run: () => [{ role: 'user', content: { type: 'text', text: 'the dynamic prompt' } }] },
};

function createServer() {
  const server = new Server(
    { name: 'agentwire-conformance-upstream', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );
  const table = tools(server);
  const log = (data) =>
    server.notification({ method: 'notifications/message', params: { level: 'info', logger: 'conformance-upstream', data } }).catch((e) => process.stderr.write(`conformance-upstream: log: ${e.message}\n`));
  const listedTools = () => Object.keys(table).filter((name) => name !== 'test_dynamic_tool' || dynamic.tool);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: listedTools().map((name) => ({ name, description: `Conformance tool ${name}`, inputSchema: table[name].inputSchema ?? noArgs })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const t = listedTools().includes(req.params.name) ? table[req.params.name] : undefined;
    if (!t) throw new McpError(ErrorCode.InvalidParams, `Tool ${req.params.name} not found`);
    return t.run(req.params.arguments ?? {}, extra);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: RESOURCES.map(({ uri, name, mimeType }) => ({ uri, name, mimeType, description: `Resource ${name}` })),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template', mimeType: 'application/json', description: 'A resource template' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (m) {
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }] };
    }
    const r = RESOURCES.find((x) => x.uri === uri);
    if (!r) throw new McpError(-32002, `Resource not found: ${uri}`);
    return { contents: [{ uri, mimeType: r.mimeType, ...r.contents }] };
  });
  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    log(`Subscribed to resource: ${req.params.uri}`);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    log(`Unsubscribed from resource: ${req.params.uri}`);
    return {};
  });
  const listedPrompts = () => Object.keys(PROMPTS).filter((name) => name !== 'test_dynamic_prompt' || dynamic.prompt);
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: listedPrompts().map((name) => ({ name, description: `Prompt ${name}`, ...(PROMPTS[name].arguments ? { arguments: PROMPTS[name].arguments } : {}) })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const p = listedPrompts().includes(req.params.name) ? PROMPTS[req.params.name] : undefined;
    if (!p) throw new McpError(ErrorCode.InvalidParams, `Prompt ${req.params.name} not found`);
    return { messages: p.run(req.params.arguments ?? {}) };
  });
  server.setRequestHandler(SetLevelRequestSchema, async (req) => {
    log(`Log level set to: ${req.params.level}`);
    return {};
  });
  server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: [], total: 0, hasMore: false } }));
  return server;
}

const at = process.argv.indexOf('--listen');
if (at < 0) {
  await createServer().connect(new StdioServerTransport());
} else {
  const app = createMcpExpressApp({ host: '127.0.0.1' });
  const transports = new Map();
  app.all('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let transport = transports.get(sid);
    if (!transport) {
      if (sid !== undefined || !isInitializeRequest(req.body)) {
        res.status(sid === undefined ? 400 : 404).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Invalid or missing session ID' }, id: null });
        return;
      }
      const events = new Map();
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        retryInterval: 1000,
        eventStore: {
          async storeEvent(streamId, message) {
            const id = `${streamId}::${String(events.size).padStart(12, '0')}`;
            events.set(id, { streamId, message });
            return id;
          },
          async getStreamIdForEventId(id) {
            return events.get(id)?.streamId;
          },
          async replayEventsAfter(last, { send }) {
            const streamId = events.get(last)?.streamId ?? last.split('::')[0];
            for (const [id, e] of events) if (e.streamId === streamId && id > last && Object.keys(e.message).length) await send(id, e.message);
            return streamId;
          },
        },
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => transports.delete(transport.sessionId);
      await createServer().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
  });
  const s = app.listen(Number(process.argv[at + 1] ?? 0), '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${s.address().port}/mcp\n`);
  });
}
