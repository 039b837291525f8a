import { defaultHourCycle, timeText } from "../shared/units/clock";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { findColour, mapView, orderVehicles, report } from "./ui-helpers";

// app/map/route-layer.tsx and trip-replay.tsx: the selected vehicle's route, a trip's path, the replay marker.
const ROUTE: [number, number, number] = [0x63, 0x66, 0xf1];
const TRIP: [number, number, number] = [0x7c, 0x3a, 0xed];
const MARKER: [number, number, number] = [0xf9, 0x73, 0x16];
const DRIVING: [number, number, number] = [0x16, 0xa3, 0x4a];
const MIN = 60_000;

async function openMap(page: Page, token: string, path: string) {
  // The map's test hooks (data-base-map, data-route-points, the replay bar's data-position…) are behind its debug flag.
  await page.addInitScript(() => ((window as unknown as { __fleetOpsDebug: string[] }).__fleetOpsDebug = ["map"]));
  await signInAs(page, token);
  await page.goto(path);
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");
}

test("the selected vehicle's route since the start of the day is drawn, and grows as it reports", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const [a] = await orderVehicles(request, fleet, 1);
  const now = Date.now();
  // Five reports over the last few minutes, driving north.
  for (let i = 0; i < 5; i++)
    await report(request, a!.id, {
      timestamp: now - (5 - i) * 30_000,
      lat: 43.6 + i * 0.004,
      lon: -79.4,
      speed: 25,
      ignition: true,
    });

  await openMap(page, fleet.token, `/map?vehicleId=${a!.vehicleId}`);
  const map = page.getByTestId("fleet-map");
  await expect(map).toHaveAttribute("data-route-points", "5");
  await expect.poll(() => findColour(page, ROUTE)).not.toBeNull();

  // A style switch (what the Mapbox fallback does) drops every layer the app added: the route and
  // the beacons come back on the new style.
  const generation = await map.getAttribute("data-style-generation");
  await page.evaluate(() => (window as unknown as { __fleetMapRestyle: () => void }).__fleetMapRestyle());
  await expect(map).not.toHaveAttribute("data-style-generation", generation!);
  await expect(map).toHaveAttribute("data-route-points", "5");
  await expect.poll(() => findColour(page, ROUTE)).not.toBeNull();
  await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();

  // A new report extends it (the beacon glides there, and the line with it).
  await report(request, a!.id, { timestamp: now, lat: 43.62, lon: -79.4, speed: 25, ignition: true });
  await expect(map).toHaveAttribute("data-route-points", "6");

  // Back to the list: no route.
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("button", { name: "Vehicles" }).click();
  await expect(map).not.toHaveAttribute("data-route-points", /.*/);
});

test.describe("a trip from the timeline on the map", () => {
  /** Parked, a 25-minute drive north (four reports), parked again: the timeline has a stop, a trip and a stop. */
  async function vehicleWithTrip(page: Page, request: APIRequestContext) {
    const fleet = await newFleetAccount(request);
    const [a] = await orderVehicles(request, fleet, 1);
    const now = Date.now();
    const track = [
      { timestamp: now - 70 * MIN, lat: 40.03, lon: -100, ignition: false },
      { timestamp: now - 45 * MIN, lat: 40.03, lon: -100, ignition: false },
      { timestamp: now - 40 * MIN, lat: 40.04, lon: -100, speed: 30, ignition: true },
      { timestamp: now - 30 * MIN, lat: 40.05, lon: -100, speed: 30, ignition: true },
      { timestamp: now - 20 * MIN, lat: 40.06, lon: -100, speed: 30, ignition: true },
      { timestamp: now - 15 * MIN, lat: 40.06, lon: -100, ignition: false },
    ];
    for (const r of track) await report(request, a!.id, r);
    await openMap(page, fleet.token, `/map?vehicleId=${a!.vehicleId}`);
    const events = page.getByRole("region", { name: "Timeline" }).getByRole("listitem");
    await expect(events.locator(".label")).toHaveText(["parked", "driving", "parked"]);
    return { now, events, vehicleId: a!.vehicleId };
  }

  test("clicking a trip draws its path, fits the map to it and replays it at its recorded times", async ({
    page,
    request,
  }) => {
    const { now, events, vehicleId } = await vehicleWithTrip(page, request);
    await events.nth(1).getByRole("button").click();
    await expect(page).toHaveURL(/[?&]event=/);
    await expect(events.nth(1).getByRole("button")).toHaveAttribute("aria-pressed", "true");

    const bar = page.getByRole("group", { name: "Trip replay" });
    await expect(bar).toBeVisible();
    // Fitted to the trip (40.03 to 40.06 N), not the whole country.
    await expect.poll(async () => (await mapView(page)).zoom).toBeGreaterThan(10);
    const view = await mapView(page);
    expect(view.lat).toBeGreaterThan(40.02);
    expect(view.lat).toBeLessThan(40.07);
    await expect.poll(() => findColour(page, TRIP)).not.toBeNull();
    await expect.poll(() => findColour(page, MARKER)).not.toBeNull();

    // The slider at 35 minutes ago: halfway between the reports of 40 and 30 minutes ago.
    const slider = bar.getByRole("slider", { name: "Replay time" });
    const min = Number(await slider.getAttribute("min"));
    const at = min + Math.round((now - 35 * MIN - min) / 1000) * 1000;
    await slider.fill(String(at));
    const expectedLat = 40.04 + (0.01 * (at - (now - 40 * MIN))) / (10 * MIN);
    await expect
      .poll(async () => Number((await bar.getAttribute("data-position"))!.split(",")[0]))
      .toBeCloseTo(expectedLat, 5);
    expect(Number((await bar.getAttribute("data-position"))!.split(",")[1])).toBeCloseTo(-100, 5);
    // 30 knots is 35 mph; the time is the cursor's, to the second.
    const readout = page.getByTestId("replay-readout");
    await expect(readout).toContainText("35 mph");
    // On the workspace's clock, whatever the device's (docs/decisions/0079): a new one's is the run's
    // zone (UTC, or E2E_TIME_ZONE: e2e/helpers.ts) with that zone's default hour cycle.
    const timeZone = process.env.E2E_TIME_ZONE ?? "UTC";
    const clock = { timeZone, hourCycle: defaultHourCycle(timeZone), readerTimeZone: timeZone };
    const expectedTime = timeText(at, clock, { seconds: true });
    await expect(readout).toContainText(expectedTime);

    // Playing at ×60 moves the marker north along the path.
    await bar.getByRole("button", { name: "×60" }).click();
    await expect(bar.getByRole("button", { name: "×60" })).toHaveAttribute("aria-pressed", "true");
    await bar.getByRole("button", { name: "Play", exact: true }).click();
    await expect
      .poll(async () => Number((await bar.getAttribute("data-position"))!.split(",")[0]))
      .toBeGreaterThan(expectedLat + 0.0005);
    await bar.getByRole("button", { name: "Pause", exact: true }).click();

    // Escape goes back to the live view of the vehicle.
    await page.keyboard.press("Escape");
    await expect(bar).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]event=/);
    await expect(page).toHaveURL(new RegExp(`vehicleId=${vehicleId}`));
    await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-route-points", /\d+/);
  });

  test("a stop shows its place; the Vehicles crumb leaves the trip view", async ({ page, request }) => {
    const { events } = await vehicleWithTrip(page, request);
    await events.nth(0).getByRole("button").click();
    await expect(page).toHaveURL(/[?&]event=/);
    await expect(page.getByRole("group", { name: "Trip replay" })).toHaveCount(0);
    await expect.poll(() => findColour(page, MARKER)).not.toBeNull();
    await expect.poll(async () => (await mapView(page)).zoom).toBeGreaterThan(10);

    await events.nth(1).getByRole("button").click();
    await expect(page.getByRole("group", { name: "Trip replay" })).toBeVisible();
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("button", { name: "Vehicles" }).click();
    await expect(page.getByRole("group", { name: "Trip replay" })).toHaveCount(0);
    await expect(page).not.toHaveURL(/event=/);
    await expect(page.getByRole("list", { name: "Vehicles" })).toBeVisible();
  });
});
