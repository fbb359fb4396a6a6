// A test upstream that speaks MCP 2026-07-28 only, written from the revision's text on node:http
// (no SDK implements it at the version agentwire-mcp pins): per-request `_meta`, the
// Mcp-Method/Mcp-Name/Mcp-Param-* headers checked against the body, server/discover, results with
// resultType (and ttlMs/cacheScope where cacheable), input_required results (MRTR) with an
// HMAC-protected requestState, subscriptions/listen, per-request log levels, progress on the
// request's own SSE stream. It has the tools, resources and prompts both conformance suites ask
// for: the 2026-07-28 server scenarios, and the 2025 ones in their 2026-07-28 form (sampling and
// elicitation as input requests), so agentwire-mcp in front of it can be run by either suite.
//
// For the tests of agentwire-mcp itself it also has json-server.mjs's `json {bytes}` (the same
// listing), `echo {...}` and `slow {ms, steps, tag}` (progress; a closed request is logged as
// cancelled to UPSTREAM_LOG, one JSON line per event, like json-server's).
//
// `node modern-server.mjs --listen PORT` serves Streamable HTTP and prints its URL on stdout;
// without --listen it speaks the revision's stdio binding (no header layer; notifications/cancelled
// cancels, listen notifications carry their subscription id).

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { listing } from './json-server.mjs';

const VERSION = '2026-07-28';
const META = {
  version: 'io.modelcontextprotocol/protocolVersion',
  caps: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscription: 'io.modelcontextprotocol/subscriptionId',
};
const SERVER_INFO = { name: 'agentwire-modern-upstream', version: '1.0.0' };
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const SECRET = randomBytes(32);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const record = (event) => process.env.UPSTREAM_LOG && appendFileSync(process.env.UPSTREAM_LOG, `${JSON.stringify({ pid: process.pid, ...event })}\n`);
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const noArgs = { type: 'object', properties: {} };

/** A protocol error: JSON-RPC code, HTTP status, data. */
class Fail extends Error {
  constructor(code, message, data, status = 200) {
    super(message);
    this.code = code;
    this.data = data;
    this.status = status;
  }
}
const invalid = (message, data) => new Fail(-32602, message, data);
const missingCapability = (caps) => new Fail(-32021, `Missing required client capability: ${Object.keys(caps).join(', ')}`, { requiredCapabilities: caps }, 400);

// requestState: the round and the data so far, with an HMAC so that a changed state is refused.
const seal = (state) => {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${createHmac('sha256', SECRET).update(body).digest('base64url')}`;
};
function unseal(sealed, tool) {
  if (sealed === undefined) return undefined;
  const [body, mac] = typeof sealed === 'string' ? sealed.split('.') : [];
  const want = body === undefined ? '' : createHmac('sha256', SECRET).update(body).digest('base64url');
  if (!mac || mac.length !== want.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(want))) throw invalid('Invalid requestState: integrity check failed');
  const state = JSON.parse(Buffer.from(body, 'base64url').toString());
  if (state.tool !== tool) throw invalid(`Invalid requestState: it belongs to ${state.tool}`);
  return state;
}

/** The input responses of a retry, checked: a map of objects (or absent). */
function responsesOf(params) {
  if (!('inputResponses' in params)) return {};
  const r = params.inputResponses;
  if (r === null || typeof r !== 'object' || Array.isArray(r)) throw invalid('Invalid params: inputResponses must be an object');
  for (const [key, value] of Object.entries(r)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(`Invalid params: inputResponses.${key} must be an object`);
  }
  return r;
}

const elicitRequest = (message, properties, required = Object.keys(properties)) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required } },
});
const samplingRequest = (prompt, maxTokens = 100) => ({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens } });
const rootsRequest = () => ({ method: 'roots/list', params: {} });
const CAPABILITY_OF = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/**
 * Asks for what `requests` names unless the retry already answers it: an input_required result,
 * or the answers. The client must have declared each capability (else -32021).
 */
function ask(ctx, requests, state) {
  const missing = {};
  for (const r of Object.values(requests)) {
    const cap = CAPABILITY_OF[r.method];
    if (!ctx.caps[cap]) missing[cap] = {};
  }
  if (Object.keys(missing).length) throw missingCapability(missing);
  const answers = responsesOf(ctx.params);
  const open = Object.fromEntries(Object.entries(requests).filter(([key]) => !(key in answers)));
  if (!Object.keys(open).length) return { answers };
  return { pending: { resultType: 'input_required', inputRequests: open, ...(state ? { requestState: seal(state) } : {}) } };
}

/** A tool that asks once with `requests` and answers with `done(answers)`. */
const asking = (requests, done, { state = false } = {}) => async (args, ctx) => {
  unseal(ctx.params.requestState, ctx.name);
  const { pending, answers } = ask(ctx, typeof requests === 'function' ? requests(args) : requests, state ? { tool: ctx.name, round: 1 } : undefined);
  return pending ?? done(answers, args);
};

const titled = (prefix, label) => [1, 2, 3].map((i) => ({ const: `${prefix}${i}`, title: `${['First', 'Second', 'Third'][i - 1]} ${label}` }));

/** name → { inputSchema?, run(args, ctx) } */
const tools = {
  json: {
    inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } }, required: ['bytes'] },
    run: async ({ bytes }) => text(listing(bytes)),
  },
  echo: { inputSchema: { type: 'object' }, run: async (args) => text(JSON.stringify(args)) },
  slow: {
    inputSchema: { type: 'object', properties: { ms: { type: 'integer' }, steps: { type: 'integer' }, tag: { type: 'string' } } },
    run: async (args, ctx) => {
      const steps = args.steps ?? 4;
      for (let i = 1; i <= steps; i++) {
        await sleep((args.ms ?? 400) / steps);
        if (ctx.signal.aborted) {
          record({ event: 'cancelled', tool: 'slow', tag: args.tag ?? null });
          return text('cancelled');
        }
        ctx.progress(i, steps);
      }
      return text(args.tag === undefined ? 'done' : `done ${args.tag}`);
    },
  },
  test_simple_text: { run: async () => text('This is a simple text response for testing.') },
  test_image_content: { run: async () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }) },
  test_audio_content: { run: async () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }) },
  test_embedded_resource: {
    run: async () => ({ content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] }),
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
    run: async (_args, ctx) => {
      for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
        if (i) await sleep(50);
        ctx.log('info', data);
      }
      return text('Tool with logging executed successfully');
    },
  },
  test_logging_tool: {
    run: async (_args, ctx) => {
      ctx.log('info', 'test_logging_tool ran');
      return text('logged at the requested level, if any');
    },
  },
  test_tool_with_progress: {
    run: async (_args, ctx) => {
      for (const progress of [0, 50, 100]) {
        if (progress) await sleep(50);
        ctx.progress(progress, 100, `Completed step ${progress} of 100`);
      }
      return text(String(ctx.progressToken ?? 'no progress token'));
    },
  },
  test_error_handling: { run: async () => ({ content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }], isError: true }) },
  test_missing_capability: {
    run: async (_args, ctx) => {
      if (!ctx.caps.sampling) throw missingCapability({ sampling: {} });
      return text('the client declared sampling');
    },
  },
  test_streaming_elicitation: {
    run: asking({ confirm: elicitRequest('Continue?', { ok: { type: 'boolean' } }) }, (a) => text(`confirmed: ${JSON.stringify(a.confirm?.content ?? {})}`)),
  },
  test_trigger_tool_change: {
    run: async () => {
      dynamicTool = !dynamicTool;
      publish('toolsListChanged', { method: 'notifications/tools/list_changed' });
      return text(`test_dynamic_tool is ${dynamicTool ? 'listed' : 'gone'}`);
    },
  },
  test_trigger_prompt_change: {
    run: async () => {
      dynamicPrompt = !dynamicPrompt;
      publish('promptsListChanged', { method: 'notifications/prompts/list_changed' });
      return text(`test_dynamic_prompt is ${dynamicPrompt ? 'listed' : 'gone'}`);
    },
  },
  test_sampling: {
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    run: asking(({ prompt }) => ({ sample: samplingRequest(String(prompt)) }), (a) => text(`LLM response: ${a.sample.content?.text ?? 'No response'}`)),
  },
  test_elicitation: {
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    run: asking(
      ({ message }) => ({ answer: elicitRequest(String(message), { response: { type: 'string', description: "User's response" } }) }),
      (a) => text(`User response: action=${a.answer.action}, content=${JSON.stringify(a.answer.content ?? {})}`),
    ),
  },
  test_elicitation_sep1034_defaults: {
    run: asking(
      {
        form: elicitRequest(
          'Please review and update the form fields with defaults',
          {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          [],
        ),
      },
      (a) => text(`Elicitation completed: action=${a.form.action}, content=${JSON.stringify(a.form.content ?? {})}`),
    ),
  },
  test_elicitation_sep1330_enums: {
    run: asking(
      {
        form: elicitRequest(
          'Please select options from the enum fields',
          {
            untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
            titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: titled('value', 'Option') },
            legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: { type: 'array', description: 'Select multiple options with titles', minItems: 1, maxItems: 3, items: { anyOf: titled('value', 'Choice') } },
          },
          [],
        ),
      },
      (a) => text(`Elicitation completed: action=${a.form.action}, content=${JSON.stringify(a.form.content ?? {})}`),
    ),
  },
  test_input_required_result_elicitation: {
    run: asking({ user_name: elicitRequest('What is your name?', { name: { type: 'string' } }) }, (a) => text(`Hello, ${a.user_name.content?.name}!`)),
  },
  test_input_required_result_sampling: {
    run: asking({ capital_question: samplingRequest('What is the capital of France?') }, (a) => text(`Sampled: ${a.capital_question.content?.text}`)),
  },
  test_input_required_result_list_roots: {
    run: asking({ client_roots: rootsRequest() }, (a) => text(`Roots: ${(a.client_roots.roots ?? []).map((r) => r.uri).join(', ')}`)),
  },
  test_input_required_result_request_state: {
    run: asking({ confirm: elicitRequest('Please confirm', { ok: { type: 'boolean' } }) }, () => text('state-ok: the request state was verified'), { state: true }),
  },
  test_input_required_result_tampered_state: {
    run: asking({ confirm: elicitRequest('Please confirm', { ok: { type: 'boolean' } }) }, () => text('state-ok'), { state: true }),
  },
  test_input_required_result_multiple_inputs: {
    run: asking(
      { user_name: elicitRequest('What is your name?', { name: { type: 'string' } }), greeting: samplingRequest('Generate a greeting', 50), client_roots: rootsRequest() },
      (a) => text(`Hello ${a.user_name.content?.name}: ${a.greeting.content?.text} (${(a.client_roots.roots ?? []).length} roots)`),
      { state: true },
    ),
  },
  test_input_required_result_multi_round: {
    run: async (_args, ctx) => {
      const state = unseal(ctx.params.requestState, ctx.name) ?? { tool: ctx.name, round: 1 };
      const answers = responsesOf(ctx.params);
      if (state.round === 1) {
        const { pending } = ask(ctx, { step1: elicitRequest('Step 1: What is your name?', { name: { type: 'string' } }) }, state);
        if (pending) return pending;
        const next = { tool: ctx.name, round: 2, name: answers.step1.content?.name };
        return ask({ ...ctx, params: {} }, { step2: elicitRequest('Step 2: What is your favorite color?', { color: { type: 'string' } }) }, next).pending;
      }
      const { pending } = ask(ctx, { step2: elicitRequest('Step 2: What is your favorite color?', { color: { type: 'string' } }) }, state);
      return pending ?? text(`${state.name} likes ${answers.step2.content?.color}`);
    },
  },
  test_input_required_result_capabilities: {
    run: async (_args, ctx) => {
      const wanted = {};
      if (ctx.caps.sampling) wanted.sample = samplingRequest('Say hello');
      if (ctx.caps.elicitation) wanted.form = elicitRequest('Your name?', { name: { type: 'string' } });
      if (!Object.keys(wanted).length) throw missingCapability({ sampling: {} });
      const { pending } = ask(ctx, wanted);
      return pending ?? text(`answered: ${Object.keys(wanted).join(', ')}`);
    },
  },
  test_header_param: {
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', description: 'mirrored into Mcp-Param-Region', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
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
let dynamicTool = false;
let dynamicPrompt = false;
const STATIC_TOOLS = Object.keys(tools);
tools.test_dynamic_tool = { run: async () => text('the dynamic tool') };
const listedTools = () => [...STATIC_TOOLS, ...(dynamicTool ? ['test_dynamic_tool'] : [])];

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
  test_input_required_result_prompt: {
    mrtr: { user_context: elicitRequest('What context should the prompt use?', { context: { type: 'string' } }) },
    run: (_a, answers) => [{ role: 'user', content: { type: 'text', text: `Use this context: ${answers.user_context.content?.context}` } }],
  },
  test_dynamic_prompt: { run: () => [{ role: 'user', content: { type: 'text', text: 'the dynamic prompt' } }] },
};
const listedPrompts = () => Object.keys(PROMPTS).filter((n) => n !== 'test_dynamic_prompt' || dynamicPrompt);

const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

// subscriptions/listen streams: each with its filter.
const listeners = new Set();
function publish(kind, notification, uri) {
  for (const l of listeners) {
    const wanted = kind === 'resourceSubscriptions' ? l.filter.resourceSubscriptions?.includes(uri) : l.filter[kind] === true;
    if (wanted) l.send({ jsonrpc: '2.0', ...notification, params: { ...notification.params, _meta: { [META.subscription]: l.id } } });
  }
}

/** The request's answer: a result (resultType added), or a Fail. */
async function serve(method, params, ctx) {
  switch (method) {
    case 'server/discover':
      return { supportedVersions: [VERSION], capabilities: CAPABILITIES, instructions: 'A test upstream for agentwire-mcp (MCP 2026-07-28).' };
    case 'tools/list':
      return { tools: listedTools().map((name) => ({ name, description: `Conformance tool ${name}`, inputSchema: tools[name].inputSchema ?? noArgs })) };
    case 'tools/call': {
      const name = params.name;
      if (!listedTools().includes(name)) throw invalid(`Tool ${name} not found`);
      return tools[name].run(params.arguments ?? {}, { ...ctx, name, params });
    }
    case 'resources/list':
      return { resources: RESOURCES.map(({ uri, name, mimeType }) => ({ uri, name, mimeType, description: `Resource ${name}` })) };
    case 'resources/templates/list':
      return { resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template', mimeType: 'application/json', description: 'A resource template' }] };
    case 'resources/read': {
      const { uri } = params;
      const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
      if (m) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }] };
      const r = RESOURCES.find((x) => x.uri === uri);
      if (!r) throw invalid('Resource not found', { uri });
      return { contents: [{ uri, mimeType: r.mimeType, ...r.contents }] };
    }
    case 'prompts/list':
      return { prompts: listedPrompts().map((name) => ({ name, description: `Prompt ${name}`, ...(PROMPTS[name].arguments ? { arguments: PROMPTS[name].arguments } : {}) })) };
    case 'prompts/get': {
      const p = listedPrompts().includes(params.name) ? PROMPTS[params.name] : undefined;
      if (!p) throw invalid(`Prompt ${params.name} not found`);
      if (p.mrtr) {
        const { pending, answers } = ask({ ...ctx, params }, p.mrtr);
        return pending ?? { messages: p.run(params.arguments ?? {}, answers) };
      }
      return { messages: p.run(params.arguments ?? {}) };
    }
    case 'completion/complete':
      return { completion: { values: [], total: 0, hasMore: false } };
    default:
      throw new Fail(-32601, `Method not found: ${method}`, undefined, 404);
  }
}

// --- the HTTP binding ---------------------------------------------------------------------------

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A header value as the body must hold it: OWS trimmed, the Base64 sentinel decoded. */
function headerValue(raw) {
  const v = raw.trim();
  if (v.startsWith('=?base64?') && v.endsWith('?=') && v.length >= 11) {
    const b64 = v.slice(9, -2);
    if (b64.length % 4 !== 0 || !BASE64.test(b64)) return { error: 'invalid Base64' };
    return { value: Buffer.from(b64, 'base64').toString('utf8') };
  }
  if (!/^[\x20-\x7e\t]*$/.test(v)) return { error: 'characters outside visible ASCII' };
  return { value: v };
}

/** The x-mcp-header properties of a tool: [header name, property path]. */
function paramHeaders(schema, path = []) {
  const out = [];
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) {
    if (typeof prop?.['x-mcp-header'] === 'string') out.push([prop['x-mcp-header'], [...path, key]]);
    out.push(...paramHeaders(prop, [...path, key]));
  }
  return out;
}

const mismatch = (message) => new Fail(-32020, `Header mismatch: ${message}`, undefined, 400);

/** Checks a request's _meta and, over HTTP (`req`), its headers ("Server Validation"). */
function validate(message, req) {
  const params = message.params ?? {};
  const meta = params._meta;
  if (!meta || meta[META.version] === undefined || meta[META.caps] === undefined) {
    const missing = [META.version, META.caps].filter((k) => meta?.[k] === undefined);
    throw new Fail(-32602, `Invalid params: _meta lacks ${missing.join(', ')}`, undefined, 400);
  }
  const header = req?.headers['mcp-protocol-version'];
  if (req && header === undefined) throw mismatch('MCP-Protocol-Version header is missing');
  if (req && header.trim() !== meta[META.version]) throw mismatch(`MCP-Protocol-Version ${JSON.stringify(header)} does not match _meta ${JSON.stringify(meta[META.version])}`);
  if (meta[META.version] !== VERSION) throw new Fail(-32022, 'Unsupported protocol version', { supported: [VERSION], requested: meta[META.version] }, 400);
  const level = meta[META.logLevel];
  if (level !== undefined && !LEVELS.includes(level)) throw invalid(`Invalid params: unknown log level ${JSON.stringify(level)}`);
  if (!req) return;
  const method = req.headers['mcp-method'];
  if (method === undefined) throw mismatch('Mcp-Method header is missing');
  if (method.trim() !== message.method) throw mismatch(`Mcp-Method ${JSON.stringify(method)} does not match the body's ${JSON.stringify(message.method)}`);
  const nameKey = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' }[message.method];
  if (nameKey) {
    const raw = req.headers['mcp-name'];
    if (raw === undefined) throw mismatch('Mcp-Name header is missing');
    const got = headerValue(raw);
    if (got.error) throw mismatch(`Mcp-Name: ${got.error}`);
    if (got.value !== params[nameKey]) throw mismatch(`Mcp-Name ${JSON.stringify(got.value)} does not match the body's ${JSON.stringify(params[nameKey])}`);
  }
  if (message.method === 'tools/call' && tools[params.name]) {
    for (const [name, path] of paramHeaders(tools[params.name].inputSchema)) {
      const value = path.reduce((v, k) => (v && typeof v === 'object' ? v[k] : undefined), params.arguments);
      const raw = req.headers[`mcp-param-${name.toLowerCase()}`];
      if (value === undefined || value === null) continue;
      if (raw === undefined) throw mismatch(`Mcp-Param-${name} header is missing`);
      const got = headerValue(raw);
      if (got.error) throw mismatch(`Mcp-Param-${name}: ${got.error}`);
      const same = typeof value === 'number' ? Number(got.value) === value : String(value) === got.value;
      if (!same) throw mismatch(`Mcp-Param-${name} does not match the body`);
    }
  }
}

const errorOf = (f) => ({ code: f.code, message: f.message, ...(f.data ? { data: f.data } : {}) });

/** A listen request's acknowledged filter, and the listener that publish() sends to. */
function subscribe(id, params, send) {
  const filter = params.notifications ?? {};
  const agreed = {};
  for (const k of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged']) if (filter[k] === true) agreed[k] = true;
  if (Array.isArray(filter.resourceSubscriptions)) agreed.resourceSubscriptions = filter.resourceSubscriptions;
  const listener = { id, filter: agreed, send };
  send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { [META.subscription]: id }, notifications: agreed } });
  listeners.add(listener);
  return listener;
}

/**
 * A checked request's response; `write` carries its notifications (progress at its token, log
 * messages at its level), `signal` says the client cancelled it.
 */
async function respond(message, { write, signal }) {
  const { id, method } = message;
  const params = message.params ?? {};
  const meta = params._meta;
  const level = meta[META.logLevel];
  const progressToken = meta.progressToken;
  const ctx = {
    signal,
    caps: meta[META.caps] ?? {},
    progressToken,
    progress(progress, total, msg) {
      if (progressToken !== undefined) write?.({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress, total, message: msg } });
    },
    log(lvl, data) {
      if (level !== undefined && LEVELS.indexOf(lvl) >= LEVELS.indexOf(level)) write?.({ jsonrpc: '2.0', method: 'notifications/message', params: { level: lvl, logger: 'modern-upstream', data } });
    },
  };
  try {
    const result = await serve(method, params, ctx);
    const out = { ...result, resultType: result.resultType ?? 'complete', _meta: { ...result._meta, [META.serverInfo]: SERVER_INFO } };
    if (CACHEABLE.has(method) && out.resultType === 'complete') Object.assign(out, { ttlMs: 0, cacheScope: 'private' });
    return { status: 200, body: { jsonrpc: '2.0', id, result: out } };
  } catch (e) {
    if (!(e instanceof Fail)) process.stderr.write(`modern-upstream: ${method}: ${e.stack}\n`);
    const f = e instanceof Fail ? e : new Fail(-32603, `Internal error: ${e.message}`);
    return { status: f.status, body: { jsonrpc: '2.0', id, error: errorOf(f) } };
  }
}

function send(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An SSE response: returns write(message). */
function sse(res) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  return (message) => {
    if (!res.writableEnded) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  };
}

async function handle(req, res) {
  if ((req.url ?? '').split('?')[0] !== '/mcp') return send(res, 404, { jsonrpc: '2.0', error: { code: -32601, message: 'Not found: the MCP endpoint is /mcp' } });
  const origin = req.headers.origin;
  if (!LOOPBACK.test(req.headers.host ?? '') || (origin !== undefined && !LOOPBACK.test(origin.replace(/^https?:\/\//, '')))) {
    return send(res, 403, { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: not a loopback Host or Origin' } });
  }
  if (req.method !== 'POST') return send(res, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' } }, { Allow: 'POST' });
  const chunks = [];
  for await (const c of req) chunks.push(c);
  let message;
  try {
    message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return send(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message) || typeof message.method !== 'string') {
    return send(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
  }
  if (!('id' in message)) return res.writeHead(202).end();
  const { id, method } = message;
  const params = message.params ?? {};
  try {
    validate(message, req);
  } catch (e) {
    return send(res, e.status ?? 400, { jsonrpc: '2.0', id, error: errorOf(e) });
  }
  if (method === 'subscriptions/listen') {
    const listener = subscribe(id, params, sse(res));
    const keepAlive = setInterval(() => res.write(':\n\n'), 15_000);
    res.once('close', () => {
      clearInterval(keepAlive);
      listeners.delete(listener);
    });
    return;
  }
  // Progress and log messages need a stream; the rest is plain JSON.
  const meta = params._meta;
  const streaming = meta.progressToken !== undefined || meta[META.logLevel] !== undefined || (method === 'tools/call' && params.name === 'test_streaming_elicitation');
  const write = streaming ? sse(res) : null;
  const closed = new AbortController();
  res.once('close', () => !res.writableFinished && closed.abort());
  const { status, body } = await respond(message, { write, signal: closed.signal });
  if (write) {
    write(body);
    res.end();
  } else send(res, status, body);
}

/** The stdio binding: one message a line each way. */
async function stdio() {
  const out = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
  const inflight = new Map();
  const listening = new Map();
  let buffer = '';
  for await (const chunk of process.stdin) {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        out({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
        continue;
      }
      if (!('id' in message)) {
        if (message.method === 'notifications/cancelled') {
          const requestId = message.params?.requestId;
          inflight.get(requestId)?.abort();
          const listener = listening.get(requestId);
          if (listener) listeners.delete(listener);
        }
        continue;
      }
      try {
        validate(message);
      } catch (e) {
        out({ jsonrpc: '2.0', id: message.id, error: errorOf(e) });
        continue;
      }
      if (message.method === 'subscriptions/listen') {
        listening.set(message.id, subscribe(message.id, message.params ?? {}, out));
        continue;
      }
      const cancelled = new AbortController();
      inflight.set(message.id, cancelled);
      respond(message, { write: out, signal: cancelled.signal }).then(({ body }) => {
        inflight.delete(message.id);
        // A cancelled request gets nothing more (the revision's rule).
        if (!cancelled.signal.aborted) out(body);
      });
    }
  }
}

const at = process.argv.indexOf('--listen');
if (at < 0) {
  await stdio();
} else {
  const server = createServer((req, res) =>
    handle(req, res).catch((e) => {
      process.stderr.write(`modern-upstream: ${e.stack}\n`);
      if (!res.headersSent) send(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: String(e.message) } });
      else res.destroy();
    }),
  );
  server.listen(Number(process.argv[at + 1] ?? 0), '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`);
  });
}
