import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";

/** Issue 13 in the browser: "Sign out everywhere" from the top bar menu, and refused weak passwords. */
test("Settings in the top bar menu signs out everywhere: this browser and every other session", async ({ page, request }) => {
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
  const phone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
  const signin = await request.post("/api/signin", { data: { email: fleet.email, password: fleet.password }, headers: { "User-Agent": phone } });
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

test("Settings changes the password with the current one: other devices are signed out, this one stays", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Password Fleet");
  const otherDevice = (await (await request.post("/api/signin", { data: { email: fleet.email, password: fleet.password } })).json()).token as string;
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
  const signedIn = await request.post("/api/signin", { data: { email: fleet.email, password: "violet tugboat orchard 42" } });
  expect(signedIn.status()).toBe(200);
});
