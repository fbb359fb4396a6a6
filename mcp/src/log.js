// Leveled logging to stderr: stdout belongs to the MCP protocol in stdio mode.
// `--log-level debug|info|warn|error|silent` (default info); `--quiet` is `silent`.

/** @typedef {'debug'|'info'|'warn'|'error'|'silent'} LogLevel */

const RANKS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
/** @type {LogLevel[]} */
export const LOG_LEVELS = /** @type {LogLevel[]} */ (Object.keys(RANKS));

let threshold = RANKS.info;
/** @type {(line: string) => void} */
let sink = (line) => {
  process.stderr.write(line);
};

/** @param {LogLevel} level */
export function setLogLevel(level) {
  if (!(level in RANKS)) throw new Error(`unknown log level ${level} (${LOG_LEVELS.join(', ')})`);
  threshold = RANKS[level];
}

/** Where log lines go (tests collect them); returns the previous sink. */
export function setLogSink(/** @type {(line: string) => void} */ next) {
  const previous = sink;
  sink = next;
  return previous;
}

/** @param {Exclude<LogLevel, 'silent'>} level @param {string} message */
function emit(level, message) {
  if (RANKS[level] < threshold) return;
  sink(`agentwire-mcp: ${level}: ${message}\n`);
}

export const log = {
  debug: (/** @type {string} */ m) => emit('debug', m),
  info: (/** @type {string} */ m) => emit('info', m),
  warn: (/** @type {string} */ m) => emit('warn', m),
  error: (/** @type {string} */ m) => emit('error', m),
  /** Whether `level` is logged (to skip building costly debug messages). */
  enabled: (/** @type {LogLevel} */ level) => RANKS[level] >= threshold,
};

/** The message of anything thrown. */
export function errorMessage(/** @type {unknown} */ e) {
  return e instanceof Error ? e.message : String(e);
}
