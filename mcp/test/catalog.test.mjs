// The catalog (catalog.js) and what each mode lists of it: pure, no transport.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog, namespaceOf } from '../src/catalog.js';
import { modes } from '../src/modes/index.js';

test('Catalog: compact names, tool ids, collisions skipped, and what each mode lists', () => {
  const def = (name, extra = {}) => ({ name, description: `does ${name}`, inputSchema: { type: 'object' }, ...extra });
  const catalog = new Catalog([
    { upstream: 'mem', def: def('read_graph', { outputSchema: { type: 'object' } }) },
    { upstream: 'mem', def: def('search') },
    { upstream: 'files', def: def('search') },
    { upstream: 'files', def: def('search') },
  ]);
  assert.deepEqual(catalog.tools.map((t) => t.name), ['read_graph', 'mem__search', 'files__search']);
  assert.equal(catalog.byId.size, 3);
  for (const [id, t] of catalog.byId) assert.ok(id.startsWith(`${t.upstream}:${t.def.name}#`), id);
  assert.deepEqual(modes.compact.toolsList(catalog, { structured: 'keep' })[0].outputSchema, { type: 'object' });
  assert.equal(modes.compact.toolsList(catalog, { structured: 'strip' })[0].outputSchema, undefined);
  const proxy = modes.proxy.toolsList(catalog, { structured: 'strip' });
  assert.deepEqual(proxy.map((t) => t.name).slice(-2), ['tool_hydrate', 'tool_execute']);
  assert.ok(proxy.slice(0, -2).every((t) => t.inputSchema.type === 'object' && !t.inputSchema.properties));
  assert.deepEqual(modes.gateway.toolsList(catalog, { structured: 'strip' }).map((t) => t.name), ['tool_browse', 'tool_execute', 'tool_view']);
  const hydrated = JSON.parse(catalog.meta('tool_view', { tool_id: catalog.tools[0].id }).content[0].text);
  assert.equal(hydrated.tool_id, catalog.tools[0].id);
  catalog.free();
  assert.equal(namespaceOf('My Server!'), 'my-server-');
  assert.equal(namespaceOf('123'), 'mcp');
});
