import { configDefaults, defineConfig } from "vitest/config";

// Pure logic shared by browser and Worker (and the browser's own pure helpers, the workspace
// object's pure modules and the pull's pure rules), run in Node. `*.worker.test.ts` files run inside workerd instead
// (vitest.worker.config.ts).
export default defineConfig({
  test: {
    include: ["shared/**/*.test.ts", "party/**/*.test.ts", "app/**/*.test.{ts,tsx}", "scripts/**/*.test.ts", "worker/sync/*.test.ts"],
    exclude: [...configDefaults.exclude, "**/*.worker.test.ts"],
    environment: "node",
  },
});
