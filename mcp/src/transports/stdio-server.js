// The gateway's own stdio side (the MCP client spawned it): newline-delimited JSON-RPC on
// stdin/stdout. Every line is checked (jsonrpc.js) before the session sees it, and a bad one is
// answered with its JSON-RPC error here; stdout carries nothing but protocol.

import { decodeClientMessage, errorResponse, INVALID_REQUEST, oversizeRequestId } from '../jsonrpc.js';
import { LineReader } from '../lines.js';
import { errorMessage, log } from '../log.js';

/** @typedef {import('@modelcontextprotocol/sdk/shared/transport.js').Transport} Transport */

/** @implements {Transport} */
export class StdioServerTransport {
  /**
   * @param {{ stdin?: NodeJS.ReadableStream, stdout?: NodeJS.WritableStream, maxMessageBytes: number }} options
   */
  constructor({ stdin = process.stdin, stdout = process.stdout, maxMessageBytes }) {
    this.stdin = stdin;
    this.stdout = stdout;
    this.maxMessageBytes = maxMessageBytes;
    /** @type {((message: any, extra?: any) => void) | undefined} */
    this.onmessage = undefined;
    /** @type {(() => void) | undefined} */
    this.onclose = undefined;
    /** @type {((error: Error) => void) | undefined} */
    this.onerror = undefined;
    this.closed = false;
    this.reader = new LineReader({
      maxLineBytes: maxMessageBytes,
      onLine: (line) => this.#line(line),
      onOversize: (info) => {
        if (!info.done) return;
        const id = oversizeRequestId(info.head.toString('utf8'), info.tail.toString('utf8'));
        log.warn(`stdin: a message of ${info.bytes} bytes is over --max-body (${this.maxMessageBytes}); refused`);
        this.#reply(errorResponse(id, INVALID_REQUEST, `Invalid Request: the message is ${info.bytes} bytes, over the ${this.maxMessageBytes}-byte limit (--max-body)`));
      },
    });
    this.ondata = (/** @type {Buffer} */ chunk) => this.reader.push(chunk);
    this.onend = () => this.close();
    this.onstreamerror = (/** @type {Error} */ e) => this.onerror?.(e);
  }

  async start() {
    this.stdin.on('data', this.ondata);
    this.stdin.on('end', this.onend);
    this.stdin.on('error', this.onstreamerror);
  }

  /** @param {Buffer} line */
  #line(line) {
    const decoded = decodeClientMessage(line);
    if (!decoded.ok) {
      log.warn(`stdin: ${decoded.response.error.message}`);
      this.#reply(decoded.response);
      return;
    }
    this.onmessage?.(decoded.message);
  }

  /** @param {object} response */
  #reply(response) {
    this.send(response).catch((e) => log.error(`stdout: ${errorMessage(e)}`));
  }

  /** @param {object} message */
  send(message) {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const ok = this.stdout.write(`${JSON.stringify(message)}\n`, (e) => (e ? reject(e) : undefined));
      // A client that does not read: wait for it, so results do not pile up in memory.
      if (ok) resolve(undefined);
      else this.stdout.once('drain', () => resolve(undefined));
    });
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('end', this.onend);
    this.stdin.off('error', this.onstreamerror);
    this.onclose?.();
  }
}
