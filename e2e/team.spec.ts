import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createAccount, newFleetAccount, signInAs } from "./helpers";
import { heading, markPage, orderVehicle, rename, stillMarked } from "./sync-helpers";
import { updateVehicle } from "./ui-helpers";
import { colleague, inviteLink } from "./team-helpers";

/** A workspace is a team (docs/decisions/0018): invites, roles in the UI, removal. */

const MAPBOX = /^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//;

async function browse(
  browser: Browser,
  baseURL: string,
  token?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL });
  await context.route(MAPBOX, (route) => route.abort());
  const page = await context.newPage();
  if (token) await signInAs(page, token);
  return { context, page };
}

test.describe("a workspace is a team", () => {
  const contexts: BrowserContext[] = [];
  test.afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  test("an owner invites a colleague on /team; the colleague signs up from the e-mail's link and sees the fleet change live", async ({
    browser,
    request,
    baseURL,
  }) => {
    const fleet = await newFleetAccount(request, "Team Fleet");
    const vehicle = await orderVehicle(request, fleet);
    const owner = await browse(browser, baseURL!, fleet.token);
    contexts.push(owner.context);
    await owner.page.goto("/map");
    await owner.page.getByRole("button", { name: "Workspace menu" }).click();
    await owner.page.getByRole("menuitem", { name: "Invite and manage members" }).click();
    await expect(owner.page).toHaveURL(/\/team$/);
    await expect(heading(owner.page)).toHaveText("Employees");
    const email = `colleague-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await owner.page.getByLabel("Email").fill(email);
    await owner.page.getByLabel("Role").selectOption("member");
    await owner.page.getByRole("button", { name: "Send invite" }).click();
    const pendingRow = owner.page.locator(`tr[data-email="${email}"]`);
    await expect(pendingRow).toContainText("Pending");
    // The filter works: by e-mail, and by status.
    await owner.page.getByPlaceholder("Filter by name, email, or role").fill("pending");
    await expect(owner.page.locator("tbody tr")).toHaveCount(1);
    await owner.page.getByPlaceholder("Filter by name, email, or role").fill("");

    const guest = await browse(browser, baseURL!);
    contexts.push(guest.context);
    await guest.page.goto(await inviteLink(request, email));
    await expect(guest.page.getByRole("heading", { name: "Join Team Fleet" })).toBeVisible();
    await expect(guest.page.getByLabel("Email")).toHaveValue(email);
    await guest.page.getByLabel("Password").fill("a long enough password 7");
    await guest.page.getByRole("button", { name: "Create Account and join" }).click();
    await expect(guest.page).toHaveURL(/\/map/);
    await expect(guest.page.getByRole("button", { name: new RegExp(vehicle.name) })).toBeVisible();
    await markPage(guest.page);
    // "Switch workspace" lists the workspace joined at once.
    await guest.page.getByRole("button", { name: "Workspace menu" }).click();
    await expect(guest.page.getByRole("menuitem", { name: /Team Fleet/ })).toBeVisible();
    await guest.page.keyboard.press("Escape");

    await updateVehicle(request, fleet, { id: vehicle.id, name: "Moved by the owner" });
    await expect(guest.page.getByRole("button", { name: /Moved by the owner/ })).toBeVisible();
    expect(await stillMarked(guest.page)).toBe(true);
    // The owner's list shows the colleague as joined.
    await owner.page.reload();
    await expect(owner.page.locator(`tr[data-email="${email}"]`)).toContainText("Joined");
  });

  test("a viewer's Settings form is disabled with a line saying why; a demoted tab's edit is refused with a toast and reverted", async ({
    browser,
    request,
    baseURL,
  }) => {
    const fleet = await newFleetAccount(request);
    const vehicle = await orderVehicle(request, fleet);
    const viewer = await colleague(request, fleet, "viewer");
    const v = await browse(browser, baseURL!, viewer.token);
    contexts.push(v.context);
    await v.page.goto(`/vehicles/${vehicle.id}/settings`);
    await expect(heading(v.page)).toHaveText(vehicle.name);
    await expect(v.page.getByRole("note")).toContainText("view-only access");
    await expect(v.page.getByLabel("Vehicle Name")).toBeDisabled();
    await expect(v.page.getByRole("button", { name: "Update" })).toBeDisabled();

    // A member's open tab, demoted to viewer behind its back: its next edit is refused, said so, and undone.
    const member = await colleague(request, fleet, "member");
    const m = await browse(browser, baseURL!, member.token);
    contexts.push(m.context);
    await m.page.goto(`/vehicles/${vehicle.id}/settings`);
    await expect(m.page.getByLabel("Vehicle Name")).toBeEnabled();
    const demoted = await request.patch(`/api/workspaces/${fleet.workspaceId}/members/${member.userId}`, {
      headers: { Authorization: `Bearer ${fleet.token}` },
      data: { role: "viewer" },
    });
    expect(demoted.status()).toBe(200);
    await rename(m.page, "Not allowed");
    await expect(m.page.getByText(/Your change was not saved: You have view-only access/)).toBeVisible();
    await expect(heading(m.page)).toHaveText(vehicle.name);
    await expect(m.page.getByLabel("Vehicle Name")).toBeDisabled();
  });

  test("removing a member signs their open tab out of the workspace without a reload", async ({
    browser,
    request,
    baseURL,
  }) => {
    const fleet = await newFleetAccount(request);
    const vehicle = await orderVehicle(request, fleet);
    const member = await colleague(request, fleet, "member");
    const m = await browse(browser, baseURL!, member.token);
    contexts.push(m.context);
    await m.page.goto("/map");
    await expect(m.page.getByRole("button", { name: new RegExp(vehicle.name) })).toBeVisible();
    await markPage(m.page);

    const owner = await browse(browser, baseURL!, fleet.token);
    contexts.push(owner.context);
    await owner.page.goto("/team");
    // Removing asks first, in place (the form kit's ConfirmAction).
    await owner.page.locator(`tr[data-email="${member.email}"]`).getByRole("button", { name: "Remove" }).click();
    await owner.page.locator(`tr[data-email="${member.email}"]`).getByRole("button", { name: "Remove member" }).click();
    await expect(owner.page.locator(`tr[data-email="${member.email}"]`)).toHaveCount(0);

    await expect(m.page).toHaveURL(/\/setup$/, { timeout: 5_000 });
    expect(await stillMarked(m.page)).toBe(true);
    // Its local store of that workspace is gone.
    await expect
      .poll(() =>
        m.page.evaluate(
          async (id) => (await indexedDB.databases()).filter((d) => d.name?.includes(id)).length,
          fleet.workspaceId,
        ),
      )
      .toBe(0);
  });

  test("the invite page refuses another signed-in account by name, and a revoked link with a clear error", async ({
    browser,
    request,
    baseURL,
  }) => {
    const fleet = await newFleetAccount(request, "Refusing Fleet");
    const email = `invited-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await request.post(`/api/workspaces/${fleet.workspaceId}/invites`, {
      headers: { Authorization: `Bearer ${fleet.token}` },
      data: { email, role: "viewer" },
    });
    const { id } = (await invited.json()) as { id: string };
    const link = await inviteLink(request, email);

    const stranger = await createAccount(request);
    const other = await browse(browser, baseURL!, stranger.token);
    contexts.push(other.context);
    await other.page.goto(link);
    await expect(other.page.getByRole("alert")).toContainText(
      `This invitation is for ${email}, but you are signed in as ${stranger.email}`,
    );

    await request.delete(`/api/workspaces/${fleet.workspaceId}/invites/${id}`, {
      headers: { Authorization: `Bearer ${fleet.token}` },
    });
    await other.page.goto(link);
    await expect(other.page.getByRole("heading", { name: "Invitation unavailable" })).toBeVisible();
    await expect(other.page.getByRole("alert")).toContainText("This invitation was revoked");
  });
});
