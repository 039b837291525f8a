import type { APIRequestContext } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles, report } from "./ui-helpers";

// The workspace is in Chicago; the viewer's machine is in Tokyo: every day and time on /reports
// must be Chicago's. A fixed clock: noon, Wednesday 14 October 2026 in Chicago.
test.use({ timezoneId: "Asia/Tokyo" });
const NOW = Date.parse("2026-10-14T12:00:00-05:00");
const MIN = 60_000;

async function chicagoFleet(request: APIRequestContext) {
  const fleet = await newFleetAccount(request);
  const res = await request.patch("/api/workspace/preferences", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { timeZone: "America/Chicago" },
  });
  expect(res.status()).toBe(200);
  return fleet;
}

/** Yesterday in Chicago: parked, a drive north from 10:00 to 10:20 at 30 knots, parked again. */
async function driveYesterday(request: APIRequestContext, beaconId: string) {
  const start = Date.parse("2026-10-13T10:00:00-05:00");
  await report(request, beaconId, { timestamp: start - 10 * MIN, lat: 40, lon: -100, ignition: false });
  for (let i = 0; i <= 20; i += 2) {
    await report(request, beaconId, {
      timestamp: start + i * MIN,
      lat: 40 + i * 0.015,
      lon: -100,
      speed: 30,
      ignition: true,
    });
  }
  for (let i = 1; i <= 4; i++)
    await report(request, beaconId, { timestamp: start + (20 + i * 2) * MIN, lat: 40.3, lon: -100, ignition: false });
}

test("Summary, Trips, Stops and Daily of yesterday in the workspace's zone, and the CSV of each", async ({
  page,
  request,
}) => {
  const fleet = await chicagoFleet(request);
  const [a] = await orderVehicles(request, fleet, 1);
  await driveYesterday(request, a!.id);
  await page.clock.setSystemTime(NOW);
  await signInAs(page, fleet.token);
  await page.goto("/reports");
  await expect(page.getByText("Times in America/Chicago")).toBeVisible();

  await page.getByLabel("Range").selectOption("yesterday");
  const table = page.getByRole("table", { name: "summary report" });
  const row = table.locator("tbody tr").first();
  await expect(row.locator("td").first()).toHaveText(a!.vehicleName);
  // Trips and stops columns: one trip, the stop before it and the one after.
  await expect(row.locator("td").nth(4)).toHaveText("1");
  await expect(row.locator("td").nth(5)).toHaveText("2");
  await expect(table.locator("tfoot td").first()).toHaveText("Fleet total");

  await page.getByRole("tab", { name: "Trips" }).click();
  const trip = page.getByRole("table", { name: "trips report" }).locator("tbody tr");
  await expect(trip).toHaveCount(1);
  await expect(trip.locator("td").nth(2)).toHaveText(/^2026-10-13 10:0\d AM$/);

  await page.getByRole("tab", { name: "Stops" }).click();
  await expect(page.getByRole("table", { name: "stops report" }).locator("tbody tr")).toHaveCount(2);

  await page.getByRole("tab", { name: "Daily" }).click();
  await page.getByLabel("Range").selectOption("last7");
  await expect(page.getByRole("img", { name: "Distance and driving time per day" }).locator("g[data-day]")).toHaveCount(
    7,
  );
  await expect(page.locator("g[data-day='2026-10-14']")).toHaveCount(1);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("daily-2026-10-08-to-2026-10-14.csv");
  const csv = await readFile((await download.path())!, "utf8");
  const lines = csv.split("\r\n");
  expect(lines[0]).toMatch(/^day,vehicleId,vehicleName,distanceMiles,drivingSeconds,/);
  expect(lines).toHaveLength(7 + 2);
  expect(lines.find((l) => l.startsWith("2026-10-13"))).toContain(a!.vehicleId);
});

test("a custom range over 92 days is refused with a clear message", async ({ page, request }) => {
  const fleet = await chicagoFleet(request);
  await signInAs(page, fleet.token);
  await page.goto("/reports");
  await page.getByLabel("Range").selectOption("custom");
  await page.getByLabel("From", { exact: true }).fill("2026-01-01");
  await page.getByLabel("To", { exact: true }).fill("2026-04-03");
  await expect(page.getByRole("alert")).toHaveText("A report covers at most 92 days; this range has 93");
  await page.getByLabel("To", { exact: true }).fill("2026-04-02");
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("Preferences sets the workspace's time zone, and subscribing to the e-mail summary sticks", async ({
  page,
  request,
}) => {
  const fleet = await chicagoFleet(request);
  await signInAs(page, fleet.token);
  await page.goto("/workspace");
  const zone = page.getByLabel("Time zone");
  await expect(zone).toHaveValue("America/Chicago");
  await zone.selectOption("Europe/Berlin");
  // The time zone's own form (Preferences also has the Units form, with its own Save).
  const zoneForm = page.locator("form").filter({ has: zone });
  await zoneForm.getByRole("button", { name: "Save" }).click();
  await expect(zoneForm.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  const prefs = await request.get("/api/workspace/preferences", {
    headers: { Authorization: `Bearer ${fleet.token}` },
  });
  expect(await prefs.json()).toMatchObject({ timeZone: "Europe/Berlin", units: "us", hourCycle: "h23" });

  await page.goto("/reports");
  await expect(page.getByText("Times in Europe/Berlin")).toBeVisible();
  await page.getByLabel("E-mail me the summary").selectOption("weekly");
  await expect(page.getByText("Saved")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("E-mail me the summary")).toHaveValue("weekly");
});
