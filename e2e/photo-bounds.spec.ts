import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, goOnline, indicator, orderVehicle } from "./sync-helpers";

/**
 * Issue 39 in the browser: the workspace page shows its photo storage as used / allowed, and a
 * change the server refuses for a reason of its own (not the role, not the network) is said with a
 * toast and undone, where it used to be recorded as applied with no effect and no word.
 */

// A 1×1 PNG, 68 bytes.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

test("the workspace page shows its photo storage as used / allowed", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Photo Quota Fleet");
  await signInAs(page, fleet.token);
  await page.goto("/workspace");
  const storage = page.getByRole("region", { name: "Photo storage" });
  await expect(storage.getByTestId("photo-usage")).toHaveText("0 bytes / 1 GB used");
  await expect(storage).toContainText("Each member may upload 30 a minute");

  const uploaded = await request.post("/api/photos", {
    headers: { Authorization: `Bearer ${fleet.token}`, "Content-Type": "image/png" },
    data: PNG,
  });
  expect(uploaded.status()).toBe(201);
  await page.reload();
  await expect(storage.getByTestId("photo-usage")).toHaveText(`${PNG.byteLength} bytes / 1 GB used`);
});

test("service logged offline for a schedule deleted meanwhile is refused when the phone reconnects: said with a toast and undone", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Refused Service Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  const made = await request.post("/api/service-schedules", {
    headers: auth,
    data: { vehicleId: vehicle.id, name: "Oil change", everyDays: 30, lastDoneAt: day(40) },
  });
  expect(made.status()).toBe(201);
  const schedule = (await made.json()) as { id: string };

  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/service`);
  await expect(page.getByRole("region", { name: "Service schedules" }).getByText("Overdue")).toBeVisible();
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await goOffline(page);
  // Someone else deletes the schedule while this phone has no network.
  expect((await request.delete(`/api/service-schedules/${schedule.id}`, { headers: auth })).status()).toBe(204);
  const log = page.getByRole("form", { name: "Log service" });
  await log.getByLabel("What was done").fill("Oil and filter");
  await expect(log.getByRole("checkbox", { name: "Oil change" })).toBeChecked();
  await log.getByRole("button", { name: "Log service" }).click();
  const history = page.getByRole("region", { name: "Service history" });
  await expect(history).toContainText("Oil and filter");

  await goOnline(page);
  await expect(page.getByText(/Your change was not saved: .*not a schedule of this vehicle/i)).toBeVisible();
  await expect(history).not.toContainText("Oil and filter");
  const entries = (await (
    await request.get(`/api/service-entries?vehicleId=${vehicle.id}`, { headers: auth })
  ).json()) as { entries: unknown[] };
  expect(entries.entries).toEqual([]);
});
