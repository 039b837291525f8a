import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, orderVehicle } from "./sync-helpers";

/** Issues (issue 32; docs/decisions/0030) on a phone-sized screen: reported offline, filtered. */

// A 1×1 PNG: what a phone's camera hands the page, only smaller.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

type Fleet = { token: string; workspaceId: string };
const auth = (fleet: Fleet) => ({ Authorization: `Bearer ${fleet.token}` });

async function reportIssue(request: APIRequestContext, fleet: Fleet, data: Record<string, unknown>) {
  const res = await request.post("/api/issues", { headers: auth(fleet), data });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; number: number };
}

test.use({ viewport: { width: 390, height: 844 } });

test("an issue reported from a vehicle with no network is kept, then synced and numbered when the network returns; its photo follows", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Issue Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/issues`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(vehicle.name);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await expect(page.getByText("No issues match these filters.")).toBeVisible();

  // Offline (the sync worker's requests are cut off explicitly too, as a real outage would).
  await context.route("**/api/sync/**", (route) => route.abort("internetdisconnected"));
  await context.route("**/api/photos**", (route) => route.abort("internetdisconnected"));
  await context.setOffline(true);
  await expect(indicator(page)).toHaveAttribute("data-state", "offline");

  await page.getByRole("button", { name: "Report an issue" }).click();
  const dialog = page.getByRole("dialog", { name: "Report an issue" });
  await dialog.getByRole("button", { name: "Report issue" }).click();
  await expect(dialog.getByText("Required")).toBeVisible();
  await dialog.getByLabel("Title").fill("Left brake light out");
  await dialog.getByLabel("Priority").selectOption("high");
  await dialog.locator('input[type="file"]').setInputFiles({ name: "light.png", mimeType: "image/png", buffer: PNG });
  await expect(dialog.getByRole("img", { name: "Photo" })).toBeVisible();
  // The dialog fits the phone's width.
  const box = await dialog.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await dialog.getByRole("button", { name: "Report issue" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("link", { name: /Left brake light out/ });
  await expect(row).toContainText("New");
  await expect(row).toContainText("High");
  await expect(page.getByTestId("vehicle-open-issues")).toHaveText("1 open issue");
  await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 1 change will sync when you reconnect");

  // Back online: the report reaches the server, which numbers it; the photo is uploaded.
  await context.unrouteAll();
  await context.setOffline(false);
  await expect(row).toContainText("#1");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const listed = await (await request.get("/api/issues", { headers: auth(fleet) })).json();
  expect(listed.issues).toHaveLength(1);
  expect(listed.issues[0]).toMatchObject({
    number: 1,
    title: "Left brake light out",
    priority: "high",
    status: "open",
    vehicleId: vehicle.id,
  });
  const [photoId] = listed.issues[0].photoIds as string[];
  await expect
    .poll(async () => (await request.get(`/api/photos/${photoId}`, { headers: auth(fleet) })).status(), {
      timeout: 30_000,
    })
    .toBe(200);

  // Its page: status changed in place.
  await row.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("#1 Left brake light out");
  await page.getByLabel("Status").selectOption("in_progress");
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/issues/${listed.issues[0].id}`, { headers: auth(fleet) })).json()) as {
            status: string;
          }
        ).status,
    )
    .toBe("in_progress");
});

test("the Issues list filters by status, priority, vehicle and assignee", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Filter Fleet");
  const truck = await orderVehicle(request, fleet);
  const van = await orderVehicle(request, fleet);
  const me = ((await (await request.get("/api/me", { headers: auth(fleet) })).json()) as { viewer: { id: string } })
    .viewer.id;
  await reportIssue(request, fleet, {
    vehicleId: truck.id,
    title: "Cracked windshield",
    priority: "high",
    assigneeUserId: me,
  });
  await reportIssue(request, fleet, { vehicleId: van.id, title: "Horn weak", priority: "low" });
  const closed = await reportIssue(request, fleet, { vehicleId: van.id, title: "Mirror loose", priority: "medium" });
  expect(
    (await request.patch(`/api/issues/${closed.id}`, { headers: auth(fleet), data: { status: "closed" } })).status(),
  ).toBe(200);

  await signInAs(page, fleet.token);
  await page.goto("/issues");
  const list = page.getByRole("list", { name: "Issues" });
  await expect(list.getByRole("link")).toHaveCount(2);
  await expect(list).toContainText("Cracked windshield");
  await expect(list).toContainText("Horn weak");

  await page.getByLabel("Priority").selectOption("high");
  await expect(list.getByRole("link")).toHaveCount(1);
  await expect(list).toContainText("Cracked windshield");
  await page.getByLabel("Priority").selectOption("");

  await page.getByLabel("Vehicle").selectOption(van.id);
  await expect(list.getByRole("link")).toHaveCount(1);
  await expect(list).toContainText("Horn weak");

  await page.getByLabel("Status").selectOption("closed");
  await expect(list.getByRole("link")).toHaveCount(1);
  await expect(list).toContainText("Mirror loose");

  await page.getByLabel("Status").selectOption("active");
  await page.getByLabel("Vehicle").selectOption("");
  await page.getByLabel("Assignee").selectOption("me");
  await expect(list.getByRole("link")).toHaveCount(1);
  await expect(list).toContainText("Cracked windshield");
  // The filters are in the address, so a filtered list can be shared or reloaded.
  await expect(page).toHaveURL(/assignee=me/);

  // The Inbox lists what is assigned to me.
  await page.goto("/inbox");
  await expect(page.getByTestId("assigned-to-me")).toContainText("Cracked windshield");
});

test("the map's vehicle panel counts the vehicle's open issues and reports one for it", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Panel Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/map?vehicleId=${vehicle.id}`);
  const panel = page.getByRole("complementary", { name: "Vehicle panel" });
  await expect(panel.getByRole("link", { name: "No open issues" })).toBeVisible();
  await panel.getByRole("button", { name: "Report an issue" }).click();
  const dialog = page.getByRole("dialog", { name: "Report an issue" });
  await expect(dialog.getByLabel("Vehicle")).toHaveValue(vehicle.id);
  await dialog.getByLabel("Title").fill("Tyre pressure low");
  await dialog.getByRole("button", { name: "Report issue" }).click();
  await expect(dialog).toBeHidden();
  await panel.getByRole("link", { name: "1 open issue" }).click();
  await expect(page).toHaveURL(new RegExp(`/vehicles/${vehicle.id}/issues$`));
  await expect(page.getByRole("list", { name: "Issues" })).toContainText("Tyre pressure low");
  await expect(page.getByTestId("vehicle-open-issues")).toHaveText("1 open issue");
  // and the vehicle list shows the count beside the name
  await page.goto("/vehicles");
  await expect(page.getByRole("row", { name: new RegExp(vehicle.name) }).getByLabel("1 open issue")).toBeVisible();
});
