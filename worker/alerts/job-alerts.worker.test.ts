import { firstPull } from "../test/sync";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AlertWire } from "../../shared/alerts/alerts";
import { database } from "../test/db";
import { alerts, emailOutbox } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { FakePushService } from "../test/push-service";
import { config } from "../env";
import { sendDelivery } from "./send";

// A job alert names its job wherever a person reads it (issue 43, docs/decisions/0062): the job's
// id, number and title travel on the alert row, as the jobs module writes them (domain/jobs/job-alerts.ts).
const db = database(env.DB);
const HOOK = "https://hooks.example.com/fleet";
let pushService: FakePushService;
const hooks: unknown[] = [];
beforeEach(() => {
  pushService = new FakePushService();
  hooks.length = 0;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(HOOK)) return pushService.fetch(input, init);
    hooks.push(await request.json());
    return new Response("", { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

const JOB = { id: "job-1", number: 12, title: "Deliver pallets" };

async function jobAlert(workspaceId: string, ruleId: string, type: "job_arrived" | "job_late" = "job_arrived") {
  const id = crypto.randomUUID();
  await db.batch([
    bumpVersion(db, workspaceId),
    db.insert(alerts).values({
      id,
      workspaceId,
      ruleId,
      vehicleId: "v1",
      type,
      at: Date.parse("2026-11-20T10:00:00Z"),
      latitude: 41.88,
      longitude: -87.63,
      jobId: JOB.id,
      jobNumber: JOB.number,
      jobTitle: JOB.title,
      version: versionOf(workspaceId),
    }),
  ]);
  return id;
}

async function rule(token: string, notify: { emails?: string[]; webhookUrl?: string }) {
  const res = await call("/api/alert-rules", { method: "POST", token, json: { type: "job_arrived", notify } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("alerts that name their job", () => {
  it("carries the job's id, number and title in the webhook payload", async () => {
    const a = await userWithWorkspace();
    const alertId = await jobAlert(a.workspaceId, await rule(a.token, { webhookUrl: HOOK }));
    const outcome = await sendDelivery(db, config(env), {
      workspaceId: a.workspaceId,
      alertId,
      target: `webhook:${HOOK}`,
    });
    expect(outcome).toBe("sent");
    expect(hooks).toEqual([
      expect.objectContaining({ alert: expect.objectContaining({ type: "job_arrived", job: JOB }) }),
    ]);
  });

  it("names the job in the e-mail and in the push to the member's phone", async () => {
    const a = await userWithWorkspace();
    const driver = await memberWithRole(a.workspaceId, "member");
    const subscribed = await call("/api/push-subscriptions", {
      method: "POST",
      token: driver.token,
      json: await pushService.subscribe(`https://push.example.net/send/${crypto.randomUUID()}`),
    });
    expect(subscribed.status).toBe(201);
    const alertId = await jobAlert(a.workspaceId, await rule(a.token, { emails: [driver.email] }));
    await sendDelivery(db, config(env), { workspaceId: a.workspaceId, alertId, target: `email:${driver.email}` });
    const mail = (await db.select().from(emailOutbox).all()).find((m) => m.to === driver.email)!;
    expect(mail.text).toContain("Arrived at a job: ");
    expect(mail.text).toContain("(#12 Deliver pallets)");
    expect(pushService.received.map((r) => r.message)).toEqual([
      expect.objectContaining({ body: "#12 Deliver pallets", tag: `alert-${alertId}` }),
    ]);
  });

  it("gives the job over REST and to the Inbox through sync, and nothing of it on other alerts", async () => {
    const a = await userWithWorkspace();
    const ruleId = await rule(a.token, {});
    const alertId = await jobAlert(a.workspaceId, ruleId);
    const listed = (await (await call("/api/alerts", { token: a.token })).json()) as {
      alerts: { id: string; job: unknown }[];
    };
    expect(listed.alerts.find((x) => x.id === alertId)!.job).toEqual(JOB);

    const pull = await firstPull(a.token);
    const { patch } = (await pull.json()) as { patch: { key?: string; value?: unknown }[] };
    const synced = patch.find((p) => p.key === `alert/${alertId}`)!.value as AlertWire;
    expect(synced.j).toEqual([JOB.id, JOB.number, JOB.title]);

    // another workspace sees neither the alert nor its job
    const b = await userWithWorkspace();
    const theirs = (await (await call("/api/alerts", { token: b.token })).json()) as { alerts: { id: string }[] };
    expect(theirs.alerts.map((x) => x.id)).not.toContain(alertId);
  });
});
