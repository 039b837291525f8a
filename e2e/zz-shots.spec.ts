import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles, report } from "./ui-helpers";

for (const width of [1440, 390]) {
  test(`sketch at ${width}`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    const fleet = await newFleetAccount(request);
    const beacons = await orderVehicles(request, fleet, 6);
    const spots = [[40.71, -74.0], [41.88, -87.63], [39.74, -104.99], [33.45, -112.07], [47.6, -122.3], [25.76, -80.19]];
    for (const [i, b] of beacons.entries()) await report(request, b.id, { lat: spots[i]![0]!, lon: spots[i]![1]!, ignition: i % 2 === 0, speed: i % 2 ? 0 : 30 });
    let release = () => {};
    const released = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/mapbox-gl-[^/]*\.js$/, async (route) => { await released; await route.continue(); });
    await signInAs(page, fleet.token);
    await page.goto("/map");
    await expect(page.getByTestId("map-sketch")).toHaveAttribute("data-vehicles-shown", "true");
    await page.waitForTimeout(1000);
    await page.screenshot({ path: `/tmp/shots/sketch-${width}.png` });
    release();
    await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/shots/map-${width}.png` });
  });
}
