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

  test("a public page downloads none of the signed-in layout, and its code is compiled as it arrives", async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    });
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
    // The signed-in layout's chunk is 53 KB gzipped that /login never runs (docs/decisions/0107).
    expect(scripts.filter((s) => s.includes("/app-layout-"))).toEqual([]);
    // The framework and the page's own code start with V8's compile hint, so a phone compiles
    // them off the main thread; the hint only works as a file's very first line.
    for (const name of ["framework", "login"]) {
      const file = scripts.find((s) => s.startsWith(`/assets/${name}-`));
      expect(file, name).toBeTruthy();
      const text = await (await page.request.get(file!)).text();
      expect(text.split("\n", 1)[0]).toBe("//# allFunctionsCalledOnLoad");
    }
  });
});
