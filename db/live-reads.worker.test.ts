import { env } from "cloudflare:workers";
import { eq, getTableName, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "./client";
import { beacons } from "./schema";
import { liveReads, readsLiveTable } from "./live-reads";
import { FLUSHED_TABLES } from "./live-tables";
import { FLUSH_TABLES } from "../party/live-fleet/flush-tables";
import { call, report, userWithWorkspace } from "../worker/test/factories";
import { ingest } from "../worker/test/ingest";

/**
 * The one settling reader (db/live-reads.ts, worker/api/settle-live-reads.ts): an API read of a table the
 * workspace object flushes sees every report the object acknowledged before it, whichever route.
 */
describe("reads of the tables the workspace object flushes", () => {
  it("knows every table the flush writes, and which statements read one", () => {
    for (const { table } of Object.values(FLUSH_TABLES)) expect(FLUSHED_TABLES).toContain(getTableName(table));
    expect(readsLiveTable('select "id" from "telemetry" where "vehicle_id" = ?')).toBe(true);
    expect(readsLiveTable('select * from "issues" left join "vehicles" on 1')).toBe(true);
    expect(readsLiveTable('update "issues" set "x" = (select 1 from "jobs")')).toBe(true);
    expect(readsLiveTable('insert into "telemetry" ("id") values (?)')).toBe(false);
    expect(readsLiveTable('select * from "vehicles_archive"')).toBe(false);
    expect(readsLiveTable('select * from "issues"')).toBe(false);
    // Raw SQL names tables bare (worker/reports/events.ts), in a FROM list, or quoted otherwise.
    expect(readsLiveTable("SELECT e.id FROM vehicle_events e LEFT JOIN event_rollups r ON r.event_id = e.id")).toBe(
      true,
    );
    expect(readsLiveTable("select * from issues i join jobs j on j.id = i.job_id")).toBe(true);
    expect(readsLiveTable("select * from issues i, vehicles v where v.id = i.vehicle_id")).toBe(true);
    expect(readsLiveTable("select * from `alerts`")).toBe(true);
    expect(readsLiveTable("select * from vehicles_archive")).toBe(false);
    expect(readsLiveTable("insert into jobs select * from json_each(?)")).toBe(false);
  });

  it("settles a raw read that names a live table bare, and lets a raw read of other tables go at once", async () => {
    const db = database(env.DB);
    const settled: string[] = [];
    const scope = (name: string) => ({ settle: async () => void settled.push(name) });
    // Awaited inside the scope, as a handler does: Drizzle's query runs when awaited.
    await liveReads.run(scope("events"), async () => {
      await db.all(sql`SELECT count(*) AS n FROM vehicle_events e LEFT JOIN event_rollups r ON r.event_id = e.id`);
    });
    await liveReads.run(scope("issues"), async () => {
      await db.all(sql`SELECT count(*) AS n FROM issues`);
    });
    expect(settled).toEqual(["events"]);
  });

  it("answers with a report the object acknowledged but has not written to D1 yet", async () => {
    const a = await userWithWorkspace();
    const ordered = await call("/api/beacons/order", {
      method: "POST",
      token: a.token,
      json: { workspaceId: a.workspaceId, count: 1 },
    });
    const [beacon] = (await ordered.json()) as { id: string }[];
    await ingest([report(beacon!.id, Date.now() - 1_000)], { flushMs: 60_000 });
    const inD1 = () => database(env.DB).select().from(beacons).where(eq(beacons.id, beacon!.id)).get();
    // Outside a request's scope D1 is read as it is: the object still holds the report.
    expect((await inD1())?.lastReportAt).toBeNull();

    const res = await call("/api/beacons", { token: a.token });
    const listed = (await res.json()) as { id: string; lastReportAt: number | null }[];
    expect(listed.find((b) => b.id === beacon!.id)?.lastReportAt).toEqual(expect.any(Number));
    expect((await inD1())?.lastReportAt).toEqual(expect.any(Number));
  });

  it("does not make another workspace's object write: its reads wait only for their own", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const ordered = await call("/api/beacons/order", {
      method: "POST",
      token: a.token,
      json: { workspaceId: a.workspaceId, count: 1 },
    });
    const [beacon] = (await ordered.json()) as { id: string }[];
    await ingest([report(beacon!.id, Date.now() - 1_000)], { flushMs: 60_000 });
    expect((await call("/api/beacons", { token: b.token })).status).toBe(200);
    const row = await database(env.DB).select().from(beacons).where(eq(beacons.id, beacon!.id)).get();
    expect(row?.lastReportAt).toBeNull();
  });
});
