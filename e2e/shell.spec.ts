import { expect, test } from "./fixtures";

test.describe("application shell", () => {
  test("unknown paths show Not Found with a 404 status", async ({ page }) => {
    const res = await page.goto("/no/such/page");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
  });

  test("the startup gate shows Loading... before the session is known", async ({ page }) => {
    // Server-rendered HTML is the gate itself: the session lives in the browser only.
    const res = await page.request.get("/");
    const html = await res.text();
    expect(html).toContain("Loading...");
    expect(res.headers()["cache-control"]).toContain("s-maxage");
  });

  test("a route error shows Something went wrong! with a Show Error / Hide Error toggle", async ({ page }) => {
    await page.goto("/oauth/not-a-provider");
    await expect(page.getByRole("heading", { name: "Something went wrong!" })).toBeVisible();
    const toggle = page.getByRole("button", { name: "Show Error" });
    await toggle.click();
    await expect(page.getByText('Unknown sign-in provider "not-a-provider"')).toBeVisible();
    await page.getByRole("button", { name: "Hide Error" }).click();
    await expect(page.getByText('Unknown sign-in provider "not-a-provider"')).toBeHidden();
    await expect(page.getByRole("button", { name: "Show Error" })).toBeVisible();
  });

  test("API answers are JSON and never cached", async ({ request }) => {
    const res = await request.get("/api/does-not-exist");
    expect(res.status()).toBe(404);
    expect(res.headers()["cache-control"]).toBe("no-store");
    expect((await res.json()).error.code).toBe("not_found");
  });

  test("fingerprinted assets are immutable", async ({ request }) => {
    // Read from the served HTML, not the live DOM, which the client may be redirecting meanwhile.
    const html = await (await request.get("/login")).text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const res = await request.get(asset!);
    expect(res.headers()["cache-control"]).toContain("immutable");
  });
});
