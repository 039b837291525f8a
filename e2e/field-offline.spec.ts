import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, markPage, orderVehicle, stillMarked } from "./sync-helpers";
import { loseTheSignal, serviceWorkerReady, signalBack } from "./field-app-helpers";

/** Work in the field (issue 41, docs/decisions/0044): offline from the first request, and updates that wait. */

test.use({ viewport: { width: 390, height: 844 } });

test("an inspection submitted after a cold start with no network reaches the server when the signal returns", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const fleet = await newFleetAccount(request, "Basement Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto("/actions");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await serviceWorkerReady(page);
  await page.close();

  const context = page.context();
  await loseTheSignal(context);
  const tab = await context.newPage();
  await tab.goto(`/vehicles/${vehicle.id}/inspections`);
  await tab.getByRole("button", { name: "Start inspection" }).click();
  const form = tab.getByRole("form", { name: "Pre-trip inspection" });
  const groups = form.locator(".pass-fail");
  await expect(groups.first()).toBeVisible();
  for (let i = 0; i < (await groups.count()); i++) await groups.nth(i).getByRole("button", { name: "Pass" }).click();
  await form.getByLabel("Odometer (mi)").fill("23456");
  await form.getByLabel("Signature: type your name").fill("Sam Yard");
  await form.getByRole("button", { name: "Submit inspection" }).click();
  const list = tab.getByRole("list", { name: "Inspections" });
  await expect(list).toContainText("Waiting to sync");
  // The top bar counts the change that waits.
  await expect(indicator(tab)).toHaveAttribute("aria-label", "Offline: 1 change will sync when you reconnect");

  await signalBack(context);
  await expect(list).not.toContainText("Waiting to sync", { timeout: 30_000 });
  await expect(indicator(tab)).toHaveAttribute("data-state", "synced");
  const stored = (await (await request.get(`/api/inspections?vehicleId=${vehicle.id}`, { headers: auth })).json()) as {
    inspections: { signedName: string; odometerMiles: number; failedItems: number }[];
  };
  expect(stored.inspections).toEqual([expect.objectContaining({ signedName: "Sam Yard", odometerMiles: 23456 })]);
});

test("a new build waits for the user: 'A new version is available', and Reload moves the tab onto it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Deploy Day Fleet");
  await signInAs(page, fleet.token);
  await page.goto("/actions");
  await expect(page.getByRole("heading", { level: 1, name: "My actions" })).toBeVisible();
  await serviceWorkerReady(page);
  await markPage(page);

  // A deploy: the Worker now serves another service worker script (the next build's).
  const script = new URL("../build/client/sw.js", import.meta.url);
  const current = readFileSync(script, "utf8");
  writeFileSync(script, `${current}\n// the next build\n`);
  try {
    const offer = page.getByText("A new version is available");
    await expect
      .poll(async () => {
        // The browser checks at each navigation and the app hourly; here, now.
        await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
        return offer.isVisible();
      })
      .toBe(true);
    // Nothing changed under the user meanwhile: same page, same build.
    expect(await stillMarked(page)).toBe(true);
    const waitingBefore = await page.evaluate(async () =>
      Boolean((await navigator.serviceWorker.getRegistration())?.waiting),
    );
    expect(waitingBefore).toBe(true);

    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Reload" }).click();
    await reloaded;
    expect(await stillMarked(page)).toBe(false);
    await expect(page.getByRole("heading", { level: 1, name: "My actions" })).toBeVisible();
    const after = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: Boolean(registration?.waiting), controlled: Boolean(navigator.serviceWorker.controller) };
    });
    expect(after).toEqual({ waiting: false, controlled: true });
    await expect(offer).toHaveCount(0);
  } finally {
    writeFileSync(script, current);
  }
});
