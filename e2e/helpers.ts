import type { APIRequestContext, Page } from "@playwright/test";

/** Accounts and workspaces through the public API, for tests that are not about signing up. */
export async function createAccount(
  request: APIRequestContext,
  opts: { email?: string; password?: string } = {},
): Promise<{ email: string; password: string; token: string }> {
  const email = opts.email ?? `e2e-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = opts.password ?? "correct horse battery";
  const res = await request.post("/api/signup", { data: { email, password } });
  if (res.status() !== 201) throw new Error(`signup failed: ${res.status()} ${await res.text()}`);
  return { email, password, token: (await res.json()).token };
}

export async function createWorkspace(
  request: APIRequestContext,
  token: string,
  name = "Test Fleet",
): Promise<{ workspaceId: string; token: string }> {
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post("/api/workspaces", { headers, data: { name } });
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
