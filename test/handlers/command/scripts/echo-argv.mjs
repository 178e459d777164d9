// Prints its argv (after the script) and its whole environment as JSON: what the command got.
process.stdout.write(JSON.stringify({ argv: process.argv.slice(2), env: process.env }));
