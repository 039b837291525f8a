import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { horizontalOverflow, PHONE, seriousViolations, smallTargets } from "./phone-helpers";
import { indicator } from "./sync-helpers";
import { loseTheSignal, serviceWorkerReady, signalBack } from "./field-app-helpers";
import { orderVehicles, report } from "./ui-helpers";

/**
 * The fleet at a glance (issue 42, docs/decisions/0051): a demo-like fleet made through the public
 * API (one vehicle of each map colour, issues, service and renewals due, fill-ups, service and
 * an expense over two months), its figures on /overview, each opening its list, and the page from a cold start offline.
 */
const MIN = 60_000;
const METRES_PER_MILE = 1609.344;
type Fleet = { token: string; workspaceId: string };

/** `YYYY-MM-DD` plus `n` days. */
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 24 * 60 * MIN).toISOString().slice(0, 10);

/** The workspace's local date and the instants this month and last month began, in `timeZone`. */
function calendar(timeZone: string) {
  const local = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const today = local.format(new Date());
  const [y, m] = today.split("-").map(Number) as [number, number];
  const startOf = (year: number, month: number) => {
    // Local midnight of the 1st: UTC midnight less the zone's offset then (Tokyo and UTC have no DST).
    const naive = Date.UTC(year, month - 1, 1);
    const offset = timeZone === "UTC" ? 0 : 9 * 60 * MIN;
    return naive - offset;
  };
  return { today, thisMonth: startOf(y, m), lastMonth: m === 1 ? startOf(y - 1, 12) : startOf(y, m - 1) };
}

async function created(request: APIRequestContext, fleet: Fleet, path: string, data: object) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${fleet.token}` }, data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string };
}

/** Four vehicles, one of each kind the map tells apart: moving (with an odometer), idle, parked, silent. */
async function fleetOfFour(request: APIRequestContext, fleet: Fleet, odometerMiles: number) {
  const [moving, idle, parked, silent] = await orderVehicles(request, fleet, 4);
  const now = Date.now();
  const odometer = odometerMiles * METRES_PER_MILE;
  await report(request, moving!.id, { timestamp: now - 3 * MIN, lat: 40, lon: -100, ignition: true, odometer });
  await report(request, moving!.id, { timestamp: now - 2 * MIN, lat: 40.005, lon: -100, speed: 30, ignition: true });
  await report(request, moving!.id, {
    timestamp: now - MIN,
    lat: 40.01,
    lon: -100,
    speed: 30,
    ignition: true,
    odometer,
  });
  await report(request, idle!.id, { timestamp: now - 2 * MIN, lat: 41, lon: -100, ignition: true });
  await report(request, idle!.id, { timestamp: now - MIN, lat: 41, lon: -100, ignition: true });
  await report(request, parked!.id, { timestamp: now - 2 * MIN, lat: 42, lon: -100, ignition: false });
  await report(request, parked!.id, { timestamp: now - MIN, lat: 42, lon: -100, ignition: false });
  return { moving: moving!, idle: idle!, parked: parked!, silent: silent! };
}

test("the overview counts the fleet, its issues, what is due and what it cost; each figure opens its list, offline too", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const fleet = await newFleetAccount(request, "Glance Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  // A zone where it is between 02:00 and 22:00 now, so the minutes just reported are today's.
  const utcHour = new Date().getUTCHours();
  const timeZone = utcHour >= 2 && utcHour < 22 ? "UTC" : "Asia/Tokyo";
  expect((await request.patch("/api/workspace/preferences", { headers: auth, data: { timeZone } })).status()).toBe(200);
  const { today, thisMonth, lastMonth } = calendar(timeZone);

  // Cost: last month $50 + $70 of fuel; this month $60 of fuel, $40 of service and a $50 expense.
  // Distance is the trackers' GPS distance (the day rollups), as on the cost report.
  const vehicles = await fleetOfFour(request, fleet, 1_350);
  const vehicleId = vehicles.moving.vehicleId;
  const fillUp = (at: number, odometerMiles: number, costCents: number) =>
    created(request, fleet, "/api/fuel-entries", {
      vehicleId,
      at: new Date(at).toISOString(),
      volumeLitres: 40,
      fullTank: true,
      odometerMiles,
      costCents,
    });
  await fillUp(lastMonth, 1_000, 5_000);
  await fillUp(lastMonth + 10 * 24 * 60 * MIN, 1_200, 7_000);
  await fillUp(thisMonth, 1_300, 6_000);
  await created(request, fleet, "/api/service-entries", {
    vehicleId,
    date: today,
    costCents: 4_000,
    description: "Oil",
  });
  await created(request, fleet, "/api/expenses", { vehicleId, date: today, kind: "tolls", costCents: 5_000 });
  for (const dueDate of [addDays(today, -1), addDays(today, 5)]) {
    await created(request, fleet, "/api/renewals", { vehicleId, kind: "registration", dueDate });
  }
  await created(request, fleet, "/api/service-schedules", {
    vehicleId: vehicles.parked.vehicleId,
    name: "Brake check",
    everyDays: 30,
    lastDoneAt: "2020-01-01",
  });
  for (const [title, priority] of [
    ["Brakes grinding", "critical"],
    ["Mirror loose", "high"],
    ["Seat torn", "high"],
  ] as const) {
    await created(request, fleet, "/api/issues", { vehicleId: vehicles.idle.vehicleId, title, priority });
  }
  // Vehicles that drove today without an inspection, by the server's own reading of the same rule.
  let uninspected = 0;
  await expect
    .poll(async () => {
      const body = (await (await request.get("/api/my-actions", { headers: auth })).json()) as { inspections: [] };
      return (uninspected = body.inspections.length);
    })
    .toBeGreaterThan(0);

  // The overview's costs are the cost report's for the same days (docs/figures.md): its GPS distance.
  const costReport = async (from: string, to: string) =>
    (await (await request.get(`/api/reports/costs?from=${from}&to=${to}`, { headers: auth })).json()) as {
      total: { totalCostCents: number; distanceMiles: number; costPerMileCents: number | null };
    };
  // Whatever GPS distance the trackers' reports made (the moving one sent the same odometer at both
  // ends), the overview shows the report's cost per mile; it used to divide by the typed odometers.
  const thisMonthReport = await costReport(`${today.slice(0, 7)}-01`, today);
  expect(thisMonthReport.total.totalCostCents).toBe(15_000);
  const perMile = (cents: number | null) => (cents === null ? "—" : `$${(Math.round(cents) / 100).toFixed(2)}/mi`);

  await signInAs(page, fleet.token);
  await page.goto("/actions");
  await page.getByRole("navigation", { name: "Sections", exact: true }).getByRole("link", { name: "Overview" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const figures = {
    "Moving: 1": "/vehicles?status=moving",
    "Idle: 1": "/vehicles?status=idle",
    "Parked: 1": "/vehicles?status=parked",
    "Silent: 1": "/vehicles?status=silent",
    "Critical: 1": "/issues?priority=critical",
    "High: 2": "/issues?priority=high",
    "Medium: 0": "/issues?priority=medium",
    "Service overdue: 1": "/actions",
    "Renewals overdue: 1": "/actions",
    "Renewals due soon: 1": "/actions",
    [`Not inspected today: ${uninspected}`]: "/inspections",
    "Unread alerts: 0": "/inbox",
    "This month: $150.00": "/reports",
    [`Cost per mile: ${perMile(thisMonthReport.total.costPerMileCents)}`]: "/reports",
    "Last month: $120.00": "/reports",
    // No GPS distance last month (the trackers reported only today): the report has none either.
    "Last month per mile: —": "/reports",
  };
  const main = page.locator("main");
  for (const [name, href] of Object.entries(figures)) {
    await expect(main.getByRole("link", { name, exact: true }), name).toHaveAttribute("href", href);
  }

  // A figure opens the list it counts, filtered: the idle vehicle alone, the two high issues.
  await main.getByRole("link", { name: "Idle: 1" }).click();
  await expect(page).toHaveURL(/\/vehicles\?status=idle$/);
  await expect(page.getByRole("status").filter({ hasText: "1 vehicle idle" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Vehicles" }).getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("table", { name: "Vehicles" })).toContainText(vehicles.idle.vehicleName);
  await page.goBack();
  await main.getByRole("link", { name: "High: 2" }).click();
  await expect(page).toHaveURL(/\/issues\?priority=high$/);
  await expect(page.locator("main")).toContainText("Mirror loose");
  await expect(page.locator("main")).toContainText("Seat torn");
  await expect(page.locator("main")).not.toContainText("Brakes grinding");

  // Closed, offline, opened again: the same figures, from the device.
  await serviceWorkerReady(page);
  await page.close();
  const context = page.context();
  await loseTheSignal(context);
  const tab = await context.newPage();
  await tab.goto("/overview");
  await expect(tab.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(indicator(tab)).toHaveAttribute("data-state", "offline");
  for (const name of ["Moving: 1", "High: 2", "Service overdue: 1", "This month: $150.00", "Last month per mile: —"]) {
    await expect(tab.locator("main").getByRole("link", { name, exact: true }), name).toBeVisible();
  }
  await expect(tab.getByText("Something went wrong")).toHaveCount(0);

  // A metric workspace reads the same costs per km (Preferences → Units); the ratio is unchanged.
  await signalBack(context);
  const units = await request.patch("/api/workspace/preferences", { headers: auth, data: { units: "metric" } });
  expect(units.status()).toBe(200);
  await tab.reload();
  const perKm = (cents: number | null) =>
    cents === null ? "—" : `$${(Math.round(cents / 1.609344) / 100).toFixed(2)}/km`;
  for (const name of [`Cost per km: ${perKm(thisMonthReport.total.costPerMileCents)}`, "Last month per km: —"]) {
    await expect(tab.locator("main").getByRole("link", { name, exact: true }), name).toBeVisible();
  }
});

test("on a phone the overview fits 390 px, with targets large enough to tap", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Glance Phone Fleet");
  await fleetOfFour(request, fleet, 500);
  await page.setViewportSize(PHONE);
  await signInAs(page, fleet.token);
  await page.goto("/overview");
  await expect(page.locator("main").getByRole("link", { name: "Parked: 1", exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("overview-390.png"), fullPage: true });
  expect([
    ...(await seriousViolations(page)),
    ...(await horizontalOverflow(page)),
    ...(await smallTargets(page)),
  ]).toEqual([]);
});
