import { test as base, expect, type BrowserContext } from "@playwright/test";
import { failOnCspViolations } from "./csp-guard";

/**
 * Every spec imports `test` from here:
 * - every page blocks Mapbox's and OpenFreeMap's hosts at the network layer: the map must work on
 *   its offline fallback style, and tests never depend on the internet (a test that wants a street
 *   style routes the host itself, after this, so its route wins);
 * - an uncaught error or unhandled rejection in any page (the `page` fixture's, or one of a context
 *   the test opens itself with `browser.newContext()`/`newPage()`) fails the test.
 */
export const test = base.extend<{ failOnPageError: void }>({
  failOnPageError: [
    async ({ browser, context }, use) => {
      const errors: string[] = [];
      const watch = (ctx: BrowserContext) => {
        for (const page of ctx.pages())
          page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.stack ?? error.message}`));
        ctx.on("page", (page) =>
          page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.stack ?? error.message}`)),
        );
      };
      watch(context);
      const newContext = browser.newContext;
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const ctx = await newContext.apply(browser, args);
        watch(ctx);
        await onTheRunsClock(ctx);
        return ctx;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      expect(errors, "uncaught errors in the page").toEqual([]);
    },
    { auto: true },
  ],
  page: async ({ page }, use) => {
    await onTheRunsClock(page.context());
    await page.route(/^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//, (route) => {
      const url = new URL(route.request().url());
      const usage = url.hostname === "events.mapbox.com" || url.pathname.startsWith("/map-sessions/");
      return usage ? route.fulfill({ status: 204 }) : route.abort();
    });
    await page.route(/^https:\/\/tiles\.openfreemap\.org\//, (route) => route.abort());
    const cspViolations = await failOnCspViolations(page);
    await use(page);
    expect(cspViolations, "Content-Security-Policy violations").toEqual([]);
  },
});

export { expect };

/**
 * A run at a chosen hour (playwright.config.ts E2E_CLOCK): a context's pages get the shifted time
 * and run on from there, the `page` fixture's and those a test opens itself (a customer's browser
 * on a share link must agree with the Worker on whether it expired). This process's clock is
 * shifted already (libfaketime), and Playwright sets the pages' clock to the instant given. Its
 * install fakes animation frames too, and a map drawn from timers leaves Chromium without a frame
 * to screenshot (ADR 0077): the native ones are saved before the install and put back after it.
 */
async function onTheRunsClock(context: BrowserContext) {
  if (!Number(process.env.E2E_CLOCK_OFFSET_S ?? 0)) return;
  await context.addInitScript(() => {
    const w = window as unknown as { __e2eFrames?: unknown[] };
    w.__e2eFrames = [window.requestAnimationFrame, window.cancelAnimationFrame];
  });
  await context.clock.install({ time: Date.now() });
  await context.addInitScript(() => {
    const w = window as unknown as { __e2eFrames: [typeof requestAnimationFrame, typeof cancelAnimationFrame] };
    [window.requestAnimationFrame, window.cancelAnimationFrame] = w.__e2eFrames;
  });
}
