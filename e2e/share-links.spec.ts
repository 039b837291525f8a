import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { colleague } from "./team-helpers";

/**
 * The workspace's Preferences list every live share link and API token with who made it, and an
 * owner ends a member's link there (issue 39): the link's page answers "ended" at once.
 */
test("an owner sees who made each share link and token, and ends a member's link", async ({ page, request }) => {
  const fleet = await newFleetAccount(request);
  const member = await colleague(request, fleet, "member");
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const ordered = await request.post("/api/beacons/order", {
    headers: auth(fleet.token),
    data: { workspaceId: fleet.workspaceId, count: 1 },
  });
  const { vehicleId } = ((await ordered.json()) as { vehicleId: string }[])[0]!;
  const shared = await request.post(`/api/vehicles/${vehicleId}/shares`, {
    headers: auth(member.token),
    data: { expiresInMinutes: 60 },
  });
  expect(shared.status()).toBe(201);
  const shareToken = new URL(((await shared.json()) as { url: string }).url).pathname.split("/").pop()!;
  expect((await request.get(`/api/share/${shareToken}`)).status()).toBe(200);
  const madeToken = await request.post(`/api/workspaces/${fleet.workspaceId}/api-tokens`, {
    headers: auth(fleet.token),
    data: { name: "Dispatch board", scope: "read" },
  });
  expect(madeToken.status()).toBe(201);

  await signInAs(page, fleet.token);
  await page.goto("/workspace");
  await expect(
    page.getByRole("region", { name: "API tokens" }).getByRole("row", { name: /Dispatch board/ }),
  ).toContainText(fleet.email);
  const links = page.getByRole("region", { name: "Live share links" });
  const row = links.getByRole("row").filter({ hasText: member.email });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: /^End the link/ }).click();
  await row.getByRole("button", { name: "End link" }).click();
  await expect(links.getByText("No live share links.")).toBeVisible();
  expect((await request.get(`/api/share/${shareToken}`)).status()).toBe(410);
});
