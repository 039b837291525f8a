import { expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, orderVehicle } from "./sync-helpers";

/**
 * Waits until this page's service worker has installed the build (its precache is filled before
 * it activates), controls the page, and has kept the map's files too (fetched once in control,
 * docs/decisions/0075), as after a driver's first visit online.
 */
export async function serviceWorkerReady(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          const worker = navigator.serviceWorker.controller;
          if (!registration.active || !worker) return false;
          return new Promise<boolean>((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = (event: MessageEvent<{ kept?: boolean }>) => resolve(event.data.kept === true);
            worker.postMessage({ type: "KEEP_MAP_FILES" }, [channel.port2]);
          });
        }),
      // About 15 s on a busy machine before this build split its precache (issue 56).
      { timeout: 60_000 },
    )
    .toBe(true);
}

/** No network at all from here on: every request that leaves the browser fails, as with no signal. */
export async function loseTheSignal(context: BrowserContext) {
  await context.route("**/*", (route) => route.abort("internetdisconnected"));
  await context.setOffline(true);
}

export async function signalBack(context: BrowserContext) {
  await context.unrouteAll();
  await context.setOffline(false);
}

/**
 * A new fleet with one vehicle, signed in on that vehicle's Issues tab, synced, with the service
 * worker in control (so the page reloads with no signal): where an issue is reported offline.
 */
export async function vehicleIssuesReadyOffline(page: Page, request: APIRequestContext, name: string) {
  const fleet = await newFleetAccount(request, name);
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/issues`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await serviceWorkerReady(page);
  return { fleet, vehicle };
}
