import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { localD1, orderVehicles, report } from "./ui-helpers";

/**
 * Live-share links (issue 30): an operator shares a vehicle from its page; a customer opens the
 * link in a browser that never signed in and sees the vehicle move as its beacon reports; the
 * page says so when the link is ended or has expired.
 */
test("a shared vehicle moves on a page that never signed in, and the page says when the link ends", async ({
  page,
  browser,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const [beacon] = await orderVehicles(request, fleet, 1);
  await report(request, beacon!.id, { lat: 41.88, lon: -87.63, timestamp: Date.now() - 30_000, speed: 10 });

  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${beacon!.vehicleId}/overview`);
  await page.getByRole("button", { name: "Share live location" }).click();
  await page.getByLabel("Link lasts").selectOption({ label: "15 minutes" });
  await page.getByRole("button", { name: "Create link" }).click();
  const url = await page.getByLabel("Share link").inputValue();
  expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{40,}$/);
  await expect(page.getByRole("list", { name: "Open links" }).getByRole("listitem")).toHaveCount(1);

  const customer = await (await browser.newContext()).newPage();
  const response = await customer.goto(new URL(url).pathname);
  expect(response!.headers()["x-robots-tag"]).toContain("noindex");
  expect(response!.headers()["content-security-policy"]).toBeTruthy();
  await expect(customer.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(customer.getByTestId("share-vehicle")).toHaveText(beacon!.vehicleName);
  await expect(customer.getByTestId("share-page")).toHaveAttribute("data-position", "41.88,-87.63");
  await expect(customer.getByTestId("share-last-seen")).toContainText("Last seen");
  await expect(customer.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");
  // Nothing of the workspace but this vehicle: no device id, no navigation into the app.
  await expect(customer.locator("body")).not.toContainText(beacon!.id);
  await expect(customer.getByRole("navigation")).toHaveCount(0);

  await report(request, beacon!.id, { lat: 41.885, lon: -87.625, timestamp: Date.now() - 10_000, speed: 15 });
  await expect(customer.getByTestId("share-page")).toHaveAttribute("data-position", "41.885,-87.625");
  await report(request, beacon!.id, { lat: 41.89, lon: -87.62, speed: 15 });
  await expect(customer.getByTestId("share-page")).toHaveAttribute("data-position", "41.89,-87.62");

  await page.getByRole("button", { name: "End link" }).click();
  await expect(customer.getByTestId("share-gone")).toHaveText(/This link was ended/);
  await expect(page.getByText("No open links.")).toBeVisible();
});

test("an expired link says so", async ({ browser, request }) => {
  const fleet = await newFleetAccount(request);
  const [beacon] = await orderVehicles(request, fleet, 1);
  const res = await request.post(`/api/vehicles/${beacon!.vehicleId}/shares`, {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { expiresInMinutes: 5 },
  });
  expect(res.status()).toBe(201);
  const { id, url } = (await res.json()) as { id: string; url: string };
  // Five minutes on: the link's expiry moved into the past, as time would. (An open page's poll checks
  // the expiry the workspace's object keeps against the clock, worker/api/shares.worker.test.ts;
  // the object does not see this edit of D1 for up to a minute, so the page opens after it.)
  await localD1(`UPDATE vehicle_shares SET expires_at = ${Date.now() - 1000} WHERE id = '${id}';`);
  const customer = await (await browser.newContext()).newPage();
  await customer.goto(new URL(url).pathname);
  await expect(customer.getByTestId("share-gone")).toHaveText(/This link has expired/);
  await customer.reload();
  await expect(customer.getByTestId("share-gone")).toHaveText(/This link has expired/);
});
