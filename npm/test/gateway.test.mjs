// The gateway module beyond the golden vectors: runtime parity on malformed input, sessions with
// a router, argument validation, and host-supplied counters in the wasm build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { backends, outcome, packageDir } from './helpers.mjs';

const { native, wasm } = await backends();
const { validator } = await import('agentwire/schema');

const catalog = [
  {
    name: 'svc.create',
    description: 'Create a thing. It needs a title.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
      required: ['title'],
      additionalProperties: false,
    },
    annotations: { destructiveHint: true },
  },
  { name: 'svc.list', description: 'List things.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'svc.ping', description: 'Ping.' },
];

const malformedIds = ['', 'ns', 'NS:x#abcdef12', 'ns:x', 'ns:x#ABCDEF12', 'ns:x@', 'ns:x#abcdef12\n', 'a'.repeat(241), 5, null];
const malformedPaths = ['', 'x', '/', '/a/', '//', '/A', '/a/*/b', '/a/B', 7, ['/a']];

test('the same malformed id or path gives the same error from both runtimes', () => {
  for (const id of malformedIds) {
    const n = outcome(native, (api) => api.gateway.parseToolId(id));
    const w = outcome(wasm, (api) => api.gateway.parseToolId(id));
    assert.deepEqual(n, w, `parseToolId(${JSON.stringify(id)})`);
    assert.ok(n.error, `parseToolId(${JSON.stringify(id)}) must fail`);
  }
  for (const path of malformedPaths) {
    const n = outcome(native, (api) => api.gateway.parsePath(path));
    const w = outcome(wasm, (api) => api.gateway.parsePath(path));
    assert.deepEqual(n, w, `parsePath(${JSON.stringify(path)})`);
  }
  assert.equal(outcome(native, (api) => api.gateway.parsePath(7)).error.code, 'PATH_NOT_A_STRING');
  assert.equal(outcome(native, (api) => api.gateway.parseToolId('ns:x#abcdef12\n')).error.code, 'TOOL_ID_HASH8_GRAMMAR');
  const e = outcome(native, (api) => api.gateway.parsePath('/a//b')).error;
  assert.deepEqual([e.code, e.offset, e.column], ['PATH_EMPTY_SEGMENT', 3, 4]);
});

test('tool ids, cards and truncation agree across runtimes', () => {
  for (const tool of catalog) {
    assert.deepEqual(native.gateway.toolId(tool, { serverName: 'up' }), wasm.gateway.toolId(tool, { serverName: 'up' }));
  }
  const item = { ...native.gateway.toolId(catalog[0]).item, description: 'Word '.repeat(200) };
  const card = native.gateway.card(item, { score: 0.5 });
  assert.deepEqual(wasm.gateway.card(item, { score: 0.5 }), card);
  assert.equal(card.truncated, true);
  assert.ok(card.budget_line_tokens <= 80);
  assert.match(card.card.description, /…$/);
  assert.equal(card.card.safety, 'destructive');
  const text = 'First sentence. Second sentence is longer than the first one. Third.';
  assert.deepEqual(native.gateway.truncate(text, 5), wasm.gateway.truncate(text, 5));
  assert.equal(native.gateway.truncate(text, 5).output, 'First sentence.');
});

test('wasm takes any (text) => number counter, and rethrows its exceptions', () => {
  const byChars = (t) => [...t].length;
  const report = wasm.gateway.truncate('abcdefghij', 4, { counter: byChars });
  assert.deepEqual([report.branch, report.output], ['hard_cut', 'abc…']);
  assert.throws(
    () => wasm.gateway.truncate('abc def', 1, { counter: () => { throw new Error('counter down'); } }),
    /counter down/,
  );
  assert.throws(() => wasm.gateway.card({ id: 'a:b#00000000' }, { counter: () => -1 }), { code: 'INVALID_ARGUMENT' });
  // The module is still healthy afterwards.
  assert.equal(wasm.gateway.truncate('abc', 10).branch, 'verbatim');
});

for (const [runtime, api] of [['native', native], ['wasm', wasm]]) {
  test(`BrowseSession: register, browse, view, execute (${runtime})`, () => {
    const ranked = [];
    const session = new api.gateway.BrowseSession({
      topK: 2,
      cacheStable: true,
      validator,
      router: (query, topK) => {
        ranked.push([query, topK]);
        return [
          { id: ids.list, score: 0.9 },
          { id: ids.create, score: 0.4 },
          { id: ids.ping, score: 0.1 },
        ];
      },
    });
    const report = session.register([...catalog, { name: 'Bad.x', description: 'd' }, 'junk']);
    assert.equal(report.registered, 3);
    assert.deepEqual(report.skipped.map((s) => [s.index, s.code]), [[3, 'TOOL_ID_NAMESPACE_GRAMMAR'], [4, 'MCP_INVALID_TOOL']]);
    const ids = Object.fromEntries(report.tool_ids.map((id) => [id.split(':')[1].split('#')[0], id]));

    const first = session.browse({ query: 'things', top_k: 2 });
    assert.deepEqual(ranked, [['things', 2]]);
    assert.equal(first.kind, 'cards');
    assert.deepEqual(first.result.map((c) => c.id), [ids.create, ids.list].sort());
    assert.equal(JSON.parse(first.text).length, 2);

    const view = session.view(ids.ping);
    assert.equal(view.kind, 'view');
    assert.deepEqual(session.seen(), [ids.create, ids.list, ids.ping].sort());

    const bad = session.execute(ids.create, { title: 5 });
    assert.equal(bad.isError, true);
    assert.deepEqual([bad.body.error, bad.body.path, bad.body.details.path], ['ARGS_INVALID', ids.create, ['title']]);
    const extra = session.execute(ids.create, { title: 'x', extra: 1 });
    assert.deepEqual(extra.body.details.path, []);
    const ok = session.execute(ids.create, { title: 'x', count: 2 }, { dryRun: true });
    assert.deepEqual([ok.isError, ok.kind, ok.result.dry_run], [false, 'envelope', true]);

    assert.equal(session.browse({ query: 'x', top_k: 0 }).body.error, 'ARGS_INVALID');
    assert.equal(session.browse({ path: 5 }).body.error, 'PATH_INVALID');
    assert.equal(session.dispatch('tool_hydrate', {}).body.message, "unknown meta-tool 'tool_hydrate' (valid: ['tool_browse', 'tool_execute', 'tool_view'])");

    // A refresh that collides keeps the old catalog.
    assert.throws(() => session.register([catalog[2], catalog[2]]), { code: 'CATALOG_DUPLICATE_ID' });
    const after = session.browse({ path: '/' }).result.map((c) => c.id);
    assert.ok(after.length > 0 && after.every((id) => report.tool_ids.includes(id)), `old catalog kept: ${after}`);
    session.free();
  });
}

test('a session without a router refuses query browse', () => {
  const session = new native.gateway.BrowseSession();
  session.register(catalog);
  const reply = session.browse({ query: 'x' });
  assert.equal(reply.body.error, 'ARGS_INVALID');
  assert.match(reply.body.message, /router/);
});

test('Node sessions validate with the schema wasm module by default; browser sessions need a validator', async () => {
  // The addon carries no JSON Schema validator: in Node both runtimes default to the package's
  // schema module (agentwire/schema's validator), with the same results as passing it.
  for (const api of [native, wasm]) {
    const byDefault = new api.gateway.BrowseSession();
    const explicit = new api.gateway.BrowseSession({ validator });
    const { tool_ids: ids } = byDefault.register(catalog);
    explicit.register(catalog);
    const create = ids.find((id) => id.includes('create'));
    for (const args of [{ title: 'x' }, { title: 5 }, {}, { title: 'x', count: 0 }]) {
      assert.deepEqual(byDefault.execute(create, args), explicit.execute(create, args));
    }
    assert.equal(byDefault.execute(create, { title: 5 }).isError, true);
  }
  const browser = await import(pathToFileURL(join(packageDir, 'browser.js')).href);
  await browser.init(readFileSync(join(packageDir, 'wasm', 'agentwire_core_bg.wasm')));
  await browser.gateway.load(readFileSync(join(packageDir, 'wasm', 'agentwire_gateway_bg.wasm')));
  const session = new browser.gateway.BrowseSession();
  const { tool_ids: ids } = session.register(catalog);
  const create = ids.find((id) => id.includes('create'));
  assert.throws(() => session.execute(create, { title: 'x' }), /validator/);
  assert.deepEqual(session.seen(), []);
  // Tools without a schema need no validator.
  assert.equal(session.execute(ids.find((id) => id.includes('ping'))).isError, false);
});

test('bad arguments fail in JS the same way in both runtimes', () => {
  for (const api of [native, wasm]) {
    assert.throws(() => api.gateway.truncate('x', 1.5), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new api.gateway.BrowseSession({ router: 5 }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.gateway.card({ id: 'x', kind: 'robot' }), { code: 'CARD_INVALID' });
  }
});
