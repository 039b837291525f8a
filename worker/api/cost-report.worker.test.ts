import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CostReportResponse, CostRow } from "../../shared/costs/cost-report";
import { METRES_PER_MILE } from "../../shared/units/units";
import { database } from "../../db/client";
import { expenses, fuelEntries, serviceEntries, vehicleDayRollups, workspaces } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { pushMutations } from "../test/sync";
import { rebuildVehicleStretches } from "../fuel/fuel-stretches";
import type { FuelEconomy, FuelEntry } from "../../shared/costs/fuel";

/** GET /api/reports/costs (issue 42, DESIGN.md "Fuel, costs and renewals") on a small fleet. */
const db = () => database(env.DB);

async function fill(
  workspaceId: string,
  vehicleId: string,
  at: string,
  litres: number,
  cents: number,
  odometer: number,
) {
  await db()
    .insert(fuelEntries)
    .values({
      id: crypto.randomUUID(),
      workspaceId,
      vehicleId,
      version: 1,
      at: Date.parse(at),
      volumeLitres: litres,
      costCents: cents,
      fullTank: true,
      odometerMiles: odometer,
    });
  // Written raw, so its vehicle's stretches are cut as a bulk load's are (the API's writes cut their own).
  await rebuildVehicleStretches(db(), workspaceId, vehicleId);
}

const drove = (workspaceId: string, vehicleId: string, day: string, miles: number) =>
  db()
    .insert(vehicleDayRollups)
    .values({ workspaceId, vehicleId, day, distanceMetres: miles * METRES_PER_MILE });

const serviced = (workspaceId: string, vehicleId: string, date: string, costCents: number, deleted = false) =>
  db()
    .insert(serviceEntries)
    .values({ id: crypto.randomUUID(), workspaceId, vehicleId, version: 1, date, costCents, deleted });

const spent = (
  workspaceId: string,
  vehicleId: string,
  date: string,
  kind: "tolls" | "parking",
  costCents: number,
  deleted = false,
) =>
  db()
    .insert(expenses)
    .values({ id: crypto.randomUUID(), workspaceId, vehicleId, version: 1, date, kind, costCents, deleted });

/**
 * A Chicago fleet over September and October 2026: the truck fills up 40 L every 400 miles
 * (37.9 mpg), once at 22:00 on 30 September local (already October in UTC), and once 100 L into
 * its 80 L tank (flagged: paid for, left out of the economy); the van only drives; the trailer
 * does nothing.
 */
async function smallFleet() {
  const a = await userWithWorkspace();
  const ws = a.workspaceId;
  await db().update(workspaces).set({ timeZone: "America/Chicago" }).where(eq(workspaces.id, ws));
  const truck = await insertVehicle(ws, { name: "A truck", fuelTankLitres: 80 });
  const van = await insertVehicle(ws, { name: "B van" });
  const trailer = await insertVehicle(ws, { name: "C trailer" });
  await fill(ws, truck, "2026-09-05T12:00:00-05:00", 40, 6000, 1000);
  await fill(ws, truck, "2026-09-20T12:00:00-05:00", 40, 6000, 1400);
  await fill(ws, truck, "2026-09-30T22:00:00-05:00", 40, 6000, 1800);
  await fill(ws, truck, "2026-10-10T12:00:00-05:00", 100, 9000, 2200);
  await fill(ws, truck, "2026-11-01T12:00:00-06:00", 40, 5555, 2600);
  await drove(ws, truck, "2026-09-10", 500);
  await drove(ws, truck, "2026-10-05", 300);
  await drove(ws, van, "2026-10-02", 100);
  await serviced(ws, truck, "2026-09-15", 12000);
  await serviced(ws, truck, "2026-09-16", 99999, true);
  await serviced(ws, truck, "2026-11-02", 5000);
  return { ...a, truck, van, trailer };
}

async function costs(token: string, query: string) {
  const res = await call(`/api/reports/costs?${query}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as CostReportResponse;
}

const zero: Partial<CostRow> = { expenseCostCents: 0, expensesByKind: {} };

describe("cost report", () => {
  it("per vehicle: fuel, GPS distance, economy without the flagged fill-up, service, total and cost per mile", async () => {
    const a = await smallFleet();
    const report = await costs(a.token, "from=2026-09-01&to=2026-10-31");
    expect(report).toMatchObject({ timeZone: "America/Chicago", from: "2026-09-01", to: "2026-10-31", by: "vehicle" });
    expect(report.rows).toEqual([
      {
        vehicleId: a.truck,
        vehicleName: "A truck",
        fuelCostCents: 27000,
        fuelLitres: 220,
        distanceMiles: 800,
        mpg: 37.9,
        serviceCostCents: 12000,
        laborCostCents: 0,
        partsCostCents: 0,
        ...zero,
        totalCostCents: 39000,
        costPerMileCents: 48.8,
      },
      expect.objectContaining({
        vehicleId: a.van,
        fuelCostCents: 0,
        distanceMiles: 100,
        mpg: null,
        // Nothing spent: no cost per mile to tell ("—"), not a free vehicle.
        costPerMileCents: null,
      }),
      expect.objectContaining({ vehicleId: a.trailer, totalCostCents: 0, distanceMiles: 0, costPerMileCents: null }),
    ]);
    expect(report.total).toMatchObject({
      fuelCostCents: 27000,
      distanceMiles: 900,
      mpg: 37.9,
      totalCostCents: 39000,
      costPerMileCents: 43.3,
    });
  });

  it("follows fill-ups logged, edited and deleted in the middle of a log through the API and through push", async () => {
    const a = await smallFleet();
    const september = async () => {
      const report = await costs(a.token, `from=2026-09-01&to=2026-09-30&vehicleId=${a.truck}`);
      const range = "from=2026-09-01T05:00:00.000Z&to=2026-10-01T05:00:00.000Z";
      const page = await call(`/api/vehicles/${a.truck}/fuel-economy?${range}`, { token: a.token });
      // The Fuel page's economy reads the log itself: the report's stored stretches must agree with it.
      expect(report.rows[0]!.mpg).toBe(((await page.json()) as FuelEconomy).mpg);
      return report.rows[0]!.mpg;
    };
    expect(await september()).toBe(37.9);
    const logged = await call("/api/fuel-entries", {
      method: "POST",
      token: a.token,
      json: { vehicleId: a.truck, at: "2026-09-25T17:00:00Z", volumeLitres: 20, fullTank: false, odometerMiles: 1600 },
    });
    const partial = ((await logged.json()) as FuelEntry).id;
    // A partial fill carried into the stretch closing on the 30th: 800 miles on 100 L.
    expect(await september()).toBe(30.3);
    await pushMutations(a.token, [{ name: "updateFuelEntry", args: { id: partial, odometerMiles: 1300 } }]);
    // Its odometer now goes backwards: that stretch is out, the one closing on the 20th is left.
    expect(await september()).toBe(37.9);
    const [middle] = await db()
      .select({ id: fuelEntries.id })
      .from(fuelEntries)
      .where(and(eq(fuelEntries.vehicleId, a.truck), eq(fuelEntries.at, Date.parse("2026-09-20T12:00:00-05:00"))));
    expect((await call(`/api/fuel-entries/${middle!.id}`, { method: "DELETE", token: a.token })).status).toBe(204);
    // The two stretches merge into one, and the partial's 1,300 no longer goes backwards (the 1,400
    // before it is gone): 800 miles on 60 L.
    expect(await september()).toBe(50.5);
    await pushMutations(a.token, [{ name: "deleteFuelEntry", args: { id: partial } }]);
    expect(await september()).toBe(75.7);
  });

  it("per month in the workspace's time zone, and for chosen vehicles only", async () => {
    const a = await smallFleet();
    const report = await costs(a.token, "from=2026-09-01&to=2026-10-31&by=month");
    expect(report.rows).toEqual([
      {
        month: "2026-09",
        fuelCostCents: 18000,
        fuelLitres: 120,
        distanceMiles: 500,
        mpg: 37.9,
        serviceCostCents: 12000,
        laborCostCents: 0,
        partsCostCents: 0,
        ...zero,
        totalCostCents: 30000,
        costPerMileCents: 60,
      },
      expect.objectContaining({
        month: "2026-10",
        fuelCostCents: 9000,
        distanceMiles: 400,
        mpg: null,
        costPerMileCents: 22.5,
      }),
    ]);
    const van = await costs(a.token, `from=2026-09-01&to=2026-10-31&by=month&vehicleId=${a.van}`);
    expect(van.rows.map((r) => [r.month, r.totalCostCents, r.distanceMiles])).toEqual([
      ["2026-09", 0, 0],
      ["2026-10", 0, 100],
    ]);
  });

  it("sums distance and fuel over a range cut mid-month: the same months' days outside it and a deleted vehicle's never count", async () => {
    // Distance groups by an index's month expression and fuel bought a span a statement (ADR 0095):
    // the days cut off either end of the range sit in the months it reads.
    const a = await smallFleet();
    await drove(a.workspaceId, a.truck, "2026-09-12", 20);
    await drove(a.workspaceId, a.truck, "2026-10-03", 7);
    const gone = await insertVehicle(a.workspaceId, { name: "D gone", deleted: true });
    await drove(a.workspaceId, gone, "2026-09-20", 1000);
    await fill(a.workspaceId, gone, "2026-09-21T12:00:00-05:00", 50, 7000, 100);
    const range = "from=2026-09-12&to=2026-10-03";
    const byVehicle = await costs(a.token, `${range}&by=vehicle`);
    expect(byVehicle.rows.map((r) => [r.vehicleName, r.distanceMiles, r.fuelCostCents, r.fuelLitres])).toEqual([
      ["A truck", 27, 12000, 80],
      ["B van", 100, 0, 0],
      ["C trailer", 0, 0, 0],
    ]);
    expect([byVehicle.total.distanceMiles, byVehicle.total.fuelCostCents]).toEqual([127, 12000]);
    const byMonth = await costs(a.token, `${range}&by=month`);
    expect(byMonth.rows.map((r) => [r.month, r.distanceMiles, r.fuelCostCents, r.fuelLitres])).toEqual([
      ["2026-09", 20, 12000, 80],
      ["2026-10", 107, 0, 0],
    ]);
  });

  it("counts expenses by kind in their vehicle's row, their month and the total; deleted and later ones never", async () => {
    const a = await smallFleet();
    await spent(a.workspaceId, a.van, "2026-10-03", "tolls", 250);
    await spent(a.workspaceId, a.van, "2026-10-04", "parking", 300);
    await spent(a.workspaceId, a.van, "2026-10-05", "tolls", 100);
    await spent(a.workspaceId, a.van, "2026-10-06", "parking", 9999, true);
    await spent(a.workspaceId, a.van, "2026-11-01", "parking", 7777);
    const report = await costs(a.token, "from=2026-09-01&to=2026-10-31");
    expect(report.rows.find((r) => r.vehicleId === a.van)).toMatchObject({
      expenseCostCents: 650,
      expensesByKind: { tolls: 350, parking: 300 },
      totalCostCents: 650,
      costPerMileCents: 6.5,
    });
    expect(report.total).toMatchObject({ expenseCostCents: 650, totalCostCents: 39650 });
    const months = await costs(a.token, "from=2026-09-01&to=2026-10-31&by=month");
    expect(months.rows.map((r) => [r.month, r.expenseCostCents])).toEqual([
      ["2026-09", 0],
      ["2026-10", 650],
    ]);
  });

  it("downloads as CSV in the screen's units, each column naming its unit, the fleet total last", async () => {
    const a = await smallFleet();
    const res = await call("/api/reports/costs?from=2026-09-01&to=2026-10-31&format=csv", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(res.headers.get("Content-Disposition")).toContain("costs-by-vehicle-2026-09-01-to-2026-10-31.csv");
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "vehicleId,vehicleName,fuelCostDollars,fuelGallons,distanceMiles,mpg,serviceCostDollars,laborCostDollars,partsCostDollars,expenseCostDollars,totalCostDollars,costPerMileDollars",
    );
    // Dollars and gallons, as the Costs tab shows them: 220 L is 58.1 gal; 48.8 ¢ a mile is $0.49.
    expect(lines[1]).toBe(`${a.truck},A truck,270,58.1,800,37.9,120,0,0,0,390,0.49`);
    expect(lines[2]).toBe(`${a.van},B van,0,0,100,,0,0,0,0,0,`);
    expect(lines.at(-1)).toBe(",Fleet total,270,58.1,900,37.9,120,0,0,0,390,0.43");
  });

  it("per month in a metric workspace: litres, km, L/100 km and per km, and no empty vehicle columns", async () => {
    const a = await smallFleet();
    await db().update(workspaces).set({ units: "metric" }).where(eq(workspaces.id, a.workspaceId));
    const res = await call("/api/reports/costs?from=2026-09-01&to=2026-10-31&by=month&format=csv", { token: a.token });
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines).toEqual([
      "month,fuelCostDollars,fuelLitres,distanceKm,litresPer100Km,serviceCostDollars,laborCostDollars,partsCostDollars,expenseCostDollars,totalCostDollars,costPerKmDollars",
      "2026-09,180,120,804.7,6.2,120,0,0,0,300,0.37",
      "2026-10,90,100,643.7,,0,0,0,0,90,0.14",
      "Fleet total,270,220,1448.4,6.2,120,0,0,0,390,0.27",
    ]);
  });

  it("viewers read it; another workspace's vehicle is a 404 and its costs never count", async () => {
    const a = await smallFleet();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await costs(viewer.token, "from=2026-09-01&to=2026-10-31")).total.totalCostCents).toBe(39000);
    const b = await userWithWorkspace();
    const theirs = await insertVehicle(b.workspaceId, { name: "Theirs" });
    await fill(b.workspaceId, theirs, "2026-09-10T12:00:00Z", 50, 7777, 10);
    const res = await call(`/api/reports/costs?from=2026-09-01&to=2026-10-31&vehicleId=${theirs}`, { token: a.token });
    expect(res.status).toBe(404);
    expect((await costs(b.token, "from=2026-09-01&to=2026-10-31")).total.fuelCostCents).toBe(7777);
    expect((await costs(a.token, "from=2026-09-01&to=2026-10-31")).total.fuelCostCents).toBe(27000);
    expect((await call("/api/reports/costs?from=2026-09-01&to=2026-10-31")).status).toBe(401);
  });

  it("answers bad input 400 with the field named", async () => {
    const a = await userWithWorkspace();
    const fieldOf = async (query: string) => {
      const res = await call(`/api/reports/costs?${query}`, { token: a.token });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string; fields: Record<string, string[]> } };
      return Object.keys(body.error.fields);
    };
    expect(await fieldOf("to=2026-01-31")).toEqual(["from"]);
    expect(await fieldOf("from=2026-02-30&to=2026-03-01")).toEqual(["from"]);
    expect(await fieldOf("from=2026-01-01&to=2026-01-31&by=week")).toEqual(["by"]);
    expect(await fieldOf("from=2026-01-01&to=2026-01-31&format=xlsx")).toEqual(["format"]);
    expect(await fieldOf("from=2026-02-01&to=2026-01-01")).toEqual(["from"]);
    expect(await fieldOf("from=2025-01-01&to=2026-01-31")).toEqual(["to"]);
  });
});
