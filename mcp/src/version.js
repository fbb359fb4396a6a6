// The package version, read once from package.json: serverInfo, --version and /metrics say it.
import { readFileSync } from 'node:fs';

/** @type {string} */
export const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
export const SERVER_INFO = Object.freeze({ name: 'agentwire-mcp', version: VERSION });
