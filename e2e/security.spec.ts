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
