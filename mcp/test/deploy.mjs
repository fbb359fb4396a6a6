// The deployment of the README's "Several replicas", with the real parts: agentwire-mcp replicas,
// Debian's nginx and HAProxy running deploy/nginx.conf and deploy/haproxy.cfg as they are (the
// replica addresses and the listen port rendered to loopback ports), and Debian's redis-server.
// Each runs in the foreground from a temp folder of its own, on 127.0.0.1, and is stopped by
// stopAll() (helpers.mjs).

import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, listeningGateway, ROOT, spawnTracked, startProcess, tmp } from './helpers.mjs';

/** The replica addresses the deploy files name, in order (replicas a, b, c). */
export const DEPLOY_ADDRESSES = ['10.0.0.11:8931', '10.0.0.12:8931', '10.0.0.13:8931'];
export const DEPLOY_FILES = { nginx: join(ROOT, 'deploy/nginx.conf'), haproxy: join(ROOT, 'deploy/haproxy.cfg') };

/**
 * A deploy file with its addresses rendered: `replicas[i]` (a port) for DEPLOY_ADDRESSES[i], and
 * the balancer's own listen port. Fails when the file no longer has what it replaces.
 */
export function renderDeploy(/** @type {'nginx'|'haproxy'} */ kind, /** @type {number[]} */ replicas, /** @type {number} */ port) {
  let text = readFileSync(DEPLOY_FILES[kind], 'utf8');
  const replace = (from, to) => {
    if (!text.includes(from)) throw new Error(`${DEPLOY_FILES[kind]} has no ${from}`);
    text = text.replaceAll(from, to);
  };
  DEPLOY_ADDRESSES.forEach((address, i) => replace(address, `127.0.0.1:${replicas[i]}`));
  if (kind === 'nginx') replace('    listen 8080;', `    listen 127.0.0.1:${port};`);
  else replace('    bind :8080', `    bind 127.0.0.1:${port}`);
  return text;
}

/** Resolves once `url` answers (the balancer listens); fails when `child` exits first or after `ms`. */
async function answers(url, child, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${child.spawnargs.join(' ')} exited: ${child.output()}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > end) throw new Error(`${url} did not answer within ${ms} ms: ${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** nginx (the Debian package) running deploy/nginx.conf in front of `replicas` (ports): its base URL. */
export async function startNginx(/** @type {number[]} */ replicas) {
  const dir = tmp('nginx');
  // The workers run as an unprivileged user when nginx starts as root: they need to reach the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  writeFileSync(join(dir, 'agentwire-mcp.conf'), renderDeploy('nginx', replicas, port));
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'worker_processes 1;',
      'events { worker_connections 4096; }',
      'http {',
      '    access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${dir}/${t};`),
      `    include ${dir}/agentwire-mcp.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawnTracked('/usr/sbin/nginx', ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;']);
  child.stopSignal = 'SIGTERM';
  await answers(`http://127.0.0.1:${port}/health`, child);
  return { url: `http://127.0.0.1:${port}/mcp`, child, dir };
}

/** HAProxy (the Debian package) running deploy/haproxy.cfg in front of `replicas` (ports): its base URL. */
export async function startHaproxy(/** @type {number[]} */ replicas) {
  const dir = tmp('haproxy');
  const port = await freePort();
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, renderDeploy('haproxy', replicas, port));
  const child = spawnTracked('/usr/sbin/haproxy', ['-f', file, '-db']);
  await answers(`http://127.0.0.1:${port}/health`, child);
  return { url: `http://127.0.0.1:${port}/mcp`, child, dir };
}

/** redis-server (the Debian package) on a free loopback port, no persistence: {url, port, child}. */
export async function startRedis(port) {
  port ??= await freePort();
  const dir = tmp('redis');
  const { child } = await startProcess('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], /(Ready to accept connections)/);
  return { url: `redis://127.0.0.1:${port}/0`, port, child };
}

/**
 * agentwire-mcp replicas a, b, c, … (`--replica-id`), each `flags` plus its own: {urls, ports, children}.
 * @param {number} n
 * @param {string[]} flags
 */
export async function startReplicas(n, flags, { env } = {}) {
  const names = 'abcdefgh'.slice(0, n).split('');
  const replicas = await Promise.all(names.map((name) => listeningGateway(['--replica-id', name, ...flags], { env, quiet: true })));
  return {
    names,
    urls: replicas.map((r) => r.url),
    ports: replicas.map((r) => Number(new URL(r.url).port)),
    children: replicas.map((r) => r.child),
  };
}
