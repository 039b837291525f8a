import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles, report } from "./ui-helpers";

const YEAR = 365 * 24 * 3_600_000;

test.describe("a tracker's beacon on the vehicle page", () => {
  test("shows reports, a device clock ten years ahead, why reports were rejected and those without a position; regenerating the id asks first and shows the new one", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const [beacon] = await orderVehicles(request, fleet, 1);
    const now = Date.now();
    // A phone: no odometer of its own. 2.2 km north in 90 s.
    await report(request, beacon!.id, { lat: 41.88, lon: -87.63, timestamp: now - 120_000 });
    await report(request, beacon!.id, { lat: 41.9, lon: -87.63, timestamp: now - 30_000 });
    // A tracker with its clock ten years ahead: acknowledged, not used.
    await report(request, beacon!.id, { lat: 10, lon: 10, timestamp: now + 10 * YEAR });
    // A tracker with no GPS fix: only the cells and Wi-Fi it sees (issue 56). Counted, not stored.
    const cells = await request.get(
      `/api/ingest/osmand?id=${beacon!.id}&cell=257,02,16,2224&wifi=00-14-22-01-23-45,-80`,
    );
    expect(await cells.json()).toEqual({ ok: true, outcomes: ["no_position"] });

    await signInAs(page, fleet.token);
    // The Overview shows the GPS odometer in miles like any odometer (2.2 km: 1 mi).
    await page.goto(`/vehicles/${beacon!.vehicleId}/overview`);
    await expect(page.getByTestId("odometer")).toHaveText("1 mi");
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    const card = page.getByRole("region", { name: "Beacon" });
    await expect(card.getByTestId("beacon-reports-today")).toHaveText("2");
    await expect(card.getByTestId("beacon-last-report")).toContainText("Just now");
    await expect(card.getByTestId("beacon-clock")).toContainText(/^36\d\dd \d+h ahead, seen Just now/);
    await expect(card.getByTestId("beacon-rejected")).toContainText("1 device clock ahead of the server");
    await expect(card.getByTestId("beacon-no-position")).toHaveText(
      /^1 \(no GPS fix: cells or Wi-Fi only\); last Just now/,
    );
    await card
      .locator("dl.facts")
      .first()
      .screenshot({ path: test.info().outputPath("beacon-health-1440.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await card
      .locator("dl.facts")
      .first()
      .screenshot({ path: test.info().outputPath("beacon-health-390.png") });
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(card.getByTestId("beacon-device-id")).toHaveText(beacon!.id);

    // Regenerating asks first; cancelling changes nothing.
    await card.getByRole("button", { name: "Regenerate device id" }).click();
    const confirm = card.getByRole("group", { name: /^Regenerate the device id\?/ });
    await expect(confirm).toContainText("Regenerate the device id?");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(card.getByTestId("beacon-device-id")).toHaveText(beacon!.id);

    await card.getByRole("button", { name: "Regenerate device id" }).click();
    await card
      .getByRole("group", { name: /^Regenerate the device id\?/ })
      .getByRole("button", { name: "Regenerate", exact: true })
      .click();
    await expect(card.getByRole("status")).toContainText("Enter it in the tracker's settings");
    const newId = (await card.getByTestId("beacon-device-id").textContent())!;
    expect(newId).toMatch(/^[\w-]{32}$/);
    expect(newId).not.toBe(beacon!.id);

    // The old id is refused from then on; the new one shown is the one that works.
    const old = await request.get(`/api/ingest/osmand?id=${beacon!.id}&lat=41.882&lon=-87.63`);
    expect(old.status()).toBe(400);
    await report(request, newId, { lat: 41.882, lon: -87.63 });
    await expect(card.getByTestId("beacon-reports-today")).toHaveText("3");
  });

  test("the owner replaces every device id at once after asking; the old ids are refused, the new ones listed work", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const beacons = await orderVehicles(request, fleet, 2);
    await signInAs(page, fleet.token);
    await page.goto("/workspace");
    const card = page.getByRole("region", { name: "Device ids" });
    await card.getByRole("button", { name: "Replace every device id…" }).click();
    const question = card.getByRole("group", { name: /^Replace every device id\?/ });
    await question.getByRole("button", { name: "Cancel" }).click();
    await expect(question).toHaveCount(0);
    await report(request, beacons[0]!.id, { lat: 41.88, lon: -87.63 });

    await card.getByRole("button", { name: "Replace every device id…" }).click();
    await card
      .getByRole("group", { name: /^Replace every device id\?/ })
      .getByRole("button", { name: "Replace every device id", exact: true })
      .click();
    await expect(card.getByRole("status")).toContainText("2 device ids replaced");
    const fresh = await card.getByTestId("replaced-device-id").allTextContents();
    expect(fresh).toHaveLength(2);
    for (const b of beacons) expect(fresh).not.toContain(b.id);
    expect((await request.get(`/api/ingest/osmand?id=${beacons[0]!.id}&lat=41.882&lon=-87.63`)).status()).toBe(400);
    await report(request, fresh[0]!, { lat: 41.882, lon: -87.63 });
  });
});
