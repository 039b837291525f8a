import type { APIRequestContext } from "@playwright/test";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId } from "../shared/maintenance/inspections";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles, report } from "./ui-helpers";

/**
 * "Drove today without today's inspection" (issue 32) is one list wherever it is shown: My actions
 * and the Inspections page (from the synced store) and `GET /api/my-actions` (from D1) name the
 * same vehicles, by the one rule of shared/maintenance/drove-without-inspection.ts.
 */
const MIN = 60_000;

/** A short trip that ended a quarter of an hour ago, after standing parked. */
async function drive(request: APIRequestContext, beaconId: string, now: number, lat: number) {
  const track = [
    { timestamp: now - 50 * MIN, lat, lon: -100, ignition: false },
    { timestamp: now - 40 * MIN, lat: lat + 0.01, lon: -100, speed: 30, ignition: true },
    { timestamp: now - 30 * MIN, lat: lat + 0.02, lon: -100, speed: 30, ignition: true },
    { timestamp: now - 20 * MIN, lat: lat + 0.03, lon: -100, speed: 30, ignition: true },
    { timestamp: now - 15 * MIN, lat: lat + 0.03, lon: -100, ignition: false },
  ];
  for (const r of track) await report(request, beaconId, r);
}

test("My actions, the Inspections page and GET /api/my-actions list the same vehicles driven today without an inspection", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const fleet = await newFleetAccount(request, "Drove Today Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  // A zone where it is between 02:00 and 22:00 now, so the trips of the last hour are today's.
  const utcHour = new Date().getUTCHours();
  const timeZone = utcHour >= 2 && utcHour < 22 ? "UTC" : "Asia/Tokyo";
  expect((await request.patch("/api/workspace/preferences", { headers: auth, data: { timeZone } })).status()).toBe(200);
  const [drove, inspected, parked] = await orderVehicles(request, fleet, 3);
  const now = Date.now();
  await drive(request, drove!.id, now, 40);
  await drive(request, inspected!.id, now, 41);
  await report(request, parked!.id, { timestamp: now - 30 * MIN, lat: 42, lon: -100, ignition: false });
  await report(request, parked!.id, { timestamp: now - 10 * MIN, lat: 42, lon: -100, ignition: false });
  const submitted = await request.post("/api/inspections", {
    headers: auth,
    data: {
      formId: defaultFormId(fleet.workspaceId),
      vehicleId: inspected!.vehicleId,
      signedName: "Robin Driver",
      results: DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: true })),
    },
  });
  expect(submitted.status()).toBe(201);

  const expected = [drove!.vehicleName];
  // The server's answer, once the workspace's object has flushed the trips to D1.
  await expect
    .poll(async () => {
      const body = (await (await request.get("/api/my-actions", { headers: auth })).json()) as {
        inspections: { vehicleName: string }[];
      };
      return body.inspections.map((i) => i.vehicleName);
    })
    .toEqual(expected);

  await signInAs(page, fleet.token);
  await page.goto("/actions");
  const due = page.getByRole("region", { name: "Inspections due today" });
  await expect(due.getByRole("link")).toHaveText(expected);

  await page
    .getByRole("navigation", { name: "Sections" })
    .getByRole("link", { name: "Inspections", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Inspections" })).toBeVisible();
  const missing = page.getByLabel("Drove today without an inspection");
  await expect(missing.getByRole("listitem")).toHaveText(expected);
});
