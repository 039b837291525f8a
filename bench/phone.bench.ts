// A phone (issue 41): Chromium throttled through the DevTools protocol as a mid-range phone on a
// poor mobile network (4x CPU slowdown, 1.6 Mbps down, 750 kbps up, 150 ms round trip), signed in
// to a small fleet. Cold: a first visit (empty cache, no service worker yet); warm: a new tab after
// the service worker installed the build, the app opened from the device.
import type { Browser, Page } from "@playwright/test";
import { openPage, withBrowser } from "./browser";
import { newWorkspace, orderBeacons, reportAll } from "./fleet";
import { report } from "./lib";
import { recordRequests, TRACE_MARKS } from "./phone-trace";
import { PHONE, throttleLikeAPhone } from "./phone-throttle";

const RUNS = Number(process.env.PHONE_RUNS ?? 3);
/** PHONE_TRACE=1: one run of each, with its requests and milestones printed (bench/phone-trace.ts). */
const TRACE = Boolean(process.env.PHONE_TRACE);
/** PHONE_ONLY=map,warmMap: only those measures (an A/B of one page on a loaded machine); the others report 0. */
const ONLY = process.env.PHONE_ONLY?.split(",");
const traces = new Map<Page, (page: Page, title: string) => Promise<void>>();

/**
 * Records, in the page, when the first page heading (on /map: the vehicles drawn, as the sketch or
 * on the map) appears, the first content that is the page's own; and when the map is ready.
 */
const FIRST_CONTENT = `(() => {
  const seen = () => document.querySelector("main h1, [data-vehicles-shown='true'], [data-map-ready='true']");
  const mark = () => {
    if (!window.__firstContent && seen()) window.__firstContent = performance.now();
    if (!window.__mapReady && document.querySelector("[data-map-ready='true']")) window.__mapReady = performance.now();
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true });
})();`;

async function throttle(page: Page) {
  const cdp = await throttleLikeAPhone(page);
  if (TRACE) traces.set(page, recordRequests(cdp));
}

interface Load {
  /** ms from the navigation's start to the page's first own content */
  first: number;
  /** ms to the map ready (its style loaded, the vehicles on it); /map only */
  mapReady?: number;
}

const readMark = async (page: Page, name: "__firstContent" | "__mapReady") => {
  await page.waitForFunction((n) => (window as unknown as Record<string, number | undefined>)[n], name, {
    timeout: 120_000,
    polling: 100,
  });
  return page.evaluate((n) => (window as unknown as Record<string, number>)[n]!, name);
};

/** Opens `path` and waits for its first own content, and on /map for the map to be ready too. */
async function measureLoad(page: Page, path: string): Promise<Load> {
  await page.goto(path, { waitUntil: "commit", timeout: 120_000 });
  const first = await readMark(page, "__firstContent");
  const mapReady = path === "/map" ? await readMark(page, "__mapReady") : undefined;
  if (TRACE) {
    await page.waitForTimeout(3000);
    await traces.get(page)?.(page, `${path}: first content ${Math.round(first)} ms`);
  }
  return { first, mapReady };
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
  const tab = await first.context().newPage();
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

const { token, workspaceId } = await newWorkspace("Bench Phone");
// Each vehicle reports once, so the map has vehicles to draw where they are.
await reportAll(await orderBeacons(token, workspaceId, 20));

const results = await withBrowser(async (browser) => {
  const runs = async (measure: () => Promise<Load>, name: string): Promise<Load> => {
    if (ONLY && !ONLY.includes(name)) return { first: 0, mapReady: 0 };
    const loads: Load[] = [];
    for (let i = 0; i < (TRACE ? 1 : RUNS); i++) loads.push(await measure());
    const secs = (xs: number[]) => xs.map((ms) => (ms / 1000).toFixed(2)).join(", ");
    console.log(`${name}: first content ${secs(loads.map((l) => l.first))} s`);
    const ready = loads.flatMap((l) => (l.mapReady === undefined ? [] : [l.mapReady]));
    if (ready.length) console.log(`${name}: map ready ${secs(ready)} s`);
    return { first: median(loads.map((l) => l.first)), mapReady: ready.length ? median(ready) : undefined };
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
  ].join(" "),
);
