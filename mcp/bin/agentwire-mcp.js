#!/usr/bin/env node
import { main } from '../src/cli.js';

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Upstream children or sockets that linger must not keep the gateway alive after shutdown.
setTimeout(() => process.exit(code), 1000);
