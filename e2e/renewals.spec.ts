import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, goOnline, indicator, orderVehicle } from "./sync-helpers";
import { colleague } from "./team-helpers";
import { horizontalOverflow, PHONE, seriousViolations, smallTargets } from "./phone-helpers";

/** Renewals (issue 42 part B): set up on a vehicle's Costs tab, due soon in My actions, renewed offline by a member on a phone. */

type Fleet = { token: string; workspaceId: string };
const auth = (fleet: Fleet) => ({ Authorization: `Bearer ${fleet.token}` });
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

test("an owner sets up a registration due soon; My actions lists it; a member on a phone renews it offline and it leaves", async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const fleet = await newFleetAccount(request, "Renewals Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/costs`);
  await expect(page.getByText("No renewals set up.")).toBeVisible();
  const add = page.getByRole("form", { name: "Add renewal" });
  await add.getByLabel("Kind").selectOption("registration");
  await add.getByLabel("Due date").fill(inDays(10));
  await add.getByRole("button", { name: "Add renewal" }).click();
  const renewals = page.getByRole("list", { name: "Renewals" });
  await expect(renewals.getByRole("listitem")).toHaveCount(1);
  await expect(renewals).toContainText("Due soon");
  await expect(renewals).toContainText(`Registration`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const listed = await request.get(`/api/renewals?vehicleId=${vehicle.id}`, { headers: auth(fleet) });
  expect(((await listed.json()) as { renewals: unknown[] }).renewals).toEqual([
    expect.objectContaining({ kind: "registration", dueDate: inDays(10), status: "due_soon" }),
  ]);

  // A member on a phone: My actions lists it; renewing works with no network.
  const member = await colleague(request, fleet, "member");
  const phoneContext = await browser.newContext({ viewport: PHONE });
  const phone = await phoneContext.newPage();
  await signInAs(phone, member.token);
  await phone.goto("/actions");
  const due = phone.getByRole("region", { name: "Renewals due" });
  await expect(due).toContainText("Registration");
  await expect(due).toContainText("Due soon");
  const checks = async () => [
    ...(await seriousViolations(phone)),
    ...(await horizontalOverflow(phone)),
    ...(await smallTargets(phone)),
  ];
  expect(await checks()).toEqual([]);
  await due.getByRole("link", { name: /Registration/ }).click();
  await expect(phone.getByRole("list", { name: "Renewals" })).toContainText("Due soon");
  await expect(phone.getByRole("form", { name: "Add renewal" })).toHaveCount(0);
  await expect(phone.getByRole("button", { name: "Delete Registration" })).toHaveCount(0);
  expect(await checks()).toEqual([]);
  await expect(indicator(phone)).toHaveAttribute("data-state", "synced");
  await goOffline(phone);
  await phone.getByRole("button", { name: "Renew Registration" }).click();
  const renew = phone.getByRole("form", { name: "Renew Registration" });
  await renew.getByLabel("New due date").fill(inDays(375));
  await renew.getByRole("button", { name: "Renew" }).click();
  await expect(phone.getByRole("list", { name: "Renewals" })).toContainText("OK");
  await goOnline(phone);
  await expect(indicator(phone)).toHaveAttribute("data-state", "synced");
  await phoneContext.close();

  // The owner's open page follows through sync, and My actions has nothing left to renew.
  await expect(renewals).toContainText(`Due ${inDays(375)}`);
  await page.goto("/actions");
  await expect(page.getByRole("heading", { name: "My actions" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Renewals due" })).toHaveCount(0);
});
