import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

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
          bindings: { TEST_MIGRATIONS: migrations, ENVIRONMENT: "test", RATE_LIMIT_SCALE: "1" },
        },
      }),
    ],
    test: {
      include: ["worker/**/*.test.ts", "party/**/*.test.ts"],
      setupFiles: ["./worker/test/setup.ts"],
    },
  };
});
