#!/usr/bin/env node
// Writes bench/corpus/tool-result-106kb.json (committed): a knowledge graph as the MCP
// reference memory server's `read_graph` returns it (entities with observations, relations),
// pretty-printed with two spaces as that server does, about 106 KB. Deterministic (fixed seed).
// `compact_106kb_ms` (make bench) compacts it; so does agentwire-mcp's latency bench.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { xorshift } from './random.mjs';

const { next, pick } = xorshift(0x9e3779b9);

const first = ['Ada', 'Grace', 'Alan', 'Barbara', 'Edsger', 'Frances', 'Donald', 'Margaret', 'Ken', 'Radia', 'Leslie', 'Tim'];
const last = ['Lovelace', 'Hopper', 'Turing', 'Liskov', 'Dijkstra', 'Allen', 'Knuth', 'Hamilton', 'Thompson', 'Perlman', 'Lamport', 'Berners-Lee'];
const types = ['person', 'project', 'organization', 'service', 'repository', 'meeting'];
const relations = ['works_on', 'maintains', 'depends_on', 'reports_to', 'attended', 'owns', 'reviewed'];
const facts = [
  'Prefers asynchronous reviews over meetings',
  'Leads the migration of the billing service to the new queue',
  'Wrote the first version of the rate limiter in 2019',
  'Is on call every second week; escalation goes to the platform team',
  'Asked for weekly summaries instead of daily stand-ups',
  'Owns the incident runbook for the authentication gateway',
  'Speaks at the internal architecture forum about event sourcing',
  'Has access to the production read replicas only',
  'Joined from the data infrastructure group in March',
  'Tracks open questions in the team wiki under "Decisions"',
  'Reviews every schema change touching the orders table',
  'Mentions that the search latency budget is 150 ms at p95',
];

const entities = [];
const relationList = [];
for (let i = 0; entities.length < 230; i++) {
  const type = pick(types);
  const name = type === 'person' ? `${pick(first)} ${pick(last)} ${i}` : `${pick(['Atlas', 'Beacon', 'Cobalt', 'Delta', 'Ember', 'Falcon'])}-${type}-${i}`;
  const observations = Array.from({ length: 1 + (next() % 4) }, () => pick(facts));
  entities.push({ type: 'entity', name, entityType: type, observations });
}
for (let i = 0; i < 265; i++) {
  relationList.push({ type: 'relation', from: pick(entities).name, to: pick(entities).name, relationType: pick(relations) });
}
const text = JSON.stringify({ entities, relations: relationList }, null, 2);
const out = join(import.meta.dirname, 'tool-result-106kb.json');
writeFileSync(out, `${text}\n`);
console.log(`${out}: ${Buffer.byteLength(text) + 1} bytes`);
