import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, orderVehicle } from "./sync-helpers";
import { loseTheSignal, serviceWorkerReady } from "./field-app-helpers";

/** The app in the field (issue 41, docs/decisions/0044): installable, and opening with no network. */

test("the app meets Chromium's installability criteria, with real icons of the sizes it names", async ({
  playwright,
  request,
  baseURL,
}) => {
  // Chromium never offers to install from an incognito profile, which a test context is: a profile on disk.
  const profile = mkdtempSync(path.join(tmpdir(), "install-"));
  const { launchOptions } = test.info().project.use;
  const browser = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto("/login");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  const cdp = await page.context().newCDPSession(page);
  const manifest = await cdp.send("Page.getAppManifest");
  expect(manifest.errors).toEqual([]);
  await expect.poll(async () => (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors).toEqual([]);

  const body = (await (await request.get("/manifest.webmanifest")).json()) as {
    display: string;
    start_url: string;
    theme_color: string;
    icons: { src: string; sizes: string; purpose: string }[];
  };
  expect(body).toMatchObject({ display: "standalone", start_url: "/actions", theme_color: "#2563eb" });
  expect(body.icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual([
    "192x192 any",
    "512x512 any",
    "512x512 maskable",
  ]);
  for (const icon of body.icons) {
    const png = await (await request.get(icon.src)).body();
    // A PNG's IHDR chunk: its signature, then width and height at bytes 16 and 20.
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
  }
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
});

/** Every page of the signed-in app that reads the synced store, and what shows it opened with its data. */
function storePages(vehicle: { id: string; name: string }, issue: { id: string; title: string }) {
  return [
    { path: "/overview", heading: "Overview", shows: "High" },
    { path: "/actions", heading: "My actions", shows: issue.title },
    { path: "/inspections", heading: "Inspections", shows: "Start inspection" },
    { path: "/issues", heading: "Issues", shows: issue.title },
    { path: `/issues/${issue.id}`, heading: issue.title, shows: vehicle.name },
    { path: "/vehicles", heading: "Vehicles", shows: vehicle.name },
    { path: `/vehicles/${vehicle.id}/overview`, heading: vehicle.name, shows: "Overview" },
    { path: `/vehicles/${vehicle.id}/issues`, heading: vehicle.name, shows: issue.title },
    { path: `/vehicles/${vehicle.id}/service`, heading: vehicle.name, shows: "Log service" },
    { path: `/vehicles/${vehicle.id}/inspections`, heading: vehicle.name, shows: "Start inspection" },
    { path: "/inbox", heading: "Inbox", shows: "Inbox" },
    { path: "/people", heading: "People", shows: "People" },
    { path: "/locations", heading: "Locations", shows: "Locations" },
    { path: "/fuel", heading: "Fuel", shows: "Log fuel" },
    { path: `/vehicles/${vehicle.id}/fuel`, heading: vehicle.name, shows: "Log fuel" },
    { path: "/jobs", heading: "Jobs", shows: "New job" },
    { path: "/my-day", heading: "My day", shows: "Choose your vehicle" },
  ];
}

test("after one visit online, every page cold-starts with no network: from the store, or saying it needs a connection", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const fleet = await newFleetAccount(request, "Yard Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  const me = ((await (await request.get("/api/me", { headers })).json()) as { viewer: { id: string } }).viewer;
  const created = await request.post("/api/issues", {
    headers,
    data: { vehicleId: vehicle.id, title: "Wiper torn", priority: "high", assigneeUserId: me.id },
  });
  expect(created.status()).toBe(201);
  const issue = { id: ((await created.json()) as { id: string }).id, title: "Wiper torn" };

  // One visit online: the store syncs and the service worker installs this build.
  await signInAs(page, fleet.token);
  await page.goto("/map");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  // A first visit says when the app can start with no network (docs/decisions/0075).
  await expect(page.getByText("Ready to work offline")).toBeVisible({ timeout: 60_000 });
  await serviceWorkerReady(page);
  await page.close();

  // The tab is gone, and so is the signal: each page is opened anew, as from the home screen.
  const context = page.context();
  await loseTheSignal(context);
  for (const target of storePages(vehicle, issue)) {
    const tab = await context.newPage();
    await tab.goto(target.path);
    await expect(tab, target.path).toHaveURL(new RegExp(`${target.path}$`));
    await expect(tab.getByRole("heading", { level: 1, name: target.heading })).toBeVisible();
    await expect(tab.locator("main")).toContainText(target.shows);
    await expect(indicator(tab)).toHaveAttribute("data-state", "offline");
    await expect(tab.getByText("Something went wrong")).toHaveCount(0);
    await tab.close();
  }

  const map = await context.newPage();
  await map.goto("/map");
  await expect(map.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");
  await expect(map.getByRole("complementary", { name: "Vehicles panel" })).toContainText(vehicle.name);
  await map.close();

  // Pages only the server can answer say so, in the app, with no error page.
  for (const address of ["/reports", "/team", "/settings", "/login"]) {
    const tab = await context.newPage();
    await tab.goto(address);
    await expect(tab.getByRole("status").filter({ hasText: "needs a connection" }), address).toBeVisible();
    await expect(tab.getByText("Something went wrong")).toHaveCount(0);
    await tab.close();
  }
});
