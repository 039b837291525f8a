import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { apiTokens, memberships } from "../../db/schema";
import { MAX_API_TOKENS, type ApiTokenList, type CreatedApiToken } from "../../shared/account/api-tokens";
import { API_TOKEN_LIMIT } from "../auth/api-tokens";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";

/** Integrators' API tokens: who manages them, what they may call, and revocation. */
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string[]> } };
const place = { name: "Depot", geometry: { type: "Circle", center: [-87.63, 41.88], radius: 200 } };

async function createToken(
  owner: { token: string; workspaceId: string },
  scope: "read" | "write",
  name = `${scope} token`,
) {
  const res = await call(`/api/workspaces/${owner.workspaceId}/api-tokens`, {
    method: "POST",
    token: owner.token,
    json: { name, scope },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as CreatedApiToken;
}

const list = async (owner: { token: string; workspaceId: string }) =>
  (
    (await (
      await call(`/api/workspaces/${owner.workspaceId}/api-tokens`, { token: owner.token })
    ).json()) as ApiTokenList
  ).tokens;

describe("managing API tokens", () => {
  it("shows the secret once, keeps only its hash, lists tokens with when each was last used", async () => {
    const a = await userWithWorkspace();
    const created = await createToken(a, "read", "Dispatch board");
    expect(created.token).toMatch(/^fo_[A-Za-z0-9_-]{40,}$/);
    const row = await database(env.DB).select().from(apiTokens).where(eq(apiTokens.id, created.id)).get();
    expect(Object.values(row!)).not.toContain(created.token);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    let tokens = await list(a);
    expect(tokens).toEqual([
      {
        id: created.id,
        name: "Dispatch board",
        scope: "read",
        createdAt: created.createdAt,
        lastUsedAt: null,
        createdBy: a.userId,
        createdByEmail: expect.stringContaining("@example.com"),
      },
    ]);
    expect(JSON.stringify(tokens)).not.toContain(created.token);
    expect((await call("/api/places", { token: created.token })).status).toBe(200);
    tokens = await list(a);
    expect(tokens[0]!.lastUsedAt).toBeGreaterThanOrEqual(created.createdAt);
  });

  it("is for owners and admins: members and viewers 403, another workspace's id 404", async () => {
    const a = await userWithWorkspace();
    const admin = await memberWithRole(a.workspaceId, "admin");
    expect((await createToken({ token: admin.token, workspaceId: a.workspaceId }, "write")).id).toBeTruthy();
    for (const role of ["member", "viewer"]) {
      const m = await memberWithRole(a.workspaceId, role);
      const res = await call(`/api/workspaces/${a.workspaceId}/api-tokens`, {
        method: "POST",
        token: m.token,
        json: { name: "x", scope: "read" },
      });
      expect(res.status).toBe(403);
      expect((await call(`/api/workspaces/${a.workspaceId}/api-tokens`, { token: m.token })).status).toBe(403);
    }
    const b = await userWithWorkspace();
    const theirs = await createToken(b, "read");
    expect((await call(`/api/workspaces/${b.workspaceId}/api-tokens`, { token: a.token })).status).toBe(404);
    expect(
      (await call(`/api/workspaces/${b.workspaceId}/api-tokens/${theirs.id}`, { method: "DELETE", token: a.token }))
        .status,
    ).toBe(404);
    // Their token's id under one's own workspace: no such token here.
    expect(
      (await call(`/api/workspaces/${a.workspaceId}/api-tokens/${theirs.id}`, { method: "DELETE", token: a.token }))
        .status,
    ).toBe(404);
  });

  it("refuses bad input with 400 and the field", async () => {
    const a = await userWithWorkspace();
    for (const json of [
      { name: "", scope: "read" },
      { name: "x", scope: "admin" },
      { scope: "read" },
      { name: "x".repeat(81), scope: "write" },
    ]) {
      const res = await call(`/api/workspaces/${a.workspaceId}/api-tokens`, { method: "POST", token: a.token, json });
      expect(res.status).toBe(400);
      expect(Object.keys(((await res.json()) as ErrorBody).error.fields ?? {})).toHaveLength(1);
    }
  });
});

describe("an API token as a bearer", () => {
  it("a read token reads its workspace; its writes are 403", async () => {
    const a = await userWithWorkspace();
    const { token } = await createToken(a, "read");
    expect((await call("/api/beacons", { token })).status).toBe(200);
    expect((await call(`/api/workspaces/${a.workspaceId}/members`, { token })).status).toBe(200);
    expect((await call("/api/places", { method: "POST", token, json: place })).status).toBe(403);
    expect(
      (await call("/api/beacons/order", { method: "POST", token, json: { workspaceId: a.workspaceId, count: 1 } }))
        .status,
    ).toBe(403);
  });

  it("a write token writes in its workspace", async () => {
    const a = await userWithWorkspace();
    const { token } = await createToken(a, "write");
    expect((await call("/api/places", { method: "POST", token, json: place })).status).toBe(201);
    expect(
      (await call("/api/beacons/order", { method: "POST", token, json: { workspaceId: a.workspaceId, count: 1 } }))
        .status,
    ).toBe(201);
  });

  it("is not a session: members, invites, tokens, settings, the account and sign-out are 403", async () => {
    const a = await userWithWorkspace();
    const { token, id } = await createToken(a, "write");
    const refused: [string, string, unknown?][] = [
      ["GET", "/api/me"],
      ["POST", "/api/signout"],
      ["GET", "/api/account/sessions"],
      ["GET", "/api/account/export"],
      ["POST", "/api/workspaces", { name: "Mine now" }],
      ["POST", "/api/workspaces/session", { workspaceId: a.workspaceId }],
      ["POST", `/api/workspaces/${a.workspaceId}/invites`, { email: "x@example.com", role: "owner" }],
      ["GET", `/api/workspaces/${a.workspaceId}/api-tokens`],
      ["POST", `/api/workspaces/${a.workspaceId}/api-tokens`, { name: "another", scope: "write" }],
      ["DELETE", `/api/workspaces/${a.workspaceId}/api-tokens/${id}`],
      ["PATCH", "/api/workspace/preferences", { timeZone: "UTC" }],
      ["POST", "/api/realtime/ticket"],
      ["PUT", "/api/reports/subscription", { weekly: true }],
    ];
    for (const [method, path, json] of refused) {
      const res = await call(path, { method, token, json });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 403`);
    }
    // The token still works for what it may do.
    expect((await call("/api/places", { token })).status).toBe(200);
  });

  it("reaches only its own workspace, even one its creator belongs to (404)", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    await database(env.DB).insert(memberships).values({ workspaceId: b.workspaceId, userId: a.userId, role: "owner" });
    const { token } = await createToken(a, "write");
    expect((await call(`/api/workspaces/${b.workspaceId}/members`, { token })).status).toBe(404);
    expect((await call(`/api/workspaces/${a.workspaceId}/members`, { token })).status).toBe(200);
  });

  it("revocation takes effect on the next request", async () => {
    const a = await userWithWorkspace();
    const created = await createToken(a, "read");
    expect((await call("/api/places", { token: created.token })).status).toBe(200);
    expect(
      (await call(`/api/workspaces/${a.workspaceId}/api-tokens/${created.id}`, { method: "DELETE", token: a.token }))
        .status,
    ).toBe(200);
    expect((await call("/api/places", { token: created.token })).status).toBe(401);
    expect(await list(a)).toEqual([]);
  });

  it("has its own rate limit: past its burst 429 with Retry-After, other tokens unaffected", async () => {
    const a = await userWithWorkspace();
    const busy = await createToken(a, "read");
    const calm = await createToken(a, "read");
    let refused: Response | null = null;
    for (let sent = 0; sent < API_TOKEN_LIMIT.burst * 4 && !refused; sent += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => call("/api/alert-rules", { token: busy.token })),
      );
      refused = answers.find((r) => r.status === 429) ?? null;
    }
    expect(refused).not.toBeNull();
    expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((await call("/api/alert-rules", { token: calm.token })).status).toBe(200);
  });
});

describe("a token's scope against what the route does (issue 39)", () => {
  it("no token removes its creator or anyone else, whatever the route calls it (leave: 403, membership kept)", async () => {
    const a = await userWithWorkspace();
    const admin = await memberWithRole(a.workspaceId, "admin");
    const member = await memberWithRole(a.workspaceId, "member");
    for (const scope of ["read", "write"] as const) {
      const { token } = await createToken({ token: admin.token, workspaceId: a.workspaceId }, scope);
      for (const userId of [admin.userId, member.userId]) {
        const path = `/api/workspaces/${a.workspaceId}/members/${userId}`;
        expect((await call(path, { method: "DELETE", token })).status).toBe(403);
        expect((await call(path, { method: "PATCH", token, json: { role: "viewer" } })).status).toBe(403);
      }
      expect((await call("/api/sync/pull", { method: "POST", token, json: {} })).status).toBe(403);
      expect((await call("/api/alerts/read", { method: "POST", token, json: {} })).status).toBe(403);
      expect((await call("/api/places", { token })).status).toBe(200);
    }
    const left = await database(env.DB).select().from(memberships).where(eq(memberships.workspaceId, a.workspaceId));
    expect(left.map((m) => m.userId).sort()).toEqual([a.userId, admin.userId, member.userId].sort());
  });

  it("acts with no more than its creator's current role: a demoted creator's write token cannot write", async () => {
    const a = await userWithWorkspace();
    const admin = await memberWithRole(a.workspaceId, "admin");
    const { token } = await createToken({ token: admin.token, workspaceId: a.workspaceId }, "write");
    expect((await call("/api/places", { method: "POST", token, json: place })).status).toBe(201);
    const demote = await call(`/api/workspaces/${a.workspaceId}/members/${admin.userId}`, {
      method: "PATCH",
      token: a.token,
      json: { role: "viewer" },
    });
    expect(demote.status).toBe(200);
    expect((await call("/api/places", { method: "POST", token, json: place })).status).toBe(403);
    expect((await call("/api/places", { token })).status).toBe(200);
  });
});

describe("the token cap under concurrency (issue 39, finding 7)", () => {
  it("parallel creations at the cap: exactly the room left is created, the rest 409", async () => {
    const a = await userWithWorkspace();
    const db = database(env.DB);
    const existing = Array.from({ length: MAX_API_TOKENS - 2 }, (_, i) => ({
      id: crypto.randomUUID(),
      workspaceId: a.workspaceId,
      name: `t${i}`,
      scope: "read" as const,
      tokenHash: crypto.randomUUID(),
      createdBy: a.userId,
    }));
    for (let i = 0; i < existing.length; i += 10) await db.insert(apiTokens).values(existing.slice(i, i + 10));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(`/api/workspaces/${a.workspaceId}/api-tokens`, {
          method: "POST",
          token: a.token,
          json: { name: `parallel ${i}`, scope: "read" },
        }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    expect(await list(a)).toHaveLength(MAX_API_TOKENS);
  });
});
