// Ingest to screen (issue 5): an OsmAnd report sent from inside an open vehicle page, timed in the
// page's own clock until the new speed is rendered from the local store (poke, pull, store diff,
// React render). A MutationObserver notes when the speed text changes, so no polling delay is
// added.
import type { Page } from "@playwright/test";
import { mphToKnots } from "../shared/units";
import { openPage, withBrowser } from "./browser";
import { newWorkspace, orderBeacons, osmandUrl, report, sleep } from "./fleet";
import { percentile, report as write } from "./lib";

const WARMUP = 3;
const REPORTS = 30;
/** Beyond the room's 250 ms poke coalescing, so each report gets its own immediate poke. */
const SPACING_MS = 600;
/** What the page shows for a speed in m/s (app/vehicles/format.ts): whole mph. */

const ws = await newWorkspace("Bench Ingest To Screen");
const [beacon] = await orderBeacons(ws.token, ws.workspaceId, 1);
const start = Date.now() - 3_600_000;
await report({ id: beacon!.id, lat: 40, lon: -100, timestamp: start, speed: mphToKnots(5), ignition: true });

declare global {
  interface Window {
    __speedSeen?: Map<string, number>;
  }
}

/** Sends the report from the page and resolves with when it was sent, answered and shown. */
async function timedReport(page: Page, url: string, expected: string) {
  return page.evaluate(
    async ({ url, expected }) => {
      const sent = performance.now();
      const res = await fetch(url);
      const answered = performance.now();
      if (!res.ok) throw new Error(`ingest ${res.status}`);
      const deadline = sent + 10_000;
      while (!window.__speedSeen!.has(expected) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const shown = window.__speedSeen!.get(expected);
      return { sent, answered, shown: shown ?? null };
    },
    { url, expected },
  );
}

const { fromSend, fromAnswer, missed } = await withBrowser(async (browser) => {
  const page = await openPage(browser, ws.token);
  await page.goto(`/vehicles/${beacon!.vehicleId}/overview`);
  const speed = page.getByTestId("speed");
  await speed.waitFor({ timeout: 60_000 });
  await page.evaluate(() => {
    const seen = new Map<string, number>();
    window.__speedSeen = seen;
    const el = document.querySelector('[data-testid="speed"]')!;
    const note = () => {
      const text = document.querySelector('[data-testid="speed"]')?.textContent ?? "";
      if (!seen.has(text)) seen.set(text, performance.now());
    };
    // The element may be re-created by React: watch the whole section.
    new MutationObserver(note).observe(el.closest("section") ?? document.body, { subtree: true, childList: true, characterData: true });
    note();
  });

  const fromSend: number[] = [];
  const fromAnswer: number[] = [];
  let missed = 0;
  for (let i = 0; i < WARMUP + REPORTS; i++) {
    const mph = 10 + i;
    const url = osmandUrl({ id: beacon!.id, lat: 40 + i * 0.001, lon: -100, timestamp: start + (i + 1) * 1000, speed: mphToKnots(mph), ignition: true });
    const t = await timedReport(page, new URL(url).pathname + new URL(url).search, `${mph} mph`);
    if (i >= WARMUP) {
      if (t.shown === null) missed++;
      else {
        fromSend.push(t.shown - t.sent);
        fromAnswer.push(t.shown - t.answered);
      }
    }
    await sleep(SPACING_MS);
  }
  return { fromSend: fromSend.sort((a, b) => a - b), fromAnswer: fromAnswer.sort((a, b) => a - b), missed };
});

write(
  "Ingest to screen",
  [
    { metric: "OsmAnd report sent → speed rendered from the local store, p50", value: percentile(fromSend, 50), unit: "ms", target: "< 60 ms" },
    { metric: "OsmAnd report sent → speed rendered from the local store, p95", value: percentile(fromSend, 95), unit: "ms", target: "< 120 ms" },
    { metric: "report answered → speed rendered, p50", value: percentile(fromAnswer, 50), unit: "ms" },
    { metric: "report answered → speed rendered, p95", value: percentile(fromAnswer, 95), unit: "ms" },
    { metric: "reports measured", value: fromSend.length, unit: `of ${REPORTS}` },
    { metric: "reports never shown (10 s)", value: missed, unit: "" },
  ],
  [
    `Headless Chromium signed in on /vehicles/<id>/overview. Each of ${REPORTS} reports (after ${WARMUP} warm-up) is sent with fetch from`,
    `the page itself and carries a new speed; a MutationObserver records when the page shows it. Both times are the page's`,
    `performance.now(), so the span covers ingestion, the room's poke, Replicache's pull, the client store and React's render.`,
    `Reports are ${SPACING_MS} ms apart so the room's 250 ms coalescing does not delay them.`,
  ].join(" "),
);
