import { defineConfig } from "@playwright/test";

// Browser tests: Debian's Chromium (never a downloaded browser) against the built app served by
// wrangler dev with a fresh D1. Mapbox's hosts are blocked in e2e/fixtures.ts: tests run offline.
const port = Number(process.env.E2E_PORT ?? 8799);
/**
 * A second Worker with a MAPBOX_TOKEN set (syntactically valid, unknown to Mapbox, whose hosts are
 * blocked anyway): the map must fall back to its offline geography (e2e/base-map.spec.ts).
 */
export const tokenPort = Number(process.env.E2E_TOKEN_PORT ?? port + 2);

export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
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
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
      env: { E2E_PORT: String(port) },
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    },
    {
      command: "node scripts/e2e-server.mjs",
      url: `http://127.0.0.1:${tokenPort}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        E2E_PORT: String(tokenPort),
        MAPBOX_TOKEN: "pk.eyJ1IjoiZTJlLXVua25vd24iLCJhIjoiZTJlIn0.e2e-unknown-token",
      },
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    },
  ],
});
