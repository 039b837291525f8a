import type { APIRequestContext, Page } from "@playwright/test";

/** Accounts and workspaces through the public API, for tests that are not about signing up. */
/**
 * An account through the public sign-up API, its address confirmed with the link sign-up e-mailed
 * (issue 39: mail to others waits for it) unless `confirm: false`.
 */
export async function createAccount(
  request: APIRequestContext,
  opts: { email?: string; password?: string; confirm?: boolean } = {},
): Promise<{ email: string; password: string; token: string }> {
  const email = opts.email ?? `e2e-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = opts.password ?? "correct horse battery";
  const res = await request.post("/api/signup", { data: { email, password } });
  if (res.status() !== 201) throw new Error(`signup failed: ${res.status()} ${await res.text()}`);
  const token = (await res.json()).token as string;
  if (opts.confirm !== false) await confirmEmail(request, email);
  return { email, password, token };
}

/** Follows the confirmation link of the last e-mail to `email` (sent after the sign-up's answer). */
export async function confirmEmail(request: APIRequestContext, email: string) {
  const outbox = `/api/dev/outbox?to=${encodeURIComponent(email)}`;
  let link: string | undefined;
  for (let tries = 0; tries < 50 && !link; tries++) {
    const res = await request.get(outbox);
    if (res.status() === 200) link = ((await res.json()) as { text: string }).text.match(/\/confirm-email\/(\S+)/)?.[1];
    if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!link) throw new Error(`no confirmation e-mail to ${email}`);
  const confirmed = await request.post("/api/email/confirm", { data: { token: link } });
  if (confirmed.status() !== 200) throw new Error(`confirming failed: ${confirmed.status()}`);
}

export async function createWorkspace(
  request: APIRequestContext,
  token: string,
  name = "Test Fleet",
): Promise<{ workspaceId: string; token: string }> {
  const headers = { Authorization: `Bearer ${token}` };
  // In a run at another zone (playwright.config.ts E2E_TIME_ZONE) the workspace is in it too, as the
  // app makes it from the creator's browser.
  const timeZone = process.env.E2E_TIME_ZONE;
  const created = await request.post("/api/workspaces", { headers, data: { name, ...(timeZone && { timeZone }) } });
  if (created.status() !== 201) throw new Error(`workspace failed: ${created.status()} ${await created.text()}`);
  const { id } = await created.json();
  const switched = await request.post("/api/workspaces/session", { headers, data: { workspaceId: id } });
  return { workspaceId: id, token: (await switched.json()).token };
}

export async function newFleetAccount(request: APIRequestContext, name?: string) {
  const account = await createAccount(request);
  const workspace = await createWorkspace(request, account.token, name);
  return { ...account, ...workspace };
}

/** Signs the browser in the way the app itself does: the token under localStorage "las". */
export async function signInAs(page: Page, token: string) {
  await page.addInitScript((t) => {
    if (!sessionStorage.getItem("e2e-signed-in")) {
      localStorage.setItem("las", JSON.stringify({ token: t }));
      sessionStorage.setItem("e2e-signed-in", "1");
    }
  }, token);
}
