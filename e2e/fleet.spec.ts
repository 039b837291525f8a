import { DEMO_FLEET } from "../scripts/sim/demo-fleet";
import { seedDemo } from "../scripts/sim/demo-seed";
import { runSimulation } from "../scripts/sim/runner";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";

test.describe("fleet data", () => {
  test("ordering beacons at /infleet adds vehicles to the fleet", async ({ page, request }) => {
    const account = await newFleetAccount(request);
    await signInAs(page, account.token);
    await page.goto("/infleet");
    await expect(page.getByRole("heading", { name: "Add Vehicle To Fleet" })).toBeVisible();
    const count = page.getByLabel("How many vehicles?");
    await expect(count).toHaveValue("1");
    await count.fill("2");
    await page.getByRole("button", { name: "Confirm Order" }).click();
    await expect(page.getByRole("heading", { name: "On the way!" })).toBeVisible();
    // Each beacon's device id is shown, for configuring the trackers.
    await expect(page.getByRole("row")).toHaveCount(3);

    await page.getByRole("link", { name: "Vehicles", exact: true }).first().click();
    await expect(page).toHaveURL(/\/vehicles$/);
    await expect(page.getByRole("row", { name: /Vehicle 1/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /Vehicle 2/ })).toBeVisible();
  });

  test("an OsmAnd report shows up in an open vehicle page without a reload", async ({ page, request }) => {
    const account = await newFleetAccount(request);
    const ordered = await request.post("/api/beacons/order", {
      headers: { Authorization: `Bearer ${account.token}` },
      data: { workspaceId: account.workspaceId, count: 1 },
    });
    expect(ordered.status()).toBe(201);
    const [beacon] = (await ordered.json()) as { id: string; vehicleId: string }[];

    await signInAs(page, account.token);
    await page.goto(`/vehicles/${beacon!.vehicleId}/overview`);
    await expect(page.getByText("No telemetry yet: the beacon has not reported.")).toBeVisible();
    // Marks this document: a reload or a navigation would lose the mark.
    await page.evaluate(() => ((window as unknown as { e2eMark: string }).e2eMark = "same page"));

    // A tracker reports (Traccar Client's query form): 20 knots is 23 mph; 160,934 m is 100 miles.
    const report = await request.get("/api/ingest/osmand", {
      params: {
        id: beacon!.id,
        lat: 41.882,
        lon: -87.6278,
        timestamp: Math.floor(Date.now() / 1000),
        speed: 20,
        ignition: "true",
        fuel: 64,
        odometer: 160934,
      },
    });
    expect(report.status()).toBe(200);
    await expect(page.getByTestId("speed")).toHaveText("23 mph");
    await expect(page.getByTestId("odometer")).toHaveText("100 mi");
    await expect(page.getByTestId("fuel")).toHaveText("64%");

    // Then it parks (the JSON variant): the page follows again.
    const parked = await request.post("/api/ingest/osmand", {
      data: {
        device_id: beacon!.id,
        location: {
          timestamp: new Date().toISOString(),
          coords: { latitude: 41.8821, longitude: -87.6278, speed: 0 },
          extras: { ignition: false, fuel: 63 },
        },
      },
    });
    expect(parked.status()).toBe(200);
    await expect(page.getByTestId("speed")).toHaveText("0 mph");
    await expect(page.getByText("Time in parked")).toBeVisible();
    await expect(page.getByTestId("fuel")).toHaveText("63%");
    expect(await page.evaluate(() => (window as unknown as { e2eMark?: string }).e2eMark)).toBe("same page");
  });
});

test.describe("demo fleet and simulator", () => {
  test("the demo seeds once, the simulator drives it through ingestion, and the fleet shows it", async ({
    page,
    baseURL,
  }) => {
    // It seeds the whole demo four times (fleet, history, fuel, jobs, work orders): 20 s on a quiet
    // machine, past the 60 s limit at a load of 20 (issue 57's busy-machine run).
    test.slow();
    const first = await seedDemo(baseURL!);
    const again = await seedDemo(baseURL!);
    expect(again.workspaceId).toBe(first.workspaceId);
    expect(again.beacons.map((b) => b.id).sort()).toEqual(first.beacons.map((b) => b.id).sort());
    expect(first.beacons).toHaveLength(DEMO_FLEET.length);
    // Its zone is its fleet's (issue 52): Central time, where half its vehicles drive, on a 12-hour clock.
    expect(await first.api.call("GET", "workspace/preferences")).toMatchObject({
      timeZone: "America/Chicago",
      hourCycle: "h12",
    });
    // Restarts reuse the saved session (no sign-in, so no sign-in limit); a stale one signs in again.
    const resumed = await seedDemo(baseURL!, undefined, again.api.token);
    expect(resumed.workspaceId).toBe(first.workspaceId);
    const afterStale = await seedDemo(baseURL!, undefined, "stale-token");
    expect(afterStale.workspaceId).toBe(first.workspaceId);
    // Its fuel log (issue 42) is seeded once too: three vehicles' fill-ups, one of them to check.
    const fuel = await first.api.call<{ entries: { flags: string[] }[] }>("GET", "fuel-entries");
    expect(fuel.entries).toHaveLength(18);
    expect(fuel.entries.filter((e) => e.flags.length)).toHaveLength(1);
    // One vehicle lost fuel overnight (sent before its first live report): the Inbox shows the drop.
    const inbox = await first.api.call<{ alerts: { type: string; peak: number | null }[] }>("GET", "alerts");
    const drops = inbox.alerts.filter((x) => x.type === "fuel_drop");
    expect(drops).toHaveLength(1);
    expect(drops[0]!.peak).toBeGreaterThan(25);
    // And its renewals (issue 42 part B), once: one registration due soon.
    const renewals = await first.api.call<{ renewals: { kind: string; status: string }[] }>("GET", "renewals");
    expect(renewals.renewals.filter((r) => r.status !== "ok")).toEqual([
      expect.objectContaining({ kind: "registration", status: "due_soon" }),
    ]);

    // Bounded, as tests run it: 24 reports, two per vehicle.
    const stats = await runSimulation({ url: baseURL!, beacons: first.beacons, intervalMs: 100, maxReports: 24 });
    expect(stats).toEqual({ sent: 24, accepted: 24, rejected: 0, failed: 0 });
    const after = await first.api.beacons();
    expect(after.every((b) => b.lastReportAt !== null)).toBe(true);

    await signInAs(page, first.api.token!);
    await page.goto("/vehicles");
    const pickup = page.getByRole("row", { name: /Crew Pickup 1/ });
    await expect(pickup).toContainText("Maria Gonzalez");
    await expect(pickup).toContainText("2023");
    await expect(pickup).toContainText("Pickup Truck");
  });
});
