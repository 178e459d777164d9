// Micro-benchmark of checkFinalArgumentSize: ns per call on typical and larger arguments (median
// of 5 runs). `node bench/investigate/final-argument-size.mjs [path to a built argument-limits.js]`
// (default this checkout's dist/), after `npm run build`.
const path =
  process.argv[2] ?? new URL('../../dist/session/argument-limits.js', import.meta.url).href;
const { checkFinalArgumentSize, resolveArgumentLimits } = await import(path);
const limits = resolveArgumentLimits({});
const cases = {
  typical: { city: 'Oslo', days: 1, units: 'metric', lang: 'en-US', include_alerts: true },
  ascii1k: { note: 'a'.repeat(1000), id: 'abc123', tags: ['x', 'y', 'z'] },
  big200k: { note: 'a'.repeat(200_000) },
  mixed10k: {
    note: 'Grüße "quoted" \\ line\n'.repeat(400),
    list: Array.from({ length: 50 }, (_, i) => ({ i, s: 'café' })),
  },
};
const N = { typical: 2_000_000, ascii1k: 300_000, mixed10k: 20_000, big200k: 500 };
for (const [name, args] of Object.entries(cases)) {
  for (let i = 0; i < N[name] / 10; i++) checkFinalArgumentSize(args, limits);
  const runs = [];
  for (let r = 0; r < 5; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < N[name]; i++) checkFinalArgumentSize(args, limits);
    runs.push(Number(process.hrtime.bigint() - t) / N[name]);
  }
  runs.sort((a, b) => a - b);
  console.log(
    `${name}: median ${runs[2].toFixed(1)} ns/call (min ${runs[0].toFixed(1)}, max ${runs[4].toFixed(1)})`,
  );
}
