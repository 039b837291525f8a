import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { database } from "../test/db";
import { alerts, pushSubscriptions, sessions } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import worker from "../test-entry";
import { deleteAccount } from "../account/delete-account";
import { createSession } from "../auth/session";
import { PUSH_CONCURRENCY, PUSH_SUBSCRIPTIONS_PER_PERSON, pushToMember } from "./send-push";
import { config } from "../env";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { insertIssue } from "../test/issues";
import { FakePushService } from "../test/push-service";

/** Web Push (issue 41, docs/decisions/0047): subscriptions, encrypted delivery, and their end. */

const db = database(env.DB);
let pushService: FakePushService;
beforeEach(() => {
  pushService = new FakePushService();
  vi.spyOn(globalThis, "fetch").mockImplementation(pushService.fetch);
});
afterEach(() => vi.restoreAllMocks());

const endpointFor = () => `https://push.example.net/send/${crypto.randomUUID()}`;

async function subscribe(token: string, endpoint = endpointFor()) {
  const body = await pushService.subscribe(endpoint);
  const res = await call("/api/push-subscriptions", { method: "POST", token, json: body });
  expect(res.status).toBe(201);
  return endpoint;
}

const subscriptionsOf = (userId: string) =>
  db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).all();

async function assign(token: string, issueId: string, assigneeUserId: string) {
  const res = await call(`/api/issues/${issueId}`, { method: "PATCH", token, json: { assigneeUserId } });
  expect(res.status).toBe(200);
}

describe("push subscriptions", () => {
  it("hands out the VAPID public key to anyone, as 65 raw bytes in base64url", async () => {
    const res = await call("/api/push/public-key");
    expect(res.status).toBe(200);
    const { key } = (await res.json()) as { key: string };
    expect(key).toBe(config(env).VAPID_PUBLIC_KEY);
    expect(key).toMatch(/^B[\w-]{86}$/);
  });

  it("stores a browser's subscription for the session's member and workspace, and removes it on DELETE", async () => {
    const a = await userWithWorkspace();
    const endpoint = await subscribe(a.token);
    expect(await subscriptionsOf(a.userId)).toEqual([
      expect.objectContaining({ endpoint, workspaceId: a.workspaceId }),
    ]);
    const res = await call("/api/push-subscriptions", { method: "DELETE", token: a.token, json: { endpoint } });
    expect(res.status).toBe(204);
    expect(await subscriptionsOf(a.userId)).toEqual([]);
  });

  it("refuses bad subscriptions with the field named, and callers with no session", async () => {
    const a = await userWithWorkspace();
    const good = await pushService.subscribe(endpointFor());
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: "http://push.example.net/x" }, "endpoint"],
      [{ ...good, endpoint: "https://10.0.0.8/x" }, "endpoint"],
      [{ ...good, endpoint: "https://localhost/x" }, "endpoint"],
      [{ ...good, keys: { ...good.keys, p256dh: "short" } }, "keys.p256dh"],
      [{ ...good, keys: { p256dh: good.keys.p256dh } }, "keys.auth"],
    ];
    for (const [json, field] of cases) {
      const res = await call("/api/push-subscriptions", { method: "POST", token: a.token, json });
      expect(res.status, field).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.message, field).toContain(field);
    }
    expect((await call("/api/push-subscriptions", { method: "POST", json: good })).status).toBe(401);
    expect(await subscriptionsOf(a.userId)).toEqual([]);
  });

  it("lets no one else end a subscription: another member's or another workspace's endpoint is a 404", async () => {
    const a = await userWithWorkspace();
    const colleague = await memberWithRole(a.workspaceId, "admin");
    const stranger = await userWithWorkspace();
    const endpoint = await subscribe(a.token);
    for (const token of [colleague.token, stranger.token]) {
      const res = await call("/api/push-subscriptions", { method: "DELETE", token, json: { endpoint } });
      expect(res.status).toBe(404);
    }
    expect(await subscriptionsOf(a.userId)).toHaveLength(1);
  });
});

describe("push delivery", () => {
  it("sends the assignee an encrypted, VAPID-signed notice of an issue assigned to them", async () => {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    const endpoint = await subscribe(tech.token);
    const { id } = await insertIssue(owner.workspaceId, { title: "Brake light out" });
    await assign(owner.token, id, tech.userId);

    expect(pushService.received).toHaveLength(1);
    const [push] = pushService.received;
    expect(push!.endpoint).toBe(endpoint);
    expect(push!.message).toMatchObject({ url: `/issues/${id}`, tag: `issue-${id}` });
    // The member-written title stays out of the notice, as out of the e-mail's subject (issue 39).
    const { title, body } = push!.message as { title: string; body: string };
    expect(title).toMatch(/^Issue #\d+ assigned to you$/);
    expect(`${title} ${body}`).not.toContain("Brake light out");
    expect(push!.vapid).toMatchObject({ aud: "https://push.example.net", key: config(env).VAPID_PUBLIC_KEY });
    expect(push!.vapid.sub).toMatch(/^mailto:/);
    expect(push!.headers.get("content-encoding")).toBe("aes128gcm");
    expect(Number(push!.headers.get("ttl"))).toBeGreaterThan(0);
  });

  it("pushes only to the assignee's subscriptions in this workspace, and not for one's own assignment", async () => {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    await subscribe(owner.token);
    // The technician's phone subscribed while they worked in another workspace of theirs.
    const elsewhere = await userWithWorkspace();
    const other = await subscribe(tech.token);
    await db
      .update(pushSubscriptions)
      .set({ workspaceId: elsewhere.workspaceId })
      .where(eq(pushSubscriptions.endpoint, other));
    const { id } = await insertIssue(owner.workspaceId);
    await assign(owner.token, id, tech.userId);
    await assign(owner.token, (await insertIssue(owner.workspaceId)).id, owner.userId);
    expect(pushService.received).toEqual([]);
  });

  it("forgets a subscription the push service says is gone", async () => {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    await subscribe(tech.token);
    pushService.answerWith(410);
    await assign(owner.token, (await insertIssue(owner.workspaceId)).id, tech.userId);
    expect(pushService.received).toHaveLength(1);
    expect(await subscriptionsOf(tech.userId)).toEqual([]);
  });
});

describe("push for alerts", () => {
  it("sends a member named by an alert rule's e-mails the alert on their phone too", async () => {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    await subscribe(tech.token);
    const rule = await call("/api/alert-rules", {
      method: "POST",
      token: owner.token,
      json: { type: "tow", notify: { emails: [tech.email] } },
    });
    expect(rule.status).toBe(201);
    const ruleId = ((await rule.json()) as { id: string }).id;
    const alertId = crypto.randomUUID();
    await db.batch([
      bumpVersion(db, owner.workspaceId),
      db.insert(alerts).values({
        id: alertId,
        workspaceId: owner.workspaceId,
        ruleId,
        vehicleId: "v1",
        type: "tow",
        at: Date.now(),
        latitude: 41.88,
        longitude: -87.63,
        version: versionOf(owner.workspaceId),
      }),
    ]);
    const batch = createMessageBatch("fleet-ops-alert-deliveries", [
      {
        id: crypto.randomUUID(),
        timestamp: new Date(),
        attempts: 1,
        body: { workspaceId: owner.workspaceId, alertId, target: `email:${tech.email}` },
      },
    ]);
    await worker.queue(batch, env);
    expect(pushService.received).toEqual([
      expect.objectContaining({ message: expect.objectContaining({ url: "/inbox", tag: `alert-${alertId}` }) }),
    ]);
  });
});

describe("subscriptions end with the membership or the account", () => {
  it("a member removed from the workspace gets no more pushes from it", async () => {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    await subscribe(tech.token);
    const res = await call(`/api/workspaces/${owner.workspaceId}/members/${tech.userId}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(res.status).toBeLessThan(300);
    expect(await subscriptionsOf(tech.userId)).toEqual([]);
  });

  it("a deleted account's subscriptions go with it", async () => {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    await subscribe(tech.token);
    expect(await deleteAccount(env, db, tech.userId, [])).toBe(true);
    expect(await subscriptionsOf(tech.userId)).toEqual([]);
  });
});

/** Issue 51, finding 3: a subscription belongs to the sign-in that made it, capped, each notice once. */
describe("subscriptions end with the sign-in that made them", () => {
  async function techWithTwoSignins() {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    const laptop = await createSession(db, tech.userId, owner.workspaceId);
    const phone = await subscribe(tech.token);
    const other = await subscribe(laptop);
    return { owner, tech, laptop, phone, other };
  }
  const assignNew = async (owner: { token: string; workspaceId: string }, userId: string) =>
    assign(owner.token, (await insertIssue(owner.workspaceId)).id, userId);
  const endpointsReached = () => pushService.received.map((r) => r.endpoint).sort();

  it("sign-out: that browser gets nothing more, the person's other sign-in still does", async () => {
    const { owner, tech, phone, other } = await techWithTwoSignins();
    expect((await call("/api/signout", { method: "POST", token: tech.token })).status).toBe(200);
    await assignNew(owner, tech.userId);
    expect(endpointsReached()).toEqual([other]);
    expect((await subscriptionsOf(tech.userId)).map((s) => s.endpoint)).not.toContain(phone);
  });

  it("sign out everywhere, a password change and a session ended from the list end them too", async () => {
    const a = await techWithTwoSignins();
    expect((await call("/api/signout/everywhere", { method: "POST", token: a.laptop })).status).toBe(200);
    await assignNew(a.owner, a.tech.userId);
    expect(pushService.received).toEqual([]);
    expect(await subscriptionsOf(a.tech.userId)).toEqual([]);

    const b = await techWithTwoSignins();
    const laptop = (await subscriptionsOf(b.tech.userId)).find((s) => s.endpoint === b.other)!.signinId;
    const ended = await call(`/api/account/sessions/${laptop}/signout`, { method: "POST", token: b.tech.token });
    expect(ended.status).toBe(200);
    await assignNew(b.owner, b.tech.userId);
    expect(endpointsReached()).toEqual([b.phone]);
  });

  it("a sign-in ended by any other statement (revoked, expired) pushes nothing: the send checks", async () => {
    const { owner, tech } = await techWithTwoSignins();
    await db.update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.userId, tech.userId));
    await assignNew(owner, tech.userId);
    expect(pushService.received).toEqual([]);
  });

  it("keeps a person's 10 newest subscriptions of 60, and calls at most 4 push services at once", async () => {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    const endpoints: string[] = [];
    for (let i = 0; i < 60; i++) endpoints.push(await subscribe(tech.token));
    const kept = (await subscriptionsOf(tech.userId)).map((s) => s.endpoint).sort();
    expect(kept).toHaveLength(PUSH_SUBSCRIPTIONS_PER_PERSON);
    expect(kept).toEqual(endpoints.slice(-PUSH_SUBSCRIPTIONS_PER_PERSON).sort());

    let open = 0;
    let most = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      most = Math.max(most, ++open);
      try {
        return await pushService.fetch(input, init);
      } finally {
        open--;
      }
    });
    await assignNew(owner, tech.userId);
    expect(pushService.received).toHaveLength(PUSH_SUBSCRIPTIONS_PER_PERSON);
    expect(most).toBeLessThanOrEqual(PUSH_CONCURRENCY);
  });

  it("sends one notice to each subscription once, however often its sender runs", async () => {
    const owner = await userWithWorkspace();
    const tech = await memberWithRole(owner.workspaceId, "member");
    await subscribe(tech.token);
    await subscribe(tech.token);
    const notice = { title: "Issue #1 assigned to you", body: "Van", url: "/issues/x", tag: "issue-x" };
    const target = { workspaceId: owner.workspaceId, userId: tech.userId };
    await Promise.all([pushToMember(db, config(env), target, notice), pushToMember(db, config(env), target, notice)]);
    await pushToMember(db, config(env), target, notice);
    expect(pushService.received).toHaveLength(2);
  });
});
