// A static file server on 127.0.0.1 for the browser test and the inspector: the package at /,
// and optionally the fixtures at /fixtures/ (with JSON directory listings for the test page).
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
};

/**
 * @param {{ root: string, index: string, fixtures?: string }} options  `index` is served for `/`
 * @returns {Promise<import('node:http').Server>} listening on 127.0.0.1 (`port` 0: any free port)
 */
export function staticServer({ root, index, fixtures }, port = 0) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const [base, rest] =
      fixtures && path.startsWith('/fixtures/') ? [fixtures, path.slice('/fixtures/'.length)] : [root, path.slice(1)];
    const file = normalize(join(base, rest || index));
    const inside = file.startsWith(base + sep);
    if (inside && path.endsWith('/') && existsSync(file) && statSync(file).isDirectory()) {
      const page = join(file, 'index.html');
      if (existsSync(page)) {
        res.writeHead(200, { 'content-type': TYPES['.html'] }).end(readFileSync(page));
      } else {
        res.writeHead(200, { 'content-type': TYPES['.json'] }).end(JSON.stringify(readdirSync(file)));
      }
      return;
    }
    if (!inside || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
