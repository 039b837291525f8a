import { env } from "cloudflare:workers";
import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "./test/db";
import {
  alertDeliveries,
  emailConfirmations,
  emailOutbox,
  jobs,
  jobShares,
  rateLimits,
  realtimeTickets,
} from "../db/schema";
import { userWithWorkspace } from "./test/factories";
import { retentionDue, runRetention, RETENTION_MINUTE } from "./retention";

const DAY = 86_400_000;
const db = () => database(env.DB);

describe("retention of the tables that only grow", () => {
  it("deletes finished rows past their time and keeps the rest, at most `limit` per table per run", async () => {
    const now = Date.now() + 1_000 * DAY; // far enough ahead that rows of other tests are old too
    const { workspaceId } = await userWithWorkspace();
    const tag = crypto.randomUUID();
    const key = (k: string) => `${tag}:${k}`;
    await db()
      .insert(rateLimits)
      .values([
        { key: key("old-1"), windowStart: now - 3 * DAY, count: 1 },
        { key: key("old-2"), windowStart: now - 3 * DAY, count: 1 },
        { key: key("fresh"), windowStart: now - DAY, count: 1 },
      ]);
    await db()
      .insert(realtimeTickets)
      .values([
        { ticketHash: key("old"), sessionHash: "s", expiresAt: now - 2 * DAY },
        { ticketHash: key("fresh"), sessionHash: "s", expiresAt: now },
      ]);
    await db()
      .insert(alertDeliveries)
      .values([
        { alertId: key("sent"), target: "email:u", workspaceId, status: "sent", updatedAt: now - 31 * DAY },
        { alertId: key("queued"), target: "email:u", workspaceId, status: "queued", updatedAt: now - 31 * DAY },
        { alertId: key("recent"), target: "email:u", workspaceId, status: "dead", updatedAt: now - DAY },
      ]);
    await db()
      .insert(emailOutbox)
      .values({ to: key("x"), subject: "s", text: "t", createdAt: now - 8 * DAY });

    // Bounded: one row per table this run, the rest the next.
    await runRetention(db(), now, 1);
    const limits = async () =>
      (
        await db()
          .select({ key: rateLimits.key })
          .from(rateLimits)
          .where(inArray(rateLimits.key, [key("old-1"), key("old-2"), key("fresh")]))
          .all()
      ).map((r) => r.key);
    expect(await limits()).toHaveLength(2);
    for (let run = 0; run < 50 && (await limits()).length > 1; run++) await runRetention(db(), now, 1_000);
    expect(await limits()).toEqual([key("fresh")]);

    const tickets = await db()
      .select({ id: realtimeTickets.ticketHash })
      .from(realtimeTickets)
      .where(inArray(realtimeTickets.ticketHash, [key("old"), key("fresh")]))
      .all();
    expect(tickets.map((t) => t.id)).toEqual([key("fresh")]);
    const deliveries = await db()
      .select({ id: alertDeliveries.alertId })
      .from(alertDeliveries)
      .where(inArray(alertDeliveries.alertId, [key("sent"), key("queued"), key("recent")]))
      .all();
    expect(deliveries.map((d) => d.id).sort()).toEqual([key("queued"), key("recent")].sort());
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(inArray(emailOutbox.to, [key("x")]))
        .all(),
    ).toEqual([]);
  });

  it("deletes e-mail confirmation links a day after they expired, and keeps live ones", async () => {
    const now = Date.now() + 1_000 * DAY;
    const { userId } = await userWithWorkspace();
    const tag = crypto.randomUUID();
    await db()
      .insert(emailConfirmations)
      .values([
        { tokenHash: `${tag}:old`, userId, expiresAt: now - 2 * DAY },
        { tokenHash: `${tag}:live`, userId, expiresAt: now + DAY },
      ]);
    for (let run = 0; run < 50; run++) if (!(await runRetention(db(), now, 1_000)).email_confirmations) break;
    const left = await db()
      .select({ tokenHash: emailConfirmations.tokenHash })
      .from(emailConfirmations)
      .where(inArray(emailConfirmations.tokenHash, [`${tag}:old`, `${tag}:live`]))
      .all();
    expect(left.map((r) => r.tokenHash)).toEqual([`${tag}:live`]);
  });

  it("deletes a job's customer links a day after they ended, and keeps live ones", async () => {
    const now = Date.now() + 1_000 * DAY;
    const { workspaceId } = await userWithWorkspace();
    const jobId = crypto.randomUUID();
    await db().insert(jobs).values({
      id: jobId,
      workspaceId,
      number: 1,
      title: "Stop",
      date: "2026-11-28",
      latitude: 41.88,
      longitude: -87.63,
      version: 0,
    });
    const link = (tag: string, expiresAt: number) => ({
      id: crypto.randomUUID(),
      workspaceId,
      jobId,
      tokenHash: `${jobId}:${tag}`,
      expiresAt,
    });
    await db()
      .insert(jobShares)
      .values([link("old", now - 2 * DAY), link("live", now + DAY)]);
    for (let run = 0; run < 50; run++) if (!(await runRetention(db(), now, 1_000)).job_shares) break;
    const left = await db()
      .select({ tokenHash: jobShares.tokenHash })
      .from(jobShares)
      .where(inArray(jobShares.jobId, [jobId]))
      .all();
    expect(left.map((r) => r.tokenHash)).toEqual([`${jobId}:live`]);
  });

  it("runs once an hour", () => {
    const at = (minute: number) => Date.UTC(2026, 10, 25, 10, minute);
    expect(retentionDue(at(RETENTION_MINUTE))).toBe(true);
    expect(retentionDue(at(RETENTION_MINUTE + 1))).toBe(false);
  });
});
