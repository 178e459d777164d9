// Option parsing shared by the benchmarks and bench/investigate.

/** `text` as an integer from 1 to `max`; exits with a message naming `--name` otherwise. */
export function positive(name, text, max) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`--${name} must be an integer from 1 to ${max}, got ${text}`);
    process.exit(2);
  }
  return n;
}

/** The builds named by `--dists a,b` (folders holding a built dist). */
export function distList(text) {
  return text.split(',').filter((d) => d !== '');
}
