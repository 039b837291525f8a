import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FleetModule } from "../../domain/fold/fold";
import { REORDER_WINDOW_MS } from "../../domain/fold/late-reports";
import { database } from "../../db/client";
import { positions, vehicleEvents, workspaces } from "../../db/schema";
import { call, report, userWithWorkspace } from "../test/factories";
import type { FlushTable } from "../../party/live-fleet/flush-tables";
import { ingest, vehicleState } from "../test/ingest";

// The seam issues 21 (places and alerts) and 22 (rollups) plug into (docs/decisions/0016): a
// module's per-vehicle state is kept with the vehicle (in the workspace's object) and handed back on its next report, and
// its rows land in their D1 table in the same flush as the reports, stamped for sync.
const db = () => database(env.DB);
const T0 = Date.now() - 3_600_000;

/** Writes one synced marker row per vehicle (in vehicle_events, a real synced table) with its count of fixes. */
const marker: FleetModule<{ n: number }> = {
  name: "marker",
  step: (state, { vehicleId, workspaceId, fix }) => {
    const n = (state?.n ?? 0) + 1;
    const row = {
      id: `marker-${vehicleId}`,
      workspaceId,
      vehicleId,
      type: "STOP",
      startTime: fix.time,
      latitude: fix.latitude,
      longitude: fix.longitude,
      distance: n,
    };
    return { state: { n }, rows: [{ table: "markers", row }] };
  },
};
const tables: Record<string, FlushTable> = { markers: { table: vehicleEvents, key: [vehicleEvents.id] } };

async function beaconOf(token: string, workspaceId: string) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
}

describe("a module plugged into ingestion", () => {
  it("keeps its state across requests and upserts its rows with the workspace version of the write", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    const options = { modules: [marker], tables };
    await ingest([report(beacon.id, T0), report(beacon.id, T0 + 10_000)], options);
    await ingest([report(beacon.id, T0 + 20_000)], options);

    expect((await vehicleState(a.workspaceId, beacon.vehicleId))!.modules).toEqual({ marker: { n: 3 } });
    const row = await db()
      .select()
      .from(vehicleEvents)
      .where(eq(vehicleEvents.id, `marker-${beacon.vehicleId}`))
      .get();
    const ws = await db().select().from(workspaces).where(eq(workspaces.id, a.workspaceId)).get();
    expect(row).toMatchObject({
      distance: 3,
      startTime: T0 + 20_000,
      workspaceId: a.workspaceId,
      version: ws!.version,
    });
  });

  it("sees nothing of a duplicate or of a report later than the reorder window", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    const options = { modules: [marker], tables };
    await ingest([report(beacon.id, T0 + 10_000 + REORDER_WINDOW_MS)], options);
    const again = await ingest([report(beacon.id, T0 + 10_000 + REORDER_WINDOW_MS), report(beacon.id, T0)], options);
    expect(again.outcomes).toEqual(["late", "duplicate"]);
    expect((await vehicleState(a.workspaceId, beacon.vehicleId))!.modules).toEqual({ marker: { n: 1 } });
  });

  it("folds a report late by less than the window before the ones it came after (docs/decisions/0037)", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    const options = { modules: [marker], tables };
    await ingest([report(beacon.id, T0 + 10_000), report(beacon.id, T0 + 20_000)], options);
    const late = await ingest([report(beacon.id, T0)], options);
    expect(late.outcomes).toEqual(["late"]);
    expect((await vehicleState(a.workspaceId, beacon.vehicleId))!.modules).toEqual({ marker: { n: 3 } });
    // The row the re-fold wrote replaced the superseded one: the newest fix is still the marker's.
    const row = await db()
      .select()
      .from(vehicleEvents)
      .where(eq(vehicleEvents.id, `marker-${beacon.vehicleId}`))
      .get();
    expect(row).toMatchObject({ distance: 3, startTime: T0 + 20_000 });
  });

  it("refuses a row for a table nobody registered (the whole write, nothing half stored)", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    await expect(ingest([report(beacon.id, T0)], { modules: [marker], tables: {} })).rejects.toThrow(
      /unregistered table markers/,
    );
    expect((await vehicleState(a.workspaceId, beacon.vehicleId))?.latest ?? null).toBeNull();
    expect(await db().select().from(positions).where(eq(positions.vehicleId, beacon.vehicleId)).all()).toEqual([]);
  });
});
