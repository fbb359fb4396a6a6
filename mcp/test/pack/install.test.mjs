// agentwire-mcp as npm installs it (make test-pack, after make npm-pack): its tarball and
// agentwire's, installed with `npm install` into an empty folder, the agentwire-mcp bin started
// from there in front of server-memory, one call compacted. The registry (or npm's cache)
// provides only the MCP SDK, its dependencies and server-memory.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, sampleGraph } from '../helpers.mjs';

const packDir = process.env.AGENTWIRE_PACK_DIR ?? join(ROOT, '..', 'target', 'npm-pack');
const HOST_PLATFORM_PACKAGE = `agentwire-${process.platform}-${process.arch}-gnu`;

test('npm install of the tarballs into an empty folder: the bin compacts a server-memory call', { timeout: 300_000 }, async () => {
  const file = join(packDir, 'packs.json');
  assert.ok(existsSync(file), `${file} is missing: run \`make npm-pack\` first`);
  const { packs } = JSON.parse(readFileSync(file, 'utf8'));
  const tarball = (name) => {
    const p = packs.find((x) => x.name === name);
    assert.ok(p, `no tarball for ${name} in ${packDir}`);
    return p.tarball;
  };
  const memoryVersion = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies['@modelcontextprotocol/server-memory'];
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agentwire-mcp-install-')));
  try {
    const names = ['agentwire', 'agentwire-tokens', 'agentwire-schema', HOST_PLATFORM_PACKAGE, 'agentwire-mcp'];
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...names.map(tarball), `@modelcontextprotocol/server-memory@${memoryVersion}`], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const installed = (name) => JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
    const mcp = installed('agentwire-mcp');
    const version = installed('agentwire').version;
    for (const name of ['agentwire', 'agentwire-tokens', 'agentwire-schema']) assert.equal(mcp.dependencies[name], `^${version}`, name);
    assert.equal(mcp.devDependencies, undefined);
    assert.equal(mcp.scripts, undefined);
    // What the installed bin resolves is the installed agentwire, not the repository's.
    const resolved = execFileSync(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('agentwire'))"], { cwd: join(dir, 'node_modules', 'agentwire-mcp'), encoding: 'utf8' }).trim();
    assert.ok(resolved.startsWith(pathToFileURL(join(dir, 'node_modules', 'agentwire')).href), resolved);

    const sdk = (path) => import(pathToFileURL(join(dir, 'node_modules/@modelcontextprotocol/sdk/dist/esm', path)).href);
    const { Client } = await sdk('client/index.js');
    const { StdioClientTransport } = await sdk('client/stdio.js');
    const { decode } = (await import(pathToFileURL(join(dir, 'node_modules/agentwire/node.js')).href)).compact;
    const transport = new StdioClientTransport({
      command: join(dir, 'node_modules/.bin/agentwire-mcp'),
      args: ['--', process.execPath, join(dir, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
      env: { ...process.env, MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      cwd: dir,
      stderr: 'inherit',
    });
    const client = new Client({ name: 'pack-test', version: '1.0.0' });
    await client.connect(transport);
    assert.equal(client.getServerVersion().version, mcp.version);
    const { entities, relations } = sampleGraph(40);
    await client.callTool({ name: 'create_entities', arguments: { entities } });
    await client.callTool({ name: 'create_relations', arguments: { relations } });
    const r = await client.callTool({ name: 'read_graph', arguments: {} });
    const text = r.content[0].text;
    assert.match(text, /^(GCX1|GCF)/, `compacted: ${text.slice(0, 80)}`);
    assert.deepEqual(decode(text), { entities, relations });
    await client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
