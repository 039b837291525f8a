import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, goOnline, indicator, orderVehicle } from "./sync-helpers";
import { colleague } from "./team-helpers";
import { horizontalOverflow, PHONE, seriousViolations, smallTargets } from "./phone-helpers";

/** The fuel log (issue 42): a vehicle's tank in Settings, fill-ups logged offline, checked, corrected, at 1440 and 390 px. */

// A 1×1 PNG: what a phone's camera hands the page, only smaller.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
type Fleet = { token: string; workspaceId: string };
const auth = (fleet: Fleet) => ({ Authorization: `Bearer ${fleet.token}` });
type Entry = {
  volumeLitres: number;
  costCents: number | null;
  fullTank: boolean;
  vendor: string | null;
  photoIds: string[];
};

async function entriesOf(request: APIRequestContext, fleet: Fleet, vehicleId: string) {
  const res = await request.get(`/api/fuel-entries?vehicleId=${vehicleId}`, { headers: auth(fleet) });
  return ((await res.json()) as { entries: Entry[] }).entries;
}

test("an owner sets the tank, logs a fill-up with its receipt offline, sees an over-tank one flagged, corrects and deletes it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Fuel Log Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/settings`);
  await page.getByLabel("Fuel tank (gal)").fill("20");
  await page.getByRole("button", { name: "Update" }).click();
  await page.getByRole("navigation", { name: "Vehicle sections" }).getByRole("link", { name: "Fuel" }).click();
  await expect(page.getByText("Tank: 20 gal")).toBeVisible();
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");

  await goOffline(page);
  const log = page.getByRole("form", { name: "Log fuel" });
  await log.getByRole("button", { name: "Log fuel" }).click();
  await expect(log.getByRole("alert").first()).toHaveText("Required");
  await log.getByLabel("Volume (gal)").fill("15.5");
  await log.getByLabel("Cost ($)").fill("52.70");
  await log.getByLabel("Vendor").fill("Shell, Main St");
  await log.locator('input[type="file"]').setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: PNG });
  await expect(log.getByRole("img", { name: "Photo" })).toBeVisible();
  await log.getByRole("button", { name: "Log fuel" }).click();
  const fillUps = page.getByRole("list", { name: "Fill-ups" });
  await expect(fillUps.getByRole("listitem")).toHaveCount(1);
  await expect(fillUps).toContainText("15.5 gal");
  await expect(fillUps).toContainText("$52.70");
  await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 1 change will sync when you reconnect");

  await goOnline(page);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const [stored] = await entriesOf(request, fleet, vehicle.id);
  expect(stored).toMatchObject({ costCents: 5270, fullTank: true, vendor: "Shell, Main St" });
  expect(stored!.volumeLitres).toBeCloseTo(58.674, 2);
  await expect
    .poll(async () => (await request.get(`/api/photos/${stored!.photoIds[0]}`, { headers: auth(fleet) })).status(), {
      timeout: 30_000,
    })
    .toBe(200);

  // The fleet's Fuel page, from the navigation: a fill-up above the tank is logged and flagged.
  await page.getByRole("navigation", { name: "Sections", exact: true }).getByRole("link", { name: "Fuel" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fuel" })).toBeVisible();
  const fleetLog = page.getByRole("form", { name: "Log fuel" });
  await fleetLog.getByLabel("Vehicle").selectOption(vehicle.id);
  await fleetLog.getByLabel("Volume (gal)").fill("25");
  await fleetLog.getByRole("checkbox", { name: "Full tank" }).uncheck();
  await fleetLog.getByRole("button", { name: "Log fuel" }).click();
  const rows = page.getByRole("list", { name: "Fill-ups" }).getByRole("listitem");
  await expect(rows).toHaveCount(2);
  // Both were logged this minute: found by what they say, not by their order.
  const partial = rows.filter({ hasText: "(partial)" });
  await expect(partial).toContainText("25 gal (partial)");
  await expect(partial).toContainText("Check: more than the tank holds");

  await partial.getByRole("button", { name: /^Edit the fill-up/ }).click();
  const edit = page.getByRole("form", { name: "Edit fill-up" });
  await edit.getByLabel("Volume (gal)").fill("12");
  await edit.getByRole("button", { name: "Save fill-up" }).click();
  await expect(partial).toContainText("12 gal (partial)");
  await expect(page.getByText("Check:")).toHaveCount(0);
  await partial.getByRole("button", { name: /^Delete the fill-up/ }).click();
  await page.getByRole("button", { name: "Delete fill-up" }).click();
  await expect(rows).toHaveCount(1);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  // The indicator was already "synced" before the delete, so it can pass before the delete is even
  // pushed (seen once: the server still had the 12 gal edit): the server is asked until it agrees.
  await expect
    .poll(async () => (await entriesOf(request, fleet, vehicle.id)).map((e) => e.volumeLitres))
    .toEqual([stored!.volumeLitres]);
});

test("the Fuel tab shows fuel economy full tank to full tank, and again after a fill-up is logged", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Fuel Economy Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const gallons = (g: number) => Math.round(g * 3.785411784 * 1000) / 1000;
  for (const [daysAgo, odometerMiles, g] of [
    [3, 1000, 12],
    [2, 1300, 10],
  ] as const) {
    const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const data = { vehicleId: vehicle.id, at, volumeLitres: gallons(g), fullTank: true, odometerMiles };
    expect((await request.post("/api/fuel-entries", { headers: auth(fleet), data })).status()).toBe(201);
  }
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/fuel`);
  const economy = page.getByTestId("fuel-economy");
  await expect(economy).toHaveText("Fuel economy: 30 mpg over 300 mi (1 fill-up)");
  const log = page.getByRole("form", { name: "Log fuel" });
  await log.getByLabel("Volume (gal)").fill("10");
  await log.getByLabel("Odometer (mi)").fill("1500");
  await log.getByRole("button", { name: "Log fuel" }).click();
  // 500 mi on 20 gal, once the server has the fill-up.
  await expect(economy).toHaveText("Fuel economy: 25 mpg over 500 mi (2 fill-ups)");
});

test("on a phone a member logs fuel on the Fuel page with no Edit or Delete; the Fuel tab and page fit 390 px", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Phone Fuel Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const member = await colleague(request, fleet, "member");
  await page.setViewportSize(PHONE);
  await signInAs(page, member.token);
  await page.goto("/fuel");
  const log = page.getByRole("form", { name: "Log fuel" });
  await log.getByLabel("Vehicle").selectOption(vehicle.id);
  await log.getByLabel("Volume (gal)").fill("9");
  await log.getByRole("button", { name: "Log fuel" }).click();
  await expect(page.getByRole("list", { name: "Fill-ups" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("button", { name: /^Edit the fill-up/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete the fill-up/ })).toHaveCount(0);
  await expect(page.getByText("Fuel logged", { exact: true })).toBeVisible();
  // The toast said so and went (sonner's 4 s, paused while the pointer rests on it where "Log fuel" was).
  await page.mouse.move(0, 0);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  const checks = async () => [
    ...(await seriousViolations(page)),
    ...(await horizontalOverflow(page)),
    ...(await smallTargets(page)),
  ];
  expect(await checks()).toEqual([]);
  await page.goto(`/vehicles/${vehicle.id}/fuel`);
  await expect(page.getByRole("list", { name: "Fill-ups" })).toContainText("9 gal");
  expect(await checks()).toEqual([]);
});

// Issue 56: at the pump, "Log fuel" was at the page's foot (below every fill-up), its vehicle unchosen.
test("on a phone, Log fuel comes first on the Fuel page, with the vehicle chosen on My day", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Pump Fleet");
  await orderVehicle(request, fleet);
  const mine = await orderVehicle(request, fleet);
  await page.setViewportSize(PHONE);
  await signInAs(page, fleet.token);
  await page.goto("/my-day");
  await page.getByLabel("Vehicle").selectOption(mine.id);
  await page.getByRole("button", { name: /^Menu/ }).click();
  await page.getByRole("dialog", { name: "Navigation menu" }).getByRole("link", { name: "Fuel", exact: true }).click();
  const log = page.getByRole("form", { name: "Log fuel" });
  await expect(log.getByLabel("Vehicle")).toHaveValue(mine.id);
  const history = page.getByText("No fuel logged in the last 90 days.");
  await expect(history).toBeVisible();
  const [form, rest] = [(await log.boundingBox())!, (await history.boundingBox())!];
  expect(form.y).toBeLessThan(rest.y);
  expect(form.y).toBeLessThan(PHONE.height / 2);
});
