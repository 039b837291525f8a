import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, orderVehicle } from "./sync-helpers";
import { loseTheSignal, signalBack, vehicleIssuesReadyOffline } from "./field-app-helpers";

/**
 * An edit is safe the moment it shows (issue 56, docs/decisions/0074): once the dialog closes and
 * the issue is listed, a reload at any moment keeps it on the device, and it reaches the server
 * exactly once. Replicache alone kept an edit in memory for about a second.
 */

const DELAYS_MS = [0, 50, 250];

async function reportIssue(page: Page, title: string) {
  await page.getByRole("button", { name: "Report an issue" }).click();
  const dialog = page.getByRole("dialog", { name: "Report an issue" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByRole("button", { name: "Report issue" }).click();
  // The acknowledgement: the dialog closes and the list shows the issue.
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("link", { name: new RegExp(title) })).toBeVisible();
}

async function serverTitles(request: APIRequestContext, token: string): Promise<string[]> {
  const res = await request.get("/api/issues", { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { issues: { title: string }[] }).issues.map((i) => i.title).sort();
}

/** Reports an issue per delay, reloading that long after each acknowledgement; checks each is still listed. */
async function reportAndReload(page: Page, label: string): Promise<string[]> {
  const titles: string[] = [];
  for (const delay of DELAYS_MS) {
    const title = `${label} reload at ${delay} ms`;
    await reportIssue(page, title);
    if (delay) await page.waitForTimeout(delay);
    await page.reload();
    titles.push(title);
    for (const kept of titles) await expect(page.getByRole("link", { name: new RegExp(kept) }), kept).toBeVisible();
  }
  return titles;
}

test("first visit, pushes not yet through: an issue reloaded away 0, 50 or 250 ms after it shows stays on the device and reaches the server once", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Reload Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/issues`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");

  // The page loads (no service worker needed), but no push gets through: each edit is only on the device.
  const context = page.context();
  await context.route("**/api/sync/push", (route) => route.abort("internetdisconnected"));
  const titles = await reportAndReload(page, "First visit");

  await context.unrouteAll();
  await expect(indicator(page)).toHaveAttribute("data-state", "synced", { timeout: 30_000 });
  await expect.poll(() => serverTitles(request, fleet.token)).toEqual([...titles].sort());
});

test("no signal, service worker in control: issues reloaded away 0, 50 or 250 ms after they show stay on the device and reach the server once", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const { fleet } = await vehicleIssuesReadyOffline(page, request, "Tunnel Fleet");

  const context = page.context();
  await loseTheSignal(context);
  await page.reload();
  await expect(indicator(page)).toHaveAttribute("data-state", "offline");
  const titles = await reportAndReload(page, "Offline");
  await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 3 changes will sync when you reconnect");

  await signalBack(context);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced", { timeout: 30_000 });
  await expect.poll(() => serverTitles(request, fleet.token)).toEqual([...titles].sort());
});
