import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CostReportResponse } from "../../shared/costs/cost-report";
import { monthCostsOf, overviewCostQuery } from "../../shared/overview/month-cost";
import { addMonths } from "../../shared/overview/months";
import { addDays, dayOf, startOfDay } from "../../shared/units/time-zone";
import { METRES_PER_MILE } from "../../shared/units/units";
import { database } from "../test/db";
import { expenses, fuelEntries, serviceEntries, telemetry, vehicleDayRollups, workspaces } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { rebuildWorkspaceStretches } from "../fuel/fuel-stretches";

/**
 * One home per figure (issue 52, docs/figures.md): the overview's costs this month and last are the
 * cost report's for the same days, to the cent. The fleet is the demo's shape: fill-ups typed with a
 * dashboard odometer unrelated to the tracker's GPS one, a van that drives without a fill-up, service
 * and expenses, a deleted vehicle's costs, and GPS distance in the day rollups.
 */
const db = () => database(env.DB);
const ZONE = "America/Chicago";

async function demoLikeFleet() {
  const a = await userWithWorkspace();
  const ws = a.workspaceId;
  await db().update(workspaces).set({ timeZone: ZONE }).where(eq(workspaces.id, ws));
  const today = dayOf(Date.now(), ZONE);
  const thisMonth = `${today.slice(0, 7)}-01`;
  const lastMonth = `${addMonths(today.slice(0, 7), -1)}-01`;
  const day = (first: string, n: number) => addDays(first, n - 1);
  const noon = (d: string) => startOfDay(d, ZONE) + 12 * 3_600_000;
  const truck = await insertVehicle(ws, { name: "Truck" });
  const van = await insertVehicle(ws, { name: "Van" });
  const gone = await insertVehicle(ws, { name: "Sold", deleted: true });
  const fill = (vehicleId: string, d: string, costCents: number, odometerMiles: number) =>
    db()
      .insert(fuelEntries)
      .values({
        id: crypto.randomUUID(),
        workspaceId: ws,
        vehicleId,
        version: 1,
        at: noon(d),
        volumeLitres: 60,
        costCents,
        fullTank: true,
        odometerMiles,
      });
  await fill(truck, day(lastMonth, 3), 9_150, 52_000);
  await fill(truck, day(lastMonth, 17), 8_875, 52_400);
  await fill(truck, thisMonth, 9_320, 52_800);
  await fill(gone, thisMonth, 50_000, 10);
  // Loaded raw, so their stretches are cut by the rebuild (a write through the API cuts its own).
  await rebuildWorkspaceStretches(db(), ws);
  const miles = new Map<string, number>();
  const drive = (vehicleId: string, d: string, m: number) =>
    miles.set(`${vehicleId}|${d}`, (miles.get(`${vehicleId}|${d}`) ?? 0) + m);
  drive(truck, day(lastMonth, 5), 700.4);
  drive(truck, day(lastMonth, 20), 650.55);
  drive(van, day(lastMonth, 10), 1_203.7);
  drive(truck, thisMonth, 412.3);
  drive(truck, today, 88.25);
  drive(van, today, 301.1);
  drive(gone, today, 5);
  for (const [k, m] of miles) {
    const [vehicleId, d] = k.split("|") as [string, string];
    await db()
      .insert(vehicleDayRollups)
      .values({ workspaceId: ws, vehicleId, day: d, distanceMetres: m * METRES_PER_MILE });
  }
  const entry = { workspaceId: ws, version: 1 };
  await db()
    .insert(serviceEntries)
    .values([
      { ...entry, id: crypto.randomUUID(), vehicleId: truck, date: day(lastMonth, 12), costCents: 25_000 },
      { ...entry, id: crypto.randomUUID(), vehicleId: truck, date: today, costCents: 9_999 },
    ]);
  await db()
    .insert(expenses)
    .values([
      { ...entry, id: crypto.randomUUID(), vehicleId: van, date: today, kind: "tolls", costCents: 1_250 },
      { ...entry, id: crypto.randomUUID(), vehicleId: van, date: day(lastMonth, 28), kind: "lease", costCents: 80_000 },
    ]);
  // The trackers' GPS odometers now: another odometer than the dashboard's typed on the fill-ups.
  const now = (vehicleId: string, odometerMiles: number) =>
    db()
      .insert(telemetry)
      .values({
        id: crypto.randomUUID(),
        workspaceId: ws,
        vehicleId,
        status: "off",
        statusTimestamp: Date.now(),
        odometer: odometerMiles * METRES_PER_MILE,
        latitude: 41.9,
        longitude: -87.6,
        recordedAt: Date.now(),
        version: 1,
      });
  await now(truck, 81_302.4);
  await now(van, 20_114.9);
  return { ...a, today, thisMonth, lastMonth, lastMonthEnd: addDays(thisMonth, -1), truck, van };
}

async function costs(token: string, query: Record<string, string>) {
  const res = await call(`/api/reports/costs?${new URLSearchParams(query)}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as CostReportResponse;
}

const figuresOf = (r: { totalCents: number; distanceMiles: number; costPerMileCents: number | null }) => [
  r.totalCents,
  r.distanceMiles,
  r.costPerMileCents,
];

describe("the overview's costs and the cost report", () => {
  it("agree to the cent, this month and last, on the same vehicles and days", async () => {
    const a = await demoLikeFleet();
    const overview = monthCostsOf(await costs(a.token, overviewCostQuery(a.today)), a.today);
    // What Reports → Costs shows for "This month" and "Last month", per vehicle, and its fleet total.
    const thisMonth = (await costs(a.token, { from: a.thisMonth, to: a.today, by: "vehicle" })).total;
    const lastMonth = (await costs(a.token, { from: a.lastMonth, to: a.lastMonthEnd, by: "vehicle" })).total;
    const asOverview = (r: CostReportResponse["total"]) =>
      figuresOf({ totalCents: r.totalCostCents, distanceMiles: r.distanceMiles, costPerMileCents: r.costPerMileCents });
    expect(overview).not.toBeNull();
    expect(figuresOf(overview!.current)).toEqual(asOverview(thisMonth));
    expect(figuresOf(overview!.previous)).toEqual(asOverview(lastMonth));
    expect([overview!.current.fuelCents, overview!.current.serviceCents, overview!.current.expenseCents]).toEqual([
      thisMonth.fuelCostCents,
      thisMonth.serviceCostCents,
      thisMonth.expenseCostCents,
    ]);
    // The figures themselves: the deleted vehicle's $500 and 5 mi count on neither screen.
    expect(figuresOf(overview!.current)).toEqual([20_569, 801.65, 25.7]);
    expect(figuresOf(overview!.previous)).toEqual([123_025, 2_554.65, 48.2]);
  }, 60_000);
});
