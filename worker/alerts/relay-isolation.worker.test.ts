import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../test-entry";
import { database } from "../test/db";
import { chunkRows } from "../../db/chunk";
import { alertDeliveries, alertOutbox, alertRules, alerts, emailOutbox } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { config } from "../env";
import { PER_WORKSPACE_PER_RUN, relayRun, setAsideOf, type DeliveryMessage } from "./relay";

/**
 * Issue 34, finding 1: one tenant's poisoned rule, dead receiver or volume delays only itself.
 * Receivers are faked at their HTTP boundary (fetch); the queue is the real local queue unless a
 * test says otherwise.
 */
const db = database(env.DB);
const HEALTHY = "https://hooks.example.com/fleet";
const DOWN = "https://down.example.com/fleet";

let requests: string[] = [];
beforeEach(() => {
  requests = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    requests.push(request.url);
    return new Response("", { status: request.url.startsWith(DOWN) ? 503 : 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

/** A rule as stored before the 2 KB limit existed (straight into D1: the API now refuses it). */
async function storedRule(workspaceId: string, webhookUrl: string) {
  const id = crypto.randomUUID();
  await db.batch([
    bumpVersion(db, workspaceId),
    db.insert(alertRules).values({
      id,
      workspaceId,
      config: { type: "tow", notify: { emails: [], webhookUrl } },
      version: versionOf(workspaceId),
    }),
  ]);
  return id;
}

/** `n` alerts of a rule, written as ingestion writes them (which fires the outbox trigger). */
async function storeAlerts(workspaceId: string, ruleId: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `${workspaceId.slice(0, 8)}-${i}-${crypto.randomUUID().slice(0, 8)}`,
    workspaceId,
    ruleId,
    vehicleId: "v1",
    type: "tow" as const,
    at: Date.parse("2026-11-20T10:00:00Z") + i,
    latitude: 41.88,
    longitude: -87.63,
    version: versionOf(workspaceId),
  }));
  await db.batch([bumpVersion(db, workspaceId), ...chunkRows(rows, 12).map((part) => db.insert(alerts).values(part))]);
  return rows.map((r) => r.id);
}

const statusOf = (alertId: string, url: string) =>
  db
    .select()
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.alertId, alertId), eq(alertDeliveries.target, `webhook:${url}`)))
    .get();

describe("the relay serves each workspace in turn", () => {
  it("delivers every healthy workspace's alerts in the same cron run while one workspace's rule is poisoned and another's receiver is down", async () => {
    const poisoned = await userWithWorkspace();
    const poisonedAdmin = await memberWithRole(poisoned.workspaceId, "admin");
    const poisonedMember = await memberWithRole(poisoned.workspaceId, "member");
    // a 131 KB URL: over a queue message's 128 KB; its alerts are the oldest in the outbox
    const poison = await storeAlerts(
      poisoned.workspaceId,
      await storedRule(poisoned.workspaceId, `https://evil.example/${"a".repeat(131_000)}`),
      3,
    );
    const down = await userWithWorkspace();
    const [downAlert] = await storeAlerts(down.workspaceId, await storedRule(down.workspaceId, DOWN), 1);
    const healthy = await Promise.all(Array.from({ length: 5 }, () => userWithWorkspace()));
    const healthyAlerts = await Promise.all(
      healthy.map(
        async (h) => (await storeAlerts(h.workspaceId, await storedRule(h.workspaceId, HEALTHY), 3)) as string[],
      ),
    );

    await worker.scheduled(createScheduledController(), env, createExecutionContext());

    const ids = healthyAlerts.flat();
    await vi.waitFor(
      async () =>
        expect((await Promise.all(ids.map((id) => statusOf(id, HEALTHY)))).map((r) => r?.status)).toEqual(
          ids.map(() => "sent"),
        ),
      { timeout: 10_000, interval: 50 },
    );
    console.log(
      `relay isolation: ${ids.length} of ${ids.length} healthy alerts delivered in the run that set aside ${poison.length} poisoned ones`,
    );
    // the dead receiver's alert waits for its own retry, nobody else's
    await vi.waitFor(async () => expect((await statusOf(downAlert!, DOWN))?.status).toBe("queued"), {
      timeout: 10_000,
      interval: 50,
    });

    // the poisoned alerts are set aside with their reason, not left at the head of the outbox
    const setAside = await setAsideOf(db, poisoned.workspaceId);
    expect(setAside.map((r) => r.alertId).sort()).toEqual([...poison].sort());
    expect(setAside[0]!.setAsideReason).toContain("too large to queue");
    expect(await db.select().from(alertOutbox).where(inArray(alertOutbox.alertId, ids)).all()).toEqual([]);
    // and reported to that workspace's owners and admins only, once for the run
    const mails = await db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.subject, "Alerts could not be delivered"))
      .all();
    const to = mails.map((m) => m.to);
    expect(to.filter((t) => t === poisonedAdmin.email)).toHaveLength(1);
    expect(to).not.toContain(poisonedMember.email);
    expect(mails.find((m) => m.to === poisonedAdmin.email)!.text).toContain("3 alerts");

    // the next run does not try them again
    const next = await relayRun(db, env.ALERT_DELIVERIES, config(env));
    expect(next.setAside).toBe(0);
  });

  it("gives a workspace raising alerts by the hundred at most its share of a run; a quiet workspace's alert still goes in that run", async () => {
    const sent: DeliveryMessage[] = [];
    // the queue at its boundary: records what it is given
    const queue = {
      sendBatch: async (batch: Iterable<MessageSendRequest<DeliveryMessage>>) =>
        void sent.push(...[...batch].map((m) => m.body)),
    } as unknown as Queue<DeliveryMessage>;
    const busy = await userWithWorkspace();
    const busyRule = await storedRule(busy.workspaceId, HEALTHY);
    for (let i = 0; i < 7; i++) await storeAlerts(busy.workspaceId, busyRule, 100);
    const quiet = await userWithWorkspace();
    const [quietAlert] = await storeAlerts(quiet.workspaceId, await storedRule(quiet.workspaceId, HEALTHY), 1);

    await relayRun(db, queue, config(env));

    expect(sent.filter((m) => m.alertId === quietAlert)).toHaveLength(1);
    expect(sent.filter((m) => m.workspaceId === busy.workspaceId)).toHaveLength(PER_WORKSPACE_PER_RUN);
    const left = await db.select().from(alertOutbox).where(eq(alertOutbox.workspaceId, busy.workspaceId)).all();
    expect(left).toHaveLength(700 - PER_WORKSPACE_PER_RUN);
  });

  it("sends in batches the queue takes: many targets of long URLs are split by bytes, not only by count", async () => {
    const batches: number[] = [];
    const sent: DeliveryMessage[] = [];
    const queue = {
      sendBatch: async (batch: Iterable<MessageSendRequest<DeliveryMessage>>) => {
        const bodies = [...batch].map((m) => m.body);
        const bytes = bodies.reduce((n, m) => n + JSON.stringify(m).length, 0);
        if (bytes > 256_000) throw new Error("batch over 256 KB");
        batches.push(bytes);
        sent.push(...bodies);
      },
    } as unknown as Queue<DeliveryMessage>;
    const a = await userWithWorkspace();
    await storeAlerts(
      a.workspaceId,
      await storedRule(a.workspaceId, `https://hooks.example.com/${"b".repeat(2000)}`),
      150,
    );
    const run = await relayRun(db, queue, config(env));
    expect(run.setAside).toBe(0);
    expect(sent.filter((m) => m.workspaceId === a.workspaceId)).toHaveLength(150);
    expect(batches.length).toBeGreaterThan(1);
    expect(Math.max(...batches)).toBeLessThanOrEqual(200_000);
  });

  it("refuses a webhook URL over 2 KB when a rule is written", async () => {
    const a = await userWithWorkspace();
    const res = await call("/api/alert-rules", {
      method: "POST",
      token: a.token,
      json: { type: "tow", notify: { webhookUrl: `https://hooks.example.com/${"c".repeat(2048)}` } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: "invalid_input", fields: { "notify.webhookUrl": ["At most 2,048 characters"] } },
    });
  });
});
