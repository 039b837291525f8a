import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "./fixtures";

/** Helpers of the sync specs (sync.spec.ts, sync-lifecycle.spec.ts): a vehicle to edit, and what a page shows of it. */

export async function orderVehicle(request: APIRequestContext, fleet: { token: string; workspaceId: string }) {
  const res = await request.post("/api/beacons/order", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { workspaceId: fleet.workspaceId, count: 1 },
  });
  expect(res.status()).toBe(201);
  const [beacon] = (await res.json()) as { vehicleId: string; vehicleName: string }[];
  return { id: beacon!.vehicleId, name: beacon!.vehicleName };
}

export const heading = (page: Page) => page.getByRole("heading", { level: 1 });
export const indicator = (page: Page) => page.locator(".sync-indicator");

export async function rename(page: Page, name: string) {
  await page.getByLabel("Vehicle Name").fill(name);
  await page.getByRole("button", { name: "Update" }).click();
}

/** Marks the page so a later check can tell whether it was reloaded in between. */
export const markPage = (page: Page) =>
  page.evaluate(() => ((window as unknown as { e2eMark?: boolean }).e2eMark = true));
export const stillMarked = (page: Page) =>
  page.evaluate(() => (window as unknown as { e2eMark?: boolean }).e2eMark === true);

/** Cuts the page off the network (the sync worker's requests too, as a real outage would). */
export async function goOffline(page: Page) {
  await page.context().route("**/api/**", (route) => route.abort("internetdisconnected"));
  await page.context().setOffline(true);
  await expect(indicator(page)).toHaveAttribute("data-state", "offline");
}

export async function goOnline(page: Page) {
  await page.context().unrouteAll();
  await page.context().setOffline(false);
}
