import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicle } from "./sync-helpers";

/**
 * One clock for the browser, the tests and the Worker, in a run at a chosen hour too (issue 57,
 * playwright.config.ts E2E_CLOCK and E2E_TIME_ZONE): a test that depends on the day must see the
 * same day everywhere, or it fails for the hour it runs at rather than for the product.
 */
test("the browser, the test and the Worker read the same time, in the run's zone", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Clock Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const before = Date.now();
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const created = await request.post("/api/issues", {
    headers,
    data: { vehicleId: vehicle.id, title: "What time is it", priority: "low" },
  });
  expect(created.status()).toBe(201);
  const listed = (await (await request.get("/api/issues", { headers })).json()) as { issues: { createdAt: string }[] };
  const createdAt = Date.parse(listed.issues[0]!.createdAt);
  await signInAs(page, fleet.token);
  await page.goto("/login");
  const browser = await page.evaluate(() => ({
    now: Date.now(),
    zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  }));
  // Seconds apart at most (the Worker stamps to the second), whatever the hour of the run.
  expect(Math.abs(createdAt - before)).toBeLessThan(60_000);
  expect(Math.abs(browser.now - before)).toBeLessThan(60_000);
  if (process.env.E2E_CLOCK) expect(Math.abs(before - Date.parse(process.env.E2E_CLOCK))).toBeLessThan(60 * 60_000);
  expect(browser.zone).toBe(process.env.E2E_TIME_ZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
});
