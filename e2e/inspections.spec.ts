import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createAccount, newFleetAccount, signInAs } from "./helpers";
import { orderVehicle } from "./sync-helpers";

/** Inspections (issue 32; docs/decisions/0032) on a phone: submitted with no network, synced when it returns. */

// A 1×1 PNG: what a phone's camera hands the page, only smaller.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

test.use({ viewport: { width: 390, height: 844 } });

test("an inspection with a failed item submitted offline is kept on the phone, then syncs and opens an issue when the network returns", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Inspection Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/inspections`);
  await expect(page.getByText("No inspections in the last 7 days.")).toBeVisible();
  const start = page.getByRole("button", { name: "Start inspection" });
  await expect(start).toBeEnabled();

  // Offline (the sync worker's requests are cut off explicitly too, as a real outage would).
  await context.route("**/api/sync/**", (route) => route.abort("internetdisconnected"));
  await context.route("**/api/inspections**", (route) => route.abort("internetdisconnected"));
  await context.route("**/api/photos**", (route) => route.abort("internetdisconnected"));
  await context.setOffline(true);
  await start.click();

  const form = page.getByRole("form", { name: "Pre-trip inspection" });
  const groups = form.locator(".pass-fail");
  const count = await groups.count();
  expect(count).toBeGreaterThanOrEqual(8);
  for (let i = 0; i < count; i++) await groups.nth(i).getByRole("button", { name: "Pass" }).click();
  const brakes = form.getByRole("group", { name: "Brakes" });
  await brakes.getByRole("button", { name: "Fail" }).click();
  // Big targets: at least 44 px each way, and the row fits the phone.
  const fail = await brakes.getByRole("button", { name: "Fail" }).boundingBox();
  expect(fail!.height).toBeGreaterThanOrEqual(44);
  expect(fail!.width).toBeGreaterThanOrEqual(44);
  expect(fail!.x + fail!.width).toBeLessThanOrEqual(390);
  await form.getByLabel("Brakes: note").fill("Soft pedal");
  await form.locator('input[type="file"]').setInputFiles({ name: "brakes.png", mimeType: "image/png", buffer: PNG });
  await expect(form.getByRole("img", { name: "Photo", exact: true })).toBeVisible();
  await form.getByRole("button", { name: "Submit inspection" }).click();
  await expect(form.getByText("Type your name to sign")).toBeVisible();
  await form.getByLabel("Odometer (mi)").fill("12345");
  await form.getByLabel("Signature: type your name").fill("Dana Driver");
  await form.getByRole("button", { name: "Submit inspection" }).click();

  const list = page.getByRole("list", { name: "Inspections" });
  await expect(list).toContainText("Waiting to sync");
  await expect(list).toContainText("1 failed");

  // Back online: the submission reaches the server, which opens one issue for the failed item.
  await context.unrouteAll();
  await context.setOffline(false);
  await expect(list).toContainText("1 issue opened", { timeout: 30_000 });
  await expect(list).not.toContainText("Waiting to sync");
  const stored = (await (await request.get(`/api/inspections?vehicleId=${vehicle.id}`, { headers: auth })).json()) as {
    inspections: { id: string; failedItems: number; issueIds: string[]; signedName: string; odometerMiles: number }[];
  };
  expect(stored.inspections).toHaveLength(1);
  expect(stored.inspections[0]).toMatchObject({ failedItems: 1, signedName: "Dana Driver", odometerMiles: 12345 });
  const issue = (await (
    await request.get(`/api/issues/${stored.inspections[0]!.issueIds[0]}`, { headers: auth })
  ).json()) as Record<string, unknown>;
  expect(issue).toMatchObject({
    title: "Brakes: failed inspection",
    status: "open",
    sourceInspectionId: stored.inspections[0]!.id,
    vehicleId: vehicle.id,
  });

  // The issue's page names the inspection it came from, and its link opens that inspection, marked.
  await page.goto(`/issues/${stored.inspections[0]!.issueIds[0]}`);
  await page.getByRole("link", { name: "inspection", exact: true }).click();
  await expect(page).toHaveURL(/\/inspections\?inspection=/);
  await expect(page.getByRole("list", { name: "Inspections" }).locator("li[aria-current='true']")).toContainText(
    "Signed by Dana Driver",
  );
});

/** A member of the fleet's workspace, through the public invite API (the dev outbox holds the link). */
async function member(request: APIRequestContext, fleet: { token: string; workspaceId: string }) {
  const account = await createAccount(request);
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  expect(
    (
      await request.post(`/api/workspaces/${fleet.workspaceId}/invites`, {
        headers: auth(fleet.token),
        data: { email: account.email, role: "member" },
      })
    ).status(),
  ).toBe(201);
  const { text } = (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(account.email)}`)).json()) as {
    text: string;
  };
  const token = text.match(/\/invite\/(\S+)/)![1];
  const accepted = await request.post("/api/invites/accept", { headers: auth(account.token), data: { token } });
  expect(accepted.status()).toBe(200);
  return ((await accepted.json()) as { token: string }).token;
}

test("an owner adds an item to the pre-trip form on /inspections, and a member's new inspection shows it", async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Forms Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto("/inspections");
  const forms = page.getByRole("region", { name: "Forms" });
  await forms.getByRole("button", { name: "Edit Pre-trip inspection" }).click();
  await forms.getByRole("button", { name: "Add item" }).click();
  const labels = forms.getByLabel("Label");
  await labels.last().fill("Tachograph");
  const save = forms.getByRole("button", { name: "Save form" });
  const box = await save.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await save.click();
  await expect(forms.getByRole("button", { name: "Edit Pre-trip inspection" })).toBeVisible();
  await expect(forms).toContainText("12 items");

  const memberToken = await member(request, fleet);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const memberPage = await phone.newPage();
    await signInAs(memberPage, memberToken);
    await memberPage.goto("/inspections");
    await expect(memberPage.getByRole("heading", { name: "Inspections", level: 1 })).toBeVisible();
    await expect(memberPage.getByRole("region", { name: "Forms" })).toHaveCount(0);
    await memberPage.goto(`/vehicles/${vehicle.id}/inspections`);
    const start = memberPage.getByRole("button", { name: "Start inspection" });
    await expect(start).toBeEnabled();
    await start.click();
    const form = memberPage.getByRole("form", { name: "Pre-trip inspection" });
    await expect(form.getByRole("group", { name: "Tachograph" })).toBeVisible();
  } finally {
    await phone.close();
  }
});
