// The live map with a large fleet (issue 6): /map in headless Chromium with 2,000 and then 10,000
// vehicles while a subset of them report new positions (so glides run and the map redraws every
// frame). Per animation frame: how long the main thread is busy from the frame's start until it
// can run the next task, and the frame-to-frame interval; plus the time until the first vehicles
// are handed to the map after navigation.
import type { CDPSession, Page } from "@playwright/test";
import { openPage, withBrowser } from "./browser";
import { fleetOf, report, sleep, spot, type Fleet } from "./fleet";
import { load, percentile, report as write, type BenchResult } from "./lib";

const SIZES = [2_000, 10_000];
const MOVING = 300;
const MEASURE_MS = 8_000;

declare global {
  interface Window {
    __mapTimes?: { first: number | null; all: number | null; wanted: number };
    __frames?: { start: number; busy: number }[];
    __stopFrames?: () => void;
  }
}

/** Installed before the app's scripts: when the map's vehicle count first becomes >0 and =N. */
function watchVehicleCount(wanted: number) {
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

/** A requestAnimationFrame loop that records, per frame, when the main thread is free again. */
function recordFrames() {
  const frames: { start: number; busy: number }[] = [];
  window.__frames = frames;
  let running = true;
  window.__stopFrames = () => (running = false);
  const frame = (start: number) => {
    if (!running) return;
    // A message is handled as a task after this frame's callbacks, style, layout and paint.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => frames.push({ start, busy: performance.now() - start });
    channel.port2.postMessage(0);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function taskSeconds(cdp: CDPSession) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  return metrics.find((m) => m.name === "TaskDuration")?.value ?? 0;
}

/** `BENCH_PROFILE=1 npm run bench -- map`: where the main thread's time went, by self time. */
function printHotspots(size: number, profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[]; timeDeltas?: number[] }) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const f = byNode.get(id)!;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 20);
  console.log(`\nmain thread, ${size} vehicles, self time in ${MEASURE_MS / 1000} s:`);
  for (const [key, ms] of top) console.log(`${ms.toFixed(0).padStart(7)} ms  ${key}`);
}

async function measure(page: Page, fleet: Fleet, size: number): Promise<BenchResult[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  await page.addInitScript(watchVehicleCount, size);
  await page.goto("/map");
  await page.waitForFunction(() => (window.__mapTimes?.all ?? -1) > 0, undefined, { timeout: 120_000, polling: 100 });
  const times = await page.evaluate(() => window.__mapTimes!);
  await sleep(1_000);

  // Move a subset: each of MOVING vehicles reports once, 10 at a time, while frames are recorded.
  let moving = true;
  const at = Date.now();
  const mover = load(MOVING, 10, async (i) => {
    if (!moving) return;
    const b = fleet.beacons[(i * 7) % fleet.beacons.length]!;
    await report({ id: b.id, ...spot(i, 20), timestamp: at + i, speed: 30, ignition: true });
  });
  await sleep(1_500); // the first pokes arrive and glides start
  const tasksBefore = await taskSeconds(cdp);
  const profiling = Boolean(process.env.BENCH_PROFILE);
  if (profiling) await cdp.send("Profiler.enable").then(() => cdp.send("Profiler.start"));
  await page.evaluate(recordFrames);
  await sleep(MEASURE_MS);
  if (profiling) printHotspots(size, (await cdp.send("Profiler.stop")).profile);
  const frames = await page.evaluate(() => {
    window.__stopFrames!();
    return window.__frames!;
  });
  const tasksAfter = await taskSeconds(cdp);
  moving = false;
  await mover;
  await cdp.detach();

  const busy = frames.map((f) => f.busy).sort((a, b) => a - b);
  const intervals = frames
    .slice(1)
    .map((f, i) => f.start - frames[i]!.start)
    .sort((a, b) => a - b);
  const n = size.toLocaleString("en-US");
  return [
    { metric: `${n} vehicles: first vehicles drawn after navigation`, value: times.first!, unit: "ms" },
    { metric: `${n} vehicles: all vehicles drawn after navigation`, value: times.all!, unit: "ms" },
    { metric: `${n} vehicles: main-thread time per frame, p50`, value: percentile(busy, 50), unit: "ms", target: "< 16 ms (aim 8)" },
    { metric: `${n} vehicles: main-thread time per frame, p95`, value: percentile(busy, 95), unit: "ms", target: "< 16 ms" },
    { metric: `${n} vehicles: frame interval, p50`, value: percentile(intervals, 50), unit: "ms" },
    { metric: `${n} vehicles: frame interval, p95`, value: percentile(intervals, 95), unit: "ms" },
    { metric: `${n} vehicles: frames in ${MEASURE_MS / 1000} s`, value: frames.length, unit: "" },
    { metric: `${n} vehicles: main-thread task time per frame, mean (CDP TaskDuration)`, value: ((tasksAfter - tasksBefore) * 1000) / Math.max(1, frames.length), unit: "ms" },
  ];
}

const results: BenchResult[] = [];
await withBrowser(async (browser) => {
  for (const size of SIZES) {
    const fleet = await fleetOf(size);
    const page = await openPage(browser, fleet.token);
    try {
      results.push(...(await measure(page, fleet, size)));
    } finally {
      await page.context().close();
    }
  }
});

write(
  "Live map with a large fleet",
  results,
  [
    `Headless Chromium (WebGL through SwiftShader, i.e. on the CPU), 1280×800, signed in on /map with the offline map style.`,
    `While ${MOVING} of the vehicles report a new position through OsmAnd (10 at a time), an in-page requestAnimationFrame`,
    `loop records, for ${MEASURE_MS / 1000} s, the time from each frame's start until a task posted from that frame runs (the`,
    `main thread's work for the frame: the map's glide loop, mapbox-gl's setData and render, style, paint) and the`,
    `interval between frames. The CDP mean is Chromium's TaskDuration over the window divided by the frames.`,
    `"Drawn" is the map's data-vehicle-count attribute reaching >0 (first) and N (all) plus two animation frames, in the`,
    `page's clock from navigation start (includes signing in, the initial pull and loading mapbox-gl).`,
    `With software WebGL on a shared 2-core machine, absolute frame times are pessimistic; compare the two sizes.`,
  ].join(" "),
);
