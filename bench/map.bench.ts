// The live map with a large fleet (issue 11): /map in headless Chromium with 100, 2,000 and
// 10,000 vehicles while EVERY vehicle reports new positions, round robin, as fast as the local
// Worker accepts them (the rate is measured and printed), so glides run and the map redraws
// every frame. Per animation frame: the renderer main thread's CPU time (thread ticks of its
// top-level tasks in a Chromium trace, so time spent by the GPU process rasterising WebGL in
// software is not counted) and the frame-to-frame interval; plus the time until all vehicles are
// drawn after navigation.
//   BENCH_MAP_SIZES=2000,10000 npm run bench -- map     only some sizes
import type { Browser, Page } from "@playwright/test";
import { openPage, withBrowser } from "./browser";
import { fleetOf, report, sleep, spot, type Fleet } from "./fleet";
import { percentile, report as write, type BenchResult } from "./lib";
import { printLargest, selfTimes, type CpuProfile, type TraceEvent } from "./devtools";

/** Fleet sizes; "-" after one measures it with the map's low-zoom clusters off (every beacon drawn, gliding). */
const SIZES = (process.env.BENCH_MAP_SIZES ?? "100,2000,10000,10000-").split(",");
const MEASURE_MS = 8_000;
/** Reports in flight at once: enough to keep the local Worker busy (its micro-batcher shares D1 round trips). */
const CONCURRENCY = 24;

declare global {
  interface Window {
    __mapTimes?: { first: number | null; all: number | null; wanted: number };
    __frames?: number[];
    __stopFrames?: () => void;
    __fleetOpsDebug?: string[];
  }
}

/** Installed before the app's scripts: when the map's vehicle count first becomes >0 and =N. */
function watchVehicleCount({ wanted, clustered }: { wanted: number; clustered: boolean }) {
  // The map's test hooks (data-vehicle-count) are written only with its debug flag on.
  window.__fleetOpsDebug = clustered ? ["map"] : ["map", "map-no-clusters"];
  window.__mapTimes = { first: null, all: null, wanted };
  const times = window.__mapTimes;
  new MutationObserver((records) => {
    for (const r of records) {
      const n = Number((r.target as Element).getAttribute("data-vehicle-count") ?? 0);
      // The attribute is set right after the layer's data; two frames later it has been drawn.
      if (n > 0 && times.first === null) {
        times.first = -1;
        requestAnimationFrame(() => requestAnimationFrame(() => (times.first = performance.now())));
      }
      if (n >= times.wanted && times.all === null) {
        times.all = -1;
        requestAnimationFrame(() => requestAnimationFrame(() => (times.all = performance.now())));
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-vehicle-count"] });
}

/** A requestAnimationFrame loop that marks each frame in the trace and records its start. */
function recordFrames() {
  const frames: number[] = [];
  window.__frames = frames;
  let running = true;
  window.__stopFrames = () => (running = false);
  const frame = (start: number) => {
    if (!running) return;
    frames.push(start);
    performance.mark("bench-frame");
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/**
 * Per frame (between two "bench-frame" marks), the CPU time of the renderer main thread's
 * top-level tasks (thread duration, not wall time: waiting on the GPU process is not counted).
 */
function mainThreadPerFrame(events: TraceEvent[]): number[] {
  const marks = events.filter((e) => e.name === "bench-frame" && e.cat.includes("blink.user_timing"));
  if (!marks.length) return [];
  const { pid } = marks[0]!;
  const main = events.find(
    (e) => e.ph === "M" && e.name === "thread_name" && e.pid === pid && e.args?.name === "CrRendererMain",
  );
  const tid = main?.tid ?? marks[0]!.tid;
  const tasks = events
    .filter(
      (e) =>
        e.pid === pid && e.tid === tid && e.ph === "X" && e.cat.split(",").includes("toplevel") && e.tdur !== undefined,
    )
    .sort((a, b) => a.ts - b.ts);
  const starts = marks.map((m) => m.ts).sort((a, b) => a - b);
  const perFrame = new Array<number>(Math.max(0, starts.length - 1)).fill(0);
  let end = -Infinity;
  let f = 0;
  for (const t of tasks) {
    if (t.ts < end) continue; // nested in the previous top-level task
    end = t.ts + (t.dur ?? 0);
    // The frame whose mark precedes the task (a mark is written inside the frame's first task).
    while (f + 1 < starts.length && starts[f + 1]! <= t.ts) f++;
    if (t.ts < starts[0]! || f >= perFrame.length) continue;
    perFrame[f]! += t.tdur! / 1000;
  }
  return perFrame;
}

/** `BENCH_PROFILE=1`: where the main thread's time went while measuring, by self time. */
function printHotspots(size: number, profile: CpuProfile) {
  const self = selfTimes(profile);
  console.log(`\nmain thread, ${size} vehicles, self time while measuring:`);
  printLargest(self, 25);
  // By script (the bundle's chunk names: mapbox-gl, fleet-map, replicache-client…).
  const byScript = new Map<string, number>();
  for (const [key, ms] of self) {
    const script =
      key
        .split(" ")
        .pop()!
        .replace(/-[\w-]{8}\.js:\d+$/, "")
        .replace(/:\d+$/, "") || "(native)";
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
  }
  console.log(`by script:`);
  printLargest(byScript, 10);
}

async function measure(
  browser: Browser,
  page: Page,
  fleet: Fleet,
  size: number,
  clustered: boolean,
): Promise<BenchResult[]> {
  await page.addInitScript(watchVehicleCount, { wanted: size, clustered });
  await page.goto("/map?debug=map");
  await page.waitForFunction(() => (window.__mapTimes?.all ?? -1) > 0, undefined, { timeout: 180_000, polling: 100 });
  const times = await page.evaluate(() => window.__mapTimes!);
  await sleep(1_000);

  // Every vehicle reports, round robin over the whole fleet, CONCURRENCY reports in flight.
  let moving = true;
  let sent = 0;
  let step = 1;
  const reporters = Array.from({ length: CONCURRENCY }, async () => {
    while (moving) {
      const i = sent++ % fleet.beacons.length;
      if (i === 0) step++;
      await report({
        id: fleet.beacons[i]!.id,
        ...spot(i, step * 5),
        timestamp: Date.now(),
        speed: 30,
        ignition: true,
      }).catch(() => {});
    }
  });
  await sleep(2_000); // the first pokes arrive and glides start
  const sentBefore = sent;
  const started = Date.now();
  const profiling = Boolean(process.env.BENCH_PROFILE);
  const cdp = profiling ? await page.context().newCDPSession(page) : null;
  if (cdp) await cdp.send("Profiler.enable").then(() => cdp.send("Profiler.start"));
  await browser.startTracing(page, { categories: ["toplevel", "blink.user_timing", "__metadata"] });
  await page.evaluate(recordFrames);
  await sleep(MEASURE_MS);
  const frames = await page.evaluate(() => {
    window.__stopFrames!();
    return window.__frames!;
  });
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };
  if (cdp) printHotspots(size, (await cdp.send("Profiler.stop")).profile);
  const rate = (sent - sentBefore) / ((Date.now() - started) / 1000);
  moving = false;
  await Promise.all(reporters);

  const busy = mainThreadPerFrame(trace.traceEvents).sort((a, b) => a - b);
  const intervals = frames
    .slice(1)
    .map((f, i) => f - frames[i]!)
    .sort((a, b) => a - b);
  const n = `${size.toLocaleString("en-US")}${clustered ? "" : ", clusters off,"}`;
  console.log(
    `${n} vehicles: ${rate.toFixed(0)} reports/s accepted, ${frames.length} frames, main-thread p95 ${percentile(busy, 95).toFixed(1)} ms, interval p95 ${percentile(intervals, 95).toFixed(1)} ms`,
  );
  return [
    { metric: `${n} vehicles: all vehicles drawn after navigation`, value: times.all!, unit: "ms" },
    { metric: `${n} vehicles: reports accepted while measuring (every vehicle, round robin)`, value: rate, unit: "/s" },
    { metric: `${n} vehicles: main-thread CPU time per frame, p50`, value: percentile(busy, 50), unit: "ms" },
    {
      metric: `${n} vehicles: main-thread CPU time per frame, p95`,
      value: percentile(busy, 95),
      unit: "ms",
      target: "< 8 ms at 10,000",
    },
    { metric: `${n} vehicles: frame interval, p50`, value: percentile(intervals, 50), unit: "ms" },
    {
      metric: `${n} vehicles: frame interval, p95`,
      value: percentile(intervals, 95),
      unit: "ms",
      target: "10,000 < 2 × 100",
    },
    { metric: `${n} vehicles: frames in ${MEASURE_MS / 1000} s`, value: frames.length, unit: "" },
  ];
}

const results: BenchResult[] = [];
await withBrowser(async (browser) => {
  for (const spec of SIZES) {
    const size = Number(spec.replace("-", ""));
    const fleet = await fleetOf(size);
    const page = await openPage(browser, fleet.token);
    try {
      results.push(...(await measure(browser, page, fleet, size, !spec.endsWith("-"))));
    } finally {
      await page.context().close();
    }
  }
});

const at = (label: string, metric: string) => results.find((r) => r.metric === `${label} vehicles: ${metric}`)?.value;
const small = at("100", "frame interval, p95");
for (const label of ["10,000", "10,000, clusters off,"]) {
  const large = at(label, "frame interval, p95");
  if (small && large)
    results.push({
      metric: `frame interval p95, ${label.replace(/,$/, "")} ÷ 100 vehicles`,
      value: large / small,
      unit: "×",
      target: "< 2",
    });
}

write(
  "Live map with a large fleet",
  results,
  [
    `Headless Chromium (WebGL through SwiftShader, i.e. on the CPU), 1280×800, signed in on /map with the offline map style.`,
    `Every vehicle of the fleet reports a new position through OsmAnd, round robin, ${CONCURRENCY} requests in flight (the`,
    `rate the local Worker accepts is given per size), while an in-page requestAnimationFrame loop marks ${MEASURE_MS / 1000} s of`,
    `frames in a Chromium trace. Main-thread CPU time per frame sums the thread durations (thread ticks) of the renderer`,
    `main thread's top-level tasks between two frame marks: the map's work, mapbox-gl's render, style and paint, but not the`,
    `GPU process rasterising WebGL in software. "All drawn" is the map's data-vehicle-count debug attribute reaching N plus`,
    `two animation frames, in the page's clock from navigation start (signing in, the initial pull and loading mapbox-gl included).`,
    `In the fitted view of the whole fleet, 2,000 and 10,000 vehicles are drawn as clusters (ADR 0012), whose members' glides need`,
    `no frames; "clusters off" measures the same 10,000 with every beacon drawn and gliding.`,
  ].join(" "),
);
