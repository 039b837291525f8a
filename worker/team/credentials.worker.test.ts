import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { invites, reportSubscriptions } from "../../db/schema";
import type { ApiTokenList, CreatedApiToken } from "../../shared/account/api-tokens";
import type { CreatedShare, WorkspaceShareList } from "../../shared/fleet/shares";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";

/**
 * One rule for every credential a person holds (issue 39, finding 3): each names its creator and
 * ends when the creator's membership ends or their account is deleted; owners see and end them.
 */
type Person = { userId: string; token: string; email?: string };

async function credentialsOf(workspaceId: string, person: Person, vehicleId: string) {
  const share = (await (
    await call(`/api/vehicles/${vehicleId}/shares`, {
      method: "POST",
      token: person.token,
      json: { expiresInMinutes: 60 },
    })
  ).json()) as CreatedShare;
  const made = await call(`/api/workspaces/${workspaceId}/api-tokens`, {
    method: "POST",
    token: person.token,
    json: { name: "integration", scope: "write" },
  });
  const apiToken = made.status === 201 ? ((await made.json()) as CreatedApiToken).token : null;
  const subscribed = await call("/api/reports/subscription", {
    method: "PUT",
    token: person.token,
    json: { frequency: "daily" },
  });
  expect(subscribed.status).toBe(200);
  const invited = await call(`/api/workspaces/${workspaceId}/invites`, {
    method: "POST",
    token: person.token,
    json: { email: `invitee-${crypto.randomUUID().slice(0, 6)}@example.com`, role: "member" },
  });
  return { shareToken: new URL(share.url).pathname.split("/").at(-1)!, apiToken, invited: invited.status === 201 };
}

const shareStatus = async (shareToken: string) =>
  (await call(`/api/share/${shareToken}`, { headers: { "CF-Connecting-IP": `10.9.${Math.random() * 250}.1` } })).status;

async function expectAllEnded(workspaceId: string, userId: string, held: Awaited<ReturnType<typeof credentialsOf>>) {
  const db = database(env.DB);
  expect(await shareStatus(held.shareToken)).toBe(410);
  if (held.apiToken) expect((await call("/api/places", { token: held.apiToken })).status).toBe(401);
  const live = await db
    .select()
    .from(invites)
    .where(and(eq(invites.workspaceId, workspaceId), eq(invites.invitedBy, userId)))
    .all();
  expect(live.filter((i) => i.revokedAt === null && i.acceptedAt === null)).toEqual([]);
  const subscriptions = await db
    .select()
    .from(reportSubscriptions)
    .where(and(eq(reportSubscriptions.workspaceId, workspaceId), eq(reportSubscriptions.userId, userId)))
    .all();
  expect(subscriptions).toEqual([]);
}

describe("a person's credentials end with their membership", () => {
  it("removed by an owner: their share link answers 410, their API token 401, invites and report e-mail end", async () => {
    const owner = await userWithWorkspace();
    const vehicleId = await insertVehicle(owner.workspaceId);
    const admin = await memberWithRole(owner.workspaceId, "admin");
    const held = await credentialsOf(owner.workspaceId, admin, vehicleId);
    expect(await shareStatus(held.shareToken)).toBe(200);
    expect((await call("/api/places", { token: held.apiToken! })).status).toBe(200);
    expect(held.invited).toBe(true);

    const removed = await call(`/api/workspaces/${owner.workspaceId}/members/${admin.userId}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    await expectAllEnded(owner.workspaceId, admin.userId, held);
    // The owner's own credentials are untouched.
    const mine = await credentialsOf(owner.workspaceId, owner, vehicleId);
    expect(await shareStatus(mine.shareToken)).toBe(200);
  });

  it("leaving ends them too", async () => {
    const owner = await userWithWorkspace();
    const vehicleId = await insertVehicle(owner.workspaceId);
    const member = await memberWithRole(owner.workspaceId, "member");
    const held = await credentialsOf(owner.workspaceId, member, vehicleId);
    const left = await call(`/api/workspaces/${owner.workspaceId}/members/${member.userId}`, {
      method: "DELETE",
      token: member.token,
    });
    expect(left.status).toBe(200);
    await expectAllEnded(owner.workspaceId, member.userId, held);
  });

  it("a refused removal (the last owner leaving) ends nothing", async () => {
    const owner = await userWithWorkspace();
    const vehicleId = await insertVehicle(owner.workspaceId);
    const held = await credentialsOf(owner.workspaceId, owner, vehicleId);
    const res = await call(`/api/workspaces/${owner.workspaceId}/members/${owner.userId}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(res.status).toBe(409);
    expect(await shareStatus(held.shareToken)).toBe(200);
    expect((await call("/api/places", { token: held.apiToken! })).status).toBe(200);
  });
});

describe("a person's credentials end with their account", () => {
  it("after deletion their token answers 401 (a share made with it is not a 500) and their links 410", async () => {
    const owner = await userWithWorkspace();
    const vehicleId = await insertVehicle(owner.workspaceId);
    const admin = await memberWithRole(owner.workspaceId, "admin");
    const held = await credentialsOf(owner.workspaceId, admin, vehicleId);
    const deleted = await call("/api/account/delete", {
      method: "POST",
      token: admin.token,
      json: { email: admin.email },
    });
    expect(deleted.status).toBe(200);
    expect(await shareStatus(held.shareToken)).toBe(410);
    for (const [method, path, json] of [
      ["GET", "/api/places"],
      ["POST", `/api/vehicles/${vehicleId}/shares`, { expiresInMinutes: 60 }],
      ["POST", "/api/issues", { vehicleId, title: "x" }],
    ] as const) {
      expect((await call(path, { method, token: held.apiToken!, json })).status).toBe(401);
    }
  });
});

describe("owners and admins see every token and live link with who made it, and end any", () => {
  it("lists the workspace's live links and tokens with their creator; ending one answers 410 at once", async () => {
    const owner = await userWithWorkspace();
    const vehicleId = await insertVehicle(owner.workspaceId, { name: "Van 7" });
    const member = await memberWithRole(owner.workspaceId, "member");
    const made = (await (
      await call(`/api/vehicles/${vehicleId}/shares`, {
        method: "POST",
        token: member.token,
        json: { expiresInMinutes: 60 },
      })
    ).json()) as CreatedShare;
    const listed = await call(`/api/workspaces/${owner.workspaceId}/shares`, { token: owner.token });
    expect(listed.status).toBe(200);
    const { shares } = (await listed.json()) as WorkspaceShareList;
    expect(shares).toEqual([
      {
        id: made.id,
        vehicleId,
        vehicleName: "Van 7",
        createdAt: expect.any(Number),
        expiresAt: made.expiresAt,
        createdBy: member.userId,
        createdByEmail: member.email,
      },
    ]);
    expect((await call(`/api/shares/${made.id}`, { method: "DELETE", token: owner.token })).status).toBe(200);
    expect(await shareStatus(new URL(made.url).pathname.split("/").at(-1)!)).toBe(410);
    const after = (await (
      await call(`/api/workspaces/${owner.workspaceId}/shares`, { token: owner.token })
    ).json()) as WorkspaceShareList;
    expect(after.shares).toEqual([]);

    const admin = await memberWithRole(owner.workspaceId, "admin");
    await call(`/api/workspaces/${owner.workspaceId}/api-tokens`, {
      method: "POST",
      token: admin.token,
      json: { name: "ci", scope: "read" },
    });
    const tokens = (await (
      await call(`/api/workspaces/${owner.workspaceId}/api-tokens`, { token: owner.token })
    ).json()) as ApiTokenList;
    expect(tokens.tokens.map((t) => [t.createdBy, t.createdByEmail])).toEqual([[admin.userId, admin.email]]);
  });

  it("members and viewers 403, another workspace's id 404", async () => {
    const owner = await userWithWorkspace();
    for (const role of ["member", "viewer"]) {
      const m = await memberWithRole(owner.workspaceId, role);
      expect((await call(`/api/workspaces/${owner.workspaceId}/shares`, { token: m.token })).status).toBe(403);
    }
    const other = await userWithWorkspace();
    expect((await call(`/api/workspaces/${other.workspaceId}/shares`, { token: owner.token })).status).toBe(404);
  });
});
