// Maintenance at fleet scale (issue 32): 10,000 vehicles with 50,000 issues, 20,000 service
// schedules and 100,000 service entries.
// - First sync: the bytes of an initial pull before and after the issues are added; the growth
//   divided by the open (and in-progress) issues it carries. Closed ones older than a week are not
//   synced; schedules and entries are in both pulls (synced or not, whichever this build does).
// - Render: in Chromium, with the store loaded (the Issues list shown once), the time from a click
//   on "Issues" / "My actions" in the side navigation to their first screen drawn.
// - Ingestion: the same load of 50 beacons against the workspace with 20,000 schedules watching
//   odometers and engine hours, and against a workspace of as many vehicles with none, in
//   alternating rounds of this one run.
//   MAINTENANCE_BENCH_ONLY=sync|render|ingest   only that part (the seeding is always done)
import type { Page } from "@playwright/test";
import { openPage, withBrowser } from "./browser";
import { newWorkspace, orderBeacons, osmandUrl, pull, seedTelemetry, type Fleet } from "./fleet";
import { baseUrl, percentile, report as write, type BenchResult } from "./lib";
import { printLargest, selfTimes, type CpuProfile } from "./devtools";
import { maintenanceCounts, seedIssues, seedService } from "./maintenance-seed";

const VEHICLES = Number(process.env.MAINTENANCE_BENCH_VEHICLES ?? 10_000);
const RENDER_RUNS = Number(process.env.MAINTENANCE_RENDER_RUNS ?? 7);
const BEACONS = 50;
const REPORTS_PER_ROUND = 1000;
const ROUNDS = 4;
const only = process.env.MAINTENANCE_BENCH_ONLY;
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/**
 * After a long pause (seeding through `wrangler d1 execute`), the client's kept-alive sockets may
 * be ones wrangler dev has just closed, and the next request on one fails ("other side closed"):
 * a few throwaway GETs clear them out before anything measured or needed is sent.
 */
async function afterPause() {
  for (let i = 0; i < 6; i++)
    await fetch(`${baseUrl}/api/health`)
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
}

async function bigFleet(name: string): Promise<Fleet> {
  const ws = await newWorkspace(name);
  const beacons = await orderBeacons(ws.token, ws.workspaceId, VEHICLES);
  seedTelemetry(ws.workspaceId, Date.now() - 60_000);
  await afterPause();
  return { ...ws, beacons };
}

/**
 * A pull, sent again once if its connection was closed under it: after a long seeding pause the
 * client's kept-alive socket may be one wrangler dev has just closed ("other side closed").
 */
async function pullOnce(token: string) {
  try {
    return await pull(token, crypto.randomUUID(), null);
  } catch (error) {
    if (!String((error as { cause?: unknown }).cause).includes("other side closed")) throw error;
    return pull(token, crypto.randomUUID(), null);
  }
}

/** The smallest of three initial pulls' JSON sizes (a new client group each; they should agree). */
async function initialPullBytes(token: string) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await pullOnce(token));
  const best = runs.reduce((a, b) => (a.bytes < b.bytes ? a : b));
  return {
    bytes: best.bytes,
    ms: median(runs.map((r) => r.ms)),
    issueOps: best.patch.filter((op) => op.key?.startsWith("issue/")).length,
  };
}

const watched = await bigFleet("Bench maintenance");
const plain = only && only !== "ingest" ? null : await bigFleet("Bench maintenance, none");
const seedStarted = performance.now();
seedService(watched.workspaceId);
await afterPause();
const withoutIssues = await initialPullBytes(watched.token);
const open = seedIssues(watched.workspaceId);
const seedSeconds = (performance.now() - seedStarted) / 1000;
const counts = maintenanceCounts(watched.workspaceId);
await afterPause();
const withIssues = await initialPullBytes(watched.token);
const results: BenchResult[] = [];

if (!only || only === "sync") {
  results.push(
    {
      metric: `initial pull, ${VEHICLES.toLocaleString("en-US")} vehicles with schedules and entries, no issues, JSON size`,
      value: withoutIssues.bytes / 1e6,
      unit: "MB",
    },
    {
      metric: `initial pull, the same with ${counts.issues.toLocaleString("en-US")} issues (${open.toLocaleString("en-US")} open or in progress), JSON size`,
      value: withIssues.bytes / 1e6,
      unit: "MB",
    },
    { metric: "issues in the initial pull", value: withIssues.issueOps, unit: "" },
    {
      metric: "first sync growth per open issue",
      value: (withIssues.bytes - withoutIssues.bytes) / open,
      unit: "B",
      target: "≤ 150 B",
    },
    { metric: "initial pull time with the issues (median of 3)", value: withIssues.ms, unit: "ms" },
  );
}

declare global {
  interface Window {
    __clickToScreen?: (href: string, selector: string) => Promise<number>;
  }
}

/** In the page: click the side navigation's link to `href`; ms until `selector` is drawn (two frames after it is in the DOM). */
function installClickTimer() {
  window.__clickToScreen = (href, selector) =>
    new Promise<number>((resolve, reject) => {
      const link = Array.from(document.querySelectorAll<HTMLAnchorElement>(`a[href="${href}"]`)).find(
        (a) => a.offsetParent !== null,
      );
      if (!link) return reject(new Error(`no visible link to ${href}`));
      const started = performance.now();
      const drawn = () =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - started)));
      let firstMutation = -1;
      const observer = new MutationObserver(() => {
        if (firstMutation < 0) firstMutation = performance.now() - started;
        if (!document.querySelector(selector)) return;
        observer.disconnect();
        console.debug(
          `bench: ${href} first DOM change ${firstMutation.toFixed(0)} ms, screen in DOM ${(performance.now() - started).toFixed(0)} ms`,
        );
        drawn();
      });
      observer.observe(document.body, { childList: true, subtree: true });
      link.click();
    });
}

const ISSUE_ROWS = ".issue-list li";
const ACTIONS_SCREEN = "section.actions .maintenance-row, section.actions p.muted";

async function clickTo(page: Page, href: string, selector: string) {
  const ms = await page.evaluate(({ href, selector }) => window.__clickToScreen!(href, selector), { href, selector });
  // The screen was in the DOM and drawn; say so if the page has since moved elsewhere.
  const path = new URL(page.url()).pathname;
  if (path !== href) console.log(`after the click on ${href} the page is at ${path}`);
  return ms;
}

/** `BENCH_PROFILE=1`: where the page's main thread spent the clicks' time, by self time. */
const printHotspots = (profile: CpuProfile) => printLargest(selfTimes(profile), 30);

async function measureRender(page: Page) {
  await page.addInitScript(installClickTimer);
  if (process.env.BENCH_PROFILE) {
    page.on("console", (m) => m.text().startsWith("bench:") && console.log(m.text()));
    page.on("requestfinished", (r) =>
      console.log(`request ${r.method()} ${r.url().replace(baseUrl, "")} ${r.timing().responseEnd.toFixed(0)} ms`),
    );
  }
  const navStarted = Date.now();
  await page.goto("/issues");
  await page.waitForSelector(ISSUE_ROWS, { timeout: 180_000 });
  const coldMs = Date.now() - navStarted;
  const issues: number[] = [];
  const actions: number[] = [];
  const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdp) await cdp.send("Profiler.enable").then(() => cdp.send("Profiler.start"));
  for (let i = 0; i < RENDER_RUNS; i++) {
    // From a page that shows neither (the Inbox), so each click draws the screen anew.
    await clickTo(page, "/inbox", "section.inbox h1");
    issues.push(await clickTo(page, "/issues", ISSUE_ROWS));
    await clickTo(page, "/inbox", "section.inbox h1");
    actions.push(await clickTo(page, "/actions", ACTIONS_SCREEN));
  }
  if (cdp) printHotspots((await cdp.send("Profiler.stop")).profile as CpuProfile);
  const rows = await page.locator("section.actions .maintenance-row").count();
  return { coldMs, issues, actions, actionRows: rows };
}

if (!only || only === "render") {
  const render = await withBrowser(async (browser) => {
    const page = await openPage(browser, watched.token);
    try {
      return await measureRender(page);
    } finally {
      await page.context().close();
    }
  });
  results.push(
    {
      metric: "Issues: page load to the first rows (sign-in state, initial pull, render)",
      value: render.coldMs,
      unit: "ms",
    },
    {
      metric: "Issues: first screen after the store is loaded, median",
      value: median(render.issues),
      unit: "ms",
      target: "< 300 ms",
    },
    { metric: "Issues: same, worst", value: Math.max(...render.issues), unit: "ms" },
    {
      metric: `My actions: first screen after the store is loaded, median (${render.actionRows} rows)`,
      value: median(render.actions),
      unit: "ms",
      target: "< 300 ms",
    },
    { metric: "My actions: same, worst", value: Math.max(...render.actions), unit: "ms" },
  );
}

/** One round: each beacon a sequential device moving ~11 m a second with the ignition on. */
async function round(
  fleet: { beacons: Fleet["beacons"]; step: number[]; stored: number; seconds: number },
  reports: number,
) {
  let sent = 0;
  const begun = performance.now();
  await Promise.all(
    fleet.beacons.map(async (beacon, b) => {
      while (sent < reports) {
        sent++;
        const n = fleet.step[b]!++;
        const res = await fetch(
          osmandUrl({
            id: beacon.id,
            lat: 40 + b * 0.01 + n * 0.0001,
            lon: -100 + n * 0.00005,
            timestamp: start + n * 1000,
            speed: 22,
            ignition: true,
          }),
        );
        const body = (await res.json()) as { outcomes?: string[] };
        if (res.ok && body.outcomes?.[0] === "stored") fleet.stored++;
      }
    }),
  );
  fleet.seconds += (performance.now() - begun) / 1000;
}
const start = Date.now() - 60_000 + 1000; // after the seeded telemetry, before now

if (plain) {
  const sides = [watched, plain].map((f) => ({
    beacons: f.beacons.slice(0, BEACONS),
    step: new Array<number>(BEACONS).fill(0),
    stored: 0,
    seconds: 0,
  }));
  for (const side of sides) await round(side, 200); // warm-up: each room loads its fleet (and schedules)
  for (const side of sides) Object.assign(side, { stored: 0, seconds: 0 });
  for (let r = 0; r < ROUNDS; r++)
    for (const side of r % 2 ? [...sides].reverse() : sides) await round(side, REPORTS_PER_ROUND);
  const [withSchedules, none] = sides.map((s) => s.stored / s.seconds) as [number, number];
  results.push(
    {
      metric: `accepted positions per second, ${counts.schedules.toLocaleString("en-US")} schedules`,
      value: Math.round(withSchedules),
      unit: "/s",
    },
    { metric: "accepted positions per second, no schedules", value: Math.round(none), unit: "/s" },
    { metric: "ratio with / without schedules", value: withSchedules / none, unit: "×", target: "≥ 0.95×" },
  );
}

write(
  "Maintenance at fleet scale: Issues, My actions, first sync, ingestion with schedules",
  results,
  [
    `${VEHICLES.toLocaleString("en-US")} vehicles from beacon orders, with ${counts.issues.toLocaleString("en-US")} issues (${open.toLocaleString("en-US")} open or in progress,`,
    `one per vehicle; the rest closed 40+ days ago), ${counts.schedules.toLocaleString("en-US")} schedules and ${counts.entries.toLocaleString("en-US")} service entries written`,
    `straight into D1 (bench/maintenance-seed.ts; ${seedSeconds.toFixed(1)} s). Open issues: titles of 8-21 characters, a reporter,`,
    `one in ten assigned to the bench's user, one in five with a due date, one in five with a 58-character description.`,
    `First sync: JSON bytes of an initial pull (cookie null, new client group; smallest of 3) with and without the issues,`,
    `the difference divided by the open issues. Render: headless Chromium at 1280×800 signed in; /issues is loaded until`,
    `its rows show (the store is loaded), then ${RENDER_RUNS} times: a click on Inbox, then on Issues (or My actions) in the side`,
    `navigation, timed in the page from the click until the list's first row (My actions: its first row) is in the DOM plus`,
    `two animation frames. Ingestion: ${BEACONS} concurrent beacons of each workspace (both of ${VEHICLES.toLocaleString("en-US")} vehicles),`,
    `${ROUNDS} alternating rounds of ${REPORTS_PER_ROUND.toLocaleString("en-US")} OsmAnd reports after a warm-up.`,
  ].join(" "),
);
