import { expect, type BrowserContext, type Page } from "@playwright/test";

/**
 * Waits until this page's service worker has installed the whole build (its precache is filled
 * before it activates) and controls the page, as after a driver's first visit online.
 */
export async function serviceWorkerReady(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return Boolean(registration.active && navigator.serviceWorker.controller);
        }),
      // It downloads the whole build before it activates: about 15 s on a busy machine (issue 56).
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
