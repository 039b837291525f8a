import { env } from "cloudflare:workers";
import { expect, test } from "vitest";

// `E2E_CLOCK=… npm test` (docs/decisions/0077) runs these tests at a chosen hour: the Worker's Date
// is shifted by TEST_CLOCK_OFFSET_MS once, not once per test file that re-evaluates the shift.
test("the Worker's clock is shifted by the test offset exactly once", () => {
  const offset = Number((env as unknown as { TEST_CLOCK_OFFSET_MS?: string }).TEST_CLOCK_OFFSET_MS ?? 0);
  const real = (globalThis as typeof globalThis & { __realDate?: DateConstructor }).__realDate ?? Date;
  expect(Math.abs(Date.now() - real.now() - offset)).toBeLessThan(1000);
  expect(Math.abs(new Date().getTime() - real.now() - offset)).toBeLessThan(1000);
});
