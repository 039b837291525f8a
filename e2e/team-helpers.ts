import { expect, type APIRequestContext } from "@playwright/test";
import { createAccount } from "./helpers";

/** The invite link of the last e-mail to `email`, as the development outbox holds it. */
export async function inviteLink(request: APIRequestContext, email: string) {
  const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
  expect(res.status()).toBe(200);
  const { text } = (await res.json()) as { text: string };
  return new URL(text.match(/https?:\/\/\S+\/invite\/\S+/)![0]).pathname;
}

/** A colleague with `role` in the fleet's workspace, through the public invite API. */
export async function colleague(
  request: APIRequestContext,
  fleet: { token: string; workspaceId: string },
  role: string,
) {
  const account = await createAccount(request);
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const invited = await request.post(`/api/workspaces/${fleet.workspaceId}/invites`, {
    headers: auth(fleet.token),
    data: { email: account.email, role },
  });
  expect(invited.status()).toBe(201);
  const token = (await inviteLink(request, account.email)).split("/").pop()!;
  const accepted = await request.post("/api/invites/accept", { headers: auth(account.token), data: { token } });
  expect(accepted.status()).toBe(200);
  const { token: session } = (await accepted.json()) as { token: string };
  const me = (await (await request.get("/api/me", { headers: auth(session) })).json()) as { viewer: { id: string } };
  return { ...account, token: session, userId: me.viewer.id };
}
