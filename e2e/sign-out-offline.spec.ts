import { expect, test } from "./fixtures";
import { indicator } from "./sync-helpers";
import { loseTheSignal, signalBack, vehicleIssuesReadyOffline } from "./field-app-helpers";

/** Sign-out with no signal (issue 51, docs/decisions/0074): nothing of the session is left to use or to send. */

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

test("logging out offline empties the device at once, ends the session at the next connection, and sends nothing of it after", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const { fleet } = await vehicleIssuesReadyOffline(page, request, "Shared Phone Fleet");
  // A second credential, to look at the server after this session has ended.
  const made = await request.post(`/api/workspaces/${fleet.workspaceId}/api-tokens`, {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { name: "Checker", scope: "read" },
  });
  const checker = { Authorization: `Bearer ${((await made.json()) as { token: string }).token}` };

  // Offline: an edit with a photo waits on the device, then the driver logs out.
  const context = page.context();
  await loseTheSignal(context);
  await page.getByRole("button", { name: "Report an issue" }).click();
  const dialog = page.getByRole("dialog", { name: "Report an issue" });
  await dialog.getByLabel("Title").fill("Dropped at sign-out");
  await dialog.locator('input[type="file"]').setInputFiles({ name: "dent.png", mimeType: "image/png", buffer: PNG });
  await expect(dialog.getByRole("img", { name: "Photo" })).toBeVisible();
  await dialog.getByRole("button", { name: "Report issue" }).click();
  await expect(dialog).toBeHidden();
  await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 1 change will sync when you reconnect");

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menu", { name: "Account menu" }).getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("status").filter({ hasText: "needs a connection" })).toBeVisible();

  // On the device at once: no session, no store, no queued photo, no queued request.
  const left = await page.evaluate(async () => ({
    session: localStorage.getItem("las"),
    databases: (await indexedDB.databases()).map((d) => d.name ?? ""),
  }));
  expect(left.session).toBeNull();
  expect(left.databases.filter((name) => /^rep:|fleet-photos|workbox-background-sync/.test(name))).toEqual([]);
  expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${fleet.token}` } })).status()).toBe(200);

  // Signed out: every request from here on that carries the old token is recorded (the sign-out's own excepted).
  const afterSignOut: string[] = [];
  context.on("request", (r) => {
    if (r.headers()["authorization"] === `Bearer ${fleet.token}` && !r.url().endsWith("/api/signout"))
      afterSignOut.push(`${r.method()} ${r.url()}`);
  });
  // The signal returns: the session ends on the server, and the edit it dropped never arrives.
  await signalBack(context);
  await expect
    .poll(
      async () => (await request.get("/api/me", { headers: { Authorization: `Bearer ${fleet.token}` } })).status(),
      {
        timeout: 30_000,
      },
    )
    .toBe(401);
  await page.waitForTimeout(3_000);
  const issues = (await (await request.get("/api/issues", { headers: checker })).json()) as { issues: unknown[] };
  expect(issues.issues).toEqual([]);
  expect(afterSignOut).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem("fleet-ops-sign-outs-pending"))).toBeNull();
});
