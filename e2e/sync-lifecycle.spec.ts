import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";

/**
 * The local store's lifecycle (issue 14, "Missing head main"): opening signed-in pages by a full
 * page load, in a second tab of the same browser, or in a fresh profile that has only the stored
 * token, must not throw. The fixtures fail any test on an uncaught page error.
 */
test.describe("the local store's lifecycle", () => {
  test("a full page load, a second tab and a fresh profile with only the token open the store without errors", async ({ browser, request, baseURL, page }) => {
    const fleet = await newFleetAccount(request, "Lifecycle Fleet");
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    await expect(page.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    // A full page load of another signed-in page.
    await page.goto("/map");
    await page.reload();
    await expect(page.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    // A second tab of the same browser.
    const second = await page.context().newPage();
    await second.goto("/vehicles");
    await expect(second.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    await second.reload();
    await expect(second.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    // A fresh profile that has only the stored token.
    const fresh = await browser.newContext({ baseURL });
    const other = await fresh.newPage();
    await other.route(/^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//, (route) => route.abort());
    await signInAs(other, fleet.token);
    await other.goto("/vehicles");
    await expect(other.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    await other.goto("/map");
    await expect(other.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    await page.waitForTimeout(1500); // let late rejections surface before the guard checks
    await fresh.close();
  });
});
