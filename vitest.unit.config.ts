import { configDefaults, defineConfig } from "vitest/config";

// Pure logic, run in Node: shared/ (browser and Worker), domain/ (the fleet's rules: fold, motion,
// places, alerts, rollups), the browser's own pure helpers and the pull's pure rules. `*.worker.test.ts` files run inside workerd instead
// (vitest.worker.config.ts).
export default defineConfig({
  test: {
    include: [
      "shared/**/*.test.ts",
      "domain/**/*.test.ts",
      "party/**/*.test.ts",
      "app/**/*.test.{ts,tsx}",
      "scripts/**/*.test.ts",
      "worker/sync/*.test.ts",
    ],
    exclude: [...configDefaults.exclude, "**/*.worker.test.ts"],
    environment: "node",
    // A guard against a hang, not a measure of speed (`npm run bench` measures): on a busy machine
    // vitest's 5 s cut tests that are merely slow there (issue 57, vitest.worker.config.ts).
    testTimeout: 30_000,
  },
});
