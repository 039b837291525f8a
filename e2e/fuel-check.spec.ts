import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, goOnline, indicator } from "./sync-helpers";
import { orderVehicles, report } from "./ui-helpers";

/**
 * The Fuel page's "check" (issue 42, docs/decisions/0060): a refuel the beacon's level showed with
 * no fill-up near it is listed with "Log it"; a fill-up logged where the tank never rose says
 * "Check: no rise seen", worked out in the browser from the synced store (offline too), as the API does.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
type Entry = { id: string; flags: string[] };

test("a refuel seen but not logged is logged in one click, and a fill-up the tank never saw is flagged offline", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Fuel Check Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const [a] = await orderVehicles(request, fleet, 1);
  // An 80 L tank pumped from 20 % to 90 % five hours ago while parked: 56 L, about 14.8 gal.
  expect(
    (await request.patch(`/api/vehicles/${a!.vehicleId}`, { headers: auth, data: { fuelTankLitres: 80 } })).status(),
  ).toBe(200);
  const start = Date.now() - 5 * HOUR;
  const levels = [20, 20, 21, 20, 20, 20, 45, 70, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90];
  for (const [i, fuel] of levels.entries())
    await report(request, a!.id, { timestamp: start + i * MIN, lat: 40, lon: -100, ignition: false, fuel });
  await report(request, a!.id, {
    timestamp: start + 20 * MIN,
    lat: 40.01,
    lon: -100,
    speed: 20,
    ignition: true,
    fuel: 89,
  });

  await signInAs(page, fleet.token);
  await page.goto("/fuel");
  const check = page.getByRole("list", { name: "Refuels seen, not logged" }).getByRole("listitem");
  await expect(check).toHaveCount(1);
  await expect(check).toContainText("Refuel seen, not logged");
  await expect(check).toContainText(a!.vehicleName);
  await expect(check).toContainText(/about 14\.\d+ gal/);

  await check.getByRole("button", { name: /Log the refuel/ }).click();
  const log = page.getByRole("form", { name: "Log fuel" });
  await expect(log.getByLabel("Vehicle")).toHaveValue(a!.vehicleId);
  await expect(log.getByLabel("Volume (gal)")).toHaveValue(/^14\.\d+$/);
  await expect(log.getByLabel("Date and time")).not.toHaveValue("");
  await log.getByLabel("Cost ($)").fill("61.40");
  await log.getByRole("button", { name: "Log fuel" }).click();
  const fillUps = page.getByRole("list", { name: "Fill-ups" }).getByRole("listitem");
  await expect(fillUps).toHaveCount(1);
  await expect(fillUps).not.toContainText("Check");
  await expect(page.getByRole("list", { name: "Refuels seen, not logged" })).toHaveCount(0);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");

  // Offline, a fill-up typed in for two and a half hours ago, long after the refuel: the store's rule flags it.
  await goOffline(page);
  const typed = new Date(Date.now() - 2.5 * HOUR);
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = `${typed.getFullYear()}-${pad(typed.getMonth() + 1)}-${pad(typed.getDate())}T${pad(typed.getHours())}:${pad(typed.getMinutes())}`;
  await log.getByLabel("Vehicle").selectOption(a!.vehicleId);
  await log.getByLabel("Date and time").fill(local);
  await log.getByLabel("Volume (gal)").fill("10");
  await log.getByRole("button", { name: "Log fuel" }).click();
  await expect(fillUps).toHaveCount(2);
  await expect(fillUps.nth(0)).toContainText("Check: no rise seen in the tank");
  await expect(fillUps.nth(1)).not.toContainText("Check");

  // Back online, the API says the same of both.
  await goOnline(page);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const res = await request.get(`/api/fuel-entries?vehicleId=${a!.vehicleId}`, { headers: auth });
  const { entries } = (await res.json()) as { entries: Entry[] };
  expect(entries.map((e) => e.flags)).toEqual([["no_rise_seen"], []]);
});
