import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { totpCredentials, users } from "../../db/schema";
import { config } from "../env";
import { call } from "../test/factories";
import { stepAt } from "./totp";
import { SEALED_PREFIX, sealClearTotpSecrets } from "./totp-secret";

/** Issue 34, finding 7: the TOTP secret is sealed at rest like webhook secrets; secrets stored in clear are migrated. */
const db = database(env.DB);
const PASSWORD = "correct horse battery";
const post = async (path: string, json: unknown, token?: string) => {
  const res = await call(path, {
    method: "POST",
    json,
    token,
    headers: { "CF-Connecting-IP": `10.6.${Math.floor(Math.random() * 255)}.1` },
  });
  return { status: res.status, body: (await res.json()) as { token?: string; secret?: string } };
};
const codeAt = (secret: string, step: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6);

async function enrolled() {
  const email = `seal-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const token = (await post("/api/signup", { email, password: PASSWORD })).body.token!;
  const secret = (await post("/api/account/two-factor/setup", { password: PASSWORD }, token)).body.secret!;
  const { id } = (await db.select({ id: users.id }).from(users).where(eq(users.email, email)).get())!;
  return { token, secret, userId: id, email };
}
const stored = async (userId: string) =>
  (await db.select().from(totpCredentials).where(eq(totpCredentials.userId, userId)).get())!.secret;

describe("TOTP secrets at rest", () => {
  it("are stored sealed, and the app's codes still work", async () => {
    const { token, secret, userId } = await enrolled();
    const row = await stored(userId);
    expect(row.startsWith(SEALED_PREFIX)).toBe(true);
    expect(row).not.toContain(secret);
    expect(
      (await post("/api/account/two-factor/enable", { code: codeAt(secret, stepAt(Date.now())) }, token)).status,
    ).toBe(200);
  });

  it("stored in clear before, are used and sealed in place, and the cron's pass seals the rest", async () => {
    const used = await enrolled();
    await db.update(totpCredentials).set({ secret: used.secret }).where(eq(totpCredentials.userId, used.userId));
    expect(
      (await post("/api/account/two-factor/enable", { code: codeAt(used.secret, stepAt(Date.now())) }, used.token))
        .status,
    ).toBe(200);
    expect((await stored(used.userId)).startsWith(SEALED_PREFIX)).toBe(true);

    const idle = await enrolled();
    await db.update(totpCredentials).set({ secret: idle.secret }).where(eq(totpCredentials.userId, idle.userId));
    expect(await sealClearTotpSecrets(db, config(env).WEBHOOK_SECRET_KEY)).toBeGreaterThanOrEqual(1);
    expect((await stored(idle.userId)).startsWith(SEALED_PREFIX)).toBe(true);
    expect(
      (await post("/api/account/two-factor/enable", { code: codeAt(idle.secret, stepAt(Date.now())) }, idle.token))
        .status,
    ).toBe(200);
  });
});

describe("a takeover of an unverified address", () => {
  it("by a password reset (which proves the address) clears the factors its earlier holder set; a verified account keeps them", async () => {
    const holder = await enrolled();
    expect(
      (await post("/api/account/two-factor/enable", { code: codeAt(holder.secret, stepAt(Date.now())) }, holder.token))
        .status,
    ).toBe(200);
    const reset = async (email: string) => {
      await call("/api/password/forgot", {
        method: "POST",
        headers: { "CF-Connecting-IP": "10.5.5.5" },
        json: { email },
      });
      const mail = (await (await call(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { text: string };
      const link = new URL(mail.text.match(/http\S+/)![0]);
      const res = await call("/api/password/reset", {
        method: "POST",
        json: {
          token: link.searchParams.get("token"),
          user: link.searchParams.get("uid"),
          password: "owner's new password 9",
        },
      });
      expect(res.status).toBe(200);
    };
    await reset(holder.email);
    expect(
      await db.select().from(totpCredentials).where(eq(totpCredentials.userId, holder.userId)).get(),
    ).toBeUndefined();
    // the owner signs in with the new password and no code from the other person's app
    const signin = await post("/api/signin", { email: holder.email, password: "owner's new password 9" });
    expect(signin.body.token).toEqual(expect.any(String));

    // now verified: a later reset leaves a factor the owner set in place
    const token = signin.body.token!;
    const secret = (await post("/api/account/two-factor/setup", { password: "owner's new password 9" }, token)).body
      .secret!;
    expect(
      (await post("/api/account/two-factor/enable", { code: codeAt(secret, stepAt(Date.now())) }, token)).status,
    ).toBe(200);
    await reset(holder.email);
    expect(
      await db.select().from(totpCredentials).where(eq(totpCredentials.userId, holder.userId)).get(),
    ).toBeDefined();
  });
});
