import { env } from "cloudflare:workers";
import { getTableColumns, getTableName } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { d1Meter } from "../../db/d1-meter";
import { workspaces } from "../../db/schema";
import { LIVE_SYNCED_TABLES } from "../../db/live-tables";
import { FLUSH_TABLES } from "../../party/live-fleet/flush-tables";
import { call, report, workspaceWithBeacon } from "../test/factories";
import { ingest } from "../test/ingest";
import { readChanges } from "./changes";
import { eq } from "drizzle-orm";

// An incremental pull of a workspace whose only writes since its cookie were its object's flushes
// reads the flush's tables and nothing else (issue 35: D1 statements per second with pages open);
// any other write since the cookie makes it read every synced table.
const db = () => database(env.DB);

const versions = async (workspaceId: string) =>
  (await db()
    .select({ version: workspaces.version, editVersion: workspaces.editVersion })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get())!;

async function metered<T>(read: () => Promise<T>): Promise<{ value: T; statements: number }> {
  d1Meter.statements = 0;
  d1Meter.on = true;
  try {
    const value = await read();
    return { value, statements: d1Meter.statements };
  } finally {
    d1Meter.on = false;
  }
}

describe("an incremental pull after flushes only", () => {
  it("reads the workspace row and the live tables only, and every table again once something is edited", async () => {
    const { workspaceId, token, beacon } = await workspaceWithBeacon();
    const cookie = (await versions(workspaceId)).version;
    await ingest([report(beacon.id, Date.now() - 5_000, { latitude: 41.88 })]);
    const flushed = await versions(workspaceId);
    expect(flushed.version).toBeGreaterThan(cookie);
    expect(flushed.editVersion).toBe(cookie); // the beacon order was the last write that was not a flush

    const live = await metered(() => readChanges(db(), workspaceId, cookie));
    expect(live.statements).toBe(1 + LIVE_SYNCED_TABLES.length);
    expect(live.value.workspace.version).toBe(flushed.version);
    expect(live.value.telemetryRows.map((t) => t.latitude)).toEqual([41.88]);

    // A place drawn (an edit): the next pull from the same cookie reads everything and gets it.
    const place = { name: "Depot", geometry: { type: "Circle", center: [-87.63, 41.88], radius: 150 } };
    expect((await call("/api/places", { method: "POST", token, json: place })).status).toBe(201);
    const placeVersion = (await versions(workspaceId)).version;
    const edited = await metered(() => readChanges(db(), workspaceId, cookie));
    expect(edited.statements).toBeGreaterThan(1 + LIVE_SYNCED_TABLES.length);
    expect(edited.value.placeRows.map((p) => p.name)).toEqual(["Depot"]);
    expect(edited.value.telemetryRows.map((t) => t.latitude)).toEqual([41.88]);

    // Flushes after the edit: a cookie from before it still gets the place, one from after it
    // reads the flush's tables alone.
    await ingest([report(beacon.id, Date.now() - 4_000, { latitude: 41.89 })]);
    await ingest([report(beacon.id, Date.now() - 3_000, { latitude: 41.9 })]);
    expect((await readChanges(db(), workspaceId, cookie)).placeRows.map((p) => p.name)).toEqual(["Depot"]);
    const after = await metered(() => readChanges(db(), workspaceId, placeVersion));
    expect(after.statements).toBe(1 + LIVE_SYNCED_TABLES.length);
    expect(after.value.telemetryRows.map((t) => t.latitude)).toEqual([41.9]);
  });

  it("reads every table after a write that only bumped the version, as an older deployment's code does", async () => {
    const { workspaceId, beacon } = await workspaceWithBeacon();
    await ingest([report(beacon.id, Date.now() - 5_000)]);
    const cookie = (await versions(workspaceId)).version;
    await env.DB.prepare("UPDATE workspaces SET version = version + 1 WHERE id = ?").bind(workspaceId).run();
    const read = await metered(() => readChanges(db(), workspaceId, cookie));
    expect(read.statements).toBeGreaterThan(1 + LIVE_SYNCED_TABLES.length);
  });

  it("holds because every synced table the flush writes is one of the live tables", () => {
    const synced = (columns: object) => "version" in columns && "workspaceId" in columns;
    const flushed = Object.values(FLUSH_TABLES)
      .filter((t) => synced(getTableColumns(t.table)))
      .map((t) => getTableName(t.table));
    for (const table of [...flushed, "telemetry", "vehicle_events", "vehicles"])
      expect(LIVE_SYNCED_TABLES as readonly string[]).toContain(table);
  });
});
