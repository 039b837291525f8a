import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { database } from "../../db/client";
import { createSession } from "../auth/session";
import { invites, memberships, users } from "../../db/schema";
import { SESSION_ENDED_CLOSE_CODE } from "../../shared/sync/room-protocol";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { closeSockets, connect } from "../test/sockets";
import { firstPull } from "../test/sync";

afterEach(closeSockets);

type Json = Record<string, unknown> & { error?: { code: string; message: string; fields?: Record<string, string[]> } };
const json = async (res: Response) => (await res.json()) as Json;
const ip = () => ({
  "CF-Connecting-IP": `10.20.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});

async function signUp(email: string) {
  const res = await call("/api/signup", { method: "POST", headers: ip(), json: { email, password: "long enough 1" } });
  expect(res.status).toBe(201);
  return (await json(res)).token as string;
}

const invite = (token: string, workspaceId: string, email: string, role = "member") =>
  call(`/api/workspaces/${workspaceId}/invites`, { method: "POST", token, json: { email, role } });

/** The invite link's token, from the last e-mail to `email` in the development outbox. */
async function linkTokenFor(email: string) {
  const mail = (await json(await call(`/api/dev/outbox?to=${encodeURIComponent(email)}`))) as { text: string };
  return mail.text.match(/\/invite\/([\w-]+)/)![1]!;
}

const accept = (token: string, inviteToken: string) =>
  call("/api/invites/accept", { method: "POST", token, json: { token: inviteToken } });
const newEmail = () => `invited-${crypto.randomUUID().slice(0, 8)}@example.com`;

describe("invites", () => {
  it("an owner invites by e-mail; the invited account accepts once and is a member with that role", async () => {
    const owner = await userWithWorkspace();
    const email = newEmail();
    const created = await invite(owner.token, owner.workspaceId, email, "viewer");
    expect(created.status).toBe(201);
    const body = await json(created);
    expect(body).toMatchObject({ email, role: "viewer" });
    expect(body.expiresAt).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600_000);
    const linkToken = await linkTokenFor(email);
    // Only the hash is stored.
    const stored = await database(env.DB)
      .select()
      .from(invites)
      .where(eq(invites.id, body.id as string))
      .get();
    expect(stored!.tokenHash).not.toContain(linkToken);
    expect(await json(await call(`/api/invites/${linkToken}`))).toMatchObject({
      email,
      role: "viewer",
      accountExists: false,
    });

    const session = await signUp(email);
    const res = await accept(session, linkToken);
    expect(res.status).toBe(200);
    const accepted = await json(res);
    expect(accepted).toMatchObject({ workspaceId: owner.workspaceId, role: "viewer" });
    // The session switched to the workspace joined, and it is listed with the role.
    const me = await json(await call("/api/me", { token: accepted.token as string }));
    expect(me.workspace).toMatchObject({ id: owner.workspaceId });
    const listed = await json(await call("/api/workspaces", { token: accepted.token as string }));
    expect(listed.workspaces).toEqual([{ id: owner.workspaceId, name: expect.any(String), role: "viewer" }]);

    // Reuse: a clear 410, nothing changed.
    const again = await accept(accepted.token as string, linkToken);
    expect(again.status).toBe(410);
    expect((await json(again)).error!.message).toMatch(/already been used/);
    const members = await json(await call(`/api/workspaces/${owner.workspaceId}/members`, { token: owner.token }));
    expect(members.members).toHaveLength(2);
    expect(members.invites).toEqual([]);
  });

  it("another signed-in account is refused with 403 and the invite stays usable", async () => {
    const owner = await userWithWorkspace();
    const email = newEmail();
    await invite(owner.token, owner.workspaceId, email);
    const linkToken = await linkTokenFor(email);
    const stranger = await signUp(newEmail());
    const res = await accept(stranger, linkToken);
    expect(res.status).toBe(403);
    expect((await json(res)).error!.message).toContain(email);
    expect((await accept(await signUp(email), linkToken)).status).toBe(200);
  });

  it("an expired invite is 410; a revoked one is 410; a resent one's old link is dead (404) and the new one works", async () => {
    const owner = await userWithWorkspace();
    const db = database(env.DB);
    const expiredEmail = newEmail();
    const expired = await json(await invite(owner.token, owner.workspaceId, expiredEmail));
    await db
      .update(invites)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(invites.id, expired.id as string));
    // The invite's link is read first: signing up mails the address its confirmation link (issue 39).
    const expiredLink = await linkTokenFor(expiredEmail);
    const expiredRes = await accept(await signUp(expiredEmail), expiredLink);
    expect(expiredRes.status).toBe(410);
    expect((await json(expiredRes)).error!.message).toMatch(/expired/);

    const revokedEmail = newEmail();
    const revoked = await json(await invite(owner.token, owner.workspaceId, revokedEmail));
    expect(
      (
        await call(`/api/workspaces/${owner.workspaceId}/invites/${revoked.id}`, {
          method: "DELETE",
          token: owner.token,
        })
      ).status,
    ).toBe(200);
    const revokedLink = await linkTokenFor(revokedEmail);
    expect((await accept(await signUp(revokedEmail), revokedLink)).status).toBe(410);

    const resentEmail = newEmail();
    const first = await json(await invite(owner.token, owner.workspaceId, resentEmail));
    const oldLink = await linkTokenFor(resentEmail);
    const resent = await call(`/api/workspaces/${owner.workspaceId}/invites/${first.id}/resend`, {
      method: "POST",
      token: owner.token,
    });
    expect(resent.status).toBe(200);
    const newLink = await linkTokenFor(resentEmail);
    expect(newLink).not.toBe(oldLink);
    const session = await signUp(resentEmail);
    expect((await accept(session, oldLink)).status).toBe(404);
    expect((await accept(session, newLink)).status).toBe(200);
    const rows = await db.select().from(memberships).where(eq(memberships.workspaceId, owner.workspaceId)).all();
    expect(rows).toHaveLength(2); // the owner and the one accepted invite
  });

  it("two accepts at once: exactly one wins", async () => {
    const owner = await userWithWorkspace();
    const email = newEmail();
    await invite(owner.token, owner.workspaceId, email);
    const linkToken = await linkTokenFor(email);
    const session = await signUp(email);
    const db = database(env.DB);
    const user = await db.select().from(users).where(eq(users.email, email)).get();
    const second = await createSession(db, user!.id, null);
    const answers = await Promise.all([accept(session, linkToken), accept(second, linkToken)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 410]);
  });

  it("bad input is 400 with field errors; an admin cannot invite an owner; a member cannot invite; an existing member is 409", async () => {
    const owner = await userWithWorkspace();
    const bad = await invite(owner.token, owner.workspaceId, "not-an-email", "captain");
    expect(bad.status).toBe(400);
    expect(Object.keys((await json(bad)).error!.fields!)).toEqual(expect.arrayContaining(["email", "role"]));
    const admin = await memberWithRole(owner.workspaceId, "admin");
    expect((await invite(admin.token, owner.workspaceId, newEmail(), "owner")).status).toBe(403);
    expect((await invite(admin.token, owner.workspaceId, newEmail(), "admin")).status).toBe(201);
    const member = await memberWithRole(owner.workspaceId, "member");
    expect((await invite(member.token, owner.workspaceId, newEmail())).status).toBe(403);
    expect((await invite(owner.token, owner.workspaceId, member.email)).status).toBe(409);
  });
});

describe("roles and removal", () => {
  it("a demoted admin cannot invite on the very next request", async () => {
    const owner = await userWithWorkspace();
    const admin = await memberWithRole(owner.workspaceId, "admin");
    expect((await invite(admin.token, owner.workspaceId, newEmail())).status).toBe(201);
    const demote = await call(`/api/workspaces/${owner.workspaceId}/members/${admin.userId}`, {
      method: "PATCH",
      token: owner.token,
      json: { role: "member" },
    });
    expect(demote.status).toBe(200);
    expect((await invite(admin.token, owner.workspaceId, newEmail())).status).toBe(403);
  });

  it("the last owner can be neither demoted nor removed nor leave (409); an admin cannot touch an owner (403)", async () => {
    const owner = await userWithWorkspace();
    const admin = await memberWithRole(owner.workspaceId, "admin");
    const path = `/api/workspaces/${owner.workspaceId}/members/${owner.userId}`;
    expect((await call(path, { method: "PATCH", token: owner.token, json: { role: "admin" } })).status).toBe(409);
    expect((await call(path, { method: "DELETE", token: owner.token })).status).toBe(409);
    expect((await call(path, { method: "DELETE", token: admin.token })).status).toBe(403);
    expect((await call(path, { method: "PATCH", token: admin.token, json: { role: "member" } })).status).toBe(403);
    // With a second owner, the first may leave.
    expect(
      (
        await call(`/api/workspaces/${owner.workspaceId}/members/${admin.userId}`, {
          method: "PATCH",
          token: owner.token,
          json: { role: "owner" },
        })
      ).status,
    ).toBe(200);
    expect((await call(path, { method: "DELETE", token: owner.token })).status).toBe(200);
  });

  it("a removed member's socket closes, and their pulls and pushes are refused with 403", async () => {
    const owner = await userWithWorkspace();
    const member = await memberWithRole(owner.workspaceId, "member");
    const vehicleId = await insertVehicle(owner.workspaceId);
    const socket = await connect(owner.workspaceId, member.token);
    const removed = await call(`/api/workspaces/${owner.workspaceId}/members/${member.userId}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    await expect.poll(() => socket.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    const pull = await firstPull(member.token);
    expect(pull.status).toBe(403);
    const push = await call("/api/sync/push", {
      method: "POST",
      token: member.token,
      json: {
        pushVersion: 1,
        clientGroupID: crypto.randomUUID(),
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
        mutations: [
          {
            clientID: "c",
            id: 1,
            name: "updateVehicle",
            args: { id: vehicleId, name: "Gone", vin: null, year: null, make: null, model: null },
            timestamp: 1,
          },
        ],
      },
    });
    expect(push.status).toBe(403);
    // A new socket is refused too; the account itself is still signed in, with no workspace.
    expect((await call("/api/me", { token: member.token })).status).toBe(200);
    expect((await json(await call("/api/me", { token: member.token }))).workspace).toBeNull();
    const members = await json(await call(`/api/workspaces/${owner.workspaceId}/members`, { token: owner.token }));
    expect((members.members as { userId: string }[]).map((m) => m.userId)).toEqual([owner.userId]);
  });

  it("a viewer sees members but not invites", async () => {
    const owner = await userWithWorkspace();
    await invite(owner.token, owner.workspaceId, newEmail());
    const viewer = await memberWithRole(owner.workspaceId, "viewer");
    const seen = await json(await call(`/api/workspaces/${owner.workspaceId}/members`, { token: viewer.token }));
    expect(seen.members).toHaveLength(2);
    expect(seen.invites).toEqual([]);
    const managed = await json(await call(`/api/workspaces/${owner.workspaceId}/members`, { token: owner.token }));
    expect(managed.invites).toHaveLength(1);
  });
});
