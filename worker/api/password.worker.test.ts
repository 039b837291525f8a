import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../db/client";
import { passwordResetTokens } from "../db/schema";
import { call } from "../test/factories";

const ip = () => ({ "CF-Connecting-IP": `10.1.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}` });

async function account() {
  const email = `reset-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await call("/api/signup", { method: "POST", headers: ip(), json: { email, password: "old password 1" } });
  return { email, token: ((await res.json()) as { token: string }).token };
}

async function resetLink(email: string) {
  const res = await call("/api/password/forgot", { method: "POST", headers: ip(), json: { email } });
  expect(await res.json()).toEqual({ ok: true });
  const mail = (await (await call(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { text: string };
  const link = new URL(mail.text.match(/http\S+/)![0]);
  return { token: link.searchParams.get("token")!, user: link.searchParams.get("uid")! };
}

const signIn = (email: string, password: string) =>
  call("/api/signin", { method: "POST", headers: ip(), json: { email, password } });

describe("password reset", () => {
  it("answers the same for unknown e-mails and sends nothing", async () => {
    const res = await call("/api/password/forgot", { method: "POST", headers: ip(), json: { email: "nobody@example.com" } });
    expect(await res.json()).toEqual({ ok: true });
    expect((await call("/api/dev/outbox?to=nobody@example.com")).status).toBe(404);
  });

  it("sets the new password with the e-mailed link, once, and signs out every session", async () => {
    const { email, token } = await account();
    const link = await resetLink(email);
    const reset = await call("/api/password/reset", { method: "POST", json: { ...link, password: "new password 2" } });
    expect(reset.status).toBe(200);
    expect((await call("/api/me", { token })).status).toBe(401);
    expect((await signIn(email, "old password 1")).status).toBe(401);
    expect((await signIn(email, "new password 2")).status).toBe(200);
    const again = await call("/api/password/reset", { method: "POST", json: { ...link, password: "third password 3" } });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("reset_token_expired");
  });

  it("refuses an expired link, and a link used for another user", async () => {
    const { email } = await account();
    const other = await account();
    const link = await resetLink(email);
    const wrongUser = await call("/api/password/reset", { method: "POST", json: { ...link, user: "someone-else", password: "new password 2" } });
    expect(wrongUser.status).toBe(400);
    const otherLink = await resetLink(other.email);
    await database(env.DB).update(passwordResetTokens).set({ expiresAt: Date.now() - 1 }).where(eq(passwordResetTokens.userId, otherLink.user));
    const expired = await call("/api/password/reset", { method: "POST", json: { ...otherLink, password: "new password 2" } });
    expect(expired.status).toBe(400);
  });
});
