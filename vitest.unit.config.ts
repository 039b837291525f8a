import { defineConfig } from "vitest/config";

// Pure logic shared by browser and Worker (and the browser's own pure helpers), run in Node.
export default defineConfig({
  test: {
    include: ["shared/**/*.test.ts", "party/**/*.test.ts", "app/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    environment: "node",
  },
});
