// What Chromium's DevTools protocol hands the benches: a trace's events (`Tracing`) and a page's
// CPU profile (`Profiler.stop`), read by self time for the `BENCH_PROFILE` / `PLAN_PAGE_TRACE`
// diagnostics of where a page's main thread went.

/** One event of a Chromium trace (the fields the benches read). */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Milliseconds of self time per function, keyed "name file:line". */
export function selfTimes(profile: CpuProfile): Map<string, number> {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const f = byNode.get(id)!;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  return self;
}

/** Prints the `count` largest entries, largest first. */
export function printLargest(times: Map<string, number>, count: number) {
  for (const [key, ms] of [...times].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${ms.toFixed(0).padStart(7)} ms  ${key}`);
}
