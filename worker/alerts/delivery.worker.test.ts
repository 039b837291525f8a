import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../test-entry";
import { database } from "../test/db";
import { alertDeliveries, alertOutbox, alerts, emailOutbox, memberships, webhookSecrets } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { checkNotify } from "../api/alert-delivery";
import { config } from "../env";
import { DELIVERY_MAX_ATTEMPTS, retryDelaySeconds } from "./delivery-consumer";
import { relayAlerts, type DeliveryMessage } from "./relay";

const db = database(env.DB);
const HOOK = "https://hooks.example.com/fleet";

/** The webhook receiver, faked at its HTTP boundary: answers with `statuses` in turn, keeps every request. */
class Receiver {
  requests: { url: string; headers: Headers; body: string }[] = [];
  constructor(private statuses: number[] = [200]) {}
  fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    this.requests.push({ url: request.url, headers: request.headers, body: await request.text() });
    return new Response("", { status: this.statuses[Math.min(this.requests.length - 1, this.statuses.length - 1)] });
  };
}

let receiver: Receiver;
const answer = (statuses: number[]) => {
  receiver = new Receiver(statuses);
  vi.spyOn(globalThis, "fetch").mockImplementation(receiver.fetch);
};
beforeEach(() => answer([200]));
afterEach(() => vi.restoreAllMocks());

async function ruleWith(token: string, notify: { emails?: string[]; webhookUrl?: string }) {
  const res = await call("/api/alert-rules", { method: "POST", token, json: { type: "tow", notify } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** An alert written as ingestion writes it (version bumped, row stamped), which fires the outbox trigger. */
async function storeAlert(workspaceId: string, ruleId: string) {
  const id = `${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  await db.batch([
    bumpVersion(db, workspaceId),
    db.insert(alerts).values({
      id,
      workspaceId,
      ruleId,
      vehicleId: "v1",
      type: "tow",
      at: Date.parse("2026-11-20T10:00:00Z"),
      latitude: 41.88,
      longitude: -87.63,
      peak: 12.5,
      version: versionOf(workspaceId),
    }),
  ]);
  return id;
}

/** Runs the Worker's queue handler on these messages, as the queue would, and returns what it acked and retried. */
async function consume(messages: { body: DeliveryMessage; attempts?: number }[]) {
  const batch = createMessageBatch(
    "fleet-ops-alert-deliveries",
    messages.map((m, i) => ({
      id: `msg-${i}-${crypto.randomUUID()}`,
      timestamp: Date.now(),
      attempts: m.attempts ?? 1,
      body: m.body,
    })),
  );
  // getQueueResult does not report a retry's delay: the messages' own retry() is watched for it
  const delays = batch.messages.map((m) => vi.spyOn(m, "retry"));
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  const result = await getQueueResult(batch, ctx);
  return { ...result, retryDelays: delays.flatMap((spy) => spy.mock.calls.map(([options]) => options?.delaySeconds)) };
}

const recordOf = (m: DeliveryMessage) =>
  db
    .select()
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.alertId, m.alertId), eq(alertDeliveries.target, m.target)))
    .get();

const secretOf = async (token: string) =>
  ((await (await call("/api/webhook-secret", { token })).json()) as { secret: string }).secret;

describe("alert delivery to a webhook", () => {
  it("POSTs the alert as JSON, signed under the workspace's secret (timestamp and id signed with the body)", async () => {
    const a = await userWithWorkspace();
    const ruleId = await ruleWith(a.token, { webhookUrl: HOOK });
    const alertId = await storeAlert(a.workspaceId, ruleId);
    const result = await consume([{ body: { workspaceId: a.workspaceId, alertId, target: `webhook:${HOOK}` } }]);
    expect(result.explicitAcks).toHaveLength(1);

    expect(receiver.requests).toHaveLength(1);
    const { url, headers, body } = receiver.requests[0]!;
    expect(url).toBe(HOOK);
    expect(JSON.parse(body)).toMatchObject({
      id: alertId,
      type: "alert",
      workspaceId: a.workspaceId,
      alert: { id: alertId, type: "tow", ruleId, at: "2026-11-20T10:00:00.000Z", endAt: null, peak: 12.5 },
    });
    expect(headers.get("webhook-id")).toBe(alertId);
    expect(headers.get("idempotency-key")).toBe(alertId);
    // verified the way a receiver would, with its own HMAC and the secret the owner copied
    const secret = await secretOf(a.token);
    const timestamp = headers.get("webhook-timestamp")!;
    const key = await crypto.subtle.importKey(
      "raw",
      Uint8Array.from(atob(secret.slice("whsec_".length)), (ch) => ch.charCodeAt(0)),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    const signature = Uint8Array.from(atob(headers.get("webhook-signature")!.replace(/^v1,/, "")), (ch) =>
      ch.charCodeAt(0),
    );
    expect(
      await crypto.subtle.verify("HMAC", key, signature, new TextEncoder().encode(`${alertId}.${timestamp}.${body}`)),
    ).toBe(true);
    // and it is bound to the id and the time: the same body under another timestamp does not verify
    expect(
      await crypto.subtle.verify(
        "HMAC",
        key,
        signature,
        new TextEncoder().encode(`${alertId}.${Number(timestamp) + 600}.${body}`),
      ),
    ).toBe(false);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect((await recordOf({ workspaceId: a.workspaceId, alertId, target: `webhook:${HOOK}` }))?.status).toBe("sent");
  });

  it("retries a receiver's 500 with backoff, then delivers once; a duplicate message sends nothing", async () => {
    answer([500, 200]);
    const a = await userWithWorkspace();
    const ruleId = await ruleWith(a.token, { webhookUrl: HOOK });
    const message = {
      workspaceId: a.workspaceId,
      alertId: await storeAlert(a.workspaceId, ruleId),
      target: `webhook:${HOOK}`,
    };

    const first = await consume([{ body: message, attempts: 1 }]);
    expect(first.retryMessages).toHaveLength(1);
    expect(first.retryDelays).toEqual([30]);
    expect(await recordOf(message)).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "receiver answered 500",
    });

    const second = await consume([{ body: message, attempts: 2 }]);
    expect(second.explicitAcks).toHaveLength(1);
    expect(await recordOf(message)).toMatchObject({ status: "sent", attempts: 2 });

    // the same message again (the queue delivers at least once), and two copies at once
    await consume([{ body: message }, { body: message }]);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests.map((r) => r.headers.get("webhook-id"))).toEqual([message.alertId, message.alertId]);
  });

  it("backs off for more than a day, then keeps a dead record the owner can list", async () => {
    let total = 0;
    for (let attempt = 1; attempt < DELIVERY_MAX_ATTEMPTS; attempt++) total += retryDelaySeconds(attempt);
    expect(total).toBeGreaterThan(24 * 3600);
    expect(retryDelaySeconds(DELIVERY_MAX_ATTEMPTS)).toBeLessThanOrEqual(43_200); // the queue's longest delay

    answer([503]);
    const a = await userWithWorkspace();
    const ruleId = await ruleWith(a.token, { webhookUrl: HOOK });
    const message = {
      workspaceId: a.workspaceId,
      alertId: await storeAlert(a.workspaceId, ruleId),
      target: `webhook:${HOOK}`,
    };
    const before = await consume([{ body: message, attempts: DELIVERY_MAX_ATTEMPTS - 1 }]);
    expect(before.retryDelays).toEqual([retryDelaySeconds(DELIVERY_MAX_ATTEMPTS - 1)]);
    const last = await consume([{ body: message, attempts: DELIVERY_MAX_ATTEMPTS }]);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks).toHaveLength(1);
    const listed = (await (await call("/api/alert-deliveries?status=dead", { token: a.token })).json()) as {
      deliveries: { alertId: string; lastError: string }[];
    };
    expect(listed.deliveries).toEqual([
      expect.objectContaining({
        alertId: message.alertId,
        target: message.target,
        status: "dead",
        lastError: "receiver answered 503",
      }),
    ]);
  });
});

describe("alert delivery by e-mail", () => {
  it("goes only to the chosen members who are still members", async () => {
    const a = await userWithWorkspace();
    const stays = await memberWithRole(a.workspaceId, "member");
    const leaves = await memberWithRole(a.workspaceId, "viewer");
    const bystander = await memberWithRole(a.workspaceId, "member");
    const refused = await call("/api/alert-rules", {
      method: "POST",
      token: a.token,
      json: { type: "tow", notify: { emails: [stays.email, "someone@elsewhere.example"] } },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "someone@elsewhere.example is not one",
    );

    const ruleId = await ruleWith(a.token, { emails: [stays.email, leaves.email.toUpperCase()] });
    const alertId = await storeAlert(a.workspaceId, ruleId);
    await db
      .delete(memberships)
      .where(and(eq(memberships.workspaceId, a.workspaceId), eq(memberships.userId, leaves.userId)));
    const targets = [stays.email, leaves.email].map((e) => ({
      body: { workspaceId: a.workspaceId, alertId, target: `email:${e}` },
    }));
    // a forged message for an address the rule does not name sends nothing either
    await consume([...targets, { body: { workspaceId: a.workspaceId, alertId, target: `email:${bystander.email}` } }]);

    const sent = await db.select().from(emailOutbox).all();
    const mine = sent.filter((e) => [stays.email, leaves.email, bystander.email].includes(e.to));
    expect(mine.map((e) => e.to)).toEqual([stays.email]);
    expect(mine[0]!.subject).toBe("Fleet Ops alert: Towed");
    expect(mine[0]!.text).toContain("/inbox");
    expect((await recordOf(targets[1]!.body))?.status).toBe("skipped");
    expect(receiver.requests).toEqual([]);
  });

  it("says when on the workspace's clock, the zone named, in its hour cycle (docs/decisions/0079)", async () => {
    const a = await userWithWorkspace();
    const prefs = (json: unknown) => call("/api/workspace/preferences", { method: "PATCH", token: a.token, json });
    expect((await prefs({ timeZone: "America/Chicago" })).status).toBe(200);
    const { email } = await memberWithRole(a.workspaceId, "member");
    const ruleId = await ruleWith(a.token, { emails: [email] });
    const mailOf = async () => {
      const alertId = await storeAlert(a.workspaceId, ruleId);
      await consume([{ body: { workspaceId: a.workspaceId, alertId, target: `email:${email}` } }]);
      const sent = await db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).all();
      return sent.at(-1)!.text;
    };
    // 10:00 UTC on 20 November is 4:00 AM in Chicago (CST), where the workspace is
    expect(await mailOf()).toContain("When: 2026-11-20 4:00 AM CST\n");
    expect((await prefs({ hourCycle: "h23" })).status).toBe(200);
    expect(await mailOf()).toContain("When: 2026-11-20 04:00 CST\n");
  });
});

describe("from the stored alert to the queue", () => {
  it("puts alerts of rules that notify in the outbox when they are written, and the relay enqueues one message per target", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const notifying = await ruleWith(a.token, { webhookUrl: HOOK, emails: [member.email] });
    const quiet = await ruleWith(a.token, {});
    const loud = await storeAlert(a.workspaceId, notifying);
    const silent = await storeAlert(a.workspaceId, quiet);
    const outbox = (await db.select().from(alertOutbox).all()).map((r) => r.alertId);
    expect(outbox).toContain(loud);
    expect(outbox).not.toContain(silent);

    const sent: DeliveryMessage[] = [];
    const queue = {
      sendBatch: async (messages: Iterable<MessageSendRequest<DeliveryMessage>>) =>
        void sent.push(...[...messages].map((m) => m.body)),
    } as unknown as Queue<DeliveryMessage>;
    await relayAlerts(db, queue, config(env));
    expect(sent.filter((m) => m.alertId === loud)).toEqual([
      { workspaceId: a.workspaceId, alertId: loud, target: `webhook:${HOOK}` },
      { workspaceId: a.workspaceId, alertId: loud, target: `email:${member.email}` },
    ]);
    expect(await db.select().from(alertOutbox).where(eq(alertOutbox.alertId, loud)).get()).toBeUndefined();
  });

  it("runs end to end on the real queue: the cron relays, the consumer delivers", async () => {
    const a = await userWithWorkspace();
    const ruleId = await ruleWith(a.token, { webhookUrl: HOOK });
    const alertId = await storeAlert(a.workspaceId, ruleId);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController(), env, ctx);
    await vi.waitFor(
      async () =>
        expect((await recordOf({ workspaceId: a.workspaceId, alertId, target: `webhook:${HOOK}` }))?.status).toBe(
          "sent",
        ),
      { timeout: 10_000, interval: 50 },
    );
    expect(receiver.requests.filter((r) => r.headers.get("webhook-id") === alertId)).toHaveLength(1);
  });
});

describe("tenant isolation and roles", () => {
  it("never delivers one workspace's alert as another's, and keeps each secret to its owners and admins", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const ruleId = await ruleWith(a.token, { webhookUrl: HOOK });
    const alertId = await storeAlert(a.workspaceId, ruleId);
    await consume([{ body: { workspaceId: b.workspaceId, alertId, target: `webhook:${HOOK}` } }]);
    expect(receiver.requests).toEqual([]);

    const secretA = await secretOf(a.token);
    expect(secretA).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await secretOf(b.token)).not.toBe(secretA);
    expect(await secretOf(a.token)).toBe(secretA);
    // stored sealed: the D1 row does not hold the secret
    const row = await db.select().from(webhookSecrets).where(eq(webhookSecrets.workspaceId, a.workspaceId)).get();
    expect(row!.sealed).not.toContain(secretA.slice("whsec_".length, 20));
    const listedB = (await (await call("/api/alert-deliveries", { token: b.token })).json()) as {
      deliveries: unknown[];
    };
    expect(listedB.deliveries).toEqual([]);

    for (const role of ["member", "viewer"]) {
      const other = await memberWithRole(a.workspaceId, role);
      expect((await call("/api/webhook-secret", { token: other.token })).status).toBe(403);
      expect((await call("/api/webhook-secret/rotate", { method: "POST", token: other.token })).status).toBe(403);
      expect((await call("/api/alert-deliveries", { token: other.token })).status).toBe(403);
    }
    const admin = await memberWithRole(a.workspaceId, "admin");
    const rotated = (await (
      await call("/api/webhook-secret/rotate", { method: "POST", token: admin.token })
    ).json()) as { secret: string };
    expect(rotated.secret).not.toBe(secretA);
    expect(await secretOf(a.token)).toBe(rotated.secret);
  });

  it("refuses a webhook URL that is not https (plain http only on this machine, outside production), with a 400", async () => {
    const a = await userWithWorkspace();
    const res = await call("/api/alert-rules", {
      method: "POST",
      token: a.token,
      json: { type: "tow", notify: { webhookUrl: "ftp://x" } },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      "The webhook URL must use https",
    );
    const production = { ...config(env), ENVIRONMENT: "production" as const };
    const local = { type: "tow" as const, notify: { emails: [], webhookUrl: "http://127.0.0.1:9000/hook" } };
    await expect(checkNotify(db, production, a.workspaceId, local)).rejects.toMatchObject({
      status: 400,
      message: "The webhook URL must use https",
    });
    // a receiver on this machine only in development (npm start, the benches); tests refuse loopback like production
    await expect(
      checkNotify(db, { ...config(env), ENVIRONMENT: "development" }, a.workspaceId, local),
    ).resolves.toBeUndefined();
    await expect(checkNotify(db, config(env), a.workspaceId, local)).rejects.toMatchObject({ status: 400 });
  });
});
