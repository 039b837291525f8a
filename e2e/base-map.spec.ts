import { request as playwrightRequest, type Page } from "@playwright/test";
import { tokenPort } from "../playwright.config";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { findColour, orderVehicles, report } from "./ui-helpers";

// app/map/offline-geography.ts: water and land of the offline geography; the driving beacon.
const WATER: [number, number, number] = [0xaa, 0xd3, 0xdf];
const LAND: [number, number, number] = [0xf2, 0xef, 0xe9];
const DRIVING: [number, number, number] = [0x16, 0xa3, 0x4a];

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

test("without a Mapbox token the map shows land and water from its own geography asset", async ({ page, request }) => {
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

  await openMap(page, fleet.token, "/map");
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-base-map", "offline");
  // The initial view (the contiguous US) has land, and water (the Atlantic, the Great Lakes).
  await expect.poll(() => findColour(page, LAND, 4)).not.toBeNull();
  await expect.poll(() => findColour(page, WATER, 4)).not.toBeNull();
  await expect(page.getByText("Street map unavailable")).toHaveCount(0);
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
