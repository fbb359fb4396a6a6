// The command line: configuration (config.js), then the gateway on stdio or Streamable HTTP,
// until the client leaves or a signal comes.

import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigError, parseConfig, parseTokens, usage } from './config.js';
import { createGateway } from './gateway.js';
import { listen } from './http.js';
import { errorMessage, log, setLogLevel } from './log.js';
import { StdioServerTransport } from './transports/stdio-server.js';
import { VERSION } from './version.js';

/**
 * Runs the CLI; resolves with the exit code when the gateway should exit.
 * @param {string[]} argv
 * @param {Record<string, string | undefined>} [env]
 */
export async function main(argv, env = process.env) {
  let config;
  try {
    config = parseConfig(argv, env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`agentwire-mcp: ${e.message}\n\n${usage()}`);
    return 2;
  }
  if (config.help) {
    process.stdout.write(usage());
    return 0;
  }
  if (config.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  setLogLevel(config.logLevel);
  for (const w of config.warnings) log.warn(w);
  if (!Object.keys(config.upstreams).length) {
    process.stderr.write(`agentwire-mcp: no upstream: give a command after -- or --config FILE\n\n${usage()}`);
    return 2;
  }
  const gateway = createGateway({ ...config, measure: Boolean(config.printStats || config.statsFile) });
  /** @type {(code: number) => void} */
  let done = () => {};
  const exited = new Promise((resolve) => (done = resolve));
  let stopping = false;
  /** @param {() => Promise<void>} closeServing */
  const stopper = (closeServing) => async (/** @type {string} */ why) => {
    if (stopping) return;
    stopping = true;
    log.info(`stopping (${why})`);
    try {
      await closeServing();
      await gateway.close();
    } catch (e) {
      log.error(`stopping: ${errorMessage(e)}`);
    }
    if (config.printStats) process.stderr.write(`${gateway.stats.table()}\n`);
    if (config.statsFile) writeFileSync(config.statsFile, `${JSON.stringify(gateway.stats, null, 2)}\n`);
    done(0);
  };
  if (config.listen) {
    let server;
    try {
      server = await listen(gateway, { ...config, ...config.listen });
    } catch (e) {
      log.error(`--listen ${config.listen.host}:${config.listen.port}: ${errorMessage(e)}`);
      return 1;
    }
    const stop = stopper(() => server.close());
    const tokenFile = config.authTokenFile;
    if (tokenFile !== undefined) {
      // SIGHUP re-reads the token file: tokens rotate without a restart.
      process.on('SIGHUP', () => {
        try {
          const tokens = parseTokens(readFileSync(tokenFile, 'utf8'), tokenFile);
          /** @type {NonNullable<typeof server>} */ (server).setTokens(tokens);
          log.info(`SIGHUP: ${tokens.length} token(s) from ${tokenFile}`);
        } catch (e) {
          log.error(`SIGHUP: ${errorMessage(e)}; the tokens in use are kept`);
        }
      });
    }
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  } else {
    const transport = new StdioServerTransport({ maxMessageBytes: config.maxBodyBytes });
    const stop = stopper(async () => {});
    // The client closing stdin ends the session (the MCP stdio shutdown).
    process.stdin.once('end', () => stop('stdin closed'));
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    await gateway.connect(transport);
    log.info(`serving stdio, mode ${gateway.options.mode}, upstreams: ${Object.keys(config.upstreams).join(', ')}`);
  }
  return exited;
}
