// The configuration parser (config.js): defaults, every value syntax, the errors it gives, the
// mcpServers schema, tokens; and that README documents every option.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, defaultReplicaId, describeDefault, nameOf, OPTIONS, parseConfig, parseServers, usage } from '../src/config.js';
import { ROOT } from './helpers.mjs';

const files = (map) => ({ readFile: (f) => (f in map ? map[f] : assert.fail(`read ${f}`)) });
const fails = (argv, pattern, env = {}, io) => assert.throws(() => parseConfig(argv, env, io), (e) => e instanceof ConfigError && pattern.test(e.message));

test('defaults: what the issue and README promise', () => {
  const c = parseConfig(['--', 'node', 'server.js']);
  assert.equal(c.mode, 'compact');
  assert.equal(c.structured, 'strip');
  assert.equal(c.listen, undefined);
  assert.equal(c.logLevel, 'info');
  assert.deepEqual(c.upstreams, { server: { command: 'node', args: ['server.js'] } });
  assert.deepEqual(c.warnings, []);
});

test('errors say what is wrong', () => {
  fails(['--nope'], /^unknown option --nope$/);
  fails(['--mode'], /^--mode needs a value$/);
  fails(['--cache-stable=yes'], /--cache-stable takes no value/);
  fails(['--mode', 'fast'], /--mode wants one of compact, proxy, gateway, got "fast"/);
  fails(['--max-result-tokens', '0'], /--max-result-tokens wants a positive integer/);
  fails(['--min-savings', '2'], /--min-savings wants a fraction/);
  fails(['--listen', 'localhost:99999'], /--listen wants \[HOST:\]PORT/);
  fails(['server.js'], /unexpected argument server\.js: put the upstream command after --/);
  fails(['--log-level', 'loud'], /--log-level wants one of debug, info, warn, error, silent/);
});

test('--quiet is --log-level silent; --name without a command is a warning', () => {
  assert.equal(parseConfig(['--quiet', '--', 'x']).logLevel, 'silent');
  assert.deepEqual(parseConfig(['--name', 'n']).warnings, ['--name names the upstream after --, and there is none']);
});

test('mcpServers: checked field by field; disabled servers left out; other fields ignored', () => {
  const ok = parseServers(
    JSON.stringify({
      mcpServers: {
        mem: { command: 'npx', args: ['-y', 'server-memory'], env: { A: '1' }, autoApprove: ['x'] },
        web: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer upstream' } },
        off: { command: 'x', disabled: true },
      },
    }),
    'c.json',
  );
  assert.deepEqual(ok, {
    mem: { command: 'npx', args: ['-y', 'server-memory'], env: { A: '1' } },
    web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer upstream' } },
  });
  const bad = (servers, pattern) => assert.throws(() => parseServers(JSON.stringify({ mcpServers: servers }), 'c.json'), (e) => e instanceof ConfigError && pattern.test(e.message));
  bad({ a: { command: 'x', args: 'y' } }, /c\.json: server "a": "args" must be an array of strings/);
  bad({ a: { command: 'x', env: { N: 1 } } }, /"env" must be an object of strings/);
  bad({ a: {} }, /server "a" needs "command" or "url"/);
  bad({ a: { command: 'x', url: 'http://h' } }, /needs "command" or "url" \(one of them\)/);
  bad({ a: { url: 'ftp://h' } }, /"url" must be http or https/);
  bad({ a: { url: 'https://h', type: 'sse' } }, /SSE transport \(deprecated\) is not supported/);
  assert.throws(() => parseServers('{', 'c.json'), /c\.json: not JSON/);
  assert.throws(() => parseServers('{"x": 1}', 'c.json'), /c\.json: no "mcpServers" object/);
  const c = parseConfig(['--config', 'a.json', '--config', 'b.json'], {}, files({ 'a.json': '{"mcpServers": {"a": {"command": "x"}}}', 'b.json': '{"servers": {"b": {"url": "http://127.0.0.1:1/mcp"}}}' }));
  assert.deepEqual(Object.keys(c.upstreams), ['a', 'b']);
});

test('--stateless, --replica-id, --store: what they need, and what they refuse', () => {
  const c = parseConfig(['--listen', '8931', '--stateless', '--mode', 'gateway', '--store', 'redis://10.0.0.5:6379/2', '--', 'x']);
  assert.equal(c.stateless, true);
  assert.equal(c.store, 'redis://10.0.0.5:6379/2');
  assert.equal(c.storeTtlMs, 3_600_000);
  assert.equal(c.storeMaxBytes, 32 * 1024 ** 2);
  assert.deepEqual(c.warnings, []);
  fails(['--stateless', '--', 'x'], /^--stateless serves Streamable HTTP: give --listen/);
  fails(['--listen', '1', '--stateless', '--mode', 'gateway', '--', 'x'], /^--mode gateway --stateless needs --store redis:\/\/HOST:PORT\/DB: a result stored for tool_view through one replica must be readable through any replica$/);
  fails(['--listen', '1', '--stateless', '--cache-stable', '--', 'x'], /^--cache-stable keeps what one client browsed before; --stateless has no client/);
  fails(['--store', 'http://h:1', '--', 'x'], /--store wants a redis:\/\/ or rediss:\/\/ URL, got "http"/);
  fails(['--store', 'redis://h:1/x', '--', 'x'], /--store: the path is the database number/);
  fails(['--store', 'nonsense', '--', 'x'], /--store wants redis:\/\/HOST:PORT\/DB/);
  fails(['--listen', '1', '--replica-id', 'a.b', '--', 'x'], /--replica-id wants 1 to 63 letters, digits, _ or -, got "a\.b"/);
  assert.deepEqual(parseConfig(['--listen', '1', '--stateless', '--max-sessions', '9', '--', 'x']).warnings, ['--max-sessions has no effect with --stateless (there are no sessions)']);
  assert.deepEqual(parseConfig(['--store', 'redis://h/0', '--', 'x']).warnings, ["--store holds gateway mode's stored results; --mode compact stores none"]);
  assert.equal(defaultReplicaId('web-3.example.com', 8931), 'web-3-example-com-8931');
  assert.match(defaultReplicaId('x'.repeat(200), 65535), /^x{56}-65535$/);
});

test('upstream names from the command', () => {
  assert.equal(nameOf(['npx', '-y', '@modelcontextprotocol/server-memory']), 'server-memory');
  assert.equal(nameOf(['node', '/x/server-filesystem/dist/index.js', '/tmp']), 'tmp');
  assert.equal(nameOf(['node', '/x/server-filesystem/dist/index.js']), 'server-filesystem');
  assert.equal(nameOf(['uvx', 'mcp-server-git@1.2']), 'mcp-server-git');
});

test('README documents every option with its default; --help lists them all', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const help = usage();
  for (const o of OPTIONS) {
    const row = readme.split('\n').find((l) => l.startsWith(`| \`--${o.flag}`));
    assert.ok(row, `README has no option row for --${o.flag}`);
    assert.ok(help.includes(`--${o.flag}`), `--help lacks --${o.flag}`);
    // The second cell is the default, spelled as on the command line.
    const cell = row.split(' | ')[1];
    if (o.value && o.default !== undefined && !Array.isArray(o.default)) assert.equal(cell, describeDefault(o), `README default of --${o.flag}`);
  }
});

test('--upstream-protocol and "protocol": HTTP upstreams auto by default, stdio ones legacy unless told; an entry\'s own wins', () => {
  const servers = JSON.stringify({ mcpServers: { a: { url: 'http://127.0.0.1:1/mcp' }, b: { url: 'http://127.0.0.1:2/mcp', protocol: 'legacy' }, c: { command: 'node' }, d: { command: 'node', protocol: 'auto' } } });
  const io = files({ 'm.json': servers });
  const byDefault = parseConfig(['--config', 'm.json'], {}, io).upstreams;
  assert.deepEqual([byDefault.a.protocol, byDefault.b.protocol, byDefault.c.protocol, byDefault.d.protocol], ['auto', 'legacy', undefined, 'auto']);
  const modern = parseConfig(['--upstream-protocol', 'modern', '--config', 'm.json'], {}, io).upstreams;
  assert.deepEqual([modern.a.protocol, modern.b.protocol, modern.c.protocol, modern.d.protocol], ['modern', 'legacy', 'modern', 'auto']);
  fails(['--config', 'x.json'], /"protocol" must be one of legacy, auto, modern/, {}, files({ 'x.json': JSON.stringify({ mcpServers: { x: { url: 'http://h/mcp', protocol: '2026' } } }) }));
  fails(['--upstream-protocol', 'new'], /--upstream-protocol wants one of legacy, auto, modern/);
});
