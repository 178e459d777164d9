// Writes to stdout without end (a runaway command): only a cap or a kill stops it.
const chunk = 'x'.repeat(64 * 1024);
const write = () => {
  while (process.stdout.write(chunk));
  process.stdout.once('drain', write);
};
write();
