import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, orderVehicle } from "./sync-helpers";
import { DEFAULT_PRE_TRIP_ITEMS } from "../shared/maintenance/inspections";

/** Service, inspections and My actions from the synced store (issue 32; docs/decisions/0033). */

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

test("after a first sync, the Service tab and the Inspections page render with no network", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Offline Service Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  expect(
    (
      await request.post("/api/service-schedules", {
        headers,
        data: { vehicleId: vehicle.id, name: "Brake check", everyDays: 30, lastDoneAt: day(40) },
      })
    ).status(),
  ).toBe(201);
  expect(
    (
      await request.post("/api/service-entries", {
        headers,
        data: {
          vehicleId: vehicle.id,
          date: day(3),
          description: "Oil and filter",
          costCents: 8950,
          vendor: "Quick Lube",
        },
      })
    ).status(),
  ).toBe(201);
  expect(
    (
      await request.post("/api/service-entries", {
        headers,
        data: { vehicleId: vehicle.id, date: day(300), description: "Timing belt" },
      })
    ).status(),
  ).toBe(201);
  const results = DEFAULT_PRE_TRIP_ITEMS.map((i) => ({
    itemId: i.id,
    pass: i.id !== "horn",
    ...(i.id === "horn" ? { note: "Silent" } : {}),
  }));
  expect(
    (
      await request.post("/api/inspections", {
        headers,
        data: { formId: `${fleet.workspaceId}:pre-trip`, vehicleId: vehicle.id, signedName: "Robin Driver", results },
      })
    ).status(),
  ).toBe(201);

  await signInAs(page, fleet.token);
  // Online first: the store syncs, and each page's code is loaded by visiting it in the app (one page load).
  await page.goto(`/vehicles/${vehicle.id}/service`);
  const schedules = page.getByRole("region", { name: "Service schedules" });
  await expect(schedules).toContainText("Brake check");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const list = page.getByRole("list", { name: "Inspections" });
  await page.getByRole("navigation", { name: "Vehicle sections" }).getByRole("link", { name: "Inspections" }).click();
  await expect(list).toContainText("Robin Driver");
  await page
    .getByRole("navigation", { name: "Sections", exact: true })
    .getByRole("link", { name: "Inspections" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Inspections" })).toBeVisible();
  await expect(list).toContainText("Robin Driver");

  await context.route("**/api/**", (route) => route.abort("internetdisconnected"));
  await context.setOffline(true);
  await expect(indicator(page)).toHaveAttribute("data-state", "offline");

  // Each page mounts again with no network and renders from the store.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/vehicles/${vehicle.id}/inspections$`));
  await expect(list).toContainText("1 failed");
  await expect(list).toContainText("Robin Driver");
  await expect(list).toContainText("1 issue opened");
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/vehicles/${vehicle.id}/service$`));
  await expect(schedules.getByText("Overdue")).toBeVisible();
  const history = page.getByRole("region", { name: "Service history" });
  await expect(history).toContainText("Oil and filter");
  await expect(history).toContainText("$89.50");
  await expect(history).not.toContainText("Timing belt");
  await page
    .getByRole("navigation", { name: "Sections", exact: true })
    .getByRole("link", { name: "Inspections" })
    .click();
  await expect(list).toContainText("Robin Driver");
  await page.goBack();
  // Older history is the server's: offline, asking for it says so.
  await history.getByRole("button", { name: "Show older" }).click();
  await expect(history).toContainText("Older history is shown when you are online.");

  await context.unrouteAll();
  await context.setOffline(false);
  await history.getByRole("button", { name: "Show older" }).click();
  await expect(history).toContainText("Timing belt");

  // The history's rows: columns on a desktop, a card per inspection on a phone.
  await page
    .getByRole("navigation", { name: "Sections", exact: true })
    .getByRole("link", { name: "Inspections" })
    .click();
  const row = list.getByRole("listitem").first();
  const box = async (cell: string) => (await row.locator(`.inspection-cell.${cell}`).boundingBox())!;
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(row).toContainText("Robin Driver");
  let [vehicleCell, whenCell, signedCell] = [await box("vehicle"), await box("when"), await box("signed")];
  expect(Math.abs(whenCell.y + whenCell.height / 2 - (vehicleCell.y + vehicleCell.height / 2))).toBeLessThan(8);
  expect(whenCell.x).toBeGreaterThan(vehicleCell.x + vehicleCell.width);
  expect(signedCell.x).toBeGreaterThan(whenCell.x + whenCell.width);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(async () => (await box("when")).y).toBeGreaterThan((await box("vehicle")).y + 4);
  [vehicleCell, whenCell, signedCell] = [await box("vehicle"), await box("when"), await box("signed")];
  expect(signedCell.y).toBeGreaterThan(whenCell.y);
  expect((await row.boundingBox())!.width).toBeLessThanOrEqual(390);
});

test("the My actions count rises when another session assigns an issue to me, without a reload", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Actions Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  const me = ((await (await request.get("/api/me", { headers })).json()) as { viewer: { id: string } }).viewer;

  await signInAs(page, fleet.token);
  await page.goto("/vehicles");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const link = page
    .getByRole("navigation", { name: "Sections", exact: true })
    .getByRole("link", { name: /^My actions/ });
  const countOf = async () =>
    Number(((await link.getAttribute("aria-label")) ?? "My actions, 0").match(/, (\d+) to do/)?.[1] ?? 0);
  const before = await countOf();

  const res = await request.post("/api/issues", {
    headers,
    data: { vehicleId: vehicle.id, title: "Mirror cracked", priority: "high", assigneeUserId: me.id },
  });
  expect(res.status()).toBe(201);
  await expect(link).toHaveAttribute("aria-label", `My actions, ${before + 1} to do`);

  await link.click();
  await expect(page.getByRole("region", { name: "Issues assigned to me" })).toContainText("Mirror cracked");
});
