import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { DESKTOP, PHONE } from "./phone-helpers";
import { indicator } from "./sync-helpers";
import { orderVehicles, report, type Fleet, type OrderedBeacon } from "./ui-helpers";

/**
 * A stop the vehicle passed (skipped, issue 53) is still the dispatcher's to act on: its row on
 * /jobs keeps the vehicle select and Cancel a scheduled row has, through the same mutations
 * (reorderJobs, cancelJob) and the server's rules. The stops are skipped by the van's own reports:
 * it goes straight to the third stop and stays there, passing the first two.
 */

const MIN = 60_000;
const LON = -87.63;
type StoredJob = { id: string; title: string; vehicleId: string | null; status: string };

async function vanThatPassedTwoStops(request: APIRequestContext, fleet: Fleet, van: OrderedBeacon) {
  const headers = { Authorization: `Bearer ${fleet.token}` };
  // The scenario's five minutes fall in one UTC day (the workspace's): in the quarter hour after
  // midnight, all of it yesterday, as a route's day ends at midnight.
  const midnight = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const t0 = Date.now() - 15 * MIN >= midnight ? Date.now() - 15 * MIN : midnight - 20 * MIN;
  const date = new Date(t0).toISOString().slice(0, 10);
  const plan = async (title: string, latitude: number) => {
    const data = { title, date, vehicleId: van.vehicleId, location: { latitude, longitude: LON } };
    const res = await request.post("/api/jobs", { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as StoredJob).id;
  };
  const quote = await plan("Quote visit", 41.88);
  const survey = await plan("Site survey", 41.89);
  await plan("Drop parts", 41.95);
  // Straight to the third stop, staying there past the three minutes that confirm an arrival out of order.
  await report(request, van.id, { lat: 41.94, lon: LON, timestamp: t0, ignition: true, speed: 20 });
  await report(request, van.id, { lat: 41.95, lon: LON, timestamp: t0 + 20_000, ignition: true, speed: 0 });
  await report(request, van.id, { lat: 41.95, lon: LON, timestamp: t0 + 4 * MIN, ignition: true, speed: 0 });
  const job = async (id: string) => (await (await request.get(`/api/jobs/${id}`, { headers })).json()) as StoredJob;
  await expect
    .poll(async () => [(await job(quote)).status, (await job(survey)).status])
    .toEqual(["skipped", "skipped"]);
  return { quote, survey, job, date };
}

const stopsOf = (page: Page, name: string) => page.getByRole("list", { name: `Stops of ${name}` });
const rowOf = (page: Page, name: string, title: string) =>
  stopsOf(page, name).getByRole("listitem").filter({ hasText: title });

test("a skipped stop's row keeps the vehicle select and Cancel: given to another van it is scheduled there, cancelled it stays put", async ({
  page,
  request,
}, testInfo) => {
  const fleet = await newFleetAccount(request, "Skipped Stops");
  const [van, truck] = await orderVehicles(request, fleet, 2);
  const { quote, survey, job, date } = await vanThatPassedTwoStops(request, fleet, van!);

  await page.setViewportSize(DESKTOP);
  await signInAs(page, fleet.token);
  // the stops' own day (yesterday, in the quarter hour after midnight), not the page's default
  await page.goto(`/jobs?date=${date}`);
  const quoteRow = rowOf(page, van!.vehicleName, "Quote visit");
  await expect(quoteRow).toContainText("Skipped");
  await expect(quoteRow.getByLabel("Vehicle for Quote visit")).toHaveValue(van!.vehicleId);
  await expect(
    rowOf(page, van!.vehicleName, "Site survey").getByRole("button", { name: "Cancel Site survey" }),
  ).toBeVisible();
  await page
    .getByRole("region", { name: `Route of ${van!.vehicleName}` })
    .screenshot({ path: testInfo.outputPath("skipped-stop-actions-1440.png") });
  await page.setViewportSize(PHONE);
  await expect(quoteRow.getByLabel("Vehicle for Quote visit")).toBeVisible();
  await page
    .getByRole("region", { name: `Route of ${van!.vehicleName}` })
    .screenshot({ path: testInfo.outputPath("skipped-stop-actions-390.png") });
  await page.setViewportSize(DESKTOP);

  // Given to the truck: at the end of its day, ahead of it (scheduled), no longer the van's.
  await quoteRow.getByLabel("Vehicle for Quote visit").selectOption(truck!.vehicleId);
  const onTruck = rowOf(page, truck!.vehicleName, "Quote visit");
  await expect(onTruck).toContainText("Scheduled");
  await expect(rowOf(page, van!.vehicleName, "Quote visit")).toHaveCount(0);

  // Cancelled: it keeps its place in the van's day, with nothing left to do on it.
  const surveyRow = rowOf(page, van!.vehicleName, "Site survey");
  await surveyRow.getByRole("button", { name: "Cancel Site survey" }).click();
  await expect(surveyRow).toContainText("Cancelled");
  await expect(surveyRow.getByRole("button", { name: "Cancel Site survey" })).toHaveCount(0);

  // The server agrees.
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await expect
    .poll(async () => {
      const [q, s] = [await job(quote), await job(survey)];
      return [q.vehicleId, q.status, s.vehicleId, s.status];
    })
    .toEqual([truck!.vehicleId, "scheduled", van!.vehicleId, "cancelled"]);
});
