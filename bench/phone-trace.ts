// Where a throttled phone's first content goes (`PHONE_TRACE=1 npm run bench -- phone`): every
// request of one load in the order it started, with when it started and ended and the bytes it
// carried, and the page's own milestones and long tasks, in ms from the navigation's start.
import type { CDPSession, Page } from "@playwright/test";

interface Row {
  url: string;
  start: number;
  end?: number;
  bytes?: number;
  fromServiceWorker?: boolean;
  priority?: string;
}

/**
 * Records, in the page, the milestones a trace prints: the loading screen, the heading, long tasks,
 * and the app's own `performance.mark`s (app/lib/startup-marks.ts).
 */
export const TRACE_MARKS = `(() => {
  const marks = (window.__traceMarks = []);
  const mark = (name) => marks.push([name, performance.now()]);
  const seen = new Set();
  const check = () => {
    for (const [name, sel] of [["loading screen", ".loading-screen"], ["heading", "main h1"], ["map ready", "[data-map-ready='true']"]]) {
      if (!seen.has(name) && document.querySelector(sel)) { seen.add(name); mark(name); }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  addEventListener("DOMContentLoaded", () => mark("DOMContentLoaded"));
  addEventListener("load", () => mark("load event"));
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) marks.push(["long task " + Math.round(e.duration) + " ms", e.startTime]);
    }).observe({ type: "longtask", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) marks.push([e.name, e.startTime]);
    }).observe({ type: "mark", buffered: true });
  } catch {}
})();`;

/** Starts recording the page's requests through `cdp` (Network enabled); `print` writes the table. */
export function recordRequests(cdp: CDPSession) {
  const rows = new Map<string, Row>();
  let origin: number | null = null;
  const ms = (t: number) => Math.round((t - origin!) * 1000);
  cdp.on("Network.requestWillBeSent", (e) => {
    origin ??= e.timestamp;
    rows.set(e.requestId, { url: e.request.url, start: ms(e.timestamp), priority: e.request.initialPriority });
  });
  cdp.on("Network.responseReceived", (e) => {
    const row = rows.get(e.requestId);
    if (row) row.fromServiceWorker = e.response.fromServiceWorker;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const row = rows.get(e.requestId);
    if (row) Object.assign(row, { end: ms(e.timestamp), bytes: e.encodedDataLength });
  });
  cdp.on("Network.loadingFailed", (e) => {
    const row = rows.get(e.requestId);
    if (row) Object.assign(row, { end: ms(e.timestamp), bytes: -1 });
  });
  return async (page: Page, title: string) => {
    const marks =
      (await page.evaluate(() => (window as unknown as { __traceMarks: [string, number][] }).__traceMarks)) ?? [];
    const lines = [...rows.values()]
      .filter((r) => !r.url.startsWith("data:"))
      .map((r) => {
        const path = r.url.replace(/^https?:\/\/[^/]+/, "").slice(0, 70);
        const kb = r.bytes === undefined ? "   ?" : r.bytes < 0 ? "fail" : (r.bytes / 1024).toFixed(1).padStart(6);
        return [
          r.start,
          `${String(r.start).padStart(6)} → ${String(r.end ?? "?").padStart(6)} ms ${kb} KB ${r.priority ?? ""} ${r.fromServiceWorker ? "SW " : ""}${path}`,
        ] as const;
      });
    const navStart = [...rows.values()][0]?.start ?? 0;
    const pageLines = marks.map(
      ([name, at]) => [Math.round(at) + navStart, `${String(Math.round(at)).padStart(6)} ms   ── ${name}`] as const,
    );
    const total = [...rows.values()].reduce((n, r) => n + Math.max(0, r.bytes ?? 0), 0);
    console.log(`\n── trace ${title}: ${rows.size} requests, ${(total / 1024).toFixed(0)} KB on the wire`);
    for (const [, line] of [...lines, ...pageLines].sort((a, b) => a[0] - b[0])) console.log(line);
  };
}
