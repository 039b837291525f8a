import type { Locator } from "@playwright/test";
import { timeText, windowText, type WorkspaceClock } from "../shared/units/clock";
import { dayOf, startOfDay } from "../shared/units/time-zone";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { localD1, orderVehicles, report } from "./ui-helpers";

/**
 * One zone and one format per workspace (issue 52, docs/decisions/0079): a Chicago workspace read
 * on a device in Tokyo. My day, the customer's page and the map panel write the job's ETA and
 * window, and the vehicle's times, all on Chicago's 12-hour clock, naming the zone, never Tokyo's.
 */
test.use({ timezoneId: "Asia/Tokyo" });

const ZONE = "America/Chicago";
const MIN = 60_000;
/** How the workspace's times read on this device: Chicago's clock, 12-hour, the zone named. */
const clock: WorkspaceClock = { timeZone: ZONE, hourCycle: "h12", readerTimeZone: "Asia/Tokyo" };
/** A time of day on Chicago's clock, named: "3:19 PM CST" (never Tokyo's "6:19" or a 24-hour "15:19"). */
const CHICAGO_TIME = /^\d{1,2}:\d{2}(:\d{2})? (AM|PM) C[SD]T$/;

const textOf = async (locator: Locator) => (await locator.textContent())?.trim() ?? "";

test("My day, the customer's page and the map panel show the ETA, the window and the times on the workspace's clock", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "One Clock Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const zone = await request.patch("/api/workspace/preferences", { headers, data: { timeZone: ZONE } });
  expect(await zone.json()).toMatchObject({ timeZone: ZONE, hourCycle: "h12" });
  const [van, truck] = await orderVehicles(request, fleet, 2);

  // The van's job today (Chicago's today), on its way, expected at 3:19 PM Chicago time.
  const today = dayOf(Date.now(), ZONE);
  const eta = startOfDay(today, ZONE) + (15 * 60 + 19) * MIN;
  const job = await request.post("/api/jobs", {
    headers,
    data: {
      title: "Boiler for Mrs Ortiz",
      date: today,
      vehicleId: van!.vehicleId,
      location: { latitude: 41.91, longitude: -87.67 },
      windowStart: "14:00",
      windowEnd: "16:30",
    },
  });
  expect(job.status(), await job.text()).toBe(201);
  const { id: jobId } = (await job.json()) as { id: string };
  // The workspace object writes ETAs as the van drives; this van has not reported, so it is set here.
  await localD1(`UPDATE jobs SET status = 'en_route', eta = ${eta} WHERE id = '${jobId}';`);
  const link = await request.post(`/api/jobs/${jobId}/shares`, { headers, data: {} });
  expect(link.status(), await link.text()).toBe(201);
  const { url } = (await link.json()) as { url: string };

  const etaText = timeText(eta, clock);
  const window = windowText("14:00", "16:30", clock, today);
  expect(etaText).toMatch(CHICAGO_TIME);
  expect(window).toMatch(/^2:00 PM–4:30 PM C[SD]T$/);

  // My day: the window and the ETA side by side, on one clock.
  await signInAs(page, fleet.token);
  await page.goto("/my-day");
  await page.getByLabel("Vehicle").selectOption(van!.vehicleId);
  const when = page.getByRole("listitem", { name: "Stop 1: Boiler for Mrs Ortiz" }).getByTestId("stop-when");
  await expect(when).toHaveText(`Window ${window} · ETA ${etaText}`);

  // The dispatch page's day timeline: its hours on the same 12-hour clock as the stops' windows.
  await page.goto(`/jobs?date=${today}`);
  const hours = page.locator(".timeline-hours span");
  await expect(hours.first()).toHaveText(/^\d{1,2}:00 (AM|PM)$/);
  for (const hour of await hours.allTextContents()) expect(hour).toMatch(/^\d{1,2}:00 (AM|PM)$/);

  // The customer's page, on a device in yet another zone: the sender's clock, the zone named.
  const customer = await browser.newContext({ timezoneId: "Europe/London" });
  const customerPage = await customer.newPage();
  await customerPage.goto(new URL(url).pathname);
  // The page names the zone once for all its times (issue 53), not after each one.
  const unnamed = (named: string) => named.replace(/ C[SD]T$/, "");
  await expect(customerPage.getByTestId("track-window")).toHaveText(unnamed(window));
  await expect(customerPage.getByTestId("track-detail")).toContainText(`Expected at ${unnamed(etaText)}`);
  await expect(customerPage.getByTestId("track-zone")).toHaveText(/^Times in Chicago time \(C[SD]T\)$/);
  await customer.close();

  // The map panel: the truck's timeline on the same clock, and the replay bar beside it.
  const now = Date.now();
  for (const r of [
    { timestamp: now - 50 * MIN, lat: 41.88, lon: -87.63, ignition: false },
    { timestamp: now - 40 * MIN, lat: 41.89, lon: -87.63, speed: 30, ignition: true },
    { timestamp: now - 30 * MIN, lat: 41.9, lon: -87.63, speed: 30, ignition: true },
    { timestamp: now - 25 * MIN, lat: 41.9, lon: -87.63, ignition: false },
  ])
    await report(request, truck!.id, r);
  await page.goto(`/map?vehicleId=${truck!.vehicleId}`);
  const events = page.getByRole("region", { name: "Timeline" }).getByRole("listitem");
  await expect(events.locator(".label")).toContainText(["parked", "driving"]);
  const driving = events.filter({ hasText: "driving" }).first();
  expect(await textOf(driving.locator(".time"))).toMatch(CHICAGO_TIME);
  await driving.getByRole("button").click();
  const readout = page.getByTestId("replay-readout").locator(".mono");
  await expect(readout).toHaveText(CHICAGO_TIME);
});
