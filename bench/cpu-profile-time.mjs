// Time in a V8 CPU profile (`.cpuprofile`), shared by cpu-profile-top.mjs and turn-http's
// `--cpu-prof-out`: each sample's time delta goes to the node it sampled.

/** Self time per profile node id, in µs. */
export function selfTimes(profile) {
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return self;
}

/** The time of the samples other than `(idle)`, in µs. */
export function busyUs(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let us = 0;
  for (const [id, t] of selfTimes(profile))
    if (byId.get(id)?.callFrame.functionName !== '(idle)') us += t;
  return us;
}
