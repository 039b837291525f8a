// A phone (issue 41): Chromium throttled through the DevTools protocol as a mid-range phone on a
// poor mobile network (4x CPU slowdown, 1.6 Mbps down, 750 kbps up, 150 ms round trip), signed in
// to a small fleet. Cold: a first visit (empty cache, no service worker yet); warm: a new tab after
// the service worker installed the build, the app opened from the device.
import { loadavg } from "node:os";
import type { Browser, CDPSession, Page } from "@playwright/test";
import { openPage, withBrowser } from "./browser";
import { newWorkspace, orderBeacons, reportAll } from "./fleet";
import { type BenchResult, report } from "./lib";
import { type Busy, FIRST_CONTENT_MARK, traceLoad } from "./phone-busy";
import { recordRequests, TRACE_MARKS } from "./phone-trace";
import { PHONE, throttleLikeAPhone } from "./phone-throttle";

const RUNS = Number(process.env.PHONE_RUNS ?? 3);
/** PHONE_TRACE=1: one run of each, with its requests and milestones printed (bench/phone-trace.ts). */
const TRACE = Boolean(process.env.PHONE_TRACE);
/** PHONE_ONLY=map,warmMap: only those measures (an A/B of one page on a loaded machine); the others report 0. */
const ONLY = process.env.PHONE_ONLY?.split(",");
/**
 * PHONE_UNTRACED=1: first content with no trace running (tracing the timeline slows the renderer:
 * a warm /actions 2.1 s traced where 1 s was measured before traces, ADR 0099); no busy time then.
 */
const UNTRACED = Boolean(process.env.PHONE_UNTRACED);
const traces = new Map<Page, (page: Page, title: string) => Promise<void>>();
/** Each throttled page's DevTools session, through which its first content is read. */
const sessions = new Map<Page, CDPSession>();

/**
 * Records, in the page, when the first page heading (on /map: the vehicles drawn, as the sketch or
 * on the map) appears, the first content that is the page's own; and when the map is ready.
 */
const FIRST_CONTENT = `(() => {
  const seen = () => document.querySelector("main h1, [data-vehicles-shown='true'], [data-map-ready='true']");
  const mark = () => {
    if (!window.__firstContent && seen()) {
      window.__firstContent = performance.now();
      performance.mark("${FIRST_CONTENT_MARK}");
    }
    if (!window.__mapReady && document.querySelector("[data-map-ready='true']")) window.__mapReady = performance.now();
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true });
})();`;

async function throttle(page: Page) {
  const cdp = await throttleLikeAPhone(page);
  sessions.set(page, cdp);
  if (TRACE) traces.set(page, recordRequests(cdp));
}

interface Load {
  /** ms from the navigation's start to the page's first own content */
  first: number;
  /** ms to the map ready (its style loaded, the vehicles on it); /map only */
  mapReady?: number;
  /** the main thread's work and the JavaScript fetched before first content, from the load's trace */
  trace?: Busy;
  /** over several runs: the least busy one's busy time (the machine's load only ever adds to it) */
  minBusy?: number;
}

/**
 * Waits until the page has recorded `name`, asking through its DevTools session every 100 ms.
 * Playwright's waitForFunction would first evaluate Playwright's own script in the page: 150 to
 * 300 ms of the throttled main thread, in the middle of the start it measures (ADR 0099).
 */
async function readMark(page: Page, name: "__firstContent" | "__mapReady"): Promise<number> {
  const cdp = sessions.get(page)!;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    // Between two documents there is no context to ask: ask again.
    const answer = await cdp
      .send("Runtime.evaluate", { expression: `window.${name}`, returnByValue: true })
      .catch(() => null);
    const value: unknown = answer?.result.value;
    if (typeof value === "number") return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} not recorded within 120 s`);
}

/**
 * Opens `path` and waits for its first own content, and on /map for the map to be ready too; the
 * load is traced (bench/phone-busy.ts) up to its first content.
 */
async function measureLoad(page: Page, path: string): Promise<Load> {
  const browser = page.context().browser()!;
  const stopTrace = UNTRACED ? null : await traceLoad(browser);
  await page.goto(path, { waitUntil: "commit", timeout: 120_000 });
  const first = await readMark(page, "__firstContent");
  const trace = await stopTrace?.();
  const mapReady = path === "/map" ? await readMark(page, "__mapReady") : undefined;
  if (TRACE) {
    await page.waitForTimeout(3000);
    await traces.get(page)?.(page, `${path}: first content ${Math.round(first)} ms`);
  }
  return { first, mapReady, trace };
}

async function coldLoad(browser: Browser, token: string, path: string) {
  const page = await openPage(browser, token);
  await page.context().addInitScript(FIRST_CONTENT);
  if (TRACE) await page.context().addInitScript(TRACE_MARKS);
  await throttle(page);
  const load = await measureLoad(page, path);
  await page.context().close();
  return load;
}

/** A first visit online installs the service worker; then a new tab opens `path` from the device. */
async function warmStart(browser: Browser, token: string, path: string) {
  const first = await openPage(browser, token);
  await first.context().addInitScript(FIRST_CONTENT);
  if (TRACE) await first.context().addInitScript(TRACE_MARKS);
  await first.goto("/actions");
  await first.waitForFunction(async () => Boolean((await navigator.serviceWorker.ready).active), null, {
    timeout: 120_000,
  });
  // The app opened again on the device: the first tab is gone, so the trace's renderer thread
  // (which two tabs of one site can share) works for this tab alone.
  const tab = await first.context().newPage();
  await first.close();
  await throttle(tab);
  const load = await measureLoad(tab, path);
  await first.context().close();
  return load;
}

/**
 * A first visit: from the navigation's start until the service worker controls the page (the app
 * then starts with no network: docs/decisions/0075), and until it has kept the map's files as well.
 * The page's throttling does not reach the service worker's own downloads (another DevTools target).
 */
async function offlineReady(browser: Browser, token: string): Promise<Load> {
  const page = await openPage(browser, token);
  await throttle(page);
  await page.goto("/actions", { waitUntil: "commit", timeout: 120_000 });
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), null, {
    timeout: 120_000,
    polling: 100,
  });
  const controlled = await page.evaluate(() => performance.now());
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event: MessageEvent<{ kept?: boolean }>) => resolve(event.data.kept === true);
        navigator.serviceWorker.controller!.postMessage({ type: "KEEP_MAP_FILES" }, [channel.port2]);
      }),
    null,
    { timeout: 120_000, polling: 1000 },
  );
  const mapFiles = await page.evaluate(() => performance.now());
  await page.context().close();
  return { first: controlled, mapReady: mapFiles };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (bytes: number) => Math.round(bytes / 1024);
/** The machine's load average over the last minute, printed beside each run (the machine is shared). */
const load1 = () => loadavg()[0]!.toFixed(2);

function describeLoad({ first, mapReady, trace }: Load): string {
  const parts = [`first content ${(first / 1000).toFixed(2)} s`];
  if (mapReady !== undefined) parts.push(`map ready ${(mapReady / 1000).toFixed(2)} s`);
  if (trace) {
    parts.push(
      `main thread busy ${Math.round(trace.busy)} ms (script ${Math.round(trace.script)} ms, CPU ${Math.round(trace.cpu)} ms)`,
    );
    parts.push(`script by file ${trace.byFile.map(([f, t]) => `${f} ${Math.round(t)}`).join(", ")} ms`);
    parts.push(
      `JS ${trace.jsFiles} files, ${kb(trace.jsTransferred)} KB on the wire, ${kb(trace.jsDecoded)} KB decoded`,
    );
  }
  return `${parts.join(", ")}; load average ${load1()}`;
}

/** Each figure's median over the runs, taken on its own. */
function medianLoad(loads: Load[]): Load {
  const ready = loads.flatMap((l) => (l.mapReady === undefined ? [] : [l.mapReady]));
  const traces = loads.flatMap((l) => (l.trace ? [l.trace] : []));
  const of = (key: Exclude<keyof Busy, "byFile">) => median(traces.map((t) => t[key]));
  return {
    first: median(loads.map((l) => l.first)),
    mapReady: ready.length ? median(ready) : undefined,
    trace: traces.length
      ? {
          busy: of("busy"),
          script: of("script"),
          cpu: of("cpu"),
          byFile: [],
          jsFiles: of("jsFiles"),
          jsTransferred: of("jsTransferred"),
          jsDecoded: of("jsDecoded"),
        }
      : undefined,
    minBusy: traces.length ? Math.min(...traces.map((t) => t.busy)) : undefined,
  };
}

const { token, workspaceId } = await newWorkspace("Bench Phone");
// Each vehicle reports once, so the map has vehicles to draw where they are.
await reportAll(await orderBeacons(token, workspaceId, 20));

const loadBefore = load1();
const results = await withBrowser(async (browser) => {
  const runs = async (measure: () => Promise<Load>, name: string): Promise<Load> => {
    if (ONLY && !ONLY.includes(name)) return { first: 0, mapReady: 0 };
    const loads: Load[] = [];
    for (let i = 0; i < (TRACE ? 1 : RUNS); i++) {
      const load = await measure();
      console.log(`${name} run ${i + 1}: ${describeLoad(load)}`);
      loads.push(load);
    }
    return medianLoad(loads);
  };
  return {
    inspections: await runs(() => coldLoad(browser, token, "/inspections"), "inspections"),
    actions: await runs(() => coldLoad(browser, token, "/actions"), "actions"),
    map: await runs(() => coldLoad(browser, token, "/map"), "map"),
    warm: await runs(() => warmStart(browser, token, "/actions"), "warm"),
    warmMap: await runs(() => warmStart(browser, token, "/map"), "warmMap"),
    offline: await runs(() => offlineReady(browser, token), "offline"),
  };
});

const s = (ms: number) => ms / 1000;
const loadAfter = load1();

/** The trace's rows for one load: the main thread's busy time (against its budget) and the JavaScript. */
function traceRows(what: string, load: Load, budget?: string): BenchResult[] {
  if (!load.trace) return [];
  const { busy, script, jsFiles, jsTransferred, jsDecoded } = load.trace;
  const least = s(load.minBusy ?? busy).toFixed(2);
  return [
    {
      metric: `${what}: main thread busy before first content (least ${least} s; script ${s(script).toFixed(2)} s)`,
      value: s(busy),
      unit: "s",
      target: budget,
    },
    {
      metric: `${what}: JavaScript before first content, on the wire (${jsFiles} files, ${kb(jsDecoded)} KB decoded)`,
      value: kb(jsTransferred),
      unit: "KB",
    },
  ];
}

report(
  "A phone: first content, cold and from the service worker",
  [
    {
      metric: "/inspections cold load, first content",
      value: s(results.inspections.first),
      unit: "s",
      target: "< 2.5 s",
    },
    { metric: "/actions cold load, first content", value: s(results.actions.first), unit: "s", target: "< 2.5 s" },
    {
      metric: "/map cold load, first content: the vehicles drawn",
      value: s(results.map.first),
      unit: "s",
      target: "< 4 s",
    },
    { metric: "/map cold load, the map ready", value: s(results.map.mapReady ?? 0), unit: "s" },
    { metric: "/actions warm start from the service worker", value: s(results.warm.first), unit: "s", target: "< 1 s" },
    { metric: "/map warm start, the vehicles drawn", value: s(results.warmMap.first), unit: "s" },
    { metric: "/map warm start, the map ready", value: s(results.warmMap.mapReady ?? 0), unit: "s" },
    {
      metric: "first visit: offline-ready (the service worker in control)",
      value: s(results.offline.first),
      unit: "s",
      target: "< 8 s",
    },
    { metric: "first visit: the map's files kept too", value: s(results.offline.mapReady ?? 0), unit: "s" },
    ...traceRows("/inspections cold", results.inspections, "< 1.0 s"),
    ...traceRows("/actions cold", results.actions, "< 1.0 s"),
    ...traceRows("/map cold (vehicles drawn)", results.map, "< 1.5 s"),
    ...traceRows("/actions warm", results.warm),
    ...traceRows("/map warm (vehicles drawn)", results.warmMap),
  ],
  [
    `Chromium throttled through the DevTools protocol: ${PHONE.cpu}x CPU, ${PHONE.downKbps / 1000} Mbps down,`,
    `${PHONE.upKbps} kbps up, ${PHONE.latencyMs} ms round trip; median of ${RUNS} runs, a fleet of 20 vehicles.`,
    "First content: from the navigation's start to the page's own heading in the DOM (on /map: the vehicles",
    "drawn at their positions, by the sketch before the map or by the map: docs/decisions/0068), after the",
    "session check and the store's first sync. The map ready: its first style loaded with the vehicles on it.",
    "Cold: new profile, no service worker.",
    "Warm: a new tab after a first visit installed the service worker, so HTML and code come from the device.",
    "The bench has no network beyond loopback: the street style fails at once and the map is drawn on its",
    "offline geography. `PHONE_TRACE=1` prints one load's requests, long tasks and the app's startup marks.",
    "Each measured load is traced (bench/phone-busy.ts, docs/decisions/0096): the main thread's busy time is",
    "the union of its top-level tasks from navigation start to first content, on the renderer's clock; the",
    "JavaScript is the page's and its workers' .js files finished before first content (0 on the wire when",
    "the service worker answered). Warm: the tab that installed the service worker is closed first.",
    `Load average (1 min) ${loadBefore} at the start, ${loadAfter} at the end; each run's is in the bench's log.`,
  ].join(" "),
);
