#!/usr/bin/env node
// `npx agentwire compact|tokens` (lib/cli.js), on the package as Node loads it.
import { readFileSync } from 'node:fs';
import * as api from '../node.js';
import { main } from '../lib/cli.js';

// A reader that stops early (`| head`) ends the command quietly, as Unix tools do.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
process.exitCode = await main(process.argv.slice(2), api, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: () => readFileSync(0),
});
