import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { memberships, passwordCredentials, users } from "../../db/schema";
import { stepAt } from "../auth/totp";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";

/** Issue 34, finding 9: account deletion asks the second factor when set, and cannot leave a workspace ownerless. */
const db = database(env.DB);
const PASSWORD = "correct horse battery";
const ip = () => ({ "CF-Connecting-IP": `10.7.${Math.floor(Math.random() * 255)}.1` });
const post = async (path: string, json: unknown, token?: string) => {
  const res = await call(path, { method: "POST", json, token, headers: ip() });
  return {
    status: res.status,
    body: (await res.json()) as { token?: string; secret?: string; recoveryCodes?: string[]; error?: { code: string } },
  };
};

describe("account deletion", () => {
  it("asks the second factor when it is on, also for an account that signs in with Google only", async () => {
    const email = `del-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const token = (await post("/api/signup", { email, password: PASSWORD })).body.token!;
    const secret = (await post("/api/account/two-factor/setup", { password: PASSWORD }, token)).body.secret!;
    const codes = (
      await post(
        "/api/account/two-factor/enable",
        { code: generateHOTP(decodeBase32IgnorePadding(secret), BigInt(stepAt(Date.now())), 6) },
        token,
      )
    ).body.recoveryCodes!;
    const plan = (await (await call("/api/account/deletion", { token })).json()) as { hasSecondFactor: boolean };
    expect(plan.hasSecondFactor).toBe(true);
    // as a Google-only account: no password to ask
    const { id } = (await db.select({ id: users.id }).from(users).where(eq(users.email, email)).get())!;
    await db.delete(passwordCredentials).where(eq(passwordCredentials.userId, id));

    const without = await post("/api/account/delete", { email }, token);
    expect(without.status).toBe(400);
    expect(without.body.error?.code).toBe("invalid_code");
    expect((await post("/api/account/delete", { email, code: "000000" }, token)).status).toBe(400);
    expect((await post("/api/account/delete", { email, code: codes[0] }, token)).status).toBe(200);
    expect(await db.select().from(users).where(eq(users.id, id)).get()).toBeUndefined();
  });

  it("by two co-owners at once leaves the workspace one owner", async () => {
    const first = await userWithWorkspace();
    const second = await memberWithRole(first.workspaceId, "owner");
    await memberWithRole(first.workspaceId, "member");
    const firstEmail = (await db.select({ email: users.email }).from(users).where(eq(users.id, first.userId)).get())!
      .email;
    const answers = await Promise.all([
      post("/api/account/delete", { email: firstEmail }, first.token),
      post("/api/account/delete", { email: second.email }, second.token),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const owners = await db
      .select()
      .from(memberships)
      .where(and(eq(memberships.workspaceId, first.workspaceId), eq(memberships.role, "owner")))
      .all();
    expect(owners).toHaveLength(1);
  });
});
