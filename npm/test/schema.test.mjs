// agentwire/schema: the separately loaded JSON Schema module, on the args.json schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from './helpers.mjs';

const schema = await import('agentwire/schema');
const args = JSON.parse(readFileSync(join(fixturesDir, 'gateway', 'args.json'), 'utf8'));
const toolSchema = args.cases.find((c) => c.id === 'execute/ok').input.catalog[0].inputSchema;

test('the first violation and its path, as the reference reports them', async () => {
  await schema.load();
  for (const c of args.cases.filter((x) => x.input.meta_tool === 'tool_execute' && x.expected.body?.details)) {
    const result = schema.check(toolSchema, c.input.arguments.args);
    assert.equal(result.valid, false, c.id);
    assert.deepEqual(result.path, c.expected.body.details.path, c.id);
    assert.equal(typeof result.message, 'string');
  }
  assert.deepEqual(schema.check(toolSchema, { title: 'x', count: 2, tags: ['a'] }), { valid: true });
});

test('an invalid schema and malformed JSON are reported, not thrown as traps', () => {
  const bad = schema.check({ type: 'no-such-type' }, {});
  assert.equal(bad.valid, false);
  assert.equal(typeof bad.schemaInvalid, 'string');
  assert.throws(() => schema.validator('{', '{}'), { code: 'JSON_SYNTAX' });
  // Object keys that look like indices stay strings in the path.
  const keyed = schema.check({ properties: { 0: { type: 'string' } } }, { 0: 5 });
  assert.deepEqual(keyed.path, ['0']);
  const nested = schema.check({ items: { type: 'string' } }, ['a', 1]);
  assert.deepEqual(nested.path, [1]);
});

test('CommonJS require gives the same module', () => {
  const required = createRequire(import.meta.url)('agentwire/schema');
  assert.equal(JSON.parse(required.validator('{"type":"string"}', '"x"')).valid, true);
});
