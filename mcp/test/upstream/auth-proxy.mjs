// A transparent HTTP proxy that adds `Authorization: Bearer TOKEN` to every request: the MCP
// conformance suite's command line cannot send headers. Everything else (Host, Origin, bodies,
// SSE streams) passes as it is. Usage: node auth-proxy.mjs TARGET_URL TOKEN (prints its URL).

import { createServer, request } from 'node:http';

const [target, token] = process.argv.slice(2);
const t = new URL(target);
const server = createServer((req, res) => {
  const upstream = request({ hostname: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${token}` } }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  upstream.on('error', (e) => {
    process.stderr.write(`auth-proxy: ${req.method} ${req.url}: ${e.message}\n`);
    res.destroy();
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}${t.pathname}\n`));
