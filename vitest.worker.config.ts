import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import developmentVars from "./config/development.vars.json";

// Worker tests run inside workerd with the real wrangler.toml bindings and the real SQL
// migrations (applied by worker/test/setup.ts). Each test file gets its own clean D1 and fresh modules
// (worker/test/setup.ts), in a workerd that files take turns in (`isolate: false`): starting one per
// file was a quarter of the suite's time (docs/decisions/0067-a-faster-npm-test.md).
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        main: "./worker/test-entry.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // INGEST_FLUSH_MS 0: reports are in D1 when ingestion answers, as tests read D1 directly;
          // the delayed flush has its own tests (party/live-fleet/live-fleet.worker.test.ts).
          // TEST_CLOCK_OFFSET_MS: a run at a chosen hour (scripts/test.mjs, worker/test-clock.ts).
          bindings: {
            ...developmentVars,
            TEST_MIGRATIONS: migrations,
            ENVIRONMENT: "test",
            INGEST_FLUSH_MS: "0",
            TEST_CLOCK_OFFSET_MS: process.env.TEST_CLOCK_OFFSET_MS ?? "0",
          },
        },
      }),
    ],
    test: {
      include: ["worker/**/*.test.ts", "party/**/*.worker.test.ts", "db/**/*.worker.test.ts"],
      // The pull's pure rules run in Node (vitest.unit.config.ts), as does domain/.
      exclude: ["**/node_modules/**", "worker/sync/pull-rules.test.ts"],
      setupFiles: ["./worker/test/setup.ts"],
      isolate: false,
      // A time limit is a guard against a hang, not a measure of speed (that is `npm run bench`):
      // vitest's 5 s cut tests that hash passwords or replay tracks at a load of 13 on 2 cores
      // (issue 57: the suite must pass on a busy machine as on a quiet one).
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
});
