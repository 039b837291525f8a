import { test as base, expect } from "@playwright/test";
import { failOnCspViolations } from "./csp-guard";

/**
 * Every page blocks Mapbox's hosts at the network layer: the map must work on its offline
 * fallback style, and tests never depend on the internet.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    await page.route(/^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//, (route) => route.abort());
    const cspViolations = await failOnCspViolations(page);
    await use(page);
    expect(cspViolations, "Content-Security-Policy violations").toEqual([]);
  },
});

export { expect };
