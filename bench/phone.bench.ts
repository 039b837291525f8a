// A phone (issue 41): Chromium throttled through the DevTools protocol as a mid-range phone on a
// poor mobile network (4x CPU slowdown, 1.6 Mbps down, 750 kbps up, 150 ms round trip), signed in
// to a small fleet. Cold: a first visit (empty cache, no service worker yet); warm: a new tab after
// the service worker installed the build, the app opened from the device.
import type { Browser, Page } from "@playwright/test";
import { openPage, withBrowser } from "./browser";
import { newWorkspace, orderBeacons } from "./fleet";
import { report } from "./lib";
import { recordRequests, TRACE_MARKS } from "./phone-trace";

const PHONE = { cpu: 4, latencyMs: 150, downKbps: 1600, upKbps: 750 };
const RUNS = Number(process.env.PHONE_RUNS ?? 3);
/** PHONE_TRACE=1: one run of each, with its requests and milestones printed (bench/phone-trace.ts). */
const TRACE = Boolean(process.env.PHONE_TRACE);
/** PHONE_ONLY=map,warmMap: only those measures (an A/B of one page on a loaded machine); the others report 0. */
const ONLY = process.env.PHONE_ONLY?.split(",");
const traces = new Map<Page, (page: Page, title: string) => Promise<void>>();

/** Records, in the page, when the first page heading (or the map, ready) appears: the first content that is the page's own. */
const FIRST_CONTENT = `(() => {
  const seen = () => document.querySelector("main h1, [data-map-ready='true']");
  const mark = () => { if (!window.__firstContent && seen()) window.__firstContent = performance.now(); };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true });
})();`;

async function throttle(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  if (TRACE) traces.set(page, recordRequests(cdp));
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE.cpu });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: (PHONE.downKbps * 1000) / 8,
    uploadThroughput: (PHONE.upKbps * 1000) / 8,
  });
}

/** Milliseconds from the navigation's start to the page's first own content. */
async function firstContent(page: Page, path: string): Promise<number> {
  await page.goto(path, { waitUntil: "commit", timeout: 120_000 });
  await page.waitForFunction(() => (window as unknown as { __firstContent?: number }).__firstContent, null, {
    timeout: 120_000,
    polling: 100,
  });
  const ms = await page.evaluate(() => (window as unknown as { __firstContent: number }).__firstContent);
  if (TRACE) {
    await page.waitForTimeout(3000);
    await traces.get(page)?.(page, `${path}: first content ${Math.round(ms)} ms`);
  }
  return ms;
}

async function coldLoad(browser: Browser, token: string, path: string) {
  const page = await openPage(browser, token);
  await page.context().addInitScript(FIRST_CONTENT);
  if (TRACE) await page.context().addInitScript(TRACE_MARKS);
  await throttle(page);
  const ms = await firstContent(page, path);
  await page.context().close();
  return ms;
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
  const ms = await firstContent(tab, path);
  await first.context().close();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const { token, workspaceId } = await newWorkspace("Bench Phone");
await orderBeacons(token, workspaceId, 20);

const results = await withBrowser(async (browser) => {
  const runs = async (measure: () => Promise<number>, name: string) => {
    if (ONLY && !ONLY.includes(name)) return 0;
    const xs: number[] = [];
    for (let i = 0; i < (TRACE ? 1 : RUNS); i++) xs.push(await measure());
    console.log(`${name}: ${xs.map((ms) => (ms / 1000).toFixed(2)).join(", ")} s`);
    return median(xs);
  };
  return {
    inspections: await runs(() => coldLoad(browser, token, "/inspections"), "inspections"),
    actions: await runs(() => coldLoad(browser, token, "/actions"), "actions"),
    map: await runs(() => coldLoad(browser, token, "/map"), "map"),
    warm: await runs(() => warmStart(browser, token, "/actions"), "warm"),
    warmMap: await runs(() => warmStart(browser, token, "/map"), "warmMap"),
  };
});

const s = (ms: number) => ms / 1000;
report(
  "A phone: first content, cold and from the service worker",
  [
    { metric: "/inspections cold load, first content", value: s(results.inspections), unit: "s", target: "< 2.5 s" },
    { metric: "/actions cold load, first content", value: s(results.actions), unit: "s", target: "< 2.5 s" },
    { metric: "/map cold load, map ready with vehicles", value: s(results.map), unit: "s", target: "< 4 s" },
    { metric: "/actions warm start from the service worker", value: s(results.warm), unit: "s", target: "< 1 s" },
    { metric: "/map warm start from the service worker", value: s(results.warmMap), unit: "s" },
  ],
  [
    `Chromium throttled through the DevTools protocol: ${PHONE.cpu}x CPU, ${PHONE.downKbps / 1000} Mbps down,`,
    `${PHONE.upKbps} kbps up, ${PHONE.latencyMs} ms round trip; median of ${RUNS} runs, a fleet of 20 vehicles.`,
    "First content: from the navigation's start to the page's own heading in the DOM (the map: ready with",
    "its vehicles), after the session check and the store's first sync. Cold: new profile, no service worker.",
    "Warm: a new tab after a first visit installed the service worker, so HTML and code come from the device.",
    "The bench has no network beyond loopback: the street style fails at once and the map is drawn on its",
    "offline geography. `PHONE_TRACE=1` prints one load's requests, long tasks and the app's startup marks.",
  ].join(" "),
);
