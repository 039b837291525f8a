import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";

/** API tokens on the workspace's Preferences: made with a name and scope, shown once, listed, revoked. */
test("an owner creates a read token, sees its secret once, uses it, and revokes it", async ({ page, request }) => {
  const fleet = await newFleetAccount(request);
  await signInAs(page, fleet.token);
  await page.goto("/workspace");
  const tokens = page.getByRole("region", { name: "API tokens" });
  await expect(tokens.getByText("No API tokens yet.")).toBeVisible();
  await tokens.getByLabel("Name").fill("Dispatch board");
  await tokens.getByLabel("Scope").selectOption("read");
  await tokens.getByRole("button", { name: "Create token" }).click();
  const secret = (await tokens.getByLabel("New API token").textContent())!.trim();
  expect(secret).toMatch(/^fo_/);
  await expect(tokens.getByRole("row", { name: /Dispatch board/ })).toContainText("Never");

  const used = await request.get("/api/beacons", { headers: { Authorization: `Bearer ${secret}` } });
  expect(used.status()).toBe(200);
  await tokens.getByRole("button", { name: "Done" }).click();
  await expect(tokens.getByLabel("New API token")).toHaveCount(0);

  await tokens.getByRole("button", { name: "Revoke Dispatch board" }).click();
  await tokens.getByRole("button", { name: "Revoke token" }).click();
  await expect(tokens.getByText("No API tokens yet.")).toBeVisible();
  expect((await request.get("/api/beacons", { headers: { Authorization: `Bearer ${secret}` } })).status()).toBe(401);
});
