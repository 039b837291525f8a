// The customer's tracking page on a phone (issue 53): how long a customer who opens the link on a
// mid-range phone on a poor network (bench/phone-throttle.ts) waits to read when the vehicle
// arrives. Cold: a new profile, nothing cached, no sign-in (a customer has no account).
import type { Browser } from "@playwright/test";
import { openPage, withBrowser } from "./browser";
import { newWorkspace, orderBeacons, report, sleep } from "./fleet";
import { baseUrl, report as write } from "./lib";
import { PHONE, throttleLikeAPhone } from "./phone-throttle";
import { recordRequests, TRACE_MARKS } from "./phone-trace";

/** PHONE_TRACE=1: one load, with its requests and milestones printed (bench/phone-trace.ts). */
const TRACE = Boolean(process.env.PHONE_TRACE);
const RUNS = TRACE ? 1 : Number(process.env.PHONE_RUNS ?? 5);

/**
 * Records, in the page, when the ETA's words are first in the document, the first paint (the words
 * are readable once both happened: the stylesheet holds the paint back), and when the map is ready.
 */
const MARKS = `(() => {
  const mark = () => {
    const eta = document.querySelector("[data-testid='track-eta']");
    if (!window.__eta && eta && /Arriving/.test(eta.textContent || "")) window.__eta = performance.now();
    if (!window.__mapReady && document.querySelector("[data-map-ready='true']")) window.__mapReady = performance.now();
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "first-contentful-paint") window.__paint = e.startTime;
  }).observe({ type: "paint", buffered: true });
})();`;

/** A job today, its van driving towards it (so it is on its way with an ETA), and its customer link. */
async function enRouteLink(): Promise<string> {
  const { token, workspaceId } = await newWorkspace("Bench Track");
  const [beacon] = await orderBeacons(token, workspaceId, 1);
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}/api${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const job = await post("/jobs", {
    title: "Deliver sofa",
    date: new Date().toISOString().slice(0, 10),
    vehicleId: beacon!.vehicleId,
    location: { latitude: 41.9, longitude: -87.65, address: "1550 N Damen Ave" },
  });
  const { url } = await post(`/jobs/${job.id}/shares`, {});
  const now = Date.now();
  for (const [i, lat] of [41.85, 41.855, 41.86].entries())
    await report({ id: beacon!.id, lat, lon: -87.65, timestamp: now - (2 - i) * 30_000, speed: 25 });
  const path = new URL(url!).pathname;
  // The object writes the ETA at its next flush (up to FLUSH_IDLE_MS with no page open).
  for (let i = 0; i < 60; i++) {
    const answer = (await (await fetch(`${baseUrl}/api${path}`)).json()) as { job: { eta: string | null } };
    if (answer.job.eta) return path;
    await sleep(500);
  }
  throw new Error("the job never got an ETA");
}

async function coldLoad(browser: Browser, path: string) {
  const page = await openPage(browser);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.context().addInitScript(MARKS);
  if (TRACE) await page.context().addInitScript(TRACE_MARKS);
  const cdp = await throttleLikeAPhone(page);
  const trace = TRACE ? recordRequests(cdp) : null;
  await page.goto(path, { waitUntil: "commit", timeout: 120_000 });
  const read = async (name: string) => {
    await page.waitForFunction((n) => (window as unknown as Record<string, number>)[n], name, { timeout: 120_000 });
    return page.evaluate((n) => (window as unknown as Record<string, number>)[n]!, name);
  };
  const eta = Math.max(await read("__eta"), await read("__paint"));
  const map = await read("__mapReady");
  await trace?.(page, `${path}: ETA readable ${Math.round(eta)} ms`);
  await page.context().close();
  return { eta, map };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const path = await enRouteLink();
const loads = await withBrowser(async (browser) => {
  const out: { eta: number; map: number }[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await coldLoad(browser, path));
  return out;
});
const secs = (xs: number[]) => xs.map((ms) => (ms / 1000).toFixed(2)).join(", ");
console.log(
  `track page: ETA readable ${secs(loads.map((l) => l.eta))} s; map ready ${secs(loads.map((l) => l.map))} s`,
);
write(
  "The customer's tracking page on a phone",
  [
    {
      metric: "/track/{token} cold load, the ETA readable",
      value: median(loads.map((l) => l.eta)) / 1000,
      unit: "s",
      target: "< 2.5 s",
    },
    { metric: "/track/{token} cold load, the map ready", value: median(loads.map((l) => l.map)) / 1000, unit: "s" },
  ],
  [
    `Chromium at 390 px throttled as a phone: ${PHONE.cpu}x CPU, ${PHONE.downKbps / 1000} Mbps down, ${PHONE.latencyMs} ms`,
    `round trip; median of ${RUNS} cold loads (new profile, no service worker, no sign-in) of one en-route job's`,
    "customer link. The ETA readable: from the navigation's start to 'Arriving in about …' in the page and painted",
    "(the later of the two; the page is rendered by the server with its answer, so the first paint has it).",
    "The map ready: its style loaded on the offline geography (the bench has no network beyond loopback).",
  ].join(" "),
);
