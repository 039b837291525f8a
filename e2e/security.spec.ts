import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";

/** Issue 13 in the browser: "Sign out everywhere" from the top bar menu, and refused weak passwords. */
test("Settings in the top bar menu signs out everywhere: this browser and every other session", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Everywhere Fleet");
  const signin = await request.post("/api/signin", { data: { email: fleet.email, password: fleet.password } });
  const otherDevice = (await signin.json()).token as string;
  await signInAs(page, fleet.token);
  await page.goto("/vehicles");
  await page.getByLabel("Account menu").click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/login/);
  for (const token of [fleet.token, otherDevice]) {
    expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
  }
});

test("registration refuses a common password with a message on the field", async ({ page }) => {
  await page.goto("/registration");
  await page.getByLabel("Email").fill(`e2e-${crypto.randomUUID().slice(0, 8)}@example.com`);
  await page.getByLabel("Password").fill("123456789012");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("This password is too common or easy to guess")).toBeVisible();
  await expect(page).toHaveURL(/\/registration$/);
});

test("Settings shows where the account is signed in and signs one other device out", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Sessions Fleet");
  const phone =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
  const signin = await request.post("/api/signin", {
    data: { email: fleet.email, password: fleet.password },
    headers: { "User-Agent": phone },
  });
  const otherDevice = (await signin.json()).token as string;
  await signInAs(page, fleet.token);
  await page.goto("/settings");
  const list = page.getByRole("table", { name: "Active sessions" });
  await expect(list.getByText("(this device)")).toBeVisible();
  await expect(list.getByText("Safari on iOS")).toBeVisible();
  await list.getByRole("button", { name: /^Sign out Safari on iOS/ }).click();
  await expect(list.getByText("Safari on iOS")).toHaveCount(0);
  expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${otherDevice}` } })).status()).toBe(401);
  expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${fleet.token}` } })).status()).toBe(200);
});

test("Settings changes the password with the current one: other devices are signed out, this one stays", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Password Fleet");
  const otherDevice = (
    await (await request.post("/api/signin", { data: { email: fleet.email, password: fleet.password } })).json()
  ).token as string;
  await signInAs(page, fleet.token);
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Change password" });
  await form.getByLabel("Current password").fill("not my password at all");
  await form.getByLabel("New password").fill("violet tugboat orchard 42");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("Wrong password")).toBeVisible();

  await form.getByLabel("Current password").fill(fleet.password);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed. Your other devices were signed out.")).toBeVisible();
  expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${otherDevice}` } })).status()).toBe(401);
  // This browser carries on with its fresh session: a reload stays signed in on Settings.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Security" })).toBeVisible();
  const signedIn = await request.post("/api/signin", {
    data: { email: fleet.email, password: "violet tugboat orchard 42" },
  });
  expect(signedIn.status()).toBe(200);
});

/** The authenticator app: the code of the 30-second step `ahead` steps from now. */
const appCode = (secret: string, ahead = 0) =>
  generateHOTP(
    decodeBase32IgnorePadding(secret.replace(/\s/g, "")),
    BigInt(Math.floor(Date.now() / 30_000) + ahead),
    6,
  );

test("two-factor authentication: turned on in Settings, then the login asks for the app's code", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Two Factor Fleet");
  await signInAs(page, fleet.token);
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Two-factor authentication" });
  await section.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await section.getByLabel("Your password").fill(fleet.password);
  await section.getByRole("button", { name: "Continue" }).click();
  const secret = (await section.getByLabel("Two-factor key").textContent())!;
  await section.getByLabel("Code from the app").fill("000000");
  await section.getByRole("button", { name: "Turn on" }).click();
  await expect(section.getByText(/^Wrong code/)).toBeVisible();
  await section.getByLabel("Code from the app").fill(appCode(secret));
  await section.getByRole("button", { name: "Turn on" }).click();
  await expect(section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await section.getByRole("button", { name: "I have saved them" }).click();
  await expect(section.getByText("Recovery codes left: 10")).toBeVisible();

  // Signed out, the password alone is no longer enough.
  await page.evaluate(() => localStorage.removeItem("las"));
  await page.goto("/login");
  await page.getByLabel("Email").fill(fleet.email);
  await page.getByRole("button", { name: "Continue with Email" }).click();
  await page.getByLabel("Password").fill(fleet.password);
  await page.getByRole("button", { name: "Log in" }).click();
  const step = page.getByRole("form", { name: "Two-factor authentication" });
  await step.getByLabel("Authentication code").fill("123456");
  await step.getByRole("button", { name: "Verify" }).click();
  await expect(step.getByText("Wrong code")).toBeVisible();
  await step.getByLabel("Authentication code").fill(appCode(secret, 1));
  await step.getByRole("button", { name: "Verify" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByLabel("Account menu")).toBeVisible();
});

test("Settings downloads the account's data, then deletes the account with its workspace", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Leaving Fleet");
  await signInAs(page, fleet.token);
  await page.goto("/settings");
  const data = page.getByRole("region", { name: "Your data" });
  const download = page.waitForEvent("download");
  await data.getByRole("button", { name: "Download my data" }).click();
  const file = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  const exported = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  expect(exported.account.email).toBe(fleet.email);
  expect(exported.memberships).toEqual([expect.objectContaining({ workspace: "Leaving Fleet", role: "owner" })]);

  const form = page.getByRole("form", { name: "Delete account" });
  await expect(
    form.getByText("You are alone in Leaving Fleet: deleted too, with its vehicles and history.", { exact: false }),
  ).toBeVisible();
  await form.getByLabel("Type your e-mail to confirm").fill(fleet.email);
  await form.getByLabel("Password").fill("not the password at all");
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(form.getByText("Wrong password")).toBeVisible();
  await form.getByLabel("Password").fill(fleet.password);
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).not.toHaveURL(/\/settings/);
  expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${fleet.token}` } })).status()).toBe(401);
  const signin = await request.post("/api/signin", { data: { email: fleet.email, password: fleet.password } });
  expect(signin.status()).toBe(401);
});
