// Newline-delimited messages (the MCP stdio framing) from a byte stream, in bounded memory: a
// line longer than the limit is not kept but skipped to its end, and reported with its first
// and last bytes (enough to answer a request by its id).

const EDGE = 1024;

/**
 * @typedef {{ bytes: number, head: Buffer, tail: Buffer, done?: boolean }} Oversize
 */

export class LineReader {
  /**
   * @param {{ maxLineBytes: number, onLine: (line: Buffer) => void,
   *   onOversize: (info: Oversize) => void }} options `onOversize` is called once the line is
   *   known to be too long (`bytes`, `tail`: so far) and again at its end (`done` in the info)
   */
  constructor({ maxLineBytes, onLine, onOversize }) {
    this.maxLineBytes = maxLineBytes;
    this.onLine = onLine;
    this.onOversize = onOversize;
    /** @type {Buffer[]} */
    this.chunks = [];
    this.buffered = 0;
    /** While skipping an oversize line: its size so far, first and last bytes. */
    /** @type {{ bytes: number, head: Buffer, tail: Buffer } | null} */
    this.skipping = null;
  }

  /** Bytes of an unfinished line held now (a partial message waiting for its newline). */
  get pending() {
    return this.skipping ? this.skipping.bytes : this.buffered;
  }

  /** @param {Buffer} chunk */
  push(chunk) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      this.#append(chunk.subarray(start, nl));
      this.#endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.#append(chunk.subarray(start));
  }

  /** Drops an unfinished line (a partial message that will never complete). */
  discardPending() {
    const bytes = this.pending;
    this.chunks = [];
    this.buffered = 0;
    this.skipping = null;
    return bytes;
  }

  /** @param {Buffer} part */
  #append(part) {
    if (!part.length) return;
    if (this.skipping) {
      this.skipping.bytes += part.length;
      this.skipping.tail = keepTail(this.skipping.tail, part);
      return;
    }
    this.chunks.push(part);
    this.buffered += part.length;
    if (this.buffered > this.maxLineBytes) {
      // Only the edges are kept (no copy of the whole line).
      const head = Buffer.concat(this.chunks.slice(0, Math.ceil(EDGE / Math.max(1, this.chunks[0].length)) + 1)).subarray(0, EDGE);
      let tail = Buffer.alloc(0);
      for (let i = this.chunks.length - 1; i >= 0 && tail.length < EDGE; i--) tail = Buffer.concat([this.chunks[i], tail]).subarray(-EDGE);
      this.skipping = { bytes: this.buffered, head: Buffer.from(head), tail: Buffer.from(tail) };
      this.chunks = [];
      this.buffered = 0;
      this.onOversize({ ...this.skipping });
    }
  }

  #endLine() {
    if (this.skipping) {
      const info = this.skipping;
      this.skipping = null;
      this.onOversize({ ...info, done: true });
      return;
    }
    let line = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = [];
    this.buffered = 0;
    if (line.length && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
    if (line.length) this.onLine(line);
  }
}

function keepTail(/** @type {Buffer} */ tail, /** @type {Buffer} */ part) {
  if (part.length >= EDGE) return Buffer.from(part.subarray(-EDGE));
  return Buffer.concat([tail, part]).subarray(-EDGE);
}
