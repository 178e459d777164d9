// Every allocation `run` makes (turn-allocs.mjs, turn-floor.mjs): V8's sampling heap profiler at a
// 1-byte interval takes each one, collected or not, so a profile's samples are its allocations.

/** The sampling heap profile of `run()` on a connected `inspector` session. */
export async function everyAllocation(inspector, run) {
  await inspector.post('HeapProfiler.startSampling', {
    samplingInterval: 1,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await run();
  const { profile } = await inspector.post('HeapProfiler.stopSampling');
  return profile;
}
