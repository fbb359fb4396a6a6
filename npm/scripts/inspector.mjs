#!/usr/bin/env node
// npm run inspector [-- --port N]: serves the payload inspector on 127.0.0.1 and prints its URL.
// Everything runs in the page (wasm); the server only hands out the package's files.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { staticServer } from './static-server.mjs';

const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt >= 0 ? Number(args[portAt + 1]) : 4178;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: npm run inspector [-- --port N]');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
try {
  const server = await staticServer({ root, index: 'inspector/index.html' }, port);
  console.log(`agentwire inspector: http://127.0.0.1:${server.address().port}/inspector/ (Ctrl-C to stop)`);
} catch (e) {
  console.error(`cannot serve on 127.0.0.1:${port}: ${e.message}`);
  process.exit(1);
}
