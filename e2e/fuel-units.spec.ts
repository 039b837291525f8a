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
  // The fleet: 1,500 km on 140 L, 9.3 L/100 km (not the mean of 8 and 12).
  await expect(page.getByTestId("fleet-economy")).toHaveText("Fleet: 9.3 L/100 km over 1,500 km");
  const byVehicle = page.getByRole("list", { name: "Fuel economy by vehicle" }).getByRole("listitem");
  await expect(byVehicle.filter({ hasText: a!.vehicleName })).toContainText("8 L/100 km");
  await expect(byVehicle.filter({ hasText: b!.vehicleName })).toContainText("12 L/100 km");
  await expect(page.getByRole("list", { name: "Fill-ups" }).getByRole("listitem").first()).toContainText("60 L");

  await page.goto(`/vehicles/${a!.vehicleId}/fuel`);
  await expect(page.getByTestId("fuel-economy")).toHaveText("Fuel economy: 8 L/100 km over 1,000 km (2 fill-ups)");
});
