import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it, vi } from "vitest";
import { database } from "../../db/client";
import { telemetry } from "../../db/schema";
import { report, workspaceWithBeacon } from "../../worker/test/factories";
import { ingestRequests, roomOf } from "../../worker/test/ingest";
import { isOverloaded } from "../../worker/fleet/ingest-batcher";
import { FLUSH_RETRY_MAX_MS, FLUSH_RETRY_MS, flushBackoffMs } from "../room/flush";
import { FLEET_MODULES } from "../../domain/fleet-modules";
import { FLUSH_TABLES } from "./flush-tables";
import type { FleetModule } from "../../domain/fold/fold";
import { withRoomParts } from "../../worker/test/room-parts";
import { alarmOnDateClock } from "../alarm/room-alarm";

// The flush to D1 under failure (issue 35): one at a time, backing off, a row D1 refuses set
// aside instead of blocking the rest, and an alarm chain no failure ends.
const db = () => database(env.DB);
const T0 = Date.now() - 3_600_000;
const LATER = 60_000; // only the alarm or an explicit settle flushes

/** A table D1 does not have: every write of a row to it fails, whatever else the flush holds. */
const missing = sqliteTable("no_such_table_for_the_test", { id: text("id").primaryKey(), name: text("name") });
/** A module that asks for a row in it for the fix at latitude 13 only (a poison row). */
const poisonModule: FleetModule = {
  name: "poison",
  step: (_state, accepted) => ({
    state: null,
    rows: accepted.fix.latitude === 13 ? [{ table: "poison", row: { id: `p-${accepted.fix.time}`, name: "x" } }] : [],
  }),
};

describe("the flush under failure", () => {
  it("sets aside the one row D1 refuses and writes everything else, then flushes on as usual", async () => {
    const { workspaceId, beacon } = await workspaceWithBeacon();
    const options = {
      flushMs: LATER,
      modules: [...FLEET_MODULES, poisonModule],
      tables: { ...FLUSH_TABLES, poison: { table: missing, key: [missing.id] } },
    };
    const fixes = [
      report(beacon.id, T0, { latitude: 12 }),
      report(beacon.id, T0 + 5_000, { latitude: 13 }),
      report(beacon.id, T0 + 10_000, { latitude: 14 }),
    ];
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    await ingestRequests([fixes], options);
    expect(await runDurableObjectAlarm(roomOf(workspaceId))).toBe(true);
    error.mockRestore();
    expect(await db().select().from(telemetry).where(eq(telemetry.vehicleId, beacon.vehicleId)).get()).toMatchObject({
      latitude: 14,
    });
    const aside = await withRoomParts(workspaceId, (parts) => parts.fleet.setAside());
    expect(aside.map((e) => e.key)).toEqual([`row:poison:p-${T0 + 5_000}`]);
    expect(aside[0]!.error).toMatch(/no_such_table/);
    expect(await withRoomParts(workspaceId, (parts) => parts.fleet.hasPending())).toBe(false);
    // The next report flushes without it.
    await ingestRequests([[report(beacon.id, T0 + 15_000, { latitude: 15 })]], { ...options, flushMs: 0 });
    expect(await db().select().from(telemetry).where(eq(telemetry.vehicleId, beacon.vehicleId)).get()).toMatchObject({
      latitude: 15,
    });
  });

  it("runs one flush for callers waiting together, and after a failure tries none until its backoff ends", async () => {
    const { workspaceId, beacon } = await workspaceWithBeacon();
    await ingestRequests([[report(beacon.id, T0)]], { flushMs: LATER });
    // The room's flush part made alone over the object's storage, its fleet's D1 write failing once.
    await withRoomParts(workspaceId, async (parts, state) => {
      const flush = vi.spyOn(parts.fleet, "flush").mockRejectedValueOnce(new Error("D1 unreachable"));
      const settle = () => parts.flush.settle();
      const settled = await Promise.allSettled([settle(), settle(), settle(), settle()]);
      // The first starts the flush, the others share it (and its failure): one call to D1, not four.
      expect(flush).toHaveBeenCalledTimes(1);
      expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
      // Within the backoff, a pull's or a poke's settle tries nothing; the alarm is set for its end.
      await expect(settle()).rejects.toThrow(/backing off/);
      expect(flush).toHaveBeenCalledTimes(1);
      await parts.alarm.schedule();
      expect(await alarmOnDateClock(state.storage)).toBeGreaterThanOrEqual(Date.now() + FLUSH_RETRY_MS / 2 - 50);
      flush.mockRestore();
    });
  });

  it("backs off exponentially with jitter, up to a ceiling", () => {
    expect([1, 2, 3, 4].map((n) => flushBackoffMs(n, 0.5))).toEqual([1, 2, 4, 8].map((x) => x * FLUSH_RETRY_MS));
    expect(flushBackoffMs(30, 0.5)).toBe(FLUSH_RETRY_MAX_MS);
    expect(flushBackoffMs(1, 0)).toBe(FLUSH_RETRY_MS / 2);
    expect(flushBackoffMs(1, 0.999)).toBeLessThan(FLUSH_RETRY_MS * 1.5);
  });

  it("keeps the alarm chain going when a job throws: the flush still runs and the next alarm is set", async () => {
    const { workspaceId, beacon } = await workspaceWithBeacon();
    await ingestRequests([[report(beacon.id, T0)]], { flushMs: LATER });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    // The object's alarm over its parts made alone: the sockets' re-check is due and fails (no
    // socket is open here, so it is made due), and the alarm rings as the object's would.
    await withRoomParts(workspaceId, async (parts) => {
      vi.spyOn(parts.sockets, "dueAt").mockReturnValueOnce(0);
      vi.spyOn(parts.sockets, "recheck").mockRejectedValue(new Error("D1 unreachable"));
      await parts.alarm.ring();
    });
    expect(error).toHaveBeenCalledWith("alarm task sockets' re-check failed:", expect.any(Error));
    error.mockRestore();
    expect(await db().select().from(telemetry).where(eq(telemetry.vehicleId, beacon.vehicleId)).get()).toMatchObject({
      recordedAt: T0,
    });
    // The positions' packing is still due: the chain goes on.
    expect(
      await runInDurableObject(roomOf(workspaceId), (_room, state) => alarmOnDateClock(state.storage)),
    ).not.toBeNull();
  });

  it("does not run a combined ingestion call's members again when the object says it is overloaded", () => {
    expect(isOverloaded(Object.assign(new Error("Durable Object is overloaded"), { overloaded: true }))).toBe(true);
    expect(isOverloaded(new Error("D1_ERROR"))).toBe(false);
  });
});
