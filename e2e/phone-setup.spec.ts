import jsQR from "jsqr";
import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { DESKTOP, horizontalOverflow, PHONE } from "./phone-helpers";
import { colleague } from "./team-helpers";
import { orderVehicles } from "./ui-helpers";

/**
 * Connect a phone (issue 44): the beacon's QR codes, read back as a phone's camera would, carry
 * exactly what GET /api/beacons/:vehicleId/setup answers; the page then says which app reported.
 */

/** The text a drawn QR code holds: its SVG's dark modules, rasterised and decoded by jsQR. */
async function decodeQr(code: Locator): Promise<string | null> {
  const { d, modules } = await code.evaluate((svg) => ({
    d: svg.querySelector("path")?.getAttribute("d") ?? "",
    modules: Number(svg.getAttribute("viewBox")!.split(" ")[2]),
  }));
  const scale = 4;
  const side = modules * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y] of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++)
      for (let dx = 0; dx < scale; dx++) {
        const at = ((Number(y) * scale + dy) * side + Number(x) * scale + dx) * 4;
        pixels.fill(0, at, at + 3);
      }
  }
  return jsQR(pixels, side, side)?.data ?? null;
}

test.describe("connect a phone", () => {
  test("the beacon's QR codes configure Traccar Client, OwnTracks and Overland; the page names the app that reported", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const [beacon] = await orderVehicles(request, fleet, 1);
    const setupRes = await request.get(`/api/beacons/${beacon!.vehicleId}/setup`, {
      headers: { Authorization: `Bearer ${fleet.token}` },
    });
    expect(setupRes.status()).toBe(200);
    const setup = (await setupRes.json()) as {
      traccarClient: string;
      ownTracks: string;
      overland: { url: string; deviceId: string };
    };

    await page.setViewportSize(DESKTOP);
    await signInAs(page, fleet.token);
    // The vehicle's page, before any report, points to the setup.
    await page.goto(`/vehicles/${beacon!.vehicleId}/overview`);
    await page.getByTestId("connect-phone-link").click();
    const card = page.getByRole("region", { name: "Beacon" });
    await expect(card.getByTestId("beacon-last-app")).toHaveText("None yet");
    const codes = card.getByRole("region", { name: "Connect a phone" });
    const traccar = codes.getByRole("img", { name: /^Traccar Client/ });
    const ownTracks = codes.getByRole("img", { name: /^OwnTracks/ });
    const overland = codes.getByRole("img", { name: /^Overland/ });
    await expect(overland.locator("path")).toHaveCount(1);
    expect(await decodeQr(traccar)).toBe(setup.traccarClient);
    expect(await decodeQr(ownTracks)).toBe(setup.ownTracks);
    const overlandLink = new URL((await decodeQr(overland))!);
    expect(overlandLink.protocol).toBe("overland:");
    expect(overlandLink.searchParams.get("url")).toBe(setup.overland.url);
    expect(overlandLink.searchParams.get("device_id")).toBe(beacon!.id);
    await expect(codes.getByRole("textbox", { name: "Receiver endpoint" })).toHaveValue(setup.overland.url);
    await expect(codes.getByRole("textbox", { name: "Device ID" })).toHaveValue(beacon!.id);

    if (process.env.UPDATE_SCREENSHOTS) await codes.screenshot({ path: "docs/connect-a-phone.png" });

    // The phone reports through Overland, as configured: the page says so.
    const now = Date.now();
    const res = await request.post(new URL(setup.overland.url).pathname, {
      headers: { Authorization: `Bearer ${setup.overland.deviceId}` },
      data: {
        locations: [
          {
            type: "Feature",
            geometry: { type: "Point", coordinates: [-87.63, 41.88] },
            properties: { timestamp: new Date(now - 5_000).toISOString(), speed: 0, device_id: "" },
          },
        ],
      },
    });
    expect(await res.json()).toEqual({ result: "ok" });
    await expect(card.getByTestId("beacon-last-app")).toHaveText("Overland");
    await expect(card.getByTestId("beacon-last-report")).toContainText("Just now");
  });

  test("fits a phone's screen at 390 px", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    const [beacon] = await orderVehicles(request, fleet, 1);
    await page.setViewportSize(PHONE);
    await signInAs(page, fleet.token);
    await page.goto(`/vehicles/${beacon!.vehicleId}/settings`);
    const codes = page.getByRole("region", { name: "Connect a phone" });
    await expect(codes.getByRole("img", { name: /^OwnTracks/ }).locator("path")).toHaveCount(1);
    await codes.scrollIntoViewIfNeeded();
    if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: "test-results/connect-a-phone-390.png" });
    expect(await horizontalOverflow(page)).toEqual([]);
    for (const code of await codes.getByRole("img").all()) {
      const box = (await code.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(150);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
  });

  test("a viewer gets neither the codes nor the device id", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    const [beacon] = await orderVehicles(request, fleet, 1);
    const viewer = await colleague(request, fleet, "viewer");
    await signInAs(page, viewer.token);
    await page.goto(`/vehicles/${beacon!.vehicleId}/settings`);
    const card = page.getByRole("region", { name: "Beacon" });
    await expect(card).toContainText("Only members who edit the fleet see the device id.");
    await expect(page.getByRole("region", { name: "Connect a phone" })).toHaveCount(0);
    expect(await page.content()).not.toContain(beacon!.id);
  });
});
