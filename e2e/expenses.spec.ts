import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, goOnline, indicator, orderVehicle } from "./sync-helpers";
import { colleague } from "./team-helpers";
import { horizontalOverflow, PHONE, seriousViolations, smallTargets } from "./phone-helpers";

/** Expenses (issue 42 part B): added offline with a receipt on a vehicle's Costs tab, corrected, deleted; a member on a phone. */

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
type Fleet = { token: string; workspaceId: string };
const auth = (fleet: Fleet) => ({ Authorization: `Bearer ${fleet.token}` });
type Expense = { kind: string; costCents: number; note: string | null; photoIds: string[] };

async function expensesOf(request: APIRequestContext, fleet: Fleet, vehicleId: string) {
  const res = await request.get(`/api/expenses?vehicleId=${vehicleId}`, { headers: auth(fleet) });
  return ((await res.json()) as { expenses: Expense[] }).expenses;
}

test("an owner adds an expense with its receipt offline on the Costs tab, then corrects and deletes one on the Fuel page", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Expenses Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/overview`);
  await page.getByRole("navigation", { name: "Vehicle sections" }).getByRole("link", { name: "Costs" }).click();
  await expect(page.getByRole("heading", { name: "Expenses" })).toBeVisible();
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");

  await goOffline(page);
  const add = page.getByRole("form", { name: "Add expense" });
  await add.getByRole("button", { name: "Add expense" }).click();
  await expect(add.getByRole("alert").first()).toHaveText("Required");
  await add.getByLabel("Kind").selectOption("insurance");
  await add.getByLabel("Amount ($)").fill("1234.50");
  await add.getByLabel("Note").fill("Policy 2027");
  await add.locator('input[type="file"]').setInputFiles({ name: "policy.png", mimeType: "image/png", buffer: PNG });
  await expect(add.getByRole("img", { name: "Photo" })).toBeVisible();
  await add.getByRole("button", { name: "Add expense" }).click();
  const list = page.getByRole("list", { name: "Expenses" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("Insurance · $1,234.50");
  await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 1 change will sync when you reconnect");

  await goOnline(page);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const [stored] = await expensesOf(request, fleet, vehicle.id);
  expect(stored).toMatchObject({ kind: "insurance", costCents: 123_450, note: "Policy 2027" });
  expect(stored!.photoIds).toHaveLength(1);

  // The fleet's Fuel page lists every vehicle's expenses; a second one is added, corrected and deleted there.
  await page.getByRole("navigation", { name: "Sections", exact: true }).getByRole("link", { name: "Fuel" }).click();
  const fleetAdd = page.getByRole("form", { name: "Add expense" });
  await fleetAdd.getByLabel("Vehicle").selectOption(vehicle.id);
  await fleetAdd.getByLabel("Amount ($)").fill("7");
  await fleetAdd.getByRole("button", { name: "Add expense" }).click();
  const rows = page.getByRole("list", { name: "Expenses" }).getByRole("listitem");
  await expect(rows).toHaveCount(2);
  const toll = rows.filter({ hasText: "Tolls" });
  await expect(toll).toContainText("Vehicle");
  await toll.getByRole("button", { name: /^Edit the tolls expense/ }).click();
  const edit = page.getByRole("form", { name: "Edit expense" });
  await edit.getByLabel("Kind").selectOption("parking");
  await edit.getByLabel("Amount ($)").fill("9.25");
  await edit.getByRole("button", { name: "Save expense" }).click();
  const parking = rows.filter({ hasText: "Parking" });
  await expect(parking).toContainText("Parking · $9.25");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  expect((await expensesOf(request, fleet, vehicle.id)).map((e) => e.costCents).sort((a, b) => a - b)).toEqual([
    925, 123_450,
  ]);
  await parking.getByRole("button", { name: /^Delete the parking expense/ }).click();
  await page.getByRole("button", { name: "Delete expense" }).click();
  await expect(rows).toHaveCount(1);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  expect((await expensesOf(request, fleet, vehicle.id)).map((e) => e.kind)).toEqual(["insurance"]);
});

test("on a phone a member adds an expense with no Edit or Delete; the Costs tab and Fuel page fit 390 px", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Phone Expenses Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const member = await colleague(request, fleet, "member");
  await page.setViewportSize(PHONE);
  await signInAs(page, member.token);
  await page.goto(`/vehicles/${vehicle.id}/costs`);
  const add = page.getByRole("form", { name: "Add expense" });
  await add.getByLabel("Kind").selectOption("repair");
  await add.getByLabel("Amount ($)").fill("310");
  await add.getByRole("button", { name: "Add expense" }).click();
  await expect(page.getByRole("list", { name: "Expenses" })).toContainText("Repair · $310.00");
  await expect(page.getByRole("button", { name: /^Edit the repair expense/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete the repair expense/ })).toHaveCount(0);
  await expect(page.getByText("Expense added", { exact: true })).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  const checks = async () => [
    ...(await seriousViolations(page)),
    ...(await horizontalOverflow(page)),
    ...(await smallTargets(page)),
  ];
  expect(await checks()).toEqual([]);
  await page.goto("/fuel");
  await expect(page.getByRole("list", { name: "Expenses" })).toContainText("Repair · $310.00");
  expect(await checks()).toEqual([]);
});
