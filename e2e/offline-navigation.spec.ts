import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicle } from "./sync-helpers";

/**
 * A page opened online keeps moving between its screens with no network (docs/decisions/0039):
 * every route is known from the first page, so reaching another vehicle's tab offline needs no
 * request, only code the tab already loaded.
 */
test("offline, the map's panel of a second vehicle opens that vehicle's Issues tab", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Offline Routes");
  const first = await orderVehicle(request, fleet);
  const second = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/map?vehicleId=${first.id}`);
  const panel = page.getByRole("complementary", { name: "Vehicle panel" });
  // Online: the first vehicle's Issues tab, so its code is loaded, then back to the map.
  await panel.getByRole("link", { name: "No open issues" }).click();
  await expect(page).toHaveURL(new RegExp(`/vehicles/${first.id}/issues$`));
  // The tab has rendered (its code has loaded): a count of no open issues holds before it has.
  await expect(page.getByRole("heading", { level: 1, name: first.name })).toBeVisible();
  await expect(page.getByRole("button", { name: "Report an issue" })).toBeVisible();
  await expect(page.getByTestId("vehicle-open-issues")).toHaveCount(0);
  await page.goBack();
  await expect(panel.getByRole("heading", { name: first.name })).toBeVisible();

  await page.context().route("**/*", (route) => route.abort("internetdisconnected"));
  await page.context().setOffline(true);
  await panel.getByRole("button", { name: "Vehicles" }).click();
  await page
    .getByRole("complementary", { name: "Vehicles panel" })
    .getByRole("button", { name: new RegExp(second.name) })
    .click();
  await expect(panel.getByRole("heading", { name: second.name })).toBeVisible();
  await panel.getByRole("link", { name: "No open issues" }).click();
  await expect(page).toHaveURL(new RegExp(`/vehicles/${second.id}/issues$`));
  await expect(page.getByRole("heading", { level: 1, name: second.name })).toBeVisible();
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
});
