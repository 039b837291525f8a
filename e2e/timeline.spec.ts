import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles, report } from "./ui-helpers";

// A fixed clock and time zone: the day headings are fixed strings whatever the hour of the run
// (with the real clock, "Today" would be yesterday for the first twenty minutes after midnight).
// The workspace is in Chicago (Preferences); the viewer's machine in Tokyo: the workspace's zone wins.
test.use({ timezoneId: "Asia/Tokyo" });
const NOW = Date.parse("2026-10-14T12:00:00-05:00"); // noon, Wednesday 14 October 2026, Chicago
const MIN = 60_000;

test("the side panel shows the 3 latest events grouped by day, with labels and durations", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const zone = await request.patch("/api/workspace/preferences", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { timeZone: "America/Chicago" },
  });
  expect(zone.status()).toBe(200);
  const [a] = await orderVehicles(request, fleet, 1);
  const earlier = Date.parse("2026-10-12T10:00:00-05:00"); // 10:00 two days before
  const track = [
    { timestamp: earlier, lat: 40, lon: -100, ignition: false },
    { timestamp: earlier + 20 * MIN, lat: 40, lon: -100, ignition: false },
    { timestamp: earlier + 30 * MIN, lat: 40.01, lon: -100, speed: 30, ignition: true },
    { timestamp: earlier + 40 * MIN, lat: 40.02, lon: -100, speed: 30, ignition: true },
    { timestamp: earlier + 50 * MIN, lat: 40.03, lon: -100, speed: 30, ignition: true },
    { timestamp: earlier + 55 * MIN, lat: 40.03, lon: -100, ignition: false }, // stopped at 10:50 on the 12th
    { timestamp: NOW - 45 * MIN, lat: 40.03, lon: -100, ignition: false }, // still there
    { timestamp: NOW - 40 * MIN, lat: 40.04, lon: -100, speed: 30, ignition: true }, // left at 11:15
    { timestamp: NOW - 30 * MIN, lat: 40.05, lon: -100, speed: 30, ignition: true },
    { timestamp: NOW - 20 * MIN, lat: 40.06, lon: -100, speed: 30, ignition: true },
    { timestamp: NOW - 15 * MIN, lat: 40.06, lon: -100, ignition: false }, // stopped at 11:40
  ];
  for (const r of track) await report(request, a!.id, r);

  await page.clock.setSystemTime(NOW);
  await signInAs(page, fleet.token);
  await page.goto(`/map?vehicleId=${a!.vehicleId}`);
  const timeline = page.getByRole("region", { name: "Timeline" });
  const events = timeline.getByRole("listitem");
  await expect(events).toHaveCount(3);
  await expect(timeline.getByRole("heading")).toHaveText(["Today", "2026-10-12"]);
  await expect(events.locator(".label")).toHaveText(["parked", "driving", "parked"]);
  await expect(events.nth(0)).toHaveAttribute("data-event-type", "STOP");
  await expect(events.nth(1)).toHaveAttribute("data-event-type", "TRANSIT");
  // Durations: the ongoing stop and the trip in minutes, the long stop in days and hours.
  await expect(events.nth(0).locator(".duration")).toHaveText("20m");
  await expect(events.nth(1).locator(".duration")).toHaveText("25m");
  await expect(events.nth(2).locator(".duration")).toHaveText("2d 0h");
  await expect(events.nth(0)).toContainText("11:40 AM");
  await expect(events.nth(1)).toContainText("11:15 AM");
  await expect(events.nth(2)).toContainText("10:50 AM");
  // A trip shows its average speed and distance; a stop where it stood.
  await expect(events.nth(1)).toContainText(/\d+ mph avg · \d+\.\d mi/);
  await expect(events.nth(0).locator(".address")).toHaveText(/40\.06000, -100\.00000/);
});

test("a fuel drop the beacon's level showed is on the timeline, in gallons once the tank is set", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const [a] = await orderVehicles(request, fleet, 1);
  // An 80 L tank (21.1 gal) that loses 30 points in a few minutes, parked (docs/decisions/0050).
  expect(
    (await request.patch(`/api/vehicles/${a!.vehicleId}`, { headers: auth, data: { fuelTankLitres: 80 } })).status(),
  ).toBe(200);
  const levels = [70, 70.4, 69.8, 70.1, 70, 69.9, 60, 50, 42, 40, 40.2, 39.9, 40, 40.1, 40, 39.8, 40.1, 40];
  for (const [i, fuel] of levels.entries())
    await report(request, a!.id, { timestamp: NOW - (60 - i) * MIN, lat: 40, lon: -100, ignition: false, fuel });

  await page.clock.setSystemTime(NOW);
  await signInAs(page, fleet.token);
  await page.goto(`/map?vehicleId=${a!.vehicleId}`);
  const drop = page.getByRole("region", { name: "Timeline" }).locator('[data-event-type="FUEL_DROP"]');
  await expect(drop.locator(".label")).toHaveText("fuel drop");
  // 30 points of 80 L: about 24 L, 6.3 gal.
  await expect(drop.getByTestId("fuel-change")).toHaveText(/^−6\.\d gal · 70% → 40%$/);
});
