import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicle } from "./sync-helpers";

/** Drivers are people of the fleet (docs/decisions/0018): created on /people, assigned on Settings, shown in the list and the panel. */
test("a driver created on /people and assigned on Settings appears in the vehicle list and the map's panel", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Driver Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);

  await page.goto("/people");
  await page.getByRole("button", { name: "New Person" }).click();
  const dialog = page.getByRole("dialog", { name: "New Person" });
  await dialog.getByLabel("Email").fill("not an address");
  await dialog.getByLabel("Phone").fill("call me");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Required")).toBeVisible();
  await expect(dialog.getByText("Invalid email address")).toBeVisible();
  await expect(dialog.getByText("Enter a phone number, digits with an optional leading +")).toBeVisible();
  await dialog.getByLabel("Name").fill("Maria Gonzalez");
  await dialog.getByLabel("Email").fill("maria@fleet.test");
  await dialog.getByLabel("Phone").fill("+1 555 0100");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row", { name: /Maria Gonzalez/ })).toContainText("maria@fleet.test");

  await page.goto(`/vehicles/${vehicle.id}/settings`);
  await page.getByLabel("Assigned driver").selectOption({ label: "Maria Gonzalez" });
  await expect(page.getByText("Driver assigned")).toBeVisible();

  await page.goto("/vehicles");
  await expect(page.getByRole("row", { name: new RegExp(vehicle.name) })).toContainText("Maria Gonzalez");
  await page.goto(`/map?vehicleId=${vehicle.id}`);
  await expect(page.getByRole("region", { name: "Driver" })).toContainText("Maria Gonzalez");

  // The People page shows who drives what; unassigning brings the dash back.
  await page.goto(`/vehicles/${vehicle.id}/settings`);
  await page.getByLabel("Assigned driver").selectOption({ label: "No driver" });
  await page.goto(`/map?vehicleId=${vehicle.id}`);
  await expect(page.getByRole("region", { name: "Driver" })).toContainText("—");
});
