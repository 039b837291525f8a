import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Browser tests: Debian's Chromium (never a downloaded browser) against the built app served by
// wrangler dev with a fresh D1. Mapbox's hosts are blocked in e2e/fixtures.ts: tests run offline.
const port = Number(process.env.E2E_PORT ?? 8799);
/**
 * A second Worker with a MAPBOX_TOKEN set (syntactically valid, unknown to Mapbox, whose hosts are
 * blocked anyway): the map must fall back to its offline geography (e2e/base-map.spec.ts).
 */
export const tokenPort = Number(process.env.E2E_TOKEN_PORT ?? port + 2);
/**
 * Only base-map.spec.ts (an `alone` spec) asks for it, so `npm test`'s `side by side` run goes
 * without (E2E_NO_TOKEN_WORKER, scripts/test.mjs): one wrangler dev and its fresh D1 fewer, whose
 * start took a share of the two cores while the first tests ran (docs/decisions/0101).
 */
const tokenWorker = !process.env.E2E_NO_TOKEN_WORKER;

/**
 * Specs run by themselves, after the others: a service worker's install (it precaches the whole
 * build), the map's WebGL pixels (software-rendered) and axe-core over every page (phone.spec.ts)
 * are what a second browser slowed past their waits; field-offline.spec.ts rewrites
 * build/client/sw.js, which every page would load meanwhile.
 */
const ALONE = [
  "base-map.spec.ts",
  "durable-edits.spec.ts",
  "field-offline.spec.ts",
  "install-offline.spec.ts",
  "jobs-driver.spec.ts",
  "map.spec.ts",
  "overview.spec.ts",
  "phone.spec.ts",
  "places-drawing.spec.ts",
  "push.spec.ts",
  "replay.spec.ts",
  "sign-out-offline.spec.ts",
].map((file) => `**/${file}`);

/**
 * A run at a chosen hour (issue 57, docs/decisions/0077): `E2E_CLOCK=2026-11-28T23:30:00Z npm run
 * test:e2e` shifts every clock by the same amount: the test processes through Debian's libfaketime
 * (`apt-get install faketime`), the pages through Playwright's clock (e2e/fixtures.ts; Chromium
 * hangs under libfaketime), the Worker through TEST_CLOCK_OFFSET_MS (worker/test-clock.ts).
 * `E2E_TIME_ZONE=America/Chicago` puts the browser and the tests' workspaces in that zone.
 * The offset is worked out once, by the runner, and inherited by the processes it starts.
 */
const LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";
const clock = process.env.E2E_CLOCK;
if (clock && process.env.E2E_CLOCK_OFFSET_S === undefined) {
  const at = Date.parse(clock);
  if (Number.isNaN(at)) throw new Error(`E2E_CLOCK is not a date: ${clock}`);
  if (!existsSync(LIBFAKETIME)) throw new Error("E2E_CLOCK needs libfaketime: apt-get install faketime");
  const seconds = Math.round((at - Date.now()) / 1000);
  Object.assign(process.env, {
    E2E_CLOCK_OFFSET_S: String(seconds),
    LD_PRELOAD: LIBFAKETIME,
    FAKETIME: `${seconds >= 0 ? "+" : ""}${seconds}`,
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
  });
}
const timeZone = process.env.E2E_TIME_ZONE;
if (timeZone) process.env.TZ = timeZone;
/** What the Worker's processes and Chromium get instead: workerd and Chromium hang under libfaketime. */
const notFaked = { LD_PRELOAD: "" };
const workerClock = {
  ...notFaked,
  TEST_CLOCK_OFFSET_MS: String(Number(process.env.E2E_CLOCK_OFFSET_S ?? 0) * 1000),
};

export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  // Two browsers at a time against the same Worker (docs/decisions/0067-a-faster-npm-test.md): every
  // test makes its own account and workspace (e2e/helpers.ts), so none waits on another's data. A
  // file's tests run in order, in one worker. E2E_WORKERS overrides, e.g. on a bigger machine.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  projects: [
    { name: "side by side", testIgnore: ALONE },
    // After the others, one at a time: these need the whole machine, or change what every page loads.
    { name: "alone", testMatch: ALONE, workers: 1, dependencies: ["side by side"] },
  ],
  // One retry: a browser test is a real Chromium against a real Worker on a shared machine, and a
  // whole submission should not wait on one timing accident. A test that needs its retry is
  // named "flaky" in npm test's output (scripts/test.mjs), to be fixed; one that fails twice fails.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    ...(timeZone && { timezoneId: timeZone }),
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      env: { ...process.env, ...notFaked },
      args: [
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
      ],
    },
  },
  webServer: [
    {
      command: "node scripts/e2e-server.mjs",
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { E2E_PORT: String(port), ...workerClock },
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    },
    ...(tokenWorker ? [tokenWorkerServer()] : []),
  ],
});

function tokenWorkerServer() {
  return {
    command: "node scripts/e2e-server.mjs",
    url: `http://127.0.0.1:${tokenPort}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      ...workerClock,
      E2E_PORT: String(tokenPort),
      MAPBOX_TOKEN: "pk.eyJ1IjoiZTJlLXVua25vd24iLCJhIjoiZTJlIn0.e2e-unknown-token",
    },
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  };
}
