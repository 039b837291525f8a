import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles } from "./ui-helpers";

/** The fleet's economy on the Fuel page and the vehicle's Fuel tab in a metric workspace (issue 42, docs/decisions/0060). */
const HOUR = 3_600_000;

test("an owner switches the workspace to metric: the Fuel page and the Fuel tab show L/100 km, km and litres", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Metric Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const [a, b] = await orderVehicles(request, fleet, 2);
  // a: 1,000 km on 80 L over two full-to-full stretches (8 L/100 km); b: 500 km on 60 L (12 L/100 km).
  const fills: [string, number, number][] = [
    [a!.vehicleId, 0, 40],
    [a!.vehicleId, 310.686, 40],
    [a!.vehicleId, 621.371, 40],
    [b!.vehicleId, 1000, 50],
    [b!.vehicleId, 1310.686, 60],
  ];
  for (const [i, [vehicleId, odometerMiles, volumeLitres]] of fills.entries()) {
    const at = new Date(Date.now() - (10 - i) * 24 * HOUR).toISOString();
    const res = await request.post("/api/fuel-entries", {
      headers: auth,
      data: { vehicleId, at, volumeLitres, fullTank: true, odometerMiles },
    });
    expect(res.status()).toBe(201);
  }

  await signInAs(page, fleet.token);
  await page.goto("/workspace");
  const units = page.getByRole("form", { name: "Units" });
  await units.getByLabel("Units").selectOption("metric");
  await units.getByRole("button", { name: "Save" }).click();
  await expect(units.getByRole("status")).toHaveText(/Saved/);

  await page.getByRole("navigation", { name: "Sections", exact: true }).getByRole("link", { name: "Fuel" }).click();
  // The fleet: 1,500 km on 140 L, 9.3 L/100 km (not the mean of 8 and 12), as the cost report has it.
  await expect(page.getByTestId("fleet-economy")).toHaveText("Fleet: 9.3 L/100 km");
  const byVehicle = page.getByRole("list", { name: "Fuel economy by vehicle" }).getByRole("listitem");
  await expect(byVehicle.filter({ hasText: a!.vehicleName })).toContainText("8 L/100 km");
  await expect(byVehicle.filter({ hasText: b!.vehicleName })).toContainText("12 L/100 km");
  await expect(page.getByRole("list", { name: "Fill-ups" }).getByRole("listitem").first()).toContainText("60 L");

  await page.goto(`/vehicles/${a!.vehicleId}/fuel`);
  await expect(page.getByTestId("fuel-economy")).toHaveText("Fuel economy: 8 L/100 km over 1,000 km (2 fill-ups)");
});

test("in a metric workspace the fuel forms take litres and km: the tank, and a fill-up logged from the Fuel tab", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Litres Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const [vehicle] = await orderVehicles(request, fleet, 1);
  const prefs = await request.patch("/api/workspace/preferences", { headers: auth, data: { units: "metric" } });
  expect(prefs.status()).toBe(200);

  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle!.vehicleId}/settings`);
  await page.getByLabel("Fuel tank (L)").fill("60");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Vehicle updated")).toBeVisible();
  // Typed in litres, kept in litres (not 60 gallons).
  await expect(page.getByLabel("Fuel tank (L)")).toHaveValue("60");

  await page.goto(`/vehicles/${vehicle!.vehicleId}/fuel`);
  const log = page.getByRole("form", { name: "Log fuel" });
  await log.getByLabel("Volume (L)").fill("45.5");
  await log.getByLabel("Odometer (km)").fill("1609.344");
  await log.getByRole("button", { name: "Log fuel" }).click();
  await expect
    .poll(async () => {
      const res = await request.get(`/api/fuel-entries?vehicleId=${vehicle!.vehicleId}`, { headers: auth });
      const { entries } = (await res.json()) as { entries: { volumeLitres: number; odometerMiles: number | null }[] };
      return entries.map((e) => [e.volumeLitres, Math.round((e.odometerMiles ?? 0) * 1000) / 1000]);
    })
    .toEqual([[45.5, 1000]]);
  // 70 L is more than the 60 L tank: flagged, which it would not be had the tank been taken as 60 gallons.
  await log.getByLabel("Volume (L)").fill("70");
  await log.getByRole("button", { name: "Log fuel" }).click();
  const fills = page.getByRole("list", { name: "Fill-ups" }).getByRole("listitem");
  await expect(fills.filter({ hasText: "45.5 L" })).toContainText("1,609 km");
  await expect(fills.filter({ hasText: "70 L" })).toContainText("Check: more than the tank holds");
});
