// agentwire-mcp as a library: embed the gateway, or compact results in your own MCP server.
// The compaction itself is agentwire's `compact` (one implementation for both packages).
import { compact } from 'agentwire';

export { createGateway, MODES, namespaceOf } from './gateway.js';
export { compactResult, compactResultDetailed } from './result.js';
export const { json: compactJson, decode: decodeCompact, equal: deepEqual } = compact;
export { listen } from './http.js';
export { Stats } from './stats.js';
export { parseConfig, parseServers, ConfigError, OPTIONS } from './config.js';
export { VERSION } from './version.js';
