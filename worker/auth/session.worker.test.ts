import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { sessions } from "../../db/schema";
import { sha256Hex } from "../lib/crypto";
import { call, userWithWorkspace } from "../test/factories";
import { LAST_USED_WRITE_INTERVAL_MS, SESSION_IDLE_MS, SESSION_TTL_MS } from "./session";

/** Sessions that really end (issue 13, ASVS V3.3): what a token can still do after each way of ending it. */
const me = (token: string) => call("/api/me", { token }).then((r) => r.status);
const fromIp = () => ({
  "CF-Connecting-IP": `10.1.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});

async function signUp() {
  const email = `s-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = "correct horse battery";
  const res = await call("/api/signup", { method: "POST", headers: fromIp(), json: { email, password } });
  expect(res.status).toBe(201);
  return { email, password, token: ((await res.json()) as { token: string }).token };
}

async function signIn(email: string, password: string) {
  const res = await call("/api/signin", { method: "POST", headers: fromIp(), json: { email, password } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function newWorkspace(token: string) {
  const created = await call("/api/workspaces", { method: "POST", token, json: { name: "Fleet" } });
  return ((await created.json()) as { id: string }).id;
}

async function switchTo(token: string, workspaceId: string) {
  const res = await call("/api/workspaces/session", { method: "POST", token, json: { workspaceId } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

const row = async (token: string) =>
  (await database(env.DB)
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, await sha256Hex(token)))
    .get())!;

describe("sessions end", () => {
  it("a workspace switch revokes the token it replaces, and the new token keeps the sign-in's absolute end", async () => {
    const user = await signUp();
    const workspaceId = await newWorkspace(user.token);
    const switched = await switchTo(user.token, workspaceId);
    expect(await me(user.token)).toBe(401);
    expect(await me(switched)).toBe(200);
    // The replaced token cannot mint another one either.
    expect(
      (await call("/api/workspaces/session", { method: "POST", token: user.token, json: { workspaceId } })).status,
    ).toBe(401);
    expect((await row(switched)).expiresAt).toBe((await row(user.token)).expiresAt);
    expect((await row(switched)).signinId).toBe((await row(user.token)).signinId);
  });

  it("sign-out ends every token derived from that sign-in, and not another sign-in of the same account", async () => {
    const user = await signUp();
    const workspaceId = await newWorkspace(user.token);
    const derived = await switchTo(user.token, workspaceId);
    const derivedAgain = await switchTo(derived, workspaceId);
    const otherDevice = await signIn(user.email, user.password);
    expect((await call("/api/signout", { method: "POST", token: derivedAgain })).status).toBe(200);
    for (const token of [user.token, derived, derivedAgain]) expect(await me(token)).toBe(401);
    expect(await me(otherDevice)).toBe(200);
  });

  it("sign out everywhere ends every session of the account, and only of that account", async () => {
    const user = await signUp();
    const laptop = await signIn(user.email, user.password);
    const phone = await signIn(user.email, user.password);
    const stranger = await userWithWorkspace();
    const res = await call("/api/signout/everywhere", { method: "POST", token: phone });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, ended: 3 });
    for (const token of [user.token, laptop, phone]) expect(await me(token)).toBe(401);
    expect(await me(stranger.token)).toBe(200);
    expect((await call("/api/signout/everywhere", { method: "POST" })).status).toBe(401);
  });

  it("after 14 days without use", async () => {
    const user = await signUp();
    const db = database(env.DB);
    const hash = await sha256Hex(user.token);
    await db
      .update(sessions)
      .set({ lastUsedAt: Date.now() - SESSION_IDLE_MS + 60_000 })
      .where(eq(sessions.tokenHash, hash));
    expect(await me(user.token)).toBe(200); // a day short of it: still live, and this use restarts the clock
    expect((await row(user.token)).lastUsedAt).toBeGreaterThan(Date.now() - 60_000);
    await db
      .update(sessions)
      .set({ lastUsedAt: Date.now() - SESSION_IDLE_MS - 1 })
      .where(eq(sessions.tokenHash, hash));
    expect(await me(user.token)).toBe(401);
  });

  it("30 days after sign-in, however often it is used", async () => {
    const user = await signUp();
    const created = await row(user.token);
    expect(created.expiresAt - created.createdAt).toBeGreaterThanOrEqual(SESSION_TTL_MS - 1000);
    expect(created.expiresAt - created.createdAt).toBeLessThanOrEqual(SESSION_TTL_MS + 1000);
    await database(env.DB)
      .update(sessions)
      .set({ expiresAt: Date.now() - 1, lastUsedAt: Date.now() })
      .where(eq(sessions.tokenHash, created.tokenHash));
    expect(await me(user.token)).toBe(401);
  });

  it("writes the idle clock at most once a minute, so reads stay reads", async () => {
    const user = await signUp();
    const db = database(env.DB);
    const hash = await sha256Hex(user.token);
    const recent = Date.now() - LAST_USED_WRITE_INTERVAL_MS / 2;
    await db.update(sessions).set({ lastUsedAt: recent }).where(eq(sessions.tokenHash, hash));
    expect(await me(user.token)).toBe(200);
    expect((await row(user.token)).lastUsedAt).toBe(recent);
    const stale = Date.now() - LAST_USED_WRITE_INTERVAL_MS - 1;
    await db.update(sessions).set({ lastUsedAt: stale }).where(eq(sessions.tokenHash, hash));
    expect(await me(user.token)).toBe(200);
    expect((await row(user.token)).lastUsedAt).toBeGreaterThan(stale);
  });
});
