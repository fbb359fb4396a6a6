// Command line: options, the upstream list (after `--` or from an mcpServers config), run.

import { readFileSync, writeFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createGateway, MODES } from './gateway.js';
import { listen } from './http.js';
import { log, setQuiet } from './log.js';

export const USAGE = `usage: agentwire-mcp [options] -- COMMAND [ARGS...]
       agentwire-mcp [options] --config FILE

  --mode compact|proxy|gateway   compact (default): upstream tools, compact results;
                                 proxy: tool cards + tool_hydrate/tool_execute;
                                 gateway: tool_browse/tool_execute/tool_view
  --config FILE                  upstreams from {"mcpServers": {name: {command,args,env} | {url,headers}}}
  --name NAME                    server name of the upstream after -- (default: from the command)
  --structured keep|strip        structuredContent and outputSchema (default strip)
  --tokenizer cl100k_base|o200k_base   token counts that pick the format (default cl100k_base)
  --min-savings F                least saving to replace a result, fraction or percent (default 0.1)
  --max-result-tokens N          gateway: larger results are stored for tool_view (default 8000)
  --cache-stable                 gateway: cache-stable tool_browse ordering (spec §5)
  --listen [HOST:]PORT           serve Streamable HTTP at /mcp (host default 127.0.0.1), not stdio
  --stats                        per-tool calls, bytes and tokens on stderr at exit
  --stats-file FILE              the same as JSON
  --quiet                        no logs on stderr
`;

/** @returns {import('./gateway.js').GatewayOptions & { listen?: {host: string, port: number}, statsFile?: string, printStats?: boolean, quiet?: boolean, help?: boolean }} */
export function parseArgs(argv) {
  const out = { upstreams: {} };
  const dash = argv.indexOf('--');
  const opts = dash < 0 ? argv : argv.slice(0, dash);
  const command = dash < 0 ? [] : argv.slice(dash + 1);
  let name;
  for (let i = 0; i < opts.length; i++) {
    const a = opts[i];
    const value = () => {
      if (i + 1 >= opts.length) throw new Error(`${a} needs a value`);
      return opts[++i];
    };
    switch (a) {
      case '--mode':
        out.mode = oneOf(a, value(), MODES);
        break;
      case '--config':
        Object.assign(out.upstreams, loadConfig(value()));
        break;
      case '--name':
        name = value();
        break;
      case '--structured':
        out.structured = oneOf(a, value(), ['keep', 'strip']);
        break;
      case '--tokenizer':
        out.tokenizer = oneOf(a, value(), ['cl100k_base', 'o200k_base']);
        break;
      case '--min-savings': {
        const v = value();
        const f = v.endsWith('%') ? Number(v.slice(0, -1)) / 100 : Number(v);
        if (!Number.isFinite(f) || f < 0 || f >= 1) throw new Error(`--min-savings wants a fraction in [0, 1) or a percent, got ${v}`);
        out.minSavings = f;
        break;
      }
      case '--max-result-tokens':
        out.maxResultTokens = positiveInt(a, value());
        break;
      case '--cache-stable':
        out.cacheStable = true;
        break;
      case '--listen': {
        const v = value();
        const m = /^(?:(.*):)?(\d+)$/.exec(v);
        if (!m) throw new Error(`--listen wants [HOST:]PORT, got ${v}`);
        out.listen = { host: (m[1] ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1'), port: Number(m[2]) };
        break;
      }
      case '--stats':
        out.printStats = true;
        break;
      case '--stats-file':
        out.statsFile = value();
        break;
      case '--quiet':
        out.quiet = true;
        break;
      case '-h':
      case '--help':
        out.help = true;
        break;
      default:
        throw new Error(`unknown option ${a}`);
    }
  }
  if (command.length) {
    out.upstreams[name ?? nameOf(command)] = { command: command[0], args: command.slice(1) };
  }
  return out;
}

/** The `mcpServers` of an MCP client config file. */
export function loadConfig(file) {
  const config = JSON.parse(readFileSync(file, 'utf8'));
  const servers = config.mcpServers ?? config.servers;
  if (!servers || typeof servers !== 'object') throw new Error(`${file}: no "mcpServers" object`);
  for (const [name, spec] of Object.entries(servers)) {
    if (!spec?.command && !spec?.url) throw new Error(`${file}: server ${name} needs "command" or "url"`);
  }
  return servers;
}

/** `npx -y @scope/server-memory` and `node …/server-memory/dist/index.js` → `server-memory`. */
export function nameOf(command) {
  const last = [...command].reverse().find((a) => !a.startsWith('-')) ?? command[0];
  const parts = last.replace(/@[^/@]*$/, '').split(/[\\/]/).filter(Boolean);
  const generic = /^(index|main|cli|server|dist|build|lib|src|bin)(\.[cm]?[jt]s)?$/;
  while (parts.length > 1 && generic.test(parts.at(-1))) parts.pop();
  return (parts.at(-1) ?? '').replace(/\.[cm]?[jt]s$/, '') || 'upstream';
}

function oneOf(flag, v, allowed) {
  if (!allowed.includes(v)) throw new Error(`${flag} wants one of ${allowed.join(', ')}, got ${v}`);
  return v;
}

function positiveInt(flag, v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} wants a positive integer, got ${v}`);
  return n;
}

/** Runs the CLI; resolves when the gateway should exit. */
export async function main(argv) {
  let args;
  try {
    args = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`agentwire-mcp: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    process.stderr.write(USAGE);
    return 0;
  }
  setQuiet(Boolean(args.quiet));
  if (!Object.keys(args.upstreams).length) {
    process.stderr.write(`agentwire-mcp: no upstream: give a command after -- or --config FILE\n${USAGE}`);
    return 2;
  }
  const gateway = createGateway({ ...args, measure: Boolean(args.printStats || args.statsFile) });
  const finish = async () => {
    await gateway.close();
    if (args.printStats) process.stderr.write(`${gateway.stats.table()}\n`);
    if (args.statsFile) writeFileSync(args.statsFile, `${JSON.stringify(gateway.stats, null, 2)}\n`);
  };
  let done;
  const exited = new Promise((r) => (done = r));
  if (args.listen) {
    const server = await listen(gateway, args.listen);
    const stop = async () => {
      await server.close();
      await finish();
      done(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } else {
    const transport = new StdioServerTransport();
    const stop = async () => {
      await finish();
      done(0);
    };
    // The client closing stdin ends the session (the MCP stdio shutdown).
    process.stdin.once('end', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await gateway.connect(transport);
    log(`serving stdio, mode ${gateway.options.mode}, upstreams: ${Object.keys(args.upstreams).join(', ')}`);
  }
  return exited;
}
