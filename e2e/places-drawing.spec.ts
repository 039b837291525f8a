import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { fakeOpenFreeMap, TILE_COLOUR } from "./openfreemap-fake";
import { findColour } from "./ui-helpers";

// app/map/places-layer.tsx: a place's outline.
const PLACE_OUTLINE: [number, number, number] = [0x0d, 0x94, 0x88];
// app/map/offline-geography.ts: land.
const LAND: [number, number, number] = [0xf2, 0xef, 0xe9];

/** The /locations map's canvas, once the map is ready, and its centre in page pixels. */
async function locationsMap(page: Page) {
  const map = page.locator(".locations-map").getByTestId("fleet-map");
  await expect(map).toHaveAttribute("data-map-ready", "true");
  const box = (await map.locator("canvas.mapboxgl-canvas").boundingBox())!;
  return { cx: box.x + box.width / 2, cy: box.y + box.height / 2 };
}

async function click(page: Page, x: number, y: number) {
  await page.mouse.move(x, y);
  await page.mouse.click(x, y);
}

type ListedPlace = { name: string; geometry: { type: string; radius?: number; coordinates?: number[][][] } };

/**
 * Drawing places on /locations with real mouse events on the map's canvas (issue 21): a circle by
 * press-and-drag, polygons closed on their first corner and by a double-click; a polygon whose
 * edges cross is refused with the reason and drawing starts again; Escape cancels. What is drawn is
 * listed, reaches the server (REST sees it) and is drawn on /map, on the offline geography and on
 * the street style.
 */
test("circles and polygons drawn on the map are listed, synced and shown on /map", async ({ page, request }) => {
  const fleet = await newFleetAccount(request);
  await signInAs(page, fleet.token);
  await page.goto("/locations");
  const { cx, cy } = await locationsMap(page);
  const names = page.getByRole("list", { name: "Places" }).getByLabel("Place name");
  const hint = page.getByText("Escape cancels.");

  // A circle: press its centre, drag to its edge (30 px at zoom 5 is about 56 km), release.
  await page.getByRole("button", { name: "Draw circle" }).click();
  await expect(hint).toBeVisible();
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx + 30, cy, { steps: 6 });
  await page.mouse.up();
  await expect(names).toHaveCount(1);
  await expect(names.first()).toHaveValue("Place 1");
  await expect(hint).toBeHidden();
  await names.first().fill("Yard");
  await names.first().press("Enter");

  // A polygon closed by clicking its first corner again.
  await page.getByRole("button", { name: "Draw polygon" }).click();
  for (const [dx, dy] of [
    [-160, -110],
    [-80, -110],
    [-80, -40],
    [-160, -40],
    [-160, -110],
  ] as const)
    await click(page, cx + dx, cy + dy);
  await expect(names).toHaveCount(2);
  await expect(page.getByText("4 corners")).toBeVisible();

  // A polygon closed by a double-click on its last corner.
  await page.getByRole("button", { name: "Draw polygon" }).click();
  for (const [dx, dy] of [
    [60, 40],
    [150, 40],
    [150, 110],
  ] as const)
    await click(page, cx + dx, cy + dy);
  await page.mouse.dblclick(cx + 60, cy + 110);
  await expect(names).toHaveCount(3);
  await expect(page.getByText("4 corners")).toHaveCount(2);

  // A bow tie (its edges cross) is refused with the reason; drawing goes on until Escape.
  await page.getByRole("button", { name: "Draw polygon" }).click();
  for (const [dx, dy] of [
    [-150, 60],
    [-70, 140],
    [-70, 60],
    [-150, 140],
    [-150, 60],
  ] as const)
    await click(page, cx + dx, cy + dy);
  await expect(page.getByRole("alert")).toHaveText("The polygon's edges cross each other: draw it again.");
  await expect(hint).toBeVisible();
  await expect(names).toHaveCount(3);
  // Escape cancels a drawing half done.
  await click(page, cx - 150, cy + 60);
  await click(page, cx - 70, cy + 60);
  await page.keyboard.press("Escape");
  await expect(hint).toBeHidden();
  await expect(page.getByRole("alert")).toBeHidden();
  await expect(page.getByRole("button", { name: "Draw polygon" })).toHaveAttribute("aria-pressed", "false");
  await expect(names).toHaveCount(3);

  // Synced: the REST API sees the three places as drawn.
  const auth = { Authorization: `Bearer ${fleet.token}` };
  let places: ListedPlace[] = [];
  await expect
    .poll(async () => {
      places = ((await (await request.get("/api/places", { headers: auth })).json()) as { places: ListedPlace[] })
        .places;
      return places.map((p) => `${p.name}:${p.geometry.type}`).sort();
    })
    .toEqual(["Place 2:Polygon", "Place 3:Polygon", "Yard:Circle"]);
  const circle = places.find((p) => p.name === "Yard")!.geometry;
  expect(circle.radius).toBeGreaterThan(40_000);
  expect(circle.radius).toBeLessThan(75_000);
  expect(places.filter((p) => p.geometry.type === "Polygon").map((p) => p.geometry.coordinates![0]!.length)).toEqual([
    4, 4,
  ]);

  // Shown on /map as their own layer: on the offline geography (OpenFreeMap is blocked here)…
  await page.getByRole("link", { name: "Map", exact: true }).click();
  // /locations' map carries the same test id: only look once the route is /map and its map is up.
  await expect(page).toHaveURL(/\/map$/);
  const map = page.getByTestId("fleet-map");
  await expect(map).toHaveAttribute("data-map-ready", "true");
  // (A second map starting on a 2-core machine: each look is a full screenshot, so give it time.)
  await expect.poll(() => findColour(page, PLACE_OUTLINE, 30), { timeout: 30_000 }).not.toBeNull();
  // This second map of the page's life draws its geography too (mapbox-gl's workers are kept between maps).
  await expect.poll(() => findColour(page, LAND, 4)).not.toBeNull();

  // …and on the street style, once it answers.
  await fakeOpenFreeMap(page);
  await page.reload();
  await expect(map).toHaveAttribute("data-map-ready", "true");
  await expect(map).toBeVisible();
  await expect.poll(() => findColour(page, TILE_COLOUR, 6), { timeout: 30_000 }).not.toBeNull();
  await expect.poll(() => findColour(page, PLACE_OUTLINE, 30)).not.toBeNull();
});
