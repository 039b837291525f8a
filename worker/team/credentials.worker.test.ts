import { env } from "cloudflare:workers";
import { and, eq, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { database } from "../test/db";
import * as schema from "../../db/schema";
import { invites, jobs, reportSubscriptions } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import type { CreatedJobShare } from "../../shared/jobs/job-shares";
import { endCredentials } from "./credentials";
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

/**
 * Issue 51, finding 4: a table that holds a token (a `*_hash` column) or names who made its rows
 * (`created_by`, `invited_by`) is a credential someone holds, so `endCredentials` must end it with
 * its person, unless it is set aside below with the reason. A new such table fails this test until
 * it joins worker/team/credentials.ts or is set aside here.
 */
const NOT_A_MEMBERS_CREDENTIAL: Record<string, string> = {
  email_confirmations: "the account's own address link: deleted with the account (cascade)",
  password_reset_tokens: "the account's own reset link: deleted with the account (cascade)",
  recovery_codes: "the account's own second-factor codes: deleted with the account (cascade)",
  signin_challenges: "a sign-in in progress of the account: deleted with the account (cascade)",
  realtime_tickets: "60 seconds, single use, and the socket re-checks its session",
  photos: "created_by names the uploader of a file, which opens nothing",
  customer_recipients: "a customer's unsubscribe link: it belongs to the recipient, not to a member",
};

describe("the one list of credentials", () => {
  const tables = Object.values(schema as Record<string, unknown>).filter((v): v is SQLiteTable => is(v, SQLiteTable));
  const holdsCredential = (t: SQLiteTable) =>
    getTableConfig(t).columns.some((c) => c.name.endsWith("_hash") || ["created_by", "invited_by"].includes(c.name));

  it("ends every table that holds a token or names its creator, or says why not", () => {
    const statements = endCredentials(database(env.DB), { userId: "someone", workspaceId: "somewhere" });
    const ended = new Set(
      statements.map((s) => {
        const text = (s as unknown as { toSQL(): { sql: string } }).toSQL().sql;
        return /^(?:update|delete from) "([a-z_]+)"/.exec(text)![1]!;
      }),
    );
    const schemaTables = new Set(tables.map((t) => getTableConfig(t).name));
    const missing = tables
      .filter(holdsCredential)
      .map((t) => getTableConfig(t).name)
      .filter((name) => !ended.has(name) && !(name in NOT_A_MEMBERS_CREDENTIAL));
    expect(missing).toEqual([]);
    expect([...ended].filter((name) => !schemaTables.has(name))).toEqual([]);
    expect(ended).toContain("job_shares");
  });
});

describe("customer links end with their creator and are listed and ended one by one", () => {
  async function customerLink(token: string, workspaceId: string) {
    const jobId = crypto.randomUUID();
    const db = database(env.DB);
    await db.batch([
      bumpVersion(db, workspaceId),
      db.insert(jobs).values({
        id: jobId,
        workspaceId,
        number: Math.floor(Math.random() * 1e9),
        title: "Deliver the boiler",
        date: "2026-11-28",
        latitude: 41.91,
        longitude: -87.66,
        version: versionOf(workspaceId),
      }),
    ]);
    const res = await call(`/api/jobs/${jobId}/shares`, { method: "POST", token, json: {} });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as CreatedJobShare;
    return { jobId, token: url.split("/track/")[1]! };
  }
  const trackStatus = async (token: string) => (await call(`/api/track/${token}`)).status;

  it("a removed member's customer link answers 410; the owner's keeps answering", async () => {
    const owner = await userWithWorkspace();
    const member = await memberWithRole(owner.workspaceId, "member");
    const theirs = await customerLink(member.token, owner.workspaceId);
    const mine = await customerLink(owner.token, owner.workspaceId);
    expect(await trackStatus(theirs.token)).toBe(200);
    const removed = await call(`/api/workspaces/${owner.workspaceId}/members/${member.userId}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    expect(await trackStatus(theirs.token)).toBe(410);
    expect(await trackStatus(mine.token)).toBe(200);
  });

  it("a deleted account's customer links answer 410", async () => {
    const owner = await userWithWorkspace();
    const admin = await memberWithRole(owner.workspaceId, "admin");
    const theirs = await customerLink(admin.token, owner.workspaceId);
    const deleted = await call("/api/account/delete", {
      method: "POST",
      token: admin.token,
      json: { email: admin.email },
    });
    expect(deleted.status).toBe(200);
    expect(await trackStatus(theirs.token)).toBe(410);
  });

  it("lists the workspace's live customer links with job and maker; ending one answers 410 at once", async () => {
    const owner = await userWithWorkspace();
    const member = await memberWithRole(owner.workspaceId, "member");
    const link = await customerLink(member.token, owner.workspaceId);
    const listed = (await (
      await call(`/api/workspaces/${owner.workspaceId}/shares`, { token: owner.token })
    ).json()) as WorkspaceShareList;
    expect(listed.customerLinks).toEqual([
      {
        id: expect.any(String),
        jobId: link.jobId,
        jobNumber: expect.any(Number),
        jobTitle: "Deliver the boiler",
        createdAt: expect.any(Number),
        expiresAt: expect.any(Number),
        createdBy: member.userId,
        createdByEmail: member.email,
      },
    ]);
    const id = listed.customerLinks[0]!.id;
    const other = await userWithWorkspace();
    const stranger = await call(`/api/jobs/${link.jobId}/shares/${id}`, { method: "DELETE", token: other.token });
    expect(stranger.status).toBe(404);
    const viewer = await memberWithRole(owner.workspaceId, "viewer");
    expect((await call(`/api/jobs/${link.jobId}/shares/${id}`, { method: "DELETE", token: viewer.token })).status).toBe(
      403,
    );
    expect(await trackStatus(link.token)).toBe(200);
    const ended = await call(`/api/jobs/${link.jobId}/shares/${id}`, { method: "DELETE", token: owner.token });
    expect(ended.status).toBe(200);
    expect(await trackStatus(link.token)).toBe(410);
    const after = (await (
      await call(`/api/workspaces/${owner.workspaceId}/shares`, { token: owner.token })
    ).json()) as WorkspaceShareList;
    expect(after.customerLinks).toEqual([]);
    expect((await call(`/api/jobs/${link.jobId}/shares/${id}`, { method: "DELETE", token: owner.token })).status).toBe(
      404,
    );
  });
});
