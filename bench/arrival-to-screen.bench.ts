// Arrival to screen (issue 53): a vehicle's report that it has reached its next stop, sent from
// this process as a beacon would, timed until the stop's row on an open dispatch page (/jobs) says
// it arrived. Target: p50 < 2 s, p95 < 5 s (about 6 s before: the room flushed jobs to D1 less
// often than the page pulls). Each round adds a stop 2 km on, drives at it (the page shows it "On
// the way"), then stops inside its radius; the row is watched by a MutationObserver in the page, so
// no polling delay is added.
import type { Page } from "@playwright/test";
import { dayOf } from "../shared/units/time-zone";
import { openPage, withBrowser } from "./browser";
import { newWorkspace, orderBeacons, report, sleep } from "./fleet";
import { baseUrl, percentile, report as write } from "./lib";

const ROUNDS = 15;
/** Apart along the vehicle's line, so each stop's radius (150 m) is far from the last. */
const STOP_GAP_DEG = 0.02;
/** The approach: 600 m short of the stop, driving at 10 m/s. */
const APPROACH_DEG = 0.0054;
const KNOTS_PER_MPS = 1.943844;

const ws = await newWorkspace("Bench Arrival To Screen");
const [beacon] = await orderBeacons(ws.token, ws.workspaceId, 1);
const today = dayOf(Date.now(), "UTC");
const stopAt = (round: number) => ({ latitude: 41 + (round + 1) * STOP_GAP_DEG, longitude: -88 });

declare global {
  interface Window {
    __statusSeen?: Map<string, number>;
  }
}

const wallNow = () => performance.timeOrigin + performance.now();

/** Notes, per stop title and status, when the page first showed that row with that status. */
function noteStatuses() {
  const seen = new Map<string, number>();
  window.__statusSeen = seen;
  const note = () => {
    const at = performance.timeOrigin + performance.now();
    for (const row of Array.from(document.querySelectorAll("li.stop-row"))) {
      const key = `${row.querySelector(".stop-title")?.textContent ?? ""}|${row.getAttribute("data-status")}`;
      if (!seen.has(key)) seen.set(key, at);
    }
  };
  new MutationObserver(note).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-status"],
  });
  note();
}

/** When the page first showed `title` with `status` (waits up to `ms`), or null. */
function shownAt(page: Page, title: string, status: string, ms: number): Promise<number | null> {
  return page.evaluate(
    async ({ key, ms }) => {
      const deadline = performance.timeOrigin + performance.now() + ms;
      while (!window.__statusSeen!.has(key) && performance.timeOrigin + performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      return window.__statusSeen!.get(key) ?? null;
    },
    { key: `${title}|${status}`, ms },
  );
}

async function addStop(round: number): Promise<string> {
  const title = `Arrival ${round + 1}`;
  const res = await fetch(`${baseUrl}/api/jobs`, {
    method: "POST",
    headers: { authorization: `Bearer ${ws.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title, date: today, vehicleId: beacon!.vehicleId, location: stopAt(round) }),
  });
  if (res.status !== 201) throw new Error(`job: ${res.status} ${await res.text()}`);
  return title;
}

let lastReportAt = 0;
/** One report at `lat` now (never before the last one), `mps` over the ground. */
async function drive(lat: number, mps: number) {
  lastReportAt = Math.max(Date.now(), lastReportAt + 1_000);
  await report({ id: beacon!.id, lat, lon: -88, timestamp: lastReportAt, speed: mps * KNOTS_PER_MPS, ignition: true });
}

/** One round: the time from the report inside the stop's radius to "arrived" on the page, or null. */
async function round(page: Page, n: number): Promise<number | null> {
  const title = await addStop(n);
  if ((await shownAt(page, title, "scheduled", 30_000)) === null) throw new Error(`${title} never listed`);
  const { latitude } = stopAt(n);
  await drive(latitude - APPROACH_DEG, 10);
  await sleep(1_000);
  await drive(latitude - APPROACH_DEG / 2, 10);
  await shownAt(page, title, "en_route", 15_000);
  await sleep(1_000);
  const sent = wallNow();
  await drive(latitude, 0);
  const shown = await shownAt(page, title, "arrived", 20_000);
  return shown === null ? null : shown - sent;
}

const spans = await withBrowser(async (browser) => {
  const page = await openPage(browser, ws.token);
  await page.goto(`/jobs?date=${today}`);
  await page.getByRole("heading", { level: 1 }).waitFor({ timeout: 60_000 });
  await page.evaluate(noteStatuses);
  await drive(41, 10);
  const spans: (number | null)[] = [];
  for (let n = 0; n < ROUNDS; n++) spans.push(await round(page, n));
  return spans;
});

const shown = spans.filter((s): s is number => s !== null).sort((a, b) => a - b);
write("Arrival to screen", [
  {
    metric: "report inside the stop → “Arrived” on an open /jobs, p50",
    value: Math.round(percentile(shown, 50)),
    unit: "ms",
    target: "< 2,000 ms",
  },
  {
    metric: "report inside the stop → “Arrived” on an open /jobs, p95",
    value: Math.round(percentile(shown, 95)),
    unit: "ms",
    target: "< 5,000 ms",
  },
  { metric: "arrivals never shown (20 s)", value: spans.length - shown.length, unit: `of ${spans.length}` },
]);
