// Writes lines to stderr, then exits with the status given as --code=N (default 3).
const code = Number(process.argv.find((a) => a.startsWith('--code='))?.slice(7) ?? 3);
for (let i = 1; i <= 200; i++) process.stderr.write(`line ${i} of the log\n`);
process.stderr.write('fatal: no such memory\n');
process.exit(code);
