import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../test-entry";
import { database } from "../test/db";
import { alertDeliveries, alertRules, alerts } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { webhookTargetProblem } from "./webhook-target";
import { firstPull } from "../test/sync";

/** Issue 34, finding 4: webhook targets that would make the Worker a port scanner or reach metadata are refused. */
const db = database(env.DB);
let fetched: string[] = [];
beforeEach(() => {
  fetched = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    fetched.push(String(input instanceof Request ? input.url : input));
    return new Response("", { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

const refused = [
  "https://169.254.169.254/latest/meta-data/",
  "https://10.0.0.1/",
  "https://172.16.5.4/",
  "https://192.168.1.1/",
  "https://100.64.0.1/",
  "https://0.0.0.0/",
  "https://[::1]/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::ffff:a9fe:a9fe]/",
  "https://[fd00::1]/",
  "https://[fe80::1]/",
  "https://localhost:8443/",
  "https://metadata.google.internal/computeMetadata/v1/",
  "http://localhost.evil.example/",
  "https://localhost.evil.example/",
  "http://localhost@evil.example/",
  "https://user:pass@hooks.example.com/",
  "https://2130706433/",
  "https://0x7f.1/",
  "https://0xa9fea9fe/",
  "https://017700000001/",
  "https://printer.local/",
  "https://intranet/",
  "https://api.localhost/",
];

describe("webhook targets", () => {
  it.each(refused)("refuses %s when a rule is written (400 on the field)", async (webhookUrl) => {
    const a = await userWithWorkspace();
    const res = await call("/api/alert-rules", {
      method: "POST",
      token: a.token,
      json: { type: "tow", notify: { webhookUrl } },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string[]> } };
    expect(body.error.fields["notify.webhookUrl"]).toBeDefined();
  });

  it("accepts public https hosts, and plain http only outside production", async () => {
    expect(webhookTargetProblem("https://hooks.slack.com/services/T0/B0/xyz", "production")).toBeNull();
    expect(webhookTargetProblem("https://[2606:4700:4700::1111]/hook", "production")).toBeNull();
    expect(webhookTargetProblem("https://8.8.8.8/hook", "production")).toBeNull();
    expect(webhookTargetProblem("http://hooks.example.com/", "production")).toBe("The webhook URL must use https");
    expect(webhookTargetProblem("http://hooks.example.com/", "test")).toBeNull();
    expect(webhookTargetProblem("http://127.0.0.1:9000/hook", "development")).toBeNull();
    expect(webhookTargetProblem("http://127.0.0.1:9000/hook", "production")).not.toBeNull();
  });

  it("refuses a private target again at delivery time (a rule stored before the check): no request, a dead record", async () => {
    const a = await userWithWorkspace();
    const ruleId = crypto.randomUUID();
    const url = "https://10.0.0.1/admin";
    const alertId = crypto.randomUUID();
    await db.batch([
      bumpVersion(db, a.workspaceId),
      db.insert(alertRules).values({
        id: ruleId,
        workspaceId: a.workspaceId,
        config: { type: "tow", notify: { emails: [], webhookUrl: url } },
        version: versionOf(a.workspaceId),
      }),
      db.insert(alerts).values({
        id: alertId,
        workspaceId: a.workspaceId,
        ruleId,
        vehicleId: "v1",
        type: "tow",
        at: Date.now(),
        latitude: 1,
        longitude: 1,
        version: versionOf(a.workspaceId),
      }),
    ]);
    const batch = createMessageBatch("fleet-ops-alert-deliveries", [
      {
        id: "m1",
        timestamp: new Date(),
        attempts: 1,
        body: { workspaceId: a.workspaceId, alertId, target: `webhook:${url}` },
      },
    ]);
    await worker.queue(batch, env);
    expect(fetched).toEqual([]);
    const record = await db
      .select()
      .from(alertDeliveries)
      .where(and(eq(alertDeliveries.alertId, alertId), eq(alertDeliveries.workspaceId, a.workspaceId)))
      .get();
    expect(record).toMatchObject({ status: "dead" });
    expect(record!.lastError).toContain("public address");
  });

  it("shows a viewer only the host of a rule's webhook URL, over the API and in sync; members see it whole", async () => {
    const a = await userWithWorkspace();
    const secretUrl = "https://hooks.slack.com/services/T000/B000/secretpart";
    expect(
      (
        await call("/api/alert-rules", {
          method: "POST",
          token: a.token,
          json: { type: "tow", notify: { webhookUrl: secretUrl } },
        })
      ).status,
    ).toBe(201);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const member = await memberWithRole(a.workspaceId, "member");
    const urlFor = async (token: string) =>
      ((await (await call("/api/alert-rules", { token })).json()) as { rules: { notify: { webhookUrl: string } }[] })
        .rules[0]!.notify.webhookUrl;
    expect(await urlFor(viewer.token)).toBe("https://hooks.slack.com/…");
    expect(await urlFor(member.token)).toBe(secretUrl);

    const pull = async (token: string) => JSON.stringify(await (await firstPull(token)).json());
    expect(await pull(viewer.token)).not.toContain("secretpart");
    expect(await pull(member.token)).toContain("secretpart");
  });
});
