// Every mode against real upstreams: the SDK client spawns agentwire-mcp, which spawns
// server-memory, server-filesystem or server-everything from npm.

import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateway as gw } from 'agentwire';
import { count } from 'agentwire/tokens';
import { compactJson, decodeCompact, deepEqual } from '../src/index.js';
import {
  alive,
  childrenOf,
  config,
  direct,
  eventually,
  gateway,
  sampleGraph,
  sampleTree,
  textOf,
  tmp,
  upstreams,
  BIN as BIN_PATH,
  JSON_SERVER,
  ROOT,
} from './helpers.mjs';

const open = [];
after(async () => {
  await Promise.all(open.map((c) => c.close().catch((e) => console.log(`closing a test client: ${e.message}`))));
});
const track = async (p) => {
  const c = await p;
  open.push(c);
  return c;
};

/** Calls upstream tool `name` the way a mode exposes it. */
async function call(client, mode, name, args, options) {
  if (mode === 'compact') return client.callTool({ name, arguments: args }, undefined, options);
  const id = await toolId(client, mode, name);
  return client.callTool({ name: 'tool_execute', arguments: { tool_id: id, args } }, undefined, options);
}

async function toolId(client, mode, name) {
  if (mode === 'proxy') {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name.startsWith('up:') && gw.parseToolId(x.name).name === name);
    assert.ok(t, `no card for ${name}`);
    return t.name;
  }
  const r = await client.callTool({ name: 'tool_browse', arguments: { query: name.replaceAll(/[-_]/g, ' '), top_k: 50 } });
  const card = JSON.parse(textOf(r)).find((c) => c.name === `up.${name}`);
  assert.ok(card, `tool_browse found no ${name}`);
  return card.id;
}

/** A server-memory with the sample graph, its state in a fresh file. */
async function memoryWithGraph() {
  const spec = upstreams.memory(join(tmp('memory'), 'memory.jsonl'));
  const up = await direct(spec);
  const { entities, relations } = sampleGraph();
  await up.callTool({ name: 'create_entities', arguments: { entities } });
  await up.callTool({ name: 'create_relations', arguments: { relations } });
  return { spec, up };
}

for (const mode of ['compact', 'proxy', 'gateway']) {
  describe(`--mode ${mode}`, () => {
    test('a call round-trips exactly: the compact text decodes to the direct call', async () => {
      const { spec, up } = await memoryWithGraph();
      const viaGateway = await track(gateway(['--mode', mode, '--max-result-tokens', '100000'], spec));
      const want = await up.callTool({ name: 'read_graph', arguments: {} });
      const got = await call(viaGateway, mode, 'read_graph', {});
      await up.close();
      const text = textOf(got);
      assert.match(text, /^(GCX1|GCF)/, 'read_graph of 40 entities is worth compacting');
      assert.ok(deepEqual(decodeCompact(text), JSON.parse(textOf(want))));
      assert.ok(count(text) < count(JSON.stringify(JSON.parse(textOf(want)))), 'fewer tokens than minified JSON');
    });

    test('progress notifications reach the client, with its own token', async () => {
      const c = await track(gateway(['--mode', mode], upstreams.everything()));
      const seen = [];
      const r = await call(c, mode, 'trigger-long-running-operation', { duration: 0.4, steps: 4 }, { onprogress: (p) => seen.push(p) });
      assert.match(textOf(r), /Long running operation completed/);
      // server-everything sometimes loses its last step even when called directly (the SDK
      // client drops a notification that races the result), so: steps 1, 2, 3 and maybe 4.
      const steps = seen.map((p) => [p.progress, p.total]);
      assert.deepEqual(steps.slice(0, 3), [
        [1, 4],
        [2, 4],
        [3, 4],
      ]);
      assert.ok(steps.length <= 4);
    });

    test('cancellation reaches the upstream', async () => {
      const log = join(tmp('tee'), 'stdin.log');
      const c = await track(gateway(['--mode', mode], upstreams.tee(upstreams.everything(), log)));
      const ac = new AbortController();
      const started = Date.now();
      const pending = call(c, mode, 'trigger-long-running-operation', { duration: 30, steps: 30 }, {
        signal: ac.signal,
        onprogress: () => ac.abort('user gave up'),
      });
      await assert.rejects(pending, /user gave up|abort/i);
      assert.ok(Date.now() - started < 10000, 'cancelled long before the 30 s operation ends');
      await eventually(async () => {
        const sent = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
        const callMsg = sent.find((m) => m.method === 'tools/call');
        const cancel = sent.find((m) => m.method === 'notifications/cancelled');
        assert.ok(cancel, 'notifications/cancelled reached the upstream');
        assert.equal(cancel.params.requestId, callMsg.id, 'for the call that was running');
      });
    });

    test('an upstream killed mid-session is restarted; calls meanwhile get an error naming it', async () => {
      const spec = upstreams.memory(join(tmp('memory'), 'memory.jsonl'));
      const c = await track(gateway(['--mode', mode], spec));
      await call(c, mode, 'create_entities', { entities: [{ name: 'survivor', entityType: 'test', observations: ['persisted'] }] });
      const [child] = childrenOf(c.pid);
      assert.ok(child, 'the gateway spawned the upstream');
      process.kill(child, 'SIGKILL');
      await eventually(() => assert.ok(!alive(child)));
      // During the outage: an MCP error (or error result) that names the upstream.
      const during = await call(c, mode, 'read_graph', {}).then(
        (r) => textOf(r),
        (e) => e.message,
      );
      assert.match(during, /upstream "up"/);
      // Then the restarted upstream answers, with the state it keeps on disk.
      const r = await eventually(() => call(c, mode, 'read_graph', {}));
      const graph = decodeCompact(textOf(r));
      assert.deepEqual(graph.entities.map((e) => e.name), ['survivor']);
      assert.ok(alive(c.pid), 'the gateway never exited');
      assert.notEqual(childrenOf(c.pid)[0], child, 'a new upstream process');
    });
  });
}

describe('--mode compact', () => {
  test('tools/list is the upstream list (outputSchema dropped only under strip)', async () => {
    const dir = sampleTree();
    const up = await track(direct(upstreams.filesystem(dir)));
    const want = (await up.listTools()).tools;
    const keep = await track(gateway(['--structured', 'keep'], upstreams.filesystem(dir)));
    assert.deepEqual((await keep.listTools()).tools, want);
    const strip = await track(gateway(['--structured', 'strip'], upstreams.filesystem(dir)));
    const stripped = (await strip.listTools()).tools;
    assert.ok(want.some((t) => t.outputSchema), 'server-filesystem declares output schemas');
    assert.deepEqual(
      stripped,
      want.map(({ outputSchema, ...t }) => t),
    );
  });

  test('--structured keep: structuredContent untouched and validated by the SDK client; text compacted', async () => {
    const dir = sampleTree();
    const up = await track(direct(upstreams.filesystem(dir)));
    const c = await track(gateway(['--structured', 'keep'], upstreams.filesystem(dir)));
    await c.listTools(); // the SDK client validates structuredContent against these schemas
    const want = await up.callTool({ name: 'directory_tree', arguments: { path: dir } });
    const got = await c.callTool({ name: 'directory_tree', arguments: { path: dir } });
    assert.deepEqual(got.structuredContent, want.structuredContent);
    assert.equal(textOf(got), compactJson(textOf(want), { tool: 'directory_tree' }).text);
    assert.notEqual(textOf(got), textOf(want));
    assert.ok(deepEqual(decodeCompact(textOf(got)), JSON.parse(textOf(want))));

    const ev = await track(gateway(['--structured', 'keep'], upstreams.everything()));
    await ev.listTools();
    const s = await ev.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } });
    assert.equal(typeof s.structuredContent, 'object');
  });

  test('--structured strip: no structuredContent, the compact text carries it (SDK client validation passes)', async () => {
    const dir = sampleTree();
    const up = await track(direct(upstreams.filesystem(dir)));
    const c = await track(gateway(['--structured', 'strip'], upstreams.filesystem(dir)));
    await c.listTools();
    const want = await up.callTool({ name: 'directory_tree', arguments: { path: dir } });
    const got = await c.callTool({ name: 'directory_tree', arguments: { path: dir } });
    assert.equal(got.structuredContent, undefined);
    assert.ok(deepEqual(decodeCompact(textOf(got)), JSON.parse(want.structuredContent.content)));

    const ev = await track(gateway(['--structured', 'strip'], upstreams.everything()));
    const evUp = await track(direct(upstreams.everything()));
    await ev.listTools();
    await evUp.listTools();
    const s = await ev.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } });
    const sWant = await evUp.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } });
    assert.equal(s.structuredContent, undefined);
    const readBack = (text) => {
      try {
        return decodeCompact(text);
      } catch {
        return undefined; // prose
      }
    };
    const carried = s.content.filter((b) => b.type === 'text').map((b) => readBack(b.text));
    assert.ok(carried.some((v) => deepEqual(v, sWant.structuredContent)), 'the structured data is in a text block');
  });

  test('a result where TOON has the fewest tokens is sent as TOON, and reads back', async () => {
    // 80 contacts of TOON's nested-group dataset: nested address and plan objects, where TOON's
    // nested field groups beat GCF's flattened headers.
    const contacts = JSON.parse(readFileSync(join(ROOT, '..', 'bench/data/toon/nested-group.json'), 'utf8')).contacts.slice(0, 80);
    const c = await track(gateway([], { command: process.execPath, args: [JSON_SERVER] }));
    const got = textOf(await c.callTool({ name: 'echo', arguments: { contacts } }));
    const want = compactJson(JSON.stringify({ contacts }), { tool: 'echo' });
    assert.match(want.format, /^toon/, want.format);
    assert.equal(got, want.text);
    assert.match(got, /^contacts\[80\t?\]\{/);
    assert.ok(deepEqual(decodeCompact(got), { contacts }));
  });

  test('images, non-JSON text and isError results pass through untouched', async () => {
    const up = await track(direct(upstreams.everything()));
    const c = await track(gateway([], upstreams.everything()));
    for (const [name, args] of [
      ['get-tiny-image', {}],
      ['echo', { message: '{"looks": "like json"} but is not' }],
      ['get-resource-links', { count: 3 }],
    ]) {
      assert.deepEqual(await c.callTool({ name, arguments: args }), await up.callTool({ name, arguments: args }), name);
    }
    const dir = sampleTree();
    const fsUp = await track(direct(upstreams.filesystem(dir)));
    const fs = await track(gateway([], upstreams.filesystem(dir)));
    const bad = { name: 'read_text_file', arguments: { path: '/etc/passwd' } };
    const wantErr = await fsUp.callTool(bad);
    assert.equal(wantErr.isError, true);
    assert.deepEqual(await fs.callTool(bad), wantErr);
  });

  test('resources, prompts and completion pass through', async () => {
    const up = await track(direct(upstreams.everything()));
    const c = await track(gateway([], upstreams.everything()));
    const resources = await c.listResources();
    assert.deepEqual(resources, await up.listResources());
    const uri = resources.resources[0].uri;
    assert.deepEqual(await c.readResource({ uri }), await up.readResource({ uri }));
    const prompts = await c.listPrompts();
    assert.deepEqual(prompts, await up.listPrompts());
    const p = prompts.prompts.find((x) => !x.arguments?.some((a) => a.required));
    assert.deepEqual(await c.getPrompt({ name: p.name }), await up.getPrompt({ name: p.name }));
    assert.deepEqual(await c.listResourceTemplates(), await up.listResourceTemplates());
    await c.setLoggingLevel('debug');
    await c.ping();
  });

  test('--stats-file records calls, bytes and tokens per tool', async () => {
    const { spec, up } = await memoryWithGraph();
    await up.close();
    const file = join(tmp('stats'), 'stats.json');
    const c = await gateway(['--stats-file', file], spec);
    await c.callTool({ name: 'read_graph', arguments: {} });
    await c.callTool({ name: 'read_graph', arguments: {} });
    await c.close();
    await eventually(() => assert.ok(existsSync(file)));
    const { tools } = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(tools.read_graph.calls, 2);
    assert.ok(tools.read_graph.tokensAfter < tools.read_graph.tokensBefore / 2);
    assert.ok(tools.read_graph.bytesAfter < tools.read_graph.bytesBefore);
  });

  test('several upstreams from --config: names kept, shared names prefixed with the server', async () => {
    const dir = sampleTree();
    const file = config({
      memory: upstreams.memory(join(tmp('memory'), 'm.jsonl')),
      files: upstreams.filesystem(dir),
      memory2: upstreams.memory(join(tmp('memory'), 'm2.jsonl')),
    });
    const c = await track(gateway(['--config', file]));
    const names = (await c.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('list_directory'));
    assert.ok(names.includes('memory__read_graph') && names.includes('memory2__read_graph'));
    assert.equal(new Set(names).size, names.length);
    const r = await c.callTool({ name: 'list_directory', arguments: { path: dir } });
    assert.match(textOf(r), /module_0/);
  });
});

describe('--mode proxy', () => {
  test('tools/list: one discovery card per upstream tool, plus tool_hydrate and tool_execute', async () => {
    const up = await track(direct(upstreams.everything()));
    const c = await track(gateway(['--mode', 'proxy'], upstreams.everything()));
    const upstream = (await up.listTools()).tools;
    const { tools } = await c.listTools();
    assert.deepEqual(tools.slice(-2).map((t) => t.name), ['tool_hydrate', 'tool_execute']);
    const cards = tools.slice(0, -2);
    assert.equal(cards.length, upstream.length);
    for (const card of cards) {
      assert.deepEqual(card.inputSchema, { type: 'object' }, 'the §4.1 sentinel schema');
      assert.equal(card.outputSchema, undefined);
      const parts = gw.parseToolId(card.name);
      assert.equal(parts.namespace, 'up');
      assert.ok(upstream.some((t) => t.name === parts.name));
    }
    // tool_hydrate gives the upstream schema back.
    const echo = cards.find((t) => gw.parseToolId(t.name).name === 'echo');
    const h = JSON.parse(textOf(await c.callTool({ name: 'tool_hydrate', arguments: { tool_id: echo.name } })));
    assert.deepEqual(h.args_schema, upstream.find((t) => t.name === 'echo').inputSchema);
    // A card is not callable by itself.
    const direct_ = await c.callTool({ name: echo.name, arguments: { message: 'hi' } });
    assert.equal(direct_.isError, true);
    assert.equal(JSON.parse(textOf(direct_)).error, 'ARGS_INVALID');
  });
});

for (const mode of ['proxy', 'gateway']) {
  describe(`--mode ${mode}`, () => {
    test('ARGS_INVALID never reaches the upstream (its stdin shows no tools/call)', async () => {
      const log = join(tmp('tee'), 'stdin.log');
      const spec = upstreams.tee(upstreams.memory(join(tmp('memory'), 'memory.jsonl')), log);
      const c = await track(gateway(['--mode', mode], spec));
      const id = await toolId(c, mode, 'create_entities');
      const bad = await c.callTool({ name: 'tool_execute', arguments: { tool_id: id, args: { entities: 'not a list' } } });
      assert.equal(bad.isError, true);
      const body = JSON.parse(textOf(bad));
      assert.equal(body.error, 'ARGS_INVALID');
      const calls = () => readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('"tools/call"'));
      assert.ok(readFileSync(log, 'utf8').includes('"tools/list"'), 'the log sees what reaches the upstream');
      assert.deepEqual(calls(), []);
      // The same tool with valid arguments does reach it.
      const ok = await c.callTool({
        name: 'tool_execute',
        arguments: { tool_id: id, args: { entities: [{ name: 'a', entityType: 't', observations: [] }] } },
      });
      assert.notEqual(ok.isError, true);
      await eventually(() => assert.equal(calls().length, 1));
    });
  });
}

describe('--mode gateway', () => {
  test('exactly tool_browse, tool_execute, tool_view; browse by query and by path', async () => {
    const dir = sampleTree();
    const file = config({ files: upstreams.filesystem(dir), memory: upstreams.memory(join(tmp('memory'), 'm.jsonl')) });
    const c = await track(gateway(['--mode', 'gateway', '--config', file]));
    assert.deepEqual((await c.listTools()).tools.map((t) => t.name), ['tool_browse', 'tool_execute', 'tool_view']);
    const cards = JSON.parse(textOf(await c.callTool({ name: 'tool_browse', arguments: { query: 'list directory files' } })));
    assert.ok(cards.length > 0 && cards.length <= 5);
    assert.equal(cards[0].namespace, 'files');
    for (const card of cards) {
      assert.equal(card.args_schema, undefined, 'cards never carry schemas');
      assert.equal(gw.parseToolId(card.id).namespace, card.namespace);
    }
    const root = JSON.parse(textOf(await c.callTool({ name: 'tool_browse', arguments: { path: '/' } })));
    assert.ok(root.length > 0);
    const both = await c.callTool({ name: 'tool_browse', arguments: { path: '/', query: 'x' } });
    assert.equal(JSON.parse(textOf(both)).error, 'ARGS_INVALID');
  });

  test('--cache-stable: cards seen before come first, then the marker, then new ones', async () => {
    const dir = sampleTree();
    const c = await track(gateway(['--mode', 'gateway', '--cache-stable'], upstreams.filesystem(dir)));
    const first = JSON.parse(textOf(await c.callTool({ name: 'tool_browse', arguments: { query: 'read file' } })));
    const second = JSON.parse(textOf(await c.callTool({ name: 'tool_browse', arguments: { query: 'directory listing read' } })));
    const ids = second.map((x) => x.id);
    const marker = ids.indexOf('__cache_breakpoint__');
    assert.ok(marker > 0, `a marker after the seen prefix: ${ids}`);
    const seen = new Set(first.map((x) => x.id));
    assert.ok(ids.slice(0, marker).every((id) => seen.has(id)));
    assert.ok(ids.slice(marker + 1).every((id) => !seen.has(id)));
  });

  test('a result above --max-result-tokens is stored and read back with tool_view', async () => {
    const { spec, up } = await memoryWithGraph();
    const c = await track(gateway(['--mode', 'gateway', '--max-result-tokens', '300'], spec));
    const want = JSON.parse(textOf(await up.callTool({ name: 'read_graph', arguments: {} })));
    await up.close();
    const id = await toolId(c, 'gateway', 'read_graph');
    const r = await c.callTool({ name: 'tool_execute', arguments: { tool_id: id, args: {} } });
    const body = JSON.parse(textOf(r));
    assert.ok(body.stored.tokens > 300);
    const handle = body.stored.handle;
    const view = async (selector) => c.callTool({ name: 'tool_view', arguments: { handle, selector } });
    // A JSON pointer: one entity, exactly.
    const one = await view('/entities/7');
    assert.deepEqual(decodeCompact(textOf(one)), want.entities[7]);
    // Lines: the stored text, piece by piece, is the whole result.
    const info = JSON.parse(textOf(await view('info')));
    const parts = [];
    for (let a = 1; a <= info.lines; a += 10) parts.push(textOf(await view(`lines:${a}-${Math.min(a + 9, info.lines)}`)));
    assert.ok(deepEqual(decodeCompact(parts.join('\n')), want));
    // Too much at once is refused with a clear error, not truncated.
    const all = await view(`lines:1-${info.lines}`);
    assert.equal(all.isError, true);
    assert.equal(JSON.parse(textOf(all)).error, 'VIEW_FAILED');
    assert.equal(info.tool, 'read_graph');
    // A tool id as handle: its schema (the gateway's hydrate step).
    const schema = JSON.parse(textOf(await c.callTool({ name: 'tool_view', arguments: { handle: id } })));
    assert.equal(schema.tool_id, id);
    assert.equal(schema.args_schema.type, 'object');
  });

  test('tool_view rows: reads row ranges of a GCX1 section', async () => {
    const dir = sampleTree();
    const files = Array.from({ length: 120 }, (_, i) => `module_${i % 6}/src/file_${i % 8}.txt`);
    // No column holds one value throughout (GCF v3.6.0 would declare it once and be chosen).
    const kinds = ['file', 'dir', 'link'];
    writeFileSync(join(dir, 'list.json'), JSON.stringify(files.map((path, i) => ({ path, size: i * 10, kind: kinds[i % 3] })), null, 2));
    const c = await track(gateway(['--mode', 'gateway', '--max-result-tokens', '200'], upstreams.filesystem(dir)));
    const id = await toolId(c, 'gateway', 'read_text_file');
    const body = JSON.parse(textOf(await c.callTool({ name: 'tool_execute', arguments: { tool_id: id, args: { path: join(dir, 'list.json') } } })));
    assert.equal(body.stored.format, 'gcx1');
    const rows = await c.callTool({ name: 'tool_view', arguments: { handle: body.stored.handle, selector: 'rows:3-5' } });
    assert.deepEqual(decodeCompact(textOf(rows)), [
      { kind: 'link', path: files[2], size: 20 },
      { kind: 'file', path: files[3], size: 30 },
      { kind: 'dir', path: files[4], size: 40 },
    ]);
  });
});

describe('stdio protocol', () => {
  test('JSON-RPC ids come back with their type; stdout carries only JSON-RPC', async () => {
    const { spawn } = await import('node:child_process');
    const spec = upstreams.memory(join(tmp('memory'), 'memory.jsonl'));
    const child = spawn(process.execPath, [BIN_PATH, '--', spec.command, ...spec.args], {
      env: { ...process.env, ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    const reply = (id) =>
      eventually(() => {
        const m = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((x) => x.id === id);
        assert.ok(m, `reply to ${JSON.stringify(id)}`);
        return m;
      });
    send({ id: 'init-α', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    assert.equal((await reply('init-α')).result.serverInfo.name, 'agentwire-mcp');
    send({ method: 'notifications/initialized' });
    send({ id: 7, method: 'tools/list' });
    send({ id: '7', method: 'ping' });
    assert.ok((await reply(7)).result.tools.length > 0);
    assert.deepEqual((await reply('7')).result, {});
    send({ id: 0, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    assert.equal((await reply(0)).error.code, -32602);
    child.stdin.end();
    await new Promise((r) => child.on('exit', r));
    for (const line of out.split('\n').filter(Boolean)) assert.equal(JSON.parse(line).jsonrpc, '2.0');
  });
});
