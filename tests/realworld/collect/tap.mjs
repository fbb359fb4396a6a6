// Runs an MCP server over stdio and copies every byte it writes to stdout into a log file
// as well, so the collection keeps the server's JSON-RPC messages exactly as it sent them.
// Usage: node tap.mjs LOGFILE SERVER_ENTRY [SERVER_ARGS...]
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";

const [logPath, entry, ...serverArgs] = process.argv.slice(2);
const log = createWriteStream(logPath);
const child = spawn(process.execPath, [entry, ...serverArgs], {
  stdio: ["pipe", "pipe", "inherit"],
});
process.stdin.pipe(child.stdin);
child.stdout.on("data", (chunk) => {
  log.write(chunk);
  process.stdout.write(chunk);
});
child.on("exit", (code, signal) => {
  log.end(() => process.exit(code ?? (signal ? 1 : 0)));
});
process.stdin.on("end", () => child.stdin.end());
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => child.kill(sig));
