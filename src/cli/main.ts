#!/usr/bin/env node
/**
 * The `switchboard` binary (package.json "bin"): a thin shell over {@link runCli}.
 */
import { processIO } from './io.js';
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), processIO());
