import type { Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createAccount, createWorkspace, newFleetAccount, signInAs } from "./helpers";

/**
 * Every account screen and flow of docs/product.md sections 2, 4, 5 and 8, against the real Worker and
 * D1. Nothing is faked; where a test needs to see a state that lasts only while a request is in
 * flight (spinners, "Authenticating via …"), it holds that real request until it has looked.
 */

const unknownEmail = () => `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** Holds requests matching `url` until `release()`; then they go to the real Worker. */
async function holdRequests(page: Page, url: string | RegExp) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue with Email" }).click();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

const failedAlert = (page: Page) => page.getByRole("alert").filter({ hasText: "We didn't recognize that password" });

test.describe("login", () => {
  test("asks for the e-mail first, then the password of a known account", async ({ page, request }) => {
    const account = await createAccount(request);
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
    const email = page.getByLabel("Email");
    const password = page.getByLabel("Password");
    await expect(password).toHaveCount(0);

    await email.fill(unknownEmail());
    await page.getByRole("button", { name: "Continue with Email" }).click();
    const notFound = page.getByText("We couldn't find that one. Want to try another?");
    await expect(notFound).toBeVisible();
    await expect(password).toHaveCount(0);

    await email.fill(account.email);
    await expect(notFound).toBeHidden();
    await page.getByRole("button", { name: "Continue with Email" }).click();
    await expect(password).toBeVisible();
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Email" })).toHaveCount(0);

    await password.fill(account.password);
    await page.getByRole("button", { name: "Log in" }).click();
    // No workspace yet: / sends a new account on to /setup.
    await expect(page).toHaveURL(/\/setup$/);
    await expect(page.getByRole("heading", { name: "Create your workspace" })).toBeVisible();
  });

  test("a wrong password shows the alert, clears the field; changing the e-mail resets the form", async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await page.goto("/login");
    await logIn(page, account.email, "not my password");
    await expect(failedAlert(page)).toBeVisible();
    await expect(failedAlert(page).getByRole("link", { name: "Forgot your password?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    await expect(page.getByLabel("Password")).toHaveValue("");

    await page.getByLabel("Email").fill(unknownEmail());
    await expect(page.getByLabel("Password")).toHaveCount(0);
    await expect(failedAlert(page)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Continue with Email" })).toBeVisible();

    await failedAlertLinkWorks(page, account.email);
  });

  test("validates the e-mail: Required, then Invalid email address", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Email" }).click();
    await expect(page.getByText("Required")).toBeVisible();
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Continue with Email" }).click();
    await expect(page.getByText("Invalid email address")).toBeVisible();
    await expect(page.getByLabel("Password")).toHaveCount(0);
  });

  for (const address of ["bad@", "not-an-email"]) {
    test(`the first Continue with Email on a fresh page says "${address}" is invalid`, async ({ page }) => {
      await page.goto("/login");
      await page.getByLabel("Email").fill(address);
      await page.getByRole("button", { name: "Continue with Email" }).click();
      await expect(page.getByText("Invalid email address")).toBeVisible();
      await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    });

    test(`the first Create Account on a fresh page says "${address}" is invalid`, async ({ page }) => {
      await page.goto("/registration");
      await page.getByLabel("Email").fill(address);
      await page.getByRole("button", { name: "Create Account" }).click();
      await expect(page.getByText("Invalid email address")).toBeVisible();
    });
  }

  test("disables the button with a spinner while the e-mail is being checked", async ({ page, request }) => {
    const account = await createAccount(request);
    const release = await holdRequests(page, "**/api/verify/email");
    await page.goto("/login");
    await page.getByLabel("Email").fill(account.email);
    const button = page.getByRole("button", { name: "Continue with Email" });
    await button.click();
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute("aria-busy", "true");
    await expect(button.locator(".spinner")).toBeVisible();
    release();
    await expect(page.getByLabel("Password")).toBeVisible();
    await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();
  });

  test("links to sign-up, terms and privacy", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Terms" }).click();
    await expect(page.getByRole("heading", { name: "Terms of Service" })).toBeVisible();
    await page.goto("/login");
    await page.getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page.getByRole("heading", { name: "Privacy Policy" })).toBeVisible();
    await page.goto("/login");
    await page.getByRole("link", { name: "Create an account" }).click();
    await expect(page).toHaveURL(/\/registration$/);
  });

  test("the Google button spins while asking for Google's address, then shows the failure alert", async ({ page }) => {
    // This server has no Google client configured: the address request fails with 404 JSON.
    const release = await holdRequests(page, "**/api/oauth/google/url");
    await page.goto("/login");
    const google = page.getByRole("button", { name: "Continue with Google" });
    await google.click();
    await expect(google).toBeDisabled();
    await expect(google.locator(".spinner")).toBeVisible();
    release();
    await expect(failedAlert(page)).toBeVisible();
    await expect(google).toBeEnabled();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a Google failure after the password step also clears the password", async ({ page, request }) => {
    const account = await createAccount(request);
    await page.goto("/login");
    await page.getByLabel("Email").fill(account.email);
    await page.getByRole("button", { name: "Continue with Email" }).click();
    await page.getByLabel("Password").fill("half typed");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(failedAlert(page)).toBeVisible();
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page).toHaveURL(/\/login$/);
  });
});

/** The alert's link goes to /forgot-password. */
async function failedAlertLinkWorks(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue with Email" }).click();
  await page.getByLabel("Password").fill("still wrong");
  await page.getByRole("button", { name: "Log in" }).click();
  await failedAlert(page).getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
}

test.describe("protected routes", () => {
  test("a deep link sends a signed-out user to login carrying it, and login returns there", async ({
    page,
    request,
  }) => {
    const account = await newFleetAccount(request);
    await page.goto("/vehicles?x=1");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fvehicles%3Fx%3D1$/);
    await logIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/vehicles\?x=1$/);
  });

  test("from the root there is no redirect value, and login goes to the map", async ({ page, request }) => {
    const account = await newFleetAccount(request);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await logIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/map$/);
  });

  test("a redirect value to another site is ignored", async ({ page, request }) => {
    const account = await newFleetAccount(request);
    await page.goto("/login?redirect=//evil.example/steal");
    await logIn(page, account.email, account.password);
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/map$/);
  });

  test("a stored token the server no longer accepts signs out silently", async ({ page, request }) => {
    const account = await newFleetAccount(request);
    await request.post("/api/signout", { headers: { Authorization: `Bearer ${account.token}` } });
    await signInAs(page, account.token);
    await page.goto("/map");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fmap$/);
    expect(await page.evaluate(() => localStorage.getItem("las"))).toBeNull();
    await expect(page.getByRole("alert")).toHaveCount(0);
  });
});

test.describe("sign-up and first workspace", () => {
  test("registration signs in, / leads to /setup, and creating a workspace opens the map", async ({ page }) => {
    const email = unknownEmail();
    await page.goto("/registration");
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a long new password");
    await page.getByRole("button", { name: "Create Account" }).click();

    await expect(page).toHaveURL(/\/setup$/);
    await expect(page.getByRole("heading", { name: "Create your workspace" })).toBeVisible();
    const name = page.getByLabel("Name your workspace");
    await expect(name).toHaveAttribute("placeholder", "e.g. Organization Name, Project Name, etc.");
    await name.fill("Rocket Freight");
    await page.getByRole("button", { name: "Create Workspace" }).click();

    await expect(page).toHaveURL(/\/map$/);
    await expect(page.getByRole("button", { name: "Workspace menu" })).toContainText("Rocket Freight");
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem("las")!).token as string);
    const me = await (await page.request.get("/api/me", { headers: { Authorization: `Bearer ${token}` } })).json();
    expect(me.viewer.email).toBe(email);
    expect(me.workspace.name).toBe("Rocket Freight");
  });

  test("registration with an e-mail already registered shows the sign-up failure alert and clears the password", async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await page.goto("/registration");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill("another long password");
    await page.getByRole("button", { name: "Create Account" }).click();
    // docs/product.md section 8: a sign-up failure is the same alert as a failed sign-in.
    await expect(failedAlert(page)).toBeVisible();
    await expect(failedAlert(page).getByRole("link", { name: "Forgot your password?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page.getByText("An account with this e-mail already exists")).toHaveCount(0);
    await expect(page).toHaveURL(/\/registration$/);
  });

  test("setup requires a name", async ({ page, request }) => {
    const account = await createAccount(request);
    await signInAs(page, account.token);
    await page.goto("/setup");
    await page.getByRole("button", { name: "Create Workspace" }).click();
    await expect(page.getByText("Required")).toBeVisible();
    await expect(page).toHaveURL(/\/setup$/);
  });
});

test.describe("workspace creation failure", () => {
  test("marks the name invalid and clears it, with no text", async ({ page, request }) => {
    const account = await createAccount(request);
    await signInAs(page, account.token);
    await page.goto("/setup");
    const name = page.getByLabel("Name your workspace");
    await expect(name).toBeVisible();
    // The session ends elsewhere (say, logged out in another tab): the next call is refused.
    await request.post("/api/signout", { headers: { Authorization: `Bearer ${account.token}` } });
    await name.fill("Doomed Fleet");
    await page.getByRole("button", { name: "Create Workspace" }).click();
    await expect(name).toHaveValue("");
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page).toHaveURL(/\/setup$/);
  });
});

test.describe("password recovery", () => {
  test("forgot password e-mails a link whose new password works, and ends every old session", async ({
    page,
    request,
  }) => {
    const account = await newFleetAccount(request);
    await page.goto("/login");
    await logIn(page, account.email, "forgot it");
    await failedAlert(page).getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();

    await page.getByLabel("Email").fill(account.email);
    await page.getByRole("button", { name: "Email me reset instructions" }).click();
    await expect(page.getByText("It's sent!")).toBeVisible();

    const outbox = `/api/dev/outbox?to=${encodeURIComponent(account.email)}`;
    // The sign-up's confirmation e-mail came first (issue 39): wait for the reset one.
    const latest = async () => {
      const res = await request.get(outbox);
      return res.status() === 200 ? ((await res.json()) as { text: string }) : null;
    };
    await expect.poll(async () => (await latest())?.text.includes("/reset-password") ?? false).toBe(true);
    const mail = (await latest())!;
    const link = new URL(mail.text.match(/http\S+/)![0]);
    expect(link.pathname).toBe("/reset-password");

    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole("heading", { name: "Create new password" })).toBeVisible();
    await page.getByLabel("New password").fill("my brand new password");
    await page.getByRole("button", { name: "Create new password" }).click();
    await expect(page.getByText("Your password has been updated")).toBeVisible();
    const old = await request.get("/api/me", { headers: { Authorization: `Bearer ${account.token}` } });
    expect(old.status()).toBe(401);

    await page.getByRole("link", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await logIn(page, account.email, account.password);
    await expect(failedAlert(page)).toBeVisible();
    await page.getByLabel("Password").fill("my brand new password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/map$/);

    // The link worked once.
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel("New password").fill("yet another password");
    await page.getByRole("button", { name: "Create new password" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Your reset password token has expired" })).toBeVisible();
  });

  test("forgot password says the same for an unknown e-mail", async ({ page }) => {
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(unknownEmail());
    await page.getByRole("button", { name: "Email me reset instructions" }).click();
    await expect(page.getByText("It's sent!")).toBeVisible();
    await page.getByRole("link", { name: "Back to log in" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("reset without a token: the form is disabled under the expired-token alert", async ({ page }) => {
    await page.goto("/reset-password");
    const alert = page.getByRole("alert").filter({ hasText: "Your reset password token has expired" });
    await expect(alert).toBeVisible();
    await expect(alert.getByRole("link", { name: "Need us to resend a reset password email?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    await expect(page.getByLabel("New password")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Create new password" })).toBeDisabled();
  });
});

test.describe("OAuth return", () => {
  for (const [provider, name] of [
    ["google", "Google"],
    ["jobber", "Jobber"],
    ["facebook", "Facebook"],
  ] as const) {
    test(`/oauth/${provider} shows Authenticating via ${name} while it posts the code`, async ({ page }) => {
      const posted: unknown[] = [];
      page.on("request", (req) => {
        if (req.url().endsWith(`/api/oauth/${provider}/token`)) posted.push(req.postDataJSON());
      });
      const release = await holdRequests(page, `**/api/oauth/${provider}/token`);
      await page.goto(`/oauth/${provider}?code=the-code&state=the-state`);
      await expect(page.getByText(`Authenticating via ${name}`)).toBeVisible();
      // The text renders before the effect that posts the code has sent it.
      await expect.poll(() => posted).toEqual([{ code: "the-code", state: "the-state" }]);
      release();
      // The server refuses (no Google client here; no Jobber or Facebook at all): silently back to login.
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("alert")).toHaveCount(0);
    });
  }
});

test.describe("workspaces and logging out", () => {
  test("the workspace menu lists every workspace with a check on the current, and switches", async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    const alpha = await createWorkspace(request, account.token, "Alpha Fleet");
    // Created without switching to it: a switch would revoke the token it replaces (issue 13).
    const bravo = await request.post("/api/workspaces", {
      headers: { Authorization: `Bearer ${alpha.token}` },
      data: { name: "Bravo Fleet" },
    });
    expect(bravo.status()).toBe(201);
    await signInAs(page, alpha.token);
    await page.goto("/map");

    const trigger = page.getByRole("button", { name: "Workspace menu" });
    await expect(trigger).toContainText("Alpha Fleet");
    await trigger.click();
    const switcher = page.getByRole("group", { name: "Switch workspace" });
    await expect(switcher).toContainText(account.email);
    await expect(switcher.getByRole("menuitem", { name: /Alpha Fleet/ })).toContainText("✓");
    await expect(switcher.getByRole("menuitem", { name: /Bravo Fleet/ })).not.toContainText("✓");

    await switcher.getByRole("menuitem", { name: /Bravo Fleet/ }).click();
    await expect(page.getByRole("button", { name: "Workspace menu" })).toContainText("Bravo Fleet");
    await expect(page).toHaveURL(/\/map$/);
    await page.getByRole("button", { name: "Workspace menu" }).click();
    await expect(switcher.getByRole("menuitem", { name: /Bravo Fleet/ })).toContainText("✓");
    await expect(switcher.getByRole("menuitem", { name: /Alpha Fleet/ })).not.toContainText("✓");
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem("las")!).token as string);
    expect(token).not.toBe(alpha.token);

    await switcher.getByRole("menuitem", { name: "New workspace" }).click();
    await expect(page).toHaveURL(/\/setup$/);
    await expect(page.getByRole("heading", { name: "Create your workspace" })).toBeVisible();
  });

  test("log out revokes the session on the server and lands on the login page", async ({ page, request }) => {
    const account = await newFleetAccount(request);
    await signInAs(page, account.token);
    await page.goto("/map");
    await page.getByRole("button", { name: "Workspace menu" }).click();
    await page.getByRole("menu", { name: "Workspace menu" }).getByRole("menuitem", { name: "Log out" }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("las"))).toBeNull();
    const me = await request.get("/api/me", { headers: { Authorization: `Bearer ${account.token}` } });
    expect(me.status()).toBe(401);
  });
});
