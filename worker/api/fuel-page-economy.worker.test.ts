import { describe, expect, it } from "vitest";
import type { CostReportResponse } from "../../shared/costs/cost-report";
import { fleetEconomyOf, fuelPageEconomyQuery } from "../../shared/costs/fleet-economy";
import type { FuelEconomy } from "../../shared/costs/fuel";
import { dayOf, startOfDay } from "../../shared/units/time-zone";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";

/**
 * One home for fuel economy (issue 52, docs/figures.md): the Fuel page's economy over its 90 days is
 * the cost report's for those days, and both are the rule of shared/costs/fuel-economy.ts over the
 * vehicle's whole log, as GET /api/vehicles/{id}/fuel-economy answers it.
 */
const DAY = 86_400_000;

/**
 * 40 L every 400 mi, but for one stretch of 900 mi (a missed fill-up: an outlier against the
 * vehicle's history), and a stretch opened 100 days ago that closes inside the 90 days.
 */
async function truckWithHistory() {
  const a = await userWithWorkspace();
  const truck = await insertVehicle(a.workspaceId, { name: "Truck" });
  const log: [number, number][] = [
    [200, 0],
    [170, 400],
    [140, 800],
    [100, 1_200],
    [60, 1_600],
    [30, 2_500],
    [10, 2_900],
  ];
  // Logged through the API, which cuts the stored stretches the cost report reads (docs/decisions/0078).
  for (const [daysAgo, odometerMiles] of log) {
    const fillUp = { vehicleId: truck, at: new Date(Date.now() - daysAgo * DAY).toISOString(), volumeLitres: 40 };
    const res = await call("/api/fuel-entries", {
      method: "POST",
      token: a.token,
      json: { ...fillUp, costCents: 6_000, fullTank: true, odometerMiles },
    });
    expect(res.status).toBe(201);
  }
  return { ...a, truck };
}

describe("the Fuel page's economy and the cost report", () => {
  it("agree, per vehicle and for the fleet, over the vehicle's whole log", async () => {
    const a = await truckWithHistory();
    const today = dayOf(Date.now(), "UTC");
    const query = fuelPageEconomyQuery(today);
    const res = await call(`/api/reports/costs?${new URLSearchParams(query)}`, { token: a.token });
    const report = (await res.json()) as CostReportResponse;
    const page = fleetEconomyOf(report);
    const range = `from=${new Date(startOfDay(query.from, "UTC")).toISOString()}&to=${new Date(startOfDay(today, "UTC") + DAY).toISOString()}`;
    const api = (await (
      await call(`/api/vehicles/${a.truck}/fuel-economy?${range}`, { token: a.token })
    ).json()) as FuelEconomy;
    // 800 mi on 80 L: the stretch opened 100 days ago counts, the 900-mile one is left out.
    expect(report.total.mpg).toBe(37.9);
    expect(page.fleet.mpg).toBe(report.total.mpg);
    expect(page.vehicles).toEqual([[a.truck, { mpg: 37.9, litresPer100Km: 6.2 }]]);
    expect(api.mpg).toBe(37.9);
  }, 60_000);
});
