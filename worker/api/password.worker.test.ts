import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { LIMITS } from "../auth/rate-limit";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { passwordResetTokens } from "../../db/schema";
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
    const res = await call("/api/password/forgot", {
      method: "POST",
      headers: ip(),
      json: { email: "nobody@example.com" },
    });
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
    const again = await call("/api/password/reset", {
      method: "POST",
      json: { ...link, password: "third password 3" },
    });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("reset_token_expired");
  });

  it("refuses an expired link, and a link used for another user", async () => {
    const { email } = await account();
    const other = await account();
    const link = await resetLink(email);
    const wrongUser = await call("/api/password/reset", {
      method: "POST",
      json: { ...link, user: "someone-else", password: "new password 2" },
    });
    expect(wrongUser.status).toBe(400);
    const otherLink = await resetLink(other.email);
    await database(env.DB)
      .update(passwordResetTokens)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(passwordResetTokens.userId, otherLink.user));
    const expired = await call("/api/password/reset", {
      method: "POST",
      json: { ...otherLink, password: "new password 2" },
    });
    expect(expired.status).toBe(400);
  });
});

describe("password reset, further", () => {
  it("e-mails a link to APP_URL/reset-password carrying the token and the user id", async () => {
    const { email } = await account();
    await call("/api/password/forgot", { method: "POST", headers: ip(), json: { email } });
    const mail = (await (await call(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
      text: string;
      subject: string;
    };
    const link = new URL(mail.text.match(/http\S+/)![0]);
    expect(`${link.origin}${link.pathname}`).toBe(`${env.APP_URL}/reset-password`);
    expect(link.searchParams.get("token")).toMatch(/^[\w-]{43}$/);
    expect(link.searchParams.get("uid")).toBeTruthy();
    // Only the token's hash is stored.
    const stored = await database(env.DB)
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, link.searchParams.get("uid")!))
      .all();
    expect(stored.map((r) => r.tokenHash)).not.toContain(link.searchParams.get("token"));
  });

  it("revokes every session of the user, whatever workspace it names, and no one else's", async () => {
    const { email, token } = await account();
    const second = ((await (await signIn(email, "old password 1")).json()) as { token: string }).token;
    const { id } = (await (
      await call("/api/workspaces", { method: "POST", token, json: { name: "Mine" } })
    ).json()) as { id: string };
    const inWorkspace = (
      (await (await call("/api/workspaces/session", { method: "POST", token, json: { workspaceId: id } })).json()) as {
        token: string;
      }
    ).token;
    const bystander = await account();

    const link = await resetLink(email);
    expect(
      (await call("/api/password/reset", { method: "POST", json: { ...link, password: "new password 2" } })).status,
    ).toBe(200);
    for (const old of [token, second, inWorkspace]) expect((await call("/api/me", { token: old })).status).toBe(401);
    expect((await call("/api/me", { token: bystander.token })).status).toBe(200);
    // Signing in again lands in the workspace as before.
    const fresh = ((await (await signIn(email, "new password 2")).json()) as { token: string }).token;
    expect(
      ((await (await call("/api/me", { token: fresh })).json()) as { workspace: { id: string } }).workspace.id,
    ).toBe(id);
  });

  it("refuses a made-up token, and a new password that is too short", async () => {
    const { email } = await account();
    const link = await resetLink(email);
    const madeUp = await call("/api/password/reset", {
      method: "POST",
      json: { ...link, token: "guess", password: "new password 2" },
    });
    expect(madeUp.status).toBe(400);
    const short = await call("/api/password/reset", { method: "POST", json: { ...link, password: "short" } });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { error: { fields: Record<string, string[]> } }).error.fields.password).toEqual([
      "Use at least 12 characters",
    ]);
    // The refused attempt did not use the link up.
    expect(
      (await call("/api/password/reset", { method: "POST", json: { ...link, password: "new password 2" } })).status,
    ).toBe(200);
  });

  it("limits reset requests per e-mail from one IP, and per IP, with 429 JSON (never per e-mail alone: issue 23)", async () => {
    const { email } = await account();
    const one = ip();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call("/api/password/forgot", { method: "POST", headers: one, json: { email } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await call("/api/password/forgot", { method: "POST", headers: one, json: { email } });
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect((await call("/api/password/forgot", { method: "POST", headers: ip(), json: { email } })).status).toBe(200);

    const headers = ip();
    const fromOneIp: number[] = [];
    for (let i = 0; i <= LIMITS.forgot.max; i++) {
      fromOneIp.push(
        (await call("/api/password/forgot", { method: "POST", headers, json: { email: `nobody-${i}@example.com` } }))
          .status,
      );
    }
    expect(fromOneIp.slice(0, LIMITS.forgot.max).every((s) => s === 200)).toBe(true);
    expect(fromOneIp.at(-1)).toBe(429);
  });
});
