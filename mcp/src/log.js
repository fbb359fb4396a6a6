// Logs go to stderr only: stdout belongs to the MCP protocol in stdio mode.
let quiet = false;

export function setQuiet(value) {
  quiet = value;
}

export function log(message) {
  if (!quiet) process.stderr.write(`agentwire-mcp: ${message}\n`);
}
