// The 2026-07-28 wire rules of src/modern.js, in process: classification, header values (the
// revision's own encoding examples), x-mcp-header paths, the order of the request checks, and
// the errors and results as the revision sends them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkModernRequest, decodeHeaderValue, encodeHeaderValue, isModern, META, modernError, modernResult, paramHeaders } from '../src/modern.js';

const meta = (extra = {}) => ({ [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: {}, ...extra });
const headers = (h = {}) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', ...h });

test('classification: modern _meta or a modern MCP-Protocol-Version; initialize and 2025 headers are legacy', () => {
  assert.equal(isModern({}, { method: 'tools/list', params: { _meta: meta() } }), true);
  assert.equal(isModern({ 'mcp-protocol-version': '2026-07-28' }, { method: 'server/discover', params: {} }), true, 'a modern request missing its _meta is still modern (and gets -32602)');
  assert.equal(isModern({}, { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }), false);
  assert.equal(isModern({ 'mcp-protocol-version': '2025-06-18' }, { method: 'tools/list' }), false);
  assert.equal(isModern({}, { method: 'tools/list' }), false, 'no header: a 2025-03-26 client');
  assert.equal(isModern({ 'mcp-protocol-version': '2026-07-28' }, { method: 'initialize', params: { _meta: meta() } }), true, 'initialize sent by a modern client: 404 as a removed method');
});

test('header values: the revision\'s encoding examples, both ways', () => {
  const examples = [
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ];
  for (const [value, header] of examples) {
    assert.equal(encodeHeaderValue(value), header);
    assert.equal(decodeHeaderValue(header), value);
  }
  assert.equal(decodeHeaderValue('  spaced  '), 'spaced', 'optional whitespace around a value is not part of it');
  assert.equal(decodeHeaderValue('=?base64?SGVsbG8?='), undefined, 'bad padding');
  assert.equal(decodeHeaderValue('=?base64?SGVs!!!bG8=?='), undefined, 'characters outside Base64');
  assert.equal(decodeHeaderValue('=?base64?SGVsbG8='), '=?base64?SGVsbG8=', 'no closing marker: a literal');
  assert.equal(decodeHeaderValue('caf\u00e9'), undefined, 'a raw non-ASCII header value');
});

test('x-mcp-header: only properties reachable through properties; nested ones by their path', () => {
  const schema = {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      nested: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } },
      list: { type: 'array', items: { type: 'object', properties: { no: { type: 'string', 'x-mcp-header': 'No' } } } },
      bad: { type: 'string', 'x-mcp-header': 'Not A Token' },
    },
    anyOf: [{ properties: { alsoNo: { type: 'string', 'x-mcp-header': 'AlsoNo' } } }],
  };
  assert.deepEqual(paramHeaders(schema), [
    ['Region', ['region']],
    ['Tenant', ['nested', 'tenant']],
  ]);
});

test('request checks: each fault gets its own error, in the revision\'s order, all with 400', () => {
  const schemaOf = () => ({ properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'N' } } });
  const fault = (h, message) => {
    try {
      checkModernRequest(h, message, schemaOf);
    } catch (e) {
      return [/** @type {any} */ (e).code, /** @type {any} */ (e).status, /** @type {any} */ (e).data];
    }
    return null;
  };
  assert.deepEqual(fault(headers(), { method: 'tools/list', params: {} }).slice(0, 2), [-32602, 400], 'no _meta');
  assert.deepEqual(fault(headers(), { method: 'tools/list', params: { _meta: { [META.protocolVersion]: '2026-07-28' } } }).slice(0, 2), [-32602, 400], 'no clientCapabilities');
  assert.deepEqual(fault({ 'mcp-method': 'tools/list' }, { method: 'tools/list', params: { _meta: meta() } }).slice(0, 2), [-32020, 400], 'no MCP-Protocol-Version');
  assert.deepEqual(fault(headers({ 'mcp-protocol-version': '2026-07-28' }), { method: 'tools/list', params: { _meta: meta({ [META.protocolVersion]: 'v9' }) } }).slice(0, 2), [-32020, 400], 'header and _meta differ');
  const unsupported = fault(headers({ 'mcp-protocol-version': 'v9' }), { method: 'tools/list', params: { _meta: meta({ [META.protocolVersion]: 'v9' }) } });
  assert.deepEqual(unsupported.slice(0, 2), [-32022, 400]);
  assert.equal(unsupported[2].requested, 'v9');
  assert.ok(unsupported[2].supported.includes('2026-07-28'));
  assert.deepEqual(fault(headers({ 'mcp-method': 'TOOLS/LIST' }), { method: 'tools/list', params: { _meta: meta() } })?.[0], -32020, 'method values are case-sensitive');
  assert.equal(fault(headers({ 'mcp-method': '  tools/list ' }), { method: 'tools/list', params: { _meta: meta() } }), null, 'whitespace around it is not');
  const call = (args, h) => fault(headers({ 'mcp-method': 'tools/call', 'mcp-name': 't', ...h }), { method: 'tools/call', params: { name: 't', arguments: args, _meta: meta() } });
  assert.equal(call({}, {}), null, 'no annotated argument, no header needed');
  assert.equal(call({ region: 'eu', n: 42 }, { 'mcp-param-region': 'eu', 'mcp-param-n': '42.0' }), null, 'integers compare as numbers');
  assert.equal(call({ region: null }, {}), null, 'a null argument has no header');
  assert.equal(call({ region: 'eu' }, {})?.[0], -32020, 'an argument in the body without its header');
  assert.equal(call({ region: 'eu' }, { 'mcp-param-region': 'us' })?.[0], -32020);
  assert.equal(call({ region: 'ü' }, { 'mcp-param-region': encodeHeaderValue('ü') }), null);
  assert.equal(call({}, { 'mcp-name': 'other' })?.[0], -32020, 'Mcp-Name differs from params.name');
  assert.equal(fault(headers({ 'mcp-method': 'tools/call' }), { method: 'tools/call', params: { name: 't', _meta: meta() } })?.[0], -32020, 'Mcp-Name missing');
  assert.deepEqual(fault(headers(), { method: 'tools/list', params: { _meta: meta({ [META.logLevel]: 'verbose' }) } })?.[0], -32602, 'an unknown log level');
});

test('results and errors as the revision sends them', () => {
  const info = { name: 'agentwire-mcp', version: '0' };
  assert.deepEqual(modernResult('tools/list', { tools: [] }, info), { tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { [META.serverInfo]: info } });
  assert.deepEqual(modernResult('tools/list', { tools: [], ttlMs: 5000, cacheScope: 'public' }, info).ttlMs, 5000, 'an upstream\'s hints are kept');
  const irr = modernResult('tools/call', { resultType: 'input_required', requestState: 's' }, info);
  assert.equal(irr.resultType, 'input_required');
  assert.equal(irr.ttlMs, undefined);
  assert.deepEqual(modernError({ code: -32601, message: 'MCP error -32601: nope' }, 'x/y', {}), { status: 404, error: { code: -32601, message: 'nope' } });
  assert.deepEqual(modernError({ code: -32002, message: 'Resource not found' }, 'resources/read', { uri: 'a://b' }), { status: 200, error: { code: -32602, message: 'Resource not found', data: { uri: 'a://b' } } });
  assert.equal(modernError({ code: -32021, message: 'm', data: { requiredCapabilities: { sampling: {} } } }, 'tools/call', {}).status, 400);
  assert.deepEqual(modernError(new Error('boom'), 'tools/call', {}), { status: 200, error: { code: -32603, message: 'boom' } });
});
