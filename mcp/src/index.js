// agentwire-mcp as a library: embed the gateway, or compact results in your own MCP server.
export { createGateway, MODES, namespaceOf } from './gateway.js';
export { compactResult, compactResultDetailed } from './result.js';
export { compactJson, decodeCompact, deepEqual } from './compact.js';
export { listen } from './http.js';
export { Stats } from './stats.js';
export { parseArgs, loadConfig } from './cli.js';
