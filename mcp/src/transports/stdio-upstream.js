// A stdio upstream: the server process, spawned in a process group of its own, speaking
// newline-delimited JSON-RPC on its stdin/stdout.
//
// Nothing it does can hurt the gateway: a line that is not JSON-RPC, invalid UTF-8, a line
// longer than --max-upstream-message or a line left unfinished are reported (`onprotocolerror`,
// which fails the calls in flight there) and skipped in bounded memory.
//
// Nothing it starts outlives the gateway: on POSIX the command runs under `sh`, which first
// forks a watchdog that holds the read end of a pipe whose only writer is the gateway. When the
// gateway exits, however it exits (SIGKILL included), the pipe closes and the watchdog kills the
// whole process group: the server and anything it spawned (`npx` → `sh` → `node`). Closing
// the upstream ends its stdin, then signals the group (TERM, then KILL).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { toJsonRpcMessage } from '../jsonrpc.js';
import { LineReader } from '../lines.js';
import { errorMessage, log } from '../log.js';
import { TOKEN_ENV } from '../config.js';

/** How long a line may stay unfinished with no more bytes before it counts as garbage. */
export const PARTIAL_LINE_IDLE_MS = 5000;
/** From the end of stdin to SIGTERM, and from SIGTERM to SIGKILL. */
const GRACE_MS = 2000;

// $0 is a label for ps; "$@" is the upstream command. fd 3 is the gateway's pipe.
const WATCHDOG = `( trap '' TERM INT HUP; read _ <&3; kill -TERM 0 2>/dev/null; sleep ${GRACE_MS / 1000}; kill -KILL 0 2>/dev/null ) &
exec "$@" 3<&-`;
const useGroups = process.platform !== 'win32' && existsSync('/bin/sh');

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** @typedef {import('@modelcontextprotocol/sdk/shared/transport.js').Transport} Transport */

/** @implements {Transport} */
export class StdioUpstreamTransport {
  /**
   * @param {{ name: string, command: string, args?: string[], env?: Record<string, string>,
   *   cwd?: string, maxMessageBytes: number }} options
   */
  constructor({ name, command, args = [], env = {}, cwd, maxMessageBytes }) {
    this.name = name;
    this.command = command;
    this.args = args;
    this.env = env;
    this.cwd = cwd;
    /** @type {import('node:child_process').ChildProcess | null} */
    this.child = null;
    /** @type {string | null} how the process ended, for the error calls get */
    this.exitReason = null;
    /** @type {((message: any) => void) | undefined} */
    this.onmessage = undefined;
    /** @type {(() => void) | undefined} */
    this.onclose = undefined;
    /** @type {((error: Error) => void) | undefined} */
    this.onerror = undefined;
    /** Called with a description of output that is not protocol (the calls in flight fail). */
    /** @type {((reason: string) => void) | undefined} */
    this.onprotocolerror = undefined;
    /** @type {NodeJS.Timeout | undefined} */
    this.partialTimer = undefined;
    /** Messages read and not yet delivered (one per event-loop turn, see #deliver). */
    /** @type {any[]} */
    this.queue = [];
    this.draining = false;
    this.reader = new LineReader({
      maxLineBytes: maxMessageBytes,
      onLine: (line) => this.#line(line),
      onOversize: (info) => {
        if (info.done) return;
        this.#garbage(`a line over the ${maxMessageBytes}-byte limit (--max-upstream-message); skipping it`);
      },
    });
  }

  get pid() {
    return this.child?.pid ?? null;
  }

  async start() {
    // Started once: a transport that probed for MCP 2026-07-28 is handed on to initialize as it is.
    if (this.child) return;
    // The gateway's token stays with the gateway (MCP forbids token passthrough).
    const env = { ...process.env, ...this.env };
    delete env[TOKEN_ENV];
    const [file, argv] = useGroups ? ['/bin/sh', ['-c', WATCHDOG, `agentwire-mcp-upstream:${this.name}`, this.command, ...this.args]] : [this.command, this.args];
    const child = spawn(file, argv, {
      env,
      cwd: this.cwd,
      stdio: useGroups ? ['pipe', 'pipe', 'inherit', 'pipe'] : ['pipe', 'pipe', 'inherit'],
      detached: useGroups,
      windowsHide: true,
    });
    this.child = child;
    const watchdog = /** @type {import('node:net').Socket | undefined} */ (child.stdio[3] ?? undefined);
    watchdog?.on('error', (e) => log.debug(`upstream ${this.name}: watchdog pipe: ${e.message}`));
    watchdog?.unref?.();
    await new Promise((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    child.on('error', (e) => this.onerror?.(e));
    child.stdin?.on('error', (e) => log.debug(`upstream ${this.name}: stdin: ${e.message}`));
    child.stdout?.on('data', (chunk) => this.#data(chunk));
    child.stdout?.on('error', (e) => this.onerror?.(e));
    child.once('exit', (code, signal) => {
      this.exitReason = signal ? `killed by ${signal}` : code === 127 && useGroups ? `exited with code 127 (command not found: ${this.command})` : `exited with code ${code}`;
      clearTimeout(this.partialTimer);
      // The group may hold what it started; the watchdog ends it.
      watchdog?.destroy();
    });
    child.once('close', () => {
      if (this.child === child) this.child = null;
      this.onclose?.();
    });
  }

  /** @param {Buffer} chunk */
  #data(chunk) {
    this.reader.push(chunk);
    clearTimeout(this.partialTimer);
    if (this.reader.pending > 0) {
      // A line begun and not finished: fine while bytes flow, garbage once they stop.
      this.partialTimer = setTimeout(() => {
        const bytes = this.reader.discardPending();
        this.#garbage(`an unfinished line (${bytes} bytes, no newline) and nothing after it for ${PARTIAL_LINE_IDLE_MS / 1000} s`);
      }, PARTIAL_LINE_IDLE_MS);
      this.partialTimer.unref();
    }
  }

  /** @param {Buffer} line */
  #line(line) {
    let text;
    try {
      text = utf8.decode(line);
    } catch {
      this.#garbage(`a line of invalid UTF-8 (${line.length} bytes)`);
      return;
    }
    let message;
    try {
      message = toJsonRpcMessage(JSON.parse(text));
    } catch {
      this.#garbage(`a line that is not JSON-RPC: ${JSON.stringify(text.slice(0, 120))}${text.length > 120 ? '…' : ''}`);
      return;
    }
    this.#deliver(message);
  }

  /**
   * One message per event-loop turn: the SDK client handles a notification in a microtask but a
   * response at once, so a progress notification read in the same chunk as its result would
   * find its handler gone (and be dropped) if both were delivered back to back.
   */
  #deliver(/** @type {any} */ message) {
    this.queue.push(message);
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => this.#drain());
  }

  #drain() {
    const message = this.queue.shift();
    this.onmessage?.(message);
    if (this.queue.length) setImmediate(() => this.#drain());
    else this.draining = false;
  }

  /** @param {string} what */
  #garbage(what) {
    log.warn(`upstream ${this.name} wrote ${what} on stdout`);
    this.onprotocolerror?.(`upstream "${this.name}" wrote ${what} on stdout`);
  }

  /** @param {object} message */
  send(message) {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error(`upstream "${this.name}" is not running`));
    return new Promise((resolve, reject) => {
      const ok = stdin.write(`${JSON.stringify(message)}\n`, (e) => (e ? reject(e) : undefined));
      if (ok) resolve(undefined);
      else stdin.once('drain', () => resolve(undefined));
    });
  }

  /** Ends stdin (the MCP stdio shutdown), then TERM and KILL to the group if it lingers. */
  async close() {
    const child = this.child;
    clearTimeout(this.partialTimer);
    if (!child?.pid) return;
    const pid = child.pid;
    if (child.exitCode !== null || child.signalCode !== null) {
      killGroup(this.name, pid, 'SIGKILL');
      return;
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const wait = () => Promise.race([exited.then(() => true), new Promise((r) => setTimeout(r, GRACE_MS).unref()).then(() => false)]);
    child.stdin?.end();
    if (!(await wait())) {
      killGroup(this.name, pid, 'SIGTERM');
      if (!(await wait())) killGroup(this.name, pid, 'SIGKILL');
    }
    // Whatever the server started and left behind goes with it.
    killGroup(this.name, pid, 'SIGKILL');
  }
}

/** Signals the process group led by `pid` (the process alone where there are no groups). */
function killGroup(/** @type {string} */ name, /** @type {number} */ pid, /** @type {NodeJS.Signals} */ signal) {
  try {
    process.kill(useGroups ? -pid : pid, signal);
  } catch (e) {
    // ESRCH: the group is already gone.
    if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'ESRCH') log.warn(`upstream ${name}: ${signal}: ${errorMessage(e)}`);
  }
}
