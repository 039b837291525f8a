// Ingest to screen (issues 5 and 19): an OsmAnd report carrying a new speed, timed until an open
// vehicle page renders it from its local store, sent two ways: from inside the page (fetch), and
// from this Node process, as a beacon would be, outside the page. Every time is wall-clock (each
// process's performance.timeOrigin + performance.now(), on one machine): the socket's frames (the
// room's poke, the pull over the socket and its answer) as Playwright reports them, and when the
// speed is rendered (a MutationObserver in the page, so no polling delay is added), so each span is
// broken down into where its time goes.
import type { Page } from "@playwright/test";
import { mphToKnots } from "../shared/units/units";
import { openPage, withBrowser } from "./browser";
import { newWorkspace, orderBeacons, osmandUrl, report, sleep } from "./fleet";
import { percentile, report as write } from "./lib";

const WARMUP = 3;
const REPORTS = 30;
/** Beyond the room's 250 ms poke coalescing, so each report gets its own immediate poke. */
const SPACING_MS = 600;

const ws = await newWorkspace("Bench Ingest To Screen");
const [beacon] = await orderBeacons(ws.token, ws.workspaceId, 1);
const start = Date.now() - 3_600_000;
await report({ id: beacon!.id, lat: 40, lon: -100, timestamp: start, speed: mphToKnots(5), ignition: true });

declare global {
  interface Window {
    __speedSeen?: Map<string, number>;
  }
}

const wallNow = () => performance.timeOrigin + performance.now();

/** One report's times (wall clock, ms): sent, answered, and what the page saw after the send. */
interface Timing {
  sent: number;
  answered: number;
  poke: number | null;
  pullSent: number | null;
  pullAnswer: number | null;
  shown: number | null;
}

/**
 * Every frame of the page's sockets, noted in this process as Playwright reports them (the app's
 * socket lives in its sync worker, out of reach of a page script): wall-clock times, about a
 * millisecond after the browser has the frame.
 */
const socketLog: { t: number; kind: "poke" | "pull-sent" | "pull-answer" }[] = [];
function noteSocketFrames(page: Page) {
  const isPull = (payload: string | Buffer) => typeof payload === "string" && payload.includes('"type":"pull"');
  page.on("websocket", (socket) => {
    socket.on("framereceived", ({ payload }) => {
      if (payload === "poke") socketLog.push({ t: wallNow(), kind: "poke" });
      else if (isPull(payload)) socketLog.push({ t: wallNow(), kind: "pull-answer" });
    });
    socket.on("framesent", ({ payload }) => {
      if (isPull(payload)) socketLog.push({ t: wallNow(), kind: "pull-sent" });
    });
  });
}

/** Watches the speed and notes when each value is first shown. */
function noteSpeeds() {
  const seen = new Map<string, number>();
  window.__speedSeen = seen;
  const el = document.querySelector('[data-testid="speed"]')!;
  const note = () => {
    const text = document.querySelector('[data-testid="speed"]')?.textContent ?? "";
    if (!seen.has(text)) seen.set(text, performance.timeOrigin + performance.now());
  };
  // The element may be re-created by React: watch the whole section.
  new MutationObserver(note).observe(el.closest("section") ?? document.body, {
    subtree: true,
    childList: true,
    characterData: true,
  });
  note();
}

/** What the page saw after `sent`: the first poke, pull and answer, and when `expected` was shown (waits up to 10 s). */
async function pageSaw(page: Page, sent: number, expected: string) {
  const shown = await page.evaluate(async (expected) => {
    const deadline = performance.timeOrigin + performance.now() + 10_000;
    while (!window.__speedSeen!.has(expected) && performance.timeOrigin + performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    return window.__speedSeen!.get(expected) ?? null;
  }, expected);
  const first = (kind: string, after: number) => socketLog.find((m) => m.kind === kind && m.t >= after)?.t ?? null;
  const poke = first("poke", sent);
  const pullSent = poke === null ? null : first("pull-sent", poke);
  const pullAnswer = pullSent === null ? null : first("pull-answer", pullSent);
  return { poke, pullSent, pullAnswer, shown };
}

/** Sends the report from inside the page (fetch). */
async function fromPage(page: Page, url: string): Promise<{ sent: number; answered: number }> {
  return page.evaluate(async (url) => {
    const sent = performance.timeOrigin + performance.now();
    const res = await fetch(url);
    const answered = performance.timeOrigin + performance.now();
    if (!res.ok) throw new Error(`ingest ${res.status}`);
    return { sent, answered };
  }, url);
}

/** Sends the report from this process, outside the page. */
async function fromOutside(url: string): Promise<{ sent: number; answered: number }> {
  const sent = wallNow();
  const res = await fetch(url);
  await res.arrayBuffer();
  const answered = wallNow();
  if (!res.ok) throw new Error(`ingest ${res.status}`);
  return { sent, answered };
}

let reportNo = 0;
async function run(page: Page, outside: boolean): Promise<Timing[]> {
  const timings: Timing[] = [];
  for (let i = 0; i < WARMUP + REPORTS; i++) {
    const n = reportNo++;
    const mph = 10 + n;
    const url = osmandUrl({
      id: beacon!.id,
      lat: 40 + n * 0.001,
      lon: -100,
      timestamp: start + (n + 1) * 1000,
      speed: mphToKnots(mph),
      ignition: true,
    });
    const sentAt = outside ? await fromOutside(url) : await fromPage(page, new URL(url).pathname + new URL(url).search);
    const saw = await pageSaw(page, sentAt.sent, `${mph} mph`);
    if (i >= WARMUP) timings.push({ ...sentAt, ...saw });
    await sleep(SPACING_MS);
  }
  return timings;
}

const { inside, outside } = await withBrowser(async (browser) => {
  const page = await openPage(browser, ws.token);
  noteSocketFrames(page);
  await page.goto(`/vehicles/${beacon!.vehicleId}/overview`);
  await page.getByTestId("speed").waitFor({ timeout: 60_000 });
  await page.evaluate(noteSpeeds);
  return { inside: await run(page, false), outside: await run(page, true) };
});

/** The p50 and p95 of a span over the reports that have both ends. */
function span(timings: Timing[], from: (t: Timing) => number | null, to: (t: Timing) => number | null) {
  const values = timings.flatMap((t) => {
    const a = from(t);
    const b = to(t);
    return a === null || b === null ? [] : [b - a];
  });
  values.sort((a, b) => a - b);
  return { p50: percentile(values, 50), p95: percentile(values, 95) };
}

function rows(label: string, timings: Timing[]) {
  const whole = span(
    timings,
    (t) => t.sent,
    (t) => t.shown,
  );
  const phase = (name: string, from: (t: Timing) => number | null, to: (t: Timing) => number | null) => ({
    metric: `${label}: ${name}, p50`,
    value: span(timings, from, to).p50,
    unit: "ms",
  });
  return [
    { metric: `${label}: report sent → speed rendered, p50`, value: whole.p50, unit: "ms", target: "≤ 30 ms" },
    { metric: `${label}: report sent → speed rendered, p95`, value: whole.p95, unit: "ms", target: "≤ 60 ms" },
    phase(
      "sent → answered (HTTP, ingestion in the object)",
      (t) => t.sent,
      (t) => t.answered,
    ),
    phase(
      "sent → poke arrives on the page's socket",
      (t) => t.sent,
      (t) => t.poke,
    ),
    phase(
      "poke → pull sent over the socket",
      (t) => t.poke,
      (t) => t.pullSent,
    ),
    phase(
      "pull sent → its answer arrives",
      (t) => t.pullSent,
      (t) => t.pullAnswer,
    ),
    phase(
      "answer → speed rendered (store, React)",
      (t) => t.pullAnswer,
      (t) => t.shown,
    ),
    {
      metric: `${label}: reports never shown (10 s)`,
      value: timings.filter((t) => t.shown === null).length,
      unit: `of ${timings.length}`,
    },
  ];
}

write(
  "Ingest to screen",
  [...rows("from the page", inside), ...rows("from another process", outside)],
  [
    `Headless Chromium signed in on /vehicles/<id>/overview. ${REPORTS} reports (after ${WARMUP} warm-up) are sent with fetch from`,
    `the page itself, then ${REPORTS} more from the bench's Node process; each carries a new speed, and a MutationObserver records`,
    `when the page shows it. Times are wall-clock in both processes; the room's poke, the socket pull and its answer are noted`,
    `as Playwright reports the page's socket frames (about a millisecond late), so each span is split into ingestion, poke, pull and render. Reports are ${SPACING_MS} ms apart so the room's`,
    `250 ms poke coalescing does not delay them.`,
  ].join(" "),
);
