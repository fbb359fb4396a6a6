// @ts-check
// `npx agentwire compact|tokens`: the Rust CLI's two commands for JSON users, over the same core
// calls (compact.json, tokens.count, tokens.encode) through the addon or wasm. Output, report
// lines and exit codes are the Rust CLI's (cli/src/compact.rs, cli/src/main.rs): 0 when done (an
// input kept is done), 1 on an error (`error[CODE]: message` on stderr), 2 on a usage error.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const USAGE = `Usage: agentwire <command> [options] [FILE]

Commands (FILE defaults to stdin):
  compact [--tool T] [--encoding E] [--min-savings S] [--report] [FILE]
      The fewest-token lossless form of a JSON document, on stdout. --report prints every
      candidate and the choice, or why the input was kept, on stderr.
  tokens [--encoding E] [--ids] [FILE]
      The exact token count (or the token ids) of a text.

Encodings: cl100k_base (default), o200k_base, and for compact: bytes (UTF-8 bytes).
Exact counts need the package agentwire-tokens: npx -p agentwire -p agentwire-tokens agentwire ...
The other commands (gcx, gcf, events, gateway, conformance) are in the Rust CLI.`;

/** A usage error: exit code 2, as clap gives. */
class UsageError extends Error {}

/**
 * @typedef {{ stdout: { write(chunk: string | Uint8Array): unknown },
 *   stderr: { write(chunk: string): unknown }, stdin: () => Uint8Array }} Io
 */

/**
 * Runs one command; resolves to the exit code.
 * @param {string[]} argv  the arguments after the program name
 * @param {typeof import('../index.js')} api  the package (`agentwire`)
 * @param {Io} io
 */
export async function main(argv, api, io) {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'compact':
        return compact(parse(rest, COMPACT_OPTIONS), api, io);
      case 'tokens':
        return tokens(parse(rest, TOKENS_OPTIONS), api, io);
      case '--version':
      case '-V':
        io.stdout.write(`agentwire ${api.coreVersion()}\n`);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        io.stdout.write(`${USAGE}\n`);
        return 0;
      default:
        throw new UsageError(command === undefined ? 'a command is required' : `unknown command ${JSON.stringify(command)}`);
    }
  } catch (error) {
    if (error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      io.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof api.AgentwireError) {
      io.stderr.write(`error[${error.code}]: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** @type {import('node:util').ParseArgsConfig['options']} */
const COMPACT_OPTIONS = {
  tool: { type: 'string', default: 'result' },
  encoding: { type: 'string', default: 'cl100k_base' },
  'min-savings': { type: 'string', default: '0.1' },
  report: { type: 'boolean', default: false },
};

/** @type {import('node:util').ParseArgsConfig['options']} */
const TOKENS_OPTIONS = {
  encoding: { type: 'string', default: 'cl100k_base' },
  ids: { type: 'boolean', default: false },
};

/**
 * @param {string[]} args
 * @param {import('node:util').ParseArgsConfig['options']} options
 */
function parse(args, options) {
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
  return { values, file: positionals[0] };
}

/** The input's bytes: the file, or stdin for none or `-`. */
function input(file, io, api) {
  if (file === undefined || file === '-') return io.stdin();
  try {
    return readFileSync(file);
  } catch (error) {
    throw new api.AgentwireError({ code: 'IO', message: `${file}: ${error.message}` });
  }
}

/** @param {{ values: any, file?: string }} args */
function compact({ values, file }, api, io) {
  const minSavings = Number(values['min-savings']);
  if (values['min-savings'].trim() === '' || Number.isNaN(minSavings)) {
    throw new UsageError(`invalid value ${JSON.stringify(values['min-savings'])} for --min-savings`);
  }
  const bytes = input(file, io, api);
  let out;
  try {
    out = api.compact.json(bytes, {
      tool: values.tool,
      tokenizer: values.encoding,
      minSavings,
      exactCounts: values.report,
    });
  } catch (error) {
    if (!(error instanceof api.AgentwireError) || error.code !== 'INVALID_UTF8') throw error;
    // Not UTF-8: written back unchanged, as the Rust CLI does.
    if (values.report) {
      io.stderr.write(`input: ${bytes.length} bytes, not UTF-8\n`);
      io.stderr.write(`kept: input (not counted): NOT_JSON not JSON: ${error.message}\n`);
    }
    io.stdout.write(bytes);
    return 0;
  }
  if (values.report) {
    io.stderr.write(`input: ${out.inputTokens} tokens, ${bytes.length} bytes\n`);
    for (const c of out.candidates) {
      const tokens = c.tokens === null ? '-' : String(c.tokens);
      const state = c.lossless === null ? 'not read back: more tokens than the best' : c.lossless ? 'lossless' : `lossy: ${c.reason}`;
      io.stderr.write(`${c.format.padEnd(13)} ${tokens.padStart(9)} tokens ${String(c.bytes).padStart(10)} bytes  ${state}\n`);
    }
    io.stderr.write(
      out.reason === null
        ? `chosen: ${out.format} (${out.tokens} tokens)\n`
        : `kept: input (${out.tokens} tokens): ${out.reason.code} ${out.reason.message}\n`,
    );
  }
  io.stdout.write(out.text.endsWith('\n') ? out.text : `${out.text}\n`);
  return 0;
}

/** @param {{ values: any, file?: string }} args */
function tokens({ values, file }, api, io) {
  const bytes = input(file, io, api);
  if (values.ids) {
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      api.tokens.count(bytes, values.encoding); // throws INVALID_UTF8 with its line and column
    }
    io.stdout.write(`[${Array.from(api.tokens.encode(/** @type {string} */ (text), values.encoding)).join(',')}]\n`);
    return 0;
  }
  let count;
  try {
    count = api.tokens.count(bytes, values.encoding);
  } catch (error) {
    if (!(error instanceof api.AgentwireError) || error.code !== 'INVALID_UTF8') throw error;
    // The Rust CLI counts as it reads, so it names the byte, not a line and column.
    io.stderr.write(`error[INVALID_UTF8]: the text is not UTF-8 at byte ${error.offset}\n`);
    return 1;
  }
  io.stdout.write(`${count}\n`);
  return 0;
}
