#!/usr/bin/env node
// Token savings on real upstream results: each call is made to the upstream directly (its text
// as sent) and through agentwire-mcp --mode compact (what the model gets). Prints the README
// table: upstream text tokens, the same JSON minified, the compacted text, the format chosen.
// Minified JSON is always shown, so no saving is claimed that plain minification would give.

import { join } from 'node:path';
import { count } from 'agentwire/tokens';
import { compactJson, decodeCompact, deepEqual } from '../src/index.js';
import { direct, gateway, sampleGraph, sampleTree, textOf, tmp, upstreams } from '../test/helpers.mjs';

const tokenizer = process.argv.includes('--o200k') ? 'o200k_base' : 'cl100k_base';
const rows = [];

async function measure(label, spec, name, args) {
  const up = await direct(spec);
  const gw = await gateway(['--structured', 'strip', '--tokenizer', tokenizer], spec);
  const want = textOf(await up.callTool({ name, arguments: args }));
  const got = textOf(await gw.callTool({ name, arguments: args }));
  await up.close();
  await gw.close();
  const value = JSON.parse(want);
  const back = got === want ? value : decodeCompact(got);
  if (!deepEqual(back, value)) throw new Error(`${label}: compacted text does not decode to the upstream JSON`);
  const format = got === want ? 'kept' : compactJson(want, { tokenizer, minSavings: 0 }).format;
  rows.push([label, count(want, tokenizer), count(JSON.stringify(value), tokenizer), count(got, tokenizer), format]);
  process.stderr.write(`${label}: done\n`);
}

const memoryFile = join(tmp('savings'), 'memory.jsonl');
const memory = upstreams.memory(memoryFile);
{
  const up = await direct(memory);
  const { entities, relations } = sampleGraph(40);
  await up.callTool({ name: 'create_entities', arguments: { entities } });
  await up.callTool({ name: 'create_relations', arguments: { relations } });
  await up.close();
}
await measure('server-memory `read_graph` (40 entities, 40 relations)', memory, 'read_graph', {});
await measure('server-memory `search_nodes` "project 3"', memory, 'search_nodes', { query: 'project 3' });
await measure('server-memory `open_nodes` (5 names)', memory, 'open_nodes', { names: ['person_1', 'person_2', 'person_3', 'person_4', 'person_5'] });
const tree = sampleTree();
const files = upstreams.filesystem(tree);
await measure('server-filesystem `directory_tree` (6 folders, 54 files)', files, 'directory_tree', { path: tree });
await measure('server-everything `get-structured-content`', upstreams.everything(), 'get-structured-content', { location: 'New York' });

const md = [
  `| tool result | upstream text | minified JSON | agentwire-mcp | format |`,
  '| --- | ---: | ---: | ---: | --- |',
  ...rows.map(([l, a, b, c, f]) => `| ${l} | ${a} | ${b} | ${c} (${Math.round((100 * (a - c)) / a)} % less; ${Math.round((100 * (b - c)) / b)} % below minified) | ${f} |`),
].join('\n');
console.log(`Tokens (${tokenizer}):\n\n${md}`);
