import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { DESKTOP, horizontalOverflow, PHONE } from "./phone-helpers";
import { orderVehicles, report } from "./ui-helpers";

/**
 * The charts over the cost report and the overview (issue 52, docs/decisions/0080), against the
 * real Worker: each canvas is drawn (pixels, not just an element), says in its aria-label the same
 * totals as the table or card beside it, and the page fits a 390 px phone.
 */
type Fleet = { token: string; workspaceId: string };

async function created(request: APIRequestContext, fleet: Fleet, path: string, data: object) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${fleet.token}` }, data });
  expect(res.status(), await res.text()).toBe(201);
}

/** The workspace's (UTC) today, and an instant in the middle of last month. */
function calendar() {
  const today = new Date().toISOString().slice(0, 10);
  const now = new Date();
  const midLastMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12);
  return {
    today,
    midLastMonth,
    lastMonth: new Date(midLastMonth).toISOString().slice(0, 7),
    thisMonth: today.slice(0, 7),
  };
}

/**
 * A truck with a fill-up last month, and this month a short drive, a fill-up, a service, an expense
 * and a repair: $50 last month, $230 this month ($60 fuel, $40 + $80 service, $50 expenses).
 */
async function costlyFleet(request: APIRequestContext, name: string) {
  const fleet = await newFleetAccount(request, name);
  const auth = { Authorization: `Bearer ${fleet.token}` };
  expect(
    (await request.patch("/api/workspace/preferences", { headers: auth, data: { timeZone: "UTC" } })).status(),
  ).toBe(200);
  const [truck] = await orderVehicles(request, fleet, 1);
  const { today, midLastMonth } = calendar();
  const fillUp = (at: number, odometerMiles: number, costCents: number) =>
    created(request, fleet, "/api/fuel-entries", {
      vehicleId: truck!.vehicleId,
      at: new Date(at).toISOString(),
      volumeLitres: 40,
      fullTank: true,
      odometerMiles,
      costCents,
    });
  // Twenty minutes north half an hour ago: this month's GPS distance, which the cost report divides by.
  const start = Date.now() - 30 * 60_000;
  for (let i = 0; i <= 20; i += 2)
    await report(request, truck!.id, {
      timestamp: start + i * 60_000,
      lat: 40 + i * 0.015,
      lon: -100,
      speed: 30,
      ignition: true,
    });
  await report(request, truck!.id, { timestamp: start + 22 * 60_000, lat: 40.3, lon: -100, ignition: false });
  await fillUp(midLastMonth, 1_000, 5_000);
  await fillUp(Date.now() - 60_000, 1_300, 6_000);
  await created(request, fleet, "/api/service-entries", {
    vehicleId: truck!.vehicleId,
    date: today,
    costCents: 4_000,
    description: "Oil",
  });
  await created(request, fleet, "/api/expenses", {
    vehicleId: truck!.vehicleId,
    date: today,
    kind: "tolls",
    costCents: 5_000,
  });
  await repairedToday(request, fleet, truck!.vehicleId);
  return { fleet, truck: truck! };
}

/** A work order completed now: an hour of labour at $60 and two parts at $10, so $80 of service. */
async function repairedToday(request: APIRequestContext, fleet: Fleet, vehicleId: string) {
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const order = await request.post("/api/work-orders", { headers: auth, data: { vehicleId, tasks: ["Brakes"] } });
  expect(order.status(), await order.text()).toBe(201);
  const { id } = (await order.json()) as { id: string };
  await created(request, fleet, `/api/work-orders/${id}/lines`, { kind: "labor", quantity: 1, unitCostCents: 6_000 });
  await created(request, fleet, `/api/work-orders/${id}/lines`, { kind: "part", quantity: 2, unitCostCents: 1_000 });
  const done = await request.post(`/api/work-orders/${id}/complete`, { headers: auth, data: {} });
  expect(done.status(), await done.text()).toBe(200);
}

/** How many of the canvas's pixels are painted: a chart that drew nothing has none. */
const paintedPixels = (canvas: Locator) =>
  canvas.evaluate((el: HTMLCanvasElement) => {
    const { data } = el.getContext("2d")!.getImageData(0, 0, el.width, el.height);
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
    return painted;
  });

/** The chart captioned `caption` inside `scope`: drawn, and its words. */
async function drawnChart(scope: Locator, caption: string) {
  const figure = scope.locator("figure").filter({ has: scope.page().getByText(caption, { exact: true }) });
  const canvas = figure.locator("canvas[role='img']");
  await expect(canvas).toBeVisible();
  await expect.poll(() => paintedPixels(canvas), { message: `${caption} is drawn` }).toBeGreaterThan(500);
  return (await canvas.getAttribute("aria-label")) ?? "";
}

async function openCosts(page: Page) {
  await page.goto("/reports");
  await page.getByRole("tab", { name: "Costs" }).click();
}

test("Reports → Costs draws cost by kind, cost per mile and economy over the same rows as its table, and fits 390 px", async ({
  page,
  request,
}) => {
  const { fleet, truck } = await costlyFleet(request, "Chart Costs Fleet");
  const { lastMonth, thisMonth } = calendar();
  await page.setViewportSize(DESKTOP);
  await signInAs(page, fleet.token);
  await openCosts(page);
  const table = page.getByRole("table", { name: "costs report" });
  const main = page.locator("main");

  // Per vehicle (the default): one bar per vehicle, whose total is the table's fleet total.
  await expect(table.locator("tbody td").first()).toHaveText(truck.vehicleName);
  const tableTotal = (await table.locator("tfoot td[data-label='Total']").textContent())!;
  expect(tableTotal).toBe("$230.00");
  const byVehicle = await drawnChart(main, "Cost by vehicle");
  expect(byVehicle).toContain(
    `${truck.vehicleName} ${tableTotal} (fuel $60.00, labour $60.00, parts $20.00, other service $40.00, expenses $50.00)`,
  );
  expect(byVehicle).toMatch(new RegExp(`Total \\${tableTotal}`));
  await main.locator("figure").screenshot({ path: test.info().outputPath("costs-by-vehicle-1440.png") });

  // Per month over the last three: the months' bars add up to the table's total; the trends are drawn.
  await page.getByLabel("Range").selectOption("last3Months");
  await page.getByLabel("Rows").selectOption("month");
  await expect(table.locator("tbody tr")).toHaveCount(3);
  const monthTotal = (await table.locator("tfoot td[data-label='Total']").textContent())!;
  expect(monthTotal).toBe("$280.00");
  const byMonth = await drawnChart(main, "Cost by month");
  expect(byMonth).toContain(`${lastMonth} $50.00 (fuel $50.00)`);
  expect(byMonth).toContain(
    `${thisMonth} $230.00 (fuel $60.00, labour $60.00, parts $20.00, other service $40.00, expenses $50.00)`,
  );
  expect(byMonth).toContain(`Total ${monthTotal}`);
  // This month has GPS distance, so a point; last month none, so a gap.
  await expect(table.locator("tbody tr", { hasText: thisMonth }).locator("td[data-label='Per mile']")).toHaveText(
    /^\$\d/,
  );
  const perMileWords = await drawnChart(main, "Cost per mile");
  for (const month of [lastMonth, thisMonth]) {
    const perMile = (await table
      .locator("tbody tr", { hasText: month })
      .locator("td[data-label='Per mile']")
      .textContent())!;
    // The table's "—" (no GPS distance, or nothing spent) is a gap in the line, said "none".
    expect(perMileWords).toContain(`${month} ${perMile === "—" ? "none" : `${perMile}/mi`}`);
  }
  expect(await drawnChart(main, "Fuel economy (mpg)")).toContain(
    `${thisMonth} ${(await table.locator("tbody tr", { hasText: thisMonth }).locator("td[data-label='Economy (mpg)']").textContent())!} mpg`,
  );
  await page.screenshot({ path: test.info().outputPath("costs-1440.png"), fullPage: true });

  await page.setViewportSize(PHONE);
  await drawnChart(main, "Cost by month");
  expect(await horizontalOverflow(page)).toEqual([]);
  await main.locator(".chart-row").screenshot({ path: test.info().outputPath("costs-390.png") });
});

test("the overview draws last and this month's costs by kind, per mile and economy as its Costs card and the cost report count them, at 1440 and 390 px", async ({
  page,
  request,
}) => {
  const { fleet } = await costlyFleet(request, "Chart Overview Fleet");
  const { lastMonth, thisMonth } = calendar();
  await page.setViewportSize(DESKTOP);
  await signInAs(page, fleet.token);
  await page.goto("/overview");
  const main = page.locator("main");
  await expect(main.getByRole("link", { name: "This month: $230.00", exact: true })).toBeVisible();
  await expect(main.getByRole("link", { name: "Last month: $50.00", exact: true })).toBeVisible();
  const card = main.getByRole("region", { name: "This month against last" });
  const bars = await drawnChart(card, "Cost by month");
  expect(bars).toBe(
    `Cost by month: ${lastMonth} $50.00 (fuel $50.00); ${thisMonth} $230.00 (fuel $60.00, labour $60.00, parts $20.00,` +
      " other service $40.00, expenses $50.00). Total $280.00 (fuel $110.00, labour $60.00, parts $20.00," +
      " other service $40.00, expenses $50.00).",
  );
  const perMile = await drawnChart(card, "Cost per mile");
  for (const [month, label] of [
    [thisMonth, "Cost per mile"],
    [lastMonth, "Last month per mile"],
  ]) {
    const figure = (await main.getByRole("link", { name: new RegExp(`^${label}: `) }).getAttribute("aria-label"))!;
    const value = figure.slice(figure.indexOf(": ") + 2);
    expect(perMile).toContain(`${month} ${value === "—" ? "none" : value}`);
  }
  // Economy: the cost report's for each month (this month's full-to-full stretch; last month none).
  const report = await request.get(`/api/reports/costs?from=${lastMonth}-01&to=${calendar().today}&by=month`, {
    headers: { Authorization: `Bearer ${fleet.token}` },
  });
  const { rows } = (await report.json()) as { rows: { month: string; mpg: number | null }[] };
  const mpgOf = (month: string) => rows.find((r) => r.month === month)?.mpg;
  expect(mpgOf(thisMonth)).toBeGreaterThan(0);
  const economy = await drawnChart(card, "Fuel economy (mpg)");
  expect(economy).toContain(`${thisMonth} ${mpgOf(thisMonth)!.toFixed(1)} mpg`);
  expect(economy).toContain(`${lastMonth} none`);
  await card.screenshot({ path: test.info().outputPath("overview-1440.png") });

  await page.setViewportSize(PHONE);
  await drawnChart(card, "Cost by month");
  expect(await horizontalOverflow(page)).toEqual([]);
  await card.screenshot({ path: test.info().outputPath("overview-390.png") });
});

test("Reports → Jobs on time draws on time, late and skipped by day, adding up to the table's columns", async ({
  page,
  request,
}) => {
  const { fleet, truck } = await costlyFleet(request, "Chart Jobs Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const { today } = calendar();
  const job = async (title: string, window: object) => {
    const res = await request.post("/api/jobs", {
      headers: auth,
      data: { title, date: today, vehicleId: truck.vehicleId, location: { latitude: 40, longitude: -100 }, ...window },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  // Done with no window (on time), done after a window that closed at 00:01 (late), and one still to do.
  const onTime = await job("Drop parcels", {});
  const late = await job("Collect pallets", { windowStart: "00:00", windowEnd: "00:01" });
  await job("Visit depot", {});
  for (const id of [onTime, late])
    expect((await request.post(`/api/jobs/${id}/complete`, { headers: auth, data: {} })).status()).toBe(200);

  await page.setViewportSize(PHONE);
  await signInAs(page, fleet.token);
  await page.goto("/reports");
  await page.getByRole("tab", { name: "Jobs on time" }).click();
  const row = page.locator("main table tbody tr", { hasText: truck.vehicleName });
  await expect(row.locator("td[data-label='On time']")).toHaveText("1");
  await expect(row.locator("td[data-label='Late']")).toHaveText("1");
  const words = await drawnChart(page.locator("main"), "Jobs on time by day");
  expect(words).toContain(`${today} 2 jobs (on time 1 job, late 1 job)`);
  expect(words).toContain("Total 2 jobs (on time 1 job, late 1 job)");
  expect(await horizontalOverflow(page)).toEqual([]);
  await page.locator("main figure").screenshot({ path: test.info().outputPath("on-time-390.png") });
});
