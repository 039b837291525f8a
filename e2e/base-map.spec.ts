import { request as playwrightRequest, type Page } from "@playwright/test";
import { tokenPort } from "../playwright.config";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { fakeOpenFreeMap, TILE_COLOUR } from "./openfreemap-fake";
import { findColour, orderVehicles, report } from "./ui-helpers";

// app/map/offline-geography.ts: water and land of the offline geography; the driving beacon.
const WATER: [number, number, number] = [0xaa, 0xd3, 0xdf];
const LAND: [number, number, number] = [0xf2, 0xef, 0xe9];
const DRIVING: [number, number, number] = [0x16, 0xa3, 0x4a];
// app/map/places-layer.tsx: a place's outline.
const PLACE_OUTLINE: [number, number, number] = [0x0d, 0x94, 0x88];

/** The geography is a fingerprinted static asset, fetched by the map page only. */
const GEOGRAPHY_ASSET = /\/assets\/offline-geography-[A-Za-z0-9_-]{6,}\.json$/;

async function openMap(page: Page, token: string, url: string) {
  // The map's test hooks (data-base-map, data-route-points, the replay bar's data-position…) are behind its debug flag.
  await page.addInitScript(() => ((window as unknown as { __fleetOpsDebug: string[] }).__fleetOpsDebug = ["map"]));
  await signInAs(page, token);
  const geography = page.waitForResponse((r) => GEOGRAPHY_ASSET.test(new URL(r.url()).pathname));
  await page.goto(url);
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");
  expect((await geography).status()).toBe(200);
}

/** /map on OpenFreeMap's (faked) street style: signed in, its tiles on screen. */
async function openStreetMap(page: Page, token: string) {
  await page.addInitScript(() => ((window as unknown as { __fleetOpsDebug: string[] }).__fleetOpsDebug = ["map"]));
  await signInAs(page, token);
  await page.goto("/map");
  const map = page.getByTestId("fleet-map");
  await expect(map).toHaveAttribute("data-map-ready", "true");
  await expect.poll(() => findColour(page, TILE_COLOUR, 6)).not.toBeNull();
  await expect(map).toHaveAttribute("data-base-map", "openfreemap");
  return map;
}

/** The offline style's label glyphs, static files of the app (scripts/map-glyphs.mjs). */
const OFFLINE_GLYPHS = /\/glyphs\/Noto%20Sans%20Regular\/0-255\.pbf$/;

test("without a Mapbox token and OpenFreeMap out of reach, the map shows its own geography, labelled with its own glyphs", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const assets: string[] = [];
  page.on("request", (r) => {
    if (GEOGRAPHY_ASSET.test(new URL(r.url()).pathname)) assets.push(r.url());
  });
  // Another page of the app does not load it.
  await signInAs(page, fleet.token);
  await page.goto("/people");
  await expect(page.getByRole("heading", { name: "People" })).toBeVisible();
  expect(assets).toEqual([]);

  // The fixture blocks OpenFreeMap's host, as a firewall or no network would.
  const glyphs = page.waitForResponse((r) => OFFLINE_GLYPHS.test(r.url()));
  await openMap(page, fleet.token, "/map");
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-base-map", "fallback");
  await expect(page.getByRole("status").filter({ hasText: "Street map unavailable" })).toBeVisible();
  // The initial view (the contiguous US) has land, and water (the Atlantic, the Great Lakes).
  await expect.poll(() => findColour(page, LAND, 4)).not.toBeNull();
  await expect.poll(() => findColour(page, WATER, 4)).not.toBeNull();
  // City names are laid out with the app's own glyphs, and the data's sources are named.
  expect((await glyphs).status()).toBe(200);
  await expect(page.getByTestId("base-map-attribution")).toContainText("GeoNames");
});

// Issue 56: at city zoom the offline geography's coarse coast put Chicago in Lake Michigan.
test("at city zoom the offline geography draws land only: a lakefront vehicle is never shown in the water", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const [a] = await orderVehicles(request, fleet, 1);
  // Cleveland's lakefront, out of the initial view: the map flies there, to zoom 14.
  await report(request, a!.id, { lat: 41.5055, lon: -81.6997, speed: 0, ignition: false });
  await openMap(page, fleet.token, "/map");
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-base-map", "fallback");
  await expect.poll(async () => Number(await page.getByTestId("fleet-map").getAttribute("data-zoom"))).toBe(14);
  await expect.poll(() => findColour(page, LAND, 4)).not.toBeNull();
  // Lake Erie fills half this view; its outline, off by up to a kilometre, is not drawn here at all.
  expect(await findColour(page, WATER, 4)).toBeNull();
});

// Issue 56: mapbox-gl's telemetry and session requests went out with the placeholder token (56 in one tour).
test("without a Mapbox token the map asks nothing of Mapbox: no telemetry, no map sessions", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const [a] = await orderVehicles(request, fleet, 1);
  await report(request, a!.id, { lat: 41.88, lon: -87.62, speed: 20, ignition: true });
  const mapbox: string[] = [];
  page.on("request", (r) => {
    if (/^https:\/\/([a-z0-9-]+\.)*mapbox\.(com|cn)\//.test(r.url())) mapbox.push(r.url());
  });
  await openMap(page, fleet.token, "/map");
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-base-map", "fallback");
  await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();
  expect(mapbox).toEqual([]);
});

test.describe("without a Mapbox token, online", () => {
  test("the map uses OpenFreeMap's street style when it answers, with its attribution, and the places on it", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    await request.post("/api/places", {
      headers: { Authorization: `Bearer ${fleet.token}` },
      data: { name: "Depot", geometry: { type: "Circle", center: [-100, 40], radius: 60_000 } },
    });
    const requests = await fakeOpenFreeMap(page);
    const geography: string[] = [];
    page.on("request", (r) => {
      if (GEOGRAPHY_ASSET.test(new URL(r.url()).pathname)) geography.push(r.url());
    });
    await openStreetMap(page, fleet.token);
    await expect(page.getByTestId("base-map-attribution")).toContainText("© OpenStreetMap contributors");
    await expect(page.getByText("Street map unavailable")).toHaveCount(0);
    // The place is drawn over the street tiles (its outline), its name with OpenFreeMap's glyphs.
    await expect.poll(() => findColour(page, PLACE_OUTLINE, 20)).not.toBeNull();
    await expect.poll(() => requests.some((r) => r.startsWith("/fonts/Noto%20Sans%20Regular/"))).toBe(true);
    expect(requests).toEqual(expect.arrayContaining(["/styles/liberty", "/planet"]));
    // The offline geography is not needed.
    expect(geography).toEqual([]);
  });

  test("when the street tiles fail, the map switches to the offline geography without a reload, keeping vehicles and places", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const [beacon] = await orderVehicles(request, fleet, 1);
    await report(request, beacon!.id, { lat: 40, lon: -100, speed: 20, ignition: true });
    await request.post("/api/places", {
      headers: { Authorization: `Bearer ${fleet.token}` },
      // West of the vehicle, both in the initial view (zoom 5), which the map keeps (the vehicle is in view).
      data: { name: "Depot", geometry: { type: "Circle", center: [-101.5, 40], radius: 60_000 } },
    });
    await fakeOpenFreeMap(page, { tiles: false });
    // Counts the documents this tab loads (the Navigation Timing entries cannot: a run at a chosen
    // hour installs Playwright's clock, whose fake `performance` lists no entries).
    await page.addInitScript(() => {
      sessionStorage.setItem("documents-loaded", String(Number(sessionStorage.getItem("documents-loaded") ?? 0) + 1));
    });
    await openMap(page, fleet.token, "/map");
    const map = page.getByTestId("fleet-map");
    await expect(map).toHaveAttribute("data-base-map", "fallback");
    await expect(page.getByRole("status").filter({ hasText: "Street map unavailable" })).toBeVisible();
    await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();
    await expect.poll(() => findColour(page, PLACE_OUTLINE, 20)).not.toBeNull();
    // The geography is parsed once the map is first idle (after the vehicle's 8 s glide): on a busy
    // 2-core machine that can take a while.
    await expect.poll(() => findColour(page, LAND, 4), { timeout: 30_000 }).not.toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem("documents-loaded"))).toBe("1");
  });

  test("going offline switches to the offline geography and coming back online returns to the street style, layers kept", async ({
    page,
    request,
    context,
  }) => {
    const fleet = await newFleetAccount(request);
    const [beacon] = await orderVehicles(request, fleet, 1);
    await report(request, beacon!.id, { lat: 40, lon: -100, speed: 20, ignition: true });
    await fakeOpenFreeMap(page);
    const map = await openStreetMap(page, fleet.token);
    const generation = Number(await map.getAttribute("data-style-generation"));

    await context.setOffline(true);
    await expect(map).toHaveAttribute("data-base-map", "fallback");
    await expect(map).not.toHaveAttribute("data-style-generation", String(generation));
    await expect.poll(() => findColour(page, TILE_COLOUR, 6)).toBeNull();
    await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();

    await context.setOffline(false);
    await expect(map).toHaveAttribute("data-base-map", "openfreemap");
    await expect.poll(() => findColour(page, TILE_COLOUR, 6)).not.toBeNull();
    await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();
  });
});

test.describe("with a Mapbox token but Mapbox unreachable", () => {
  const baseURL = `http://127.0.0.1:${tokenPort}`;

  async function fleetWithDrivingVehicle() {
    const request = await playwrightRequest.newContext({ baseURL });
    const fleet = await newFleetAccount(request);
    const [beacon] = await orderVehicles(request, fleet, 1);
    await report(request, beacon!.id, { lat: 43.65, lon: -79.38, speed: 20, ignition: true });
    await request.dispose();
    return fleet;
  }

  test("the map falls back to the offline geography, keeps every vehicle and says so", async ({ page }) => {
    const fleet = await fleetWithDrivingVehicle();
    await openMap(page, fleet.token, `${baseURL}/map`);
    const map = page.getByTestId("fleet-map");
    await expect(map).toHaveAttribute("data-base-map", "fallback");
    await expect(page.getByRole("status").filter({ hasText: "Street map unavailable" })).toBeVisible();
    await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();
    await expect.poll(() => findColour(page, LAND, 4)).not.toBeNull();
  });

  test("a street style that never answers gives way to the offline geography after a few seconds", async ({ page }) => {
    const fleet = await fleetWithDrivingVehicle();
    // Mapbox's hosts accept the connection and never answer (registered after the fixture's abort, so it wins).
    await page.route(/^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//, () => {});
    await openMap(page, fleet.token, `${baseURL}/map`);
    await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-base-map", "fallback", { timeout: 15_000 });
    await expect(page.getByText("Street map unavailable")).toBeVisible();
    await expect.poll(() => findColour(page, DRIVING)).not.toBeNull();
  });
});
