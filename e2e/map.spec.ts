import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { latOf, lngOf, mercatorX, mercatorY, worldSize } from "../app/map/beacon-math";
import { newFleetAccount, signInAs } from "./helpers";
import { findColour, mapView, orderVehicles, report, updateVehicle } from "./ui-helpers";

// Beacon colours on the offline style (opaque discs): driving, parked.
const DRIVING: [number, number, number] = [0x16, 0xa3, 0x4a];
const PARKED: [number, number, number] = [0x25, 0x63, 0xeb];
const CLUSTER: [number, number, number] = [0x33, 0x41, 0x55];

async function openMap(page: Page, token: string, path = "/map") {
  // The map's test hooks (data-zoom, data-vehicle-count, window.__fleetMap…) are behind its debug flag.
  await page.addInitScript(() => ((window as unknown as { __fleetOpsDebug: string[] }).__fleetOpsDebug = ["map"]));
  await signInAs(page, token);
  await page.goto(path);
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");
}

interface FleetMapHooks {
  clusters(): { count: number; x: number; y: number }[];
  beaconAt(id: string): { x: number; y: number } | null;
}
function clusters(page: Page) {
  return page.evaluate(() => (window as unknown as { __fleetMap?: FleetMapHooks }).__fleetMap?.clusters() ?? []);
}

/** Where the map draws the selected vehicle at this moment, "lat,lng" (the map's debug hook). */
function selectedPosition(page: Page) {
  return page.evaluate(
    () =>
      (window as unknown as { __fleetMap?: { selectedPosition(): string | null } }).__fleetMap?.selectedPosition() ??
      null,
  );
}

/** Holds back the requests matching `url` until the returned function is called. */
async function holdBack(page: Page, url: RegExp) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Counts, at every frame from now on, the frames drawn while the address is another page than the
 * map, and names any part of the map that has a size in them.
 */
function watchMapOffItsPage(page: Page) {
  return page.evaluate(() => {
    const watch = { frames: 0, shown: [] as string[] };
    (window as unknown as { __mapOffItsPage: typeof watch }).__mapOffItsPage = watch;
    const check = () => {
      if (location.pathname !== "/map") {
        watch.frames++;
        for (const el of Array.from(document.querySelectorAll(".map-host, .map-host canvas, .map-sketch"))) {
          const { width, height } = el.getBoundingClientRect();
          if (width && height) watch.shown.push(`${el.tagName.toLowerCase()}.${el.className} ${width}x${height}`);
        }
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

function mapOffItsPage(page: Page) {
  return page.evaluate(
    () => (window as unknown as { __mapOffItsPage: { frames: number; shown: string[] } }).__mapOffItsPage,
  );
}

test.describe("map: vehicles panel", () => {
  test("lists every vehicle with its connectivity, and the search box filters the list", async ({ page, request }) => {
    const fleet = await newFleetAccount(request, "Acme Haulage");
    const [a, b, c] = await orderVehicles(request, fleet, 3);
    await updateVehicle(request, fleet, { id: a!.vehicleId, name: "Alpha Truck", make: "Ford" });
    await updateVehicle(request, fleet, { id: b!.vehicleId, name: "Bravo Van", vin: "1FTFW1ET5DFC10312" });
    await updateVehicle(request, fleet, { id: c!.vehicleId, name: "Charlie Car" });
    // Alpha and Bravo report (ACTIVE); Charlie's beacon never has (PENDING).
    await report(request, a!.id, { lat: 40, lon: -100, speed: 20, ignition: true });
    await report(request, b!.id, { lat: 40.1, lon: -100.1, ignition: false });

    await openMap(page, fleet.token);
    const panel = page.getByRole("complementary", { name: "Vehicles panel" });
    await expect(panel).toBeVisible();
    expect((await panel.boundingBox())!.width).toBe(325);
    await expect(panel.getByRole("heading", { name: "Vehicles" })).toBeVisible();
    await expect(panel.getByRole("img", { name: "Filter" })).toBeVisible();
    // The workspace menu shows the workspace's first letter as its avatar.
    await expect(panel.getByRole("button", { name: "Workspace menu" })).toContainText("Acme Haulage");
    await expect(panel.locator(".workspace-trigger .avatar")).toHaveText("A");

    const list = panel.getByRole("list", { name: "Vehicles" });
    const rows = list.getByRole("button");
    await expect(rows).toHaveText(["Alpha Truck", "Bravo Van", "Charlie Car"].map((n) => new RegExp(n)));
    const icon = (name: string) => list.getByRole("button", { name: new RegExp(name) }).locator(".connectivity");
    await expect(icon("Alpha Truck")).toHaveAttribute("aria-label", "Beacon active");
    await expect(icon("Alpha Truck")).toHaveCSS("background-color", "rgb(22, 163, 74)");
    await expect(icon("Bravo Van")).toHaveAttribute("aria-label", "Beacon active");
    await expect(icon("Charlie Car")).toHaveAttribute("aria-label", "Beacon inactive");
    await expect(icon("Charlie Car")).toHaveCSS("background-color", "rgb(161, 161, 170)");

    const search = panel.getByRole("searchbox", { name: "Search vehicles" });
    await search.fill("van");
    await expect(rows).toHaveText([/Bravo Van/]);
    await search.fill("1ftfw1"); // VIN, any case
    await expect(rows).toHaveText([/Bravo Van/]);
    await search.fill("ford");
    await expect(rows).toHaveText([/Alpha Truck/]);
    await search.fill("zeppelin");
    await expect(rows).toHaveCount(0);
    await expect(panel.getByText("No vehicle matches “zeppelin”.")).toBeVisible();
    await search.fill("");
    await expect(rows).toHaveCount(3);
  });

  test("an empty fleet says how to add vehicles", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    await openMap(page, fleet.token);
    const panel = page.getByRole("complementary", { name: "Vehicles panel" });
    await expect(panel.getByText("No vehicles yet.")).toBeVisible();
    await panel.getByRole("link", { name: "Order beacons" }).click();
    await expect(page).toHaveURL(/\/infleet$/);
  });

  test("clicking a vehicle opens its side panel; the Vehicles crumb goes back to the list", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const [a, b] = await orderVehicles(request, fleet, 2);
    await updateVehicle(request, fleet, { id: a!.vehicleId, name: "Alpha Truck" });
    await updateVehicle(request, fleet, {
      id: b!.vehicleId,
      name: "Bravo Van",
      year: 2019,
      make: "Ford",
      model: "Transit",
      vin: "1FTFW1ET5DFC10312",
    });
    await report(request, b!.id, { lat: 40, lon: -100, ignition: false, fuel: 64.4, odometer: 1_609_344 * 12.345 });

    await openMap(page, fleet.token);
    await page.getByRole("button", { name: /Bravo Van/ }).click();
    await expect(page).toHaveURL(new RegExp(`vehicleId=${b!.vehicleId}`));
    const panel = page.getByRole("complementary", { name: "Vehicle panel" });
    const crumbs = panel.getByRole("navigation", { name: "Breadcrumb" });
    await expect(crumbs).toHaveText("Vehicles / Bravo Van");
    await expect(panel.getByRole("heading", { name: "Bravo Van" })).toBeVisible();
    await expect(panel.getByText("2019 Ford Transit")).toBeVisible();
    await expect(panel.getByText("VIN 1FTFW1ET5DFC10312")).toBeVisible();
    await expect(panel.getByTestId("panel-status")).toHaveText(/^Parked · \d+m$/);
    await expect(panel.getByText("12,345 mi")).toBeVisible();
    await expect(panel.getByText("0 mph")).toBeVisible();
    await expect(panel.getByText("64%")).toBeVisible();
    await expect(panel.getByRole("region", { name: "Driver" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Vehicles panel" })).toHaveCount(0);

    await crumbs.getByRole("button", { name: "Vehicles" }).click();
    await expect(page).not.toHaveURL(/vehicleId=/);
    await expect(page.getByRole("complementary", { name: "Vehicles panel" })).toBeVisible();
  });

  test("the list is usable from the keyboard: arrows move, Enter selects", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    const beacons = await orderVehicles(request, fleet, 3);
    await openMap(page, fleet.token);
    const rows = page.getByRole("list", { name: "Vehicles" }).getByRole("button");
    await expect(rows).toHaveCount(3);
    await page.getByRole("searchbox", { name: "Search vehicles" }).press("ArrowDown");
    await expect(rows.nth(0)).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(rows.nth(2)).toBeFocused();
    await page.keyboard.press("ArrowDown"); // stays on the last
    await page.keyboard.press("ArrowUp");
    await expect(rows.nth(1)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`vehicleId=${beacons[1]!.vehicleId}`));
  });

  test("a long list renders only the rows in view, and the keyboard still reaches the last one", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    await orderVehicles(request, fleet, 100);
    await openMap(page, fleet.token);
    const list = page.getByRole("list", { name: "Vehicles" });
    await expect(list.getByRole("listitem").first()).toHaveAttribute("aria-setsize", "100");
    expect(await list.getByRole("button").count()).toBeLessThan(60);
    await page.getByRole("searchbox", { name: "Search vehicles" }).press("ArrowDown");
    for (let i = 1; i < 100; i++) await page.keyboard.press("ArrowDown");
    await expect(list.getByRole("button", { name: /^Vehicle 100,/ })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText("Vehicles / Vehicle 100");
  });
});

/** Two vehicles a degree apart on the map: the first driving, the second parked. */
async function drivingAndParkedOnMap(page: Page, request: APIRequestContext) {
  const fleet = await newFleetAccount(request);
  const vehicles = await orderVehicles(request, fleet, 2);
  await report(request, vehicles[0]!.id, { lat: 40, lon: -100.5, speed: 20, ignition: true });
  await report(request, vehicles[1]!.id, { lat: 40, lon: -99.5, ignition: false });
  await openMap(page, fleet.token);
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-vehicle-count", "2");
  return vehicles;
}

test.describe("map: the live map", () => {
  test("before mapbox-gl has arrived the vehicles are drawn, and the map opens with them where they were drawn", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const [a, b] = await orderVehicles(request, fleet, 2);
    // Around New York, out of the initial view: the map opens fitted to them.
    await report(request, a!.id, { lat: 40.7128, lon: -74.006, speed: 20, ignition: true });
    await report(request, b!.id, { lat: 40.72, lon: -73.99, ignition: false });
    // mapbox-gl is held back, as a slow link would, until the sketch has been looked at.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/mapbox-gl-[^/]*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.addInitScript(() => ((window as unknown as { __fleetOpsDebug: string[] }).__fleetOpsDebug = ["map"]));
    await signInAs(page, fleet.token);
    await page.goto("/map");

    const sketch = page.getByTestId("map-sketch");
    await expect(sketch).toHaveAttribute("data-vehicles-shown", "true");
    await expect(sketch).toHaveAttribute("data-vehicle-count", "2");
    await expect(page.getByRole("status").filter({ hasText: "Loading the map…" })).toBeVisible();
    await expect(page.getByTestId("fleet-map")).not.toHaveAttribute("data-map-ready", "true");
    const sketched = { driving: await findColour(page, DRIVING), parked: await findColour(page, PARKED) };
    expect(sketched.driving).not.toBeNull();
    expect(sketched.parked!.x).toBeGreaterThan(sketched.driving!.x);
    // Two vehicles are fitted no closer than zoom 13; drawn at that zoom's beacon size, 35 px with a 2 px rim.
    expect(Number(await sketch.getAttribute("data-zoom"))).toBe(13);
    expect(Math.abs(sketched.driving!.width - 31)).toBeLessThanOrEqual(2);
    const [sketchLng, sketchLat] = (await sketch.getAttribute("data-center"))!.split(",").map(Number);

    release();
    await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");
    await expect(sketch).toHaveCount(0);
    // The map opened on the sketch's camera, so it had nothing to refit...
    const view = await mapView(page);
    expect(view.zoom).toBe(13);
    expect(view.lng).toBeCloseTo(sketchLng!, 4);
    expect(view.lat).toBeCloseTo(sketchLat!, 4);
    expect(await page.getByTestId("fleet-map").getAttribute("data-fits")).toBeNull();
    // ...and draws each beacon where the sketch drew its dot.
    const drawn = { driving: await findColour(page, DRIVING), parked: await findColour(page, PARKED) };
    for (const kind of ["driving", "parked"] as const) {
      expect(Math.abs(drawn[kind]!.x - sketched[kind]!.x)).toBeLessThanOrEqual(2);
      expect(Math.abs(drawn[kind]!.y - sketched[kind]!.y)).toBeLessThanOrEqual(2);
    }
  });

  test("draws each vehicle as a beacon of the specified size; clicking one selects it", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    const [a] = await orderVehicles(request, fleet, 1);
    // At the map's initial centre: already in view, so the map does not move.
    await report(request, a!.id, { lat: 40, lon: -100, speed: 20, ignition: true });
    await openMap(page, fleet.token);
    await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-vehicle-count", "1");
    expect(await mapView(page)).toEqual({ zoom: 5, lng: -100, lat: 40 });

    let beacon = await findColour(page, DRIVING);
    await expect.poll(async () => (beacon = await findColour(page, DRIVING))).not.toBeNull();
    // Zoom 5: max(35, 50 - 5 × 5) = 35 px across, of which the coloured fill is 35 - 2 × 2 (white rim).
    expect(Math.abs(beacon!.width - 31)).toBeLessThanOrEqual(2);
    const atZoom5 = beacon!;

    // Zoomed out to 1 (keyboard, as a user can): 50 - 5 × 1 = 45 px across, fill 41.
    await page.locator(".fleet-map canvas").focus();
    for (const zoom of [4, 3, 2, 1]) {
      await page.keyboard.press("Minus");
      await expect.poll(async () => (await mapView(page)).zoom).toBe(zoom);
    }
    await expect.poll(async () => (beacon = await findColour(page, DRIVING))?.width).toBeGreaterThan(atZoom5.width);
    expect(Math.abs(beacon!.width - 41)).toBeLessThanOrEqual(2);
    await page.mouse.click(beacon!.x, beacon!.y);
    await expect(page).toHaveURL(new RegExp(`vehicleId=${a!.vehicleId}`));
    await expect(page.getByRole("complementary", { name: "Vehicle panel" })).toBeVisible();
  });

  test("parked and driving vehicles look different", async ({ page, request }) => {
    await drivingAndParkedOnMap(page, request);
    const driving = await expect
      .poll(() => findColour(page, DRIVING))
      .not.toBeNull()
      .then(() => findColour(page, DRIVING));
    const parked = (await findColour(page, PARKED))!;
    expect(parked).not.toBeNull();
    expect(parked.x).toBeGreaterThan(driving!.x); // the parked one is the eastern one
  });

  test("a new position glides there over seconds instead of jumping", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    const [a] = await orderVehicles(request, fleet, 1);
    await report(request, a!.id, { lat: 40, lon: -100, speed: 20, ignition: true, timestamp: Date.now() - 5000 });
    await openMap(page, fleet.token, `/map?vehicleId=${a!.vehicleId}`);
    await expect.poll(() => selectedPosition(page)).toBe("40.000000,-100.000000");

    await report(request, a!.id, { lat: 40.01, lon: -99.99, speed: 20, ignition: true });
    const seen: string[] = [];
    await expect
      .poll(
        async () => {
          seen.push((await selectedPosition(page))!);
          return seen.at(-1);
        },
        { intervals: [200], timeout: 20_000 },
      )
      .toBe("40.010000,-99.990000");
    const between = seen.filter((p) => {
      const [lat, lng] = p.split(",").map(Number);
      return lat! > 40 && lat! < 40.01 && lng! > -100 && lng! < -99.99;
    });
    // Sampled every 200 ms over the 8 s glide: many intermediate positions, none off the straight path.
    expect(between.length).toBeGreaterThan(5);
    for (const p of between) {
      const [lat, lng] = p.split(",").map(Number);
      expect(Math.abs(lat! - 40 - (lng! + 100))).toBeLessThan(1e-5);
    }
    // Once arrived it is drawn exactly once, where it arrived (at zoom 14 the old place is
    // ~150 px away, so a ghost there would widen what is drawn in this colour).
    const drawn = await findColour(page, DRIVING);
    expect(drawn).not.toBeNull();
    expect(Math.abs(drawn!.width - 31)).toBeLessThanOrEqual(2);
    expect(Math.abs(drawn!.height - 31)).toBeLessThanOrEqual(2);
  });

  test("fits the view when vehicles are out of view, capped at zoom 14 for one and 13 for up to three", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const [a, b, c, d] = await orderVehicles(request, fleet, 4);
    await openMap(page, fleet.token);
    const map = page.getByTestId("fleet-map");

    // One vehicle far from the initial view (New York): the map flies to it, no closer than zoom 14.
    await report(request, a!.id, { lat: 40.7128, lon: -74.006, ignition: false });
    await expect.poll(async () => (await mapView(page)).zoom).toBe(14);
    expect((await mapView(page)).lat).toBeCloseTo(40.7128, 2);

    // Two more a few hundred metres away, now out of view at zoom 14: fit all three, capped at 13.
    await report(request, b!.id, { lat: 40.7228, lon: -74.006, ignition: false });
    await report(request, c!.id, { lat: 40.7128, lon: -74.016, ignition: false });
    await expect(map).toHaveAttribute("data-vehicle-count", "3");
    await expect.poll(async () => (await mapView(page)).zoom).toBe(13);
    const fits = Number(await map.getAttribute("data-fits"));

    // A move that stays well inside the view does not move the map.
    const updates = Number(await map.getAttribute("data-updates"));
    await report(request, b!.id, { lat: 40.7178, lon: -74.011, ignition: false });
    await expect.poll(async () => Number(await map.getAttribute("data-updates"))).toBeGreaterThan(updates);
    expect(Number(await map.getAttribute("data-fits"))).toBe(fits);

    // With a vehicle selected only that one counts: it reports across the country, the map follows it alone.
    await page.getByRole("button", { name: new RegExp(`^${d!.vehicleName}`) }).click();
    await expect(page).toHaveURL(new RegExp(`vehicleId=${d!.vehicleId}`));
    await report(request, d!.id, { lat: 34.05, lon: -118.24, ignition: false });
    await expect.poll(async () => (await mapView(page)).lng).toBeCloseTo(-118.24, 1);
    expect((await mapView(page)).zoom).toBe(14);

    // Back to the list: New York is out of view now, so all four are fitted, far out and uncapped.
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("button", { name: "Vehicles" }).click();
    await expect.poll(async () => (await mapView(page)).zoom).toBeLessThan(6);
  });

  test("stays mounted, hidden, on other pages and is the same map on return", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    const [a] = await orderVehicles(request, fleet, 1);
    await report(request, a!.id, { lat: 40, lon: -100, ignition: false });
    await openMap(page, fleet.token);
    const canvas = page.locator(".fleet-map canvas");
    await canvas.evaluate((el) => ((el as unknown as { marked: boolean }).marked = true));

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Vehicles" }).click();
    await expect(page).toHaveURL(/\/vehicles$/);
    await expect(page.getByTestId("fleet-map")).toBeHidden();
    await expect(page.getByTestId("fleet-map")).toHaveCount(1);

    // Meanwhile the vehicle drives out of view (the hidden map cannot fit at size 0).
    const updates = Number(await page.getByTestId("fleet-map").getAttribute("data-updates"));
    await report(request, a!.id, { lat: 40.7128, lon: -74.006, ignition: false });
    await expect
      .poll(async () => Number(await page.getByTestId("fleet-map").getAttribute("data-updates")))
      .toBeGreaterThan(updates);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Map" }).click();
    await expect(page.getByTestId("fleet-map")).toBeVisible();
    expect(await canvas.evaluate((el) => (el as unknown as { marked?: boolean }).marked)).toBe(true);
    await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-vehicle-count", "1");
    // Shown again, it fits the vehicle where it now is.
    await expect.poll(async () => (await mapView(page)).zoom).toBe(14);
    expect((await mapView(page)).lng).toBeCloseTo(-74.006, 1);
  });

  // Issue 56: leaving /map before mapbox-gl had loaded left its canvas and the sketch over the next page.
  for (const stage of ["sketch", "loading", "ready"] as const) {
    test(`left while ${stage}, it is hidden on the next page from its first frame, and the same map on return`, async ({
      page,
      request,
    }) => {
      const fleet = await newFleetAccount(request);
      const [a] = await orderVehicles(request, fleet, 1);
      await report(request, a!.id, { lat: 40, lon: -100, ignition: false });
      // The sketch: mapbox-gl held back. Loading: mapbox-gl here, but not its worker, so the map exists and never loads.
      const held = { sketch: /\/assets\/mapbox-gl-[^/]*\.js$/, loading: /\/assets\/mapbox-gl-worker-[^/]*\.js$/ };
      const release = stage === "ready" ? () => {} : await holdBack(page, held[stage]);
      await page.addInitScript(() => ((window as unknown as { __fleetOpsDebug: string[] }).__fleetOpsDebug = ["map"]));
      await signInAs(page, fleet.token);
      await page.goto("/map");
      const sketch = page.getByTestId("map-sketch");
      const map = page.getByTestId("fleet-map");
      if (stage === "sketch") await expect(sketch).toHaveAttribute("data-vehicles-shown", "true");
      if (stage === "loading") {
        await expect(map.locator("canvas")).toHaveCount(1);
        await expect(sketch).toHaveAttribute("data-vehicles-shown", "true");
      }
      if (stage === "ready") await expect(map).toHaveAttribute("data-map-ready", "true");
      if (stage !== "ready") await expect(map).not.toHaveAttribute("data-map-ready", "true");
      await page
        .locator(".map-host canvas")
        .evaluateAll((els) => els.forEach((el) => ((el as unknown as { marked: boolean }).marked = true)));

      await watchMapOffItsPage(page);
      // A phone's CPU: the next page is rendered in slices between which the browser draws frames.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Vehicles" }).click();
      await expect(page.getByRole("heading", { name: "Vehicles", level: 1 })).toBeVisible();
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
      await expect.poll(() => mapOffItsPage(page).then((w) => w.frames)).toBeGreaterThan(10);
      release();
      // Finishing its start while hidden shows nothing either.
      if (stage !== "ready") await expect(map).toHaveAttribute("data-map-ready", "true");
      const frames = (await mapOffItsPage(page)).frames;
      await expect.poll(() => mapOffItsPage(page).then((w) => w.frames)).toBeGreaterThan(frames + 10);
      expect((await mapOffItsPage(page)).shown).toEqual([]);

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Map" }).click();
      await expect(map).toBeVisible();
      await expect(sketch).toHaveCount(0);
      await expect(map).toHaveAttribute("data-vehicle-count", "1");
      // Kept mounted: the canvases drawn before leaving are the ones shown (the map's, once ready).
      expect(await map.locator("canvas").evaluate((el) => (el as unknown as { marked?: boolean }).marked)).toBe(
        stage === "sketch" ? undefined : true,
      );
      expect(await findColour(page, PARKED)).not.toBeNull();
    });
  }

  test("crowded beacons at low zoom become one disc with their count; clicking it zooms in; the selected one stays apart", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const beacons = await orderVehicles(request, fleet, 6);
    // Six vehicles a few hundred metres apart from the centre of one 60 px cell at zoom 7, so inside
    // one cell at zoom 5 (the initial view) and at zoom 7 too (cells nest). A zoom-5 cell's centre
    // is a corner at zoom 7, where the synced 6-decimal coordinates (docs/decisions/0013) can put
    // the first vehicle in the neighbouring cell.
    const cell = 60 / worldSize(7);
    const x = (Math.floor(mercatorX(-100) / cell) + 0.5) * cell;
    const y = (Math.floor(mercatorY(40) / cell) + 0.5) * cell;
    for (const [i, b] of beacons.entries()) {
      await report(request, b.id, { lat: latOf(y) + i * 0.003, lon: lngOf(x) + i * 0.003, speed: 20, ignition: true });
    }
    await openMap(page, fleet.token);
    await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-vehicle-count", "6");
    await expect.poll(async () => (await clusters(page)).map((c) => c.count)).toEqual([6]);
    // Drawn as the cluster's disc, and none of its members as a driving beacon.
    await expect.poll(() => findColour(page, CLUSTER)).not.toBeNull();
    expect(await findColour(page, DRIVING)).toBeNull();
    const [cluster] = await clusters(page);
    const disc = (await findColour(page, CLUSTER))!;
    const box = (await page.getByTestId("fleet-map").boundingBox())!;
    expect(Math.abs(disc.x - box.x - cluster!.x)).toBeLessThanOrEqual(3);
    expect(Math.abs(disc.y - box.y - cluster!.y)).toBeLessThanOrEqual(3);
    // A wider disc than a single beacon's (35 px across at zoom 5, with a 2 px rim): 35 + 6 × log10(6).
    expect(disc.width).toBeGreaterThan(33);

    await page.mouse.click(box.x + cluster!.x, box.y + cluster!.y);
    await expect.poll(async () => (await mapView(page)).zoom).toBe(7);

    // A selected vehicle is always drawn on its own: the others are five now.
    await page.getByRole("button", { name: new RegExp(`^${beacons[2]!.vehicleName}`) }).click();
    await expect(page).toHaveURL(new RegExp(`vehicleId=${beacons[2]!.vehicleId}`));
    await expect.poll(async () => (await clusters(page)).map((c) => c.count)).toEqual([5]);
  });

  test("clicking a beacon among others selects that vehicle", async ({ page, request }) => {
    const [, b] = await drivingAndParkedOnMap(page, request);
    const box = (await page.getByTestId("fleet-map").boundingBox())!;
    const at = await page.evaluate(
      (id) => (window as unknown as { __fleetMap: FleetMapHooks }).__fleetMap.beaconAt(id),
      b!.vehicleId,
    );
    // The parked beacon is drawn where the map says, and a click there picks it, not its neighbour.
    const parked = (await findColour(page, PARKED))!;
    expect(Math.abs(parked.x - box.x - at!.x)).toBeLessThanOrEqual(2);
    await page.mouse.click(parked.x + 8, parked.y - 8);
    await expect(page).toHaveURL(new RegExp(`vehicleId=${b!.vehicleId}`));
  });

  test("beacons are rebuilt from the CPU copy when the layer's WebGL objects are lost", async ({ page, request }) => {
    // Headless Chromium never restores a context lost through WEBGL_lose_context, so this drops
    // the layer's GL objects the way its webglcontextlost handler does; the next frame must
    // rebuild program and buffers and upload every slot again.
    const fleet = await newFleetAccount(request);
    const [a] = await orderVehicles(request, fleet, 1);
    await report(request, a!.id, { lat: 40, lon: -100, speed: 20, ignition: true });
    await openMap(page, fleet.token);
    await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();
    await page.evaluate(() => (window as unknown as { __fleetMap: { dropGl(): void } }).__fleetMap.dropGl());
    await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();
    expect(Math.abs((await findColour(page, DRIVING))!.width - 31)).toBeLessThanOrEqual(2);
    // And later reports update the rebuilt buffer in place.
    await report(request, a!.id, { lat: 40, lon: -100, ignition: false });
    await expect.poll(() => findColour(page, PARKED)).not.toBeNull();
    expect(await findColour(page, DRIVING)).toBeNull();
  });
});
