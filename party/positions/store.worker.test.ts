import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { HistoryResponse } from "../../shared/fleet/vehicle-history";
import { database } from "../../db/client";
import { positions } from "../../db/schema";
import { chunkRows } from "../../db/chunk";
import { call, insertVehicle, userWithWorkspace } from "../../worker/test/factories";
import type { StoredFix } from "./codec";
import { d1LegacyPositions } from "./legacy";
import { DAY_MS, PACK_AFTER_MS, PositionStore, SEAL_AFTER_MS, type PositionRow } from "./store";
import { positionsIn } from "../../worker/test/positions";
import { alarmOnDateClock } from "../alarm/room-alarm";

const HOUR = 3_600_000;
const room = (workspaceId: string) => env.WorkspaceRoom.get(env.WorkspaceRoom.idFromName(workspaceId));
const startOfUtcDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/** A vehicle's fixes every `every` ms from `from`, with every field as a tracker fills it. */
function fixes(
  vehicleId: string,
  from: number,
  count: number,
  every = 4_000,
  beaconId = `beacon-of-${vehicleId}`,
): PositionRow[] {
  return Array.from({ length: count }, (_, i) => ({
    vehicleId,
    beaconId,
    recordedAt: from + i * every,
    latitude: Number((43.6 + (i % 80) * 0.0002).toFixed(6)),
    longitude: Number((-79.4 + i * 0.00005).toFixed(6)),
    speed: i % 50 < 10 ? 0 : 15.5,
    heading: (i * 7) % 360,
    altitude: 80 + (i % 9),
    accuracy: 4.5,
    battery: 90 - Math.floor(i / 500),
    ignition: i % 50 >= 10,
    fuel: 50 - i / 1000,
    odometer: 120_000 + i * 60,
    receivedAt: from + i * every + 1_500,
  }));
}

const bare = ({ vehicleId: _v, ...fix }: PositionRow): StoredFix => fix;

/** The object's own table sizes (raw rows, chunks, sealed blocks, days in R2). */
const tiers = (workspaceId: string) =>
  runInDurableObject(room(workspaceId), (_instance, state) => {
    const count = (table: string) =>
      state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).one().n;
    return {
      raw: count("position_appends"),
      chunks: count("position_chunks"),
      blocks: count("position_blocks"),
      days: count("position_days"),
    };
  });

async function insertLegacy(workspaceId: string, rows: PositionRow[]) {
  const db = database(env.DB);
  const statements = chunkRows(
    rows.map((r) => ({ ...r, workspaceId })),
    15,
  ).map((part) => db.insert(positions).values(part));
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

describe("the positions of a workspace's object", () => {
  it("gives back every appended fix with every field, per vehicle, oldest first", async () => {
    const ws = crypto.randomUUID();
    const t0 = Date.now() - 10 * 60_000;
    const a = fixes("vehicle-a", t0, 30);
    const b = fixes("vehicle-b", t0, 20, 5_000);
    await positionsIn(ws).append([...b.slice(10), ...a.reverse(), ...b.slice(0, 10)]);
    expect(await positionsIn(ws).read("vehicle-a", t0, t0 + HOUR)).toEqual(a.reverse().map(bare));
    expect(await positionsIn(ws).read("vehicle-b", t0 + 50_000, t0 + 60_000)).toEqual(b.slice(10, 13).map(bare));
    expect(await positionsIn(ws).read("vehicle-c", t0, t0 + HOUR)).toEqual([]);
  });

  it("packs raw rows older than a minute into hour blocks, losing nothing, and keeps newer ones raw", async () => {
    const ws = crypto.randomUUID();
    // Yesterday: hours long over (sealed at once), a day the object keeps (not yet R2's).
    const t0 = startOfUtcDay(Date.now()) - DAY_MS + 0.5 * HOUR;
    const day = fixes("vehicle-a", t0, 1_200, 3_000); // one hour across two hour blocks
    await positionsIn(ws).append(day.slice(0, 500));
    await positionsIn(ws).append(day.slice(500));
    await positionsIn(ws).append(day.slice(100, 110)); // resent: duplicates
    await positionsIn(ws).maintain(Date.now() + PACK_AFTER_MS / 2);
    expect(await tiers(ws)).toEqual({ raw: 3, chunks: 0, blocks: 0, days: 0 });
    await positionsIn(ws).maintain(Date.now() + PACK_AFTER_MS + 1_000);
    expect(await tiers(ws)).toEqual({ raw: 0, chunks: 0, blocks: 2, days: 0 });
    expect(await positionsIn(ws).read("vehicle-a", t0, t0 + 2 * HOUR)).toEqual(day.map(bare));
    // Answered by the packed blocks too: a duplicate is still a duplicate.
    expect(
      await positionsIn(ws).storedKeys([
        { vehicleId: "vehicle-a", beaconId: day[7]!.beaconId, recordedAt: day[7]!.recordedAt },
      ]),
    ).toHaveLength(1);
  });

  it("packs each minute's appends into a new chunk without rewriting what is packed, and seals the hour once it is over", async () => {
    const ws = crypto.randomUUID();
    const hour = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    const all = fixes("vehicle-a", hour, 60, 30_000);
    const checks = await runInDurableObject(room(ws), (_instance, state) => {
      const store = new PositionStore(state.storage, env.POSITIONS, ws, d1LegacyPositions(database(env.DB), ws));
      const chunkBytes = () =>
        state.storage.sql
          .exec<{ data: ArrayBuffer }>("SELECT data FROM position_chunks ORDER BY seq")
          .toArray()
          .map((r) => [...new Uint8Array(r.data)].join());
      const hot = () =>
        store.storedKeys(all.map((f) => ({ vehicleId: f.vehicleId, beaconId: f.beaconId, recordedAt: f.recordedAt })))
          .length;
      store.append(all.slice(0, 20), hour + 60_000);
      store.pack(hour + 60_000 + PACK_AFTER_MS - 1); // the oldest raw row is not a minute old yet
      const early = { ...store.stats(), hot: hot() };
      store.pack(hour + 60_000 + PACK_AFTER_MS);
      const first = chunkBytes();
      store.append(all.slice(20, 40), hour + 130_000);
      store.append(all.slice(40), hour + 150_000);
      store.pack(hour + 130_000 + PACK_AFTER_MS);
      const second = { ...store.stats(), chunks: chunkBytes(), hot: hot() };
      // The raw table is empty again, so SQLite hands out the same row ids as before: a third run
      // of the same size must still add its own chunk, not collide with an earlier one.
      store.append(fixes("vehicle-a", hour + 45 * 60_000, 2, 1_000), hour + 200_000);
      store.append(fixes("vehicle-a", hour + 46 * 60_000, 2, 1_000), hour + 200_000);
      store.pack(hour + 200_000 + PACK_AFTER_MS);
      const third = store.stats();
      store.seal(hour + HOUR + SEAL_AFTER_MS - 1);
      const beforeSeal = store.stats();
      store.seal(hour + HOUR + SEAL_AFTER_MS);
      return { early, first, second, third, beforeSeal, sealed: { ...store.stats(), hot: hot() } };
    });
    expect(checks.early).toMatchObject({ raw: 1, chunks: 0, hot: 20 });
    expect(checks.first).toHaveLength(1);
    // Both later appends became one new chunk; the first chunk is byte for byte what it was.
    expect(checks.second).toMatchObject({ raw: 0, hot: 60 });
    expect(checks.second.chunks).toEqual([checks.first[0], expect.any(String)]);
    expect(checks.third).toMatchObject({ raw: 0, chunks: 3 });
    expect(checks.beforeSeal).toMatchObject({ chunks: 3, blocks: 0 });
    expect(checks.sealed).toEqual({ raw: 0, chunks: 0, blocks: 1, days: 0, hot: 60 });
    const later = [
      ...fixes("vehicle-a", hour + 45 * 60_000, 2, 1_000),
      ...fixes("vehicle-a", hour + 46 * 60_000, 2, 1_000),
    ];
    expect(await positionsIn(ws).read("vehicle-a", hour, hour + HOUR)).toEqual(
      [...all, ...later].sort((x, y) => x.recordedAt - y.recordedAt).map(bare),
    );
  });

  it("reads a 10-hour day across D1's old rows, R2, packed blocks and raw rows as D1 alone answered it", async () => {
    const a = await userWithWorkspace();
    const [split, legacyOnly] = [await insertVehicle(a.workspaceId), await insertVehicle(a.workspaceId)];
    // Five hours before yesterday's start to five after: the day before is moved to R2, yesterday stays.
    const from = startOfUtcDay(Date.now()) - DAY_MS - 5 * HOUR;
    const day = fixes(split, from, 9_000, 4_000);
    const inHours = (h0: number, h1: number) =>
      day.filter((f) => f.recordedAt >= from + h0 * HOUR && f.recordedAt < from + h1 * HOUR);
    await insertLegacy(a.workspaceId, inHours(0, 1));
    await positionsIn(a.workspaceId).append(inHours(1, 8));
    await positionsIn(a.workspaceId).maintain(Date.now() + PACK_AFTER_MS + 1_000);
    await positionsIn(a.workspaceId).append(inHours(8, 10));
    const key = `positions/${a.workspaceId}/${split}/${new Date(from).toISOString().slice(0, 10)}`;
    expect(await env.POSITIONS.head(key)).not.toBeNull();
    expect(await tiers(a.workspaceId)).toMatchObject({ raw: 1, days: 1 });
    expect((await tiers(a.workspaceId)).blocks).toBeGreaterThan(0);

    expect(await positionsIn(a.workspaceId).read(split, from, from + 10 * HOUR)).toEqual(day.map(bare));
    // Through the API, the same answer as the same day all in D1 (how it was stored before).
    await insertLegacy(
      a.workspaceId,
      fixes(legacyOnly, from, 9_000, 4_000).map((f) => ({ ...f, beaconId: `beacon-of-${legacyOnly}` })),
    );
    const range = `?from=${from}&to=${from + 10 * HOUR}`;
    const [tiered, legacy] = await Promise.all(
      [split, legacyOnly].map(
        async (v) =>
          (await (await call(`/api/vehicles/${v}/history${range}`, { token: a.token })).json()) as HistoryResponse,
      ),
    );
    expect(tiered!.points.length).toBeGreaterThan(500);
    expect(tiered!.points).toEqual(legacy!.points);
    // The most recent points (Overview charts) reach into R2 as far as needed.
    const recent = (await (
      await call(`/api/vehicles/${split}/history?since=${from}`, { token: a.token })
    ).json()) as HistoryResponse;
    expect(recent.points.map((p) => p.t)).toEqual(day.slice(-300).map((f) => f.recordedAt));
  }, 60_000);

  it("merges a late fix of a day already in R2 into that day's object", async () => {
    const ws = crypto.randomUUID();
    const from = startOfUtcDay(Date.now()) - 3 * DAY_MS + 8 * HOUR;
    const day = fixes("vehicle-a", from, 100, 60_000);
    await positionsIn(ws).append(day.filter((_, i) => i !== 40));
    await positionsIn(ws).maintain(Date.now() + PACK_AFTER_MS + 1_000);
    await positionsIn(ws).append([day[40]!, day[41]!]);
    await positionsIn(ws).maintain(Date.now() + PACK_AFTER_MS + 1_000);
    expect(await tiers(ws)).toEqual({ raw: 0, chunks: 0, blocks: 0, days: 1 });
    expect(await positionsIn(ws).read("vehicle-a", from, from + DAY_MS)).toEqual(day.map(bare));
    expect(await room(ws).positionCount("vehicle-a", from - DAY_MS, from + DAY_MS)).toBe(100);
  });

  it("deletes what is past the workspace's retention, in R2, the object and D1's old rows", async () => {
    const ws = crypto.randomUUID();
    const old = startOfUtcDay(Date.now()) - 40 * DAY_MS;
    const recent = Date.now() - 30 * 60_000;
    await insertLegacy(ws, fixes("vehicle-a", old - DAY_MS, 10, 60_000));
    await positionsIn(ws).append([...fixes("vehicle-a", old, 10, 60_000), ...fixes("vehicle-a", recent, 10, 60_000)]);
    await positionsIn(ws).maintain(Date.now() + PACK_AFTER_MS + 1_000);
    const key = `positions/${ws}/vehicle-a/${new Date(old).toISOString().slice(0, 10)}`;
    expect(await env.POSITIONS.head(key)).not.toBeNull(); // 13 months by default: kept
    expect(await positionsIn(ws).read("vehicle-a", old - DAY_MS, Date.now())).toHaveLength(30);

    await positionsIn(ws).setRetention(1);
    await positionsIn(ws).maintain(Date.now() + PACK_AFTER_MS + 1_000);
    expect(await env.POSITIONS.head(key)).toBeNull();
    const legacyLeft = await database(env.DB)
      .select()
      .from(positions)
      .where(and(eq(positions.workspaceId, ws), eq(positions.vehicleId, "vehicle-a")))
      .all();
    expect(legacyLeft).toEqual([]);
    expect((await positionsIn(ws).read("vehicle-a", old - DAY_MS, Date.now())).map((f) => f.recordedAt)).toEqual(
      fixes("vehicle-a", recent, 10, 60_000).map((f) => f.recordedAt),
    );
  });

  it("loses nothing acknowledged when the object restarts, and sets its alarm to pack", async () => {
    const ws = crypto.randomUUID();
    const t0 = Date.now() - 5 * 60_000;
    const stored = fixes("vehicle-a", t0, 50);
    await positionsIn(ws).append(stored);
    const alarm = await runInDurableObject(room(ws), (_instance, state) => alarmOnDateClock(state.storage));
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeLessThanOrEqual(Date.now() + PACK_AFTER_MS);
    // Nothing lives in memory: a store built afresh on the same storage reads it all.
    const afresh = await runInDurableObject(room(ws), (_instance, state) =>
      new PositionStore(state.storage, env.POSITIONS, ws, d1LegacyPositions(database(env.DB), ws)).read(
        "vehicle-a",
        t0,
        Date.now(),
      ),
    );
    expect(afresh).toEqual(stored.map(bare));
    // The object itself goes away (an eviction, a deploy, a crash) and comes back: abort() fails
    // the call that makes it, and the next call meets a new instance.
    const before = new WeakSet<object>();
    await runInDurableObject(room(ws), (instance) => void before.add(instance));
    await expect(runInDurableObject(room(ws), (_instance, state) => state.abort("restart"))).rejects.toThrow();
    expect(await runInDurableObject(room(ws), (instance) => before.has(instance))).toBe(false);
    expect(await positionsIn(ws).read("vehicle-a", t0, Date.now())).toEqual(stored.map(bare));
    // The alarm (sockets and positions together) runs without disturbing anything.
    await runDurableObjectAlarm(room(ws));
    expect(await positionsIn(ws).read("vehicle-a", t0, Date.now())).toEqual(stored.map(bare));
  });
});
