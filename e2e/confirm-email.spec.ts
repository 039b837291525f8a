import { expect, test } from "./fixtures";
import { createAccount, createWorkspace, signInAs } from "./helpers";

/**
 * Confirming the address (issue 39): the app works before it with a small notice and Resend; the
 * e-mailed link confirms it and the notice goes.
 */
test("an unconfirmed account sees the notice, resends the link, follows it, and the notice goes", async ({
  page,
  request,
}) => {
  const account = await createAccount(request, { confirm: false });
  const fleet = await createWorkspace(request, account.token);
  await signInAs(page, fleet.token);
  await page.goto("/workspace");
  const notice = page.getByRole("status").filter({ hasText: "Confirm your e-mail" });
  await expect(notice).toContainText(account.email);
  // The product works meanwhile: the workspace's page answers as for anyone.
  await expect(page.getByRole("heading", { name: "Preferences" })).toBeVisible();

  const outbox = `/api/dev/outbox?to=${encodeURIComponent(account.email)}`;
  const linkOf = async () => {
    const res = await request.get(outbox);
    return res.status() === 200 ? ((await res.json()) as { id: number; text: string }) : null;
  };
  await expect.poll(async () => (await linkOf())?.text.includes("/confirm-email/") ?? false).toBe(true);
  const first = (await linkOf())!;
  await notice.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByText(`We sent a new link to ${account.email}`)).toBeVisible();
  await expect.poll(async () => (await linkOf())?.id).not.toBe(first.id);
  const path = new URL((await linkOf())!.text.match(/https?:\/\/\S+\/confirm-email\/\S+/)![0]).pathname;

  await page.goto(path);
  await expect(page.getByText("Your e-mail address is confirmed.")).toBeVisible();
  await page.goto("/workspace");
  await expect(page.getByRole("heading", { name: "Preferences" })).toBeVisible();
  await expect(page.getByText("Confirm your e-mail")).toHaveCount(0);
  // A used link says so.
  await page.goto(path);
  await expect(page.getByRole("alert")).toContainText("not valid or has expired");
});
