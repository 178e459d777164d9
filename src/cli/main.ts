#!/usr/bin/env node
/**
 * The `switchboard` binary (package.json "bin"): a thin shell over {@link runCli}.
 */
import { processIO } from './io.js';
import { runCli } from './run-cli.js';

// A reader that stops early (`switchboard simulate … | head`) closes the pipe. Stop quietly, as
// Unix tools do, instead of crashing with an unhandled EPIPE and a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIO());
