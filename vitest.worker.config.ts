import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import developmentVars from "./config/development.vars.json";

// Worker tests run inside workerd with the real wrangler.toml bindings and the real SQL
// migrations (applied by worker/test/setup.ts). Each test file gets its own D1.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        main: "./worker/test-entry.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // INGEST_FLUSH_MS 0: reports are in D1 when ingestion answers, as tests read D1 directly;
          // the delayed flush has its own tests (party/fleet/live-fleet.worker.test.ts).
          bindings: { ...developmentVars, TEST_MIGRATIONS: migrations, ENVIRONMENT: "test", INGEST_FLUSH_MS: "0" },
        },
      }),
    ],
    test: {
      include: ["worker/**/*.test.ts", "party/**/*.worker.test.ts", "db/**/*.worker.test.ts"],
      // Pure report logic and the pull's pure rules run in Node (vitest.unit.config.ts).
      exclude: ["**/node_modules/**", "party/reports/*.test.ts", "worker/sync/pull-rules.test.ts"],
      setupFiles: ["./worker/test/setup.ts"],
    },
  };
});
