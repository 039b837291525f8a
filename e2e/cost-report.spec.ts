import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles, report } from "./ui-helpers";

// The cost report's tab (issue 42): the workspace in Chicago, the viewer's machine in Tokyo; noon,
// Wednesday 14 October 2026 in Chicago.
test.use({ timezoneId: "Asia/Tokyo" });
const NOW = Date.parse("2026-10-14T12:00:00-05:00");
const MIN = 60_000;

test("Costs: this month's fuel, distance and total per vehicle and per month, and its CSV", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const zone = await request.patch("/api/workspace/preferences", {
    headers: auth,
    data: { timeZone: "America/Chicago" },
  });
  expect(zone.status()).toBe(200);
  const [truck] = await orderVehicles(request, fleet, 1);
  // Yesterday a 20-minute drive north, then a fill-up for $72.50.
  const start = Date.parse("2026-10-13T10:00:00-05:00");
  for (let i = 0; i <= 20; i += 2)
    await report(request, truck!.id, {
      timestamp: start + i * MIN,
      lat: 40 + i * 0.015,
      lon: -100,
      speed: 30,
      ignition: true,
    });
  for (let i = 1; i <= 3; i++)
    await report(request, truck!.id, { timestamp: start + (20 + i * 2) * MIN, lat: 40.3, lon: -100, ignition: false });
  const fill = await request.post("/api/fuel-entries", {
    headers: auth,
    data: {
      vehicleId: truck!.vehicleId,
      at: "2026-10-13T11:00:00-05:00",
      volumeLitres: 50,
      costCents: 7250,
      fullTank: true,
    },
  });
  expect(fill.status()).toBe(201);

  await page.clock.setSystemTime(NOW);
  await signInAs(page, fleet.token);
  await page.goto("/reports");
  await page.getByRole("tab", { name: "Costs" }).click();
  const table = page.getByRole("table", { name: "costs report" });
  const row = table.locator("tbody tr").first();
  await expect(row.locator("td").first()).toHaveText(truck!.vehicleName);
  await expect(row.locator("td[data-label='Fuel']")).toHaveText("$72.50");
  await expect(row.locator("td[data-label='Distance (mi)']")).not.toHaveText("0.0");
  await expect(table.locator("tfoot td[data-label='Total']")).toHaveText("$72.50");
  // 50 L is 13.2 US gallons; the same report in a metric workspace reads litres, km and per km.
  await expect(row.locator("td[data-label='Fuel (gal)']")).toHaveText("13.2");
  const shown = async (label: string) =>
    Number((await row.locator(`td[data-label='${label}']`).textContent())!.replace(/,/g, ""));
  const miles = await shown("Distance (mi)");
  const metric = await request.patch("/api/workspace/preferences", { headers: auth, data: { units: "metric" } });
  expect(metric.status()).toBe(200);
  await page.reload();
  await page.getByRole("tab", { name: "Costs" }).click();
  await expect(row.locator("td[data-label='Fuel (L)']")).toHaveText("50.0");
  // The table rounds to 0.1 of either unit, so the km shown is the miles shown × 1.609 within 0.2.
  await expect(row.locator("td[data-label='Distance (km)']")).toHaveText(/^[\d,]+\.\d$/);
  const km = await shown("Distance (km)");
  expect(Math.abs(km - miles * 1.609344)).toBeLessThan(0.2);
  await expect(table.getByRole("columnheader", { name: "Per km" })).toBeVisible();

  await page.getByLabel("Rows").selectOption("month");
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table.locator("tbody td").first()).toHaveText("2026-10");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("costs-by-month-2026-10-01-to-2026-10-14.csv");
});
