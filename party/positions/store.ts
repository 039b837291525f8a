import { and, asc, desc, eq, gte, inArray, lt, lte, min, sql } from "drizzle-orm";
import { drizzle, type DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import { chunkRows } from "../../db/chunk";
import { decodeAppend, decodeFixes, encodeAppend, encodeFixes, mergeFixes, type StoredFix } from "./codec";
import type { LegacyPositions } from "./legacy";
import { POSITIONS_DDL, positionBlocks, positionChunks, positionDays, positionMeta, positionRaw } from "./schema";

/**
 * A workspace's position history (docs/decisions/0023, 0027), in five tiers, newest first:
 * - raw: what each append stored, one row per append (each vehicle's fixes as a blob), written
 *   synchronously, so the append's answer means durable (the object's output gate);
 * - chunks: once the oldest raw row is PACK_AFTER_MS old, every raw row is packed into one new
 *   chunk per vehicle and hour: only the new fixes are encoded, nothing packed is rewritten, so
 *   the cost per fix stays flat through the hour (rewriting the hour's block every run grew it);
 * - packed: one blob per vehicle per UTC hour, sealed from its chunks once the hour is over
 *   (SEAL_AFTER_MS later: late reports), so a fix is encoded twice in all;
 * - R2: one object per vehicle per UTC day, for days older than the RECENT_DAYS kept here;
 * - D1's old `positions` rows (legacy), no longer written, read until retention deletes them.
 * `maintain` (the object's alarm) moves fixes down the tiers and deletes past retention; `read`
 * merges the tiers, so what a caller sees never depends on where a fix is.
 */
export const PACK_AFTER_MS = 60_000;
/** How long after its hour ends a vehicle-hour's chunks are sealed into its block (late reports, the last pack). */
export const SEAL_AFTER_MS = 3 * 60_000;
export const BLOCK_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Whole UTC days kept in the object before today's; older days go to R2. */
export const RECENT_DAYS = 1;
export const DEFAULT_RETENTION_MONTHS = 13;
/** Work per maintenance run, so one alarm stays short; the next run goes on (scheduled at once). */
const PACK_ROWS_PER_RUN = 4_000;
/** Vehicle-hours sealed per run (one hour of 5 s reports is 720 fixes; of 1 s reports, 3,600). */
const SEAL_PER_RUN = 100;
const COMPACT_BLOCKS_PER_RUN = 2_400;
const DELETE_PER_RUN = 1_000;
const RETENTION_KEY = "retention_months";
/** The last packing run's number: each run's chunks carry the next (their order within a vehicle-hour). */
const CHUNK_SEQ_KEY = "chunk_seq";
/** Prefix of the keys saying a vehicle has no rows in D1's old positions table (never written again). */
const LEGACY_NONE_KEY = "legacy_none";
const NO_LEGACY: LegacyPositions = {
  read: () => Promise.resolve([]),
  latest: () => Promise.resolve([]),
  count: () => Promise.resolve(0),
  any: () => Promise.resolve(false),
  deleteBefore: () => Promise.resolve(0),
};
const SWEPT_KEY = "swept_day";
/** The UTC day whose compaction is done; dropped when packing writes a block of an older day. */
const COMPACTED_KEY = "compacted_day";

/** A fix with the vehicle it belongs to, as ingestion hands it over. */
export interface PositionRow extends StoredFix {
  vehicleId: string;
}

/** A fix already stored is found by its beacon and device time (a resent report is a duplicate). */
export interface FixKey {
  vehicleId: string;
  beaconId: string;
  recordedAt: number;
}

export const fixKey = (k: { beaconId: string; recordedAt: number }) => `${k.beaconId}\n${k.recordedAt}`;

export class PositionStore {
  readonly #db: DrizzleSqliteDODatabase;
  /**
   * vehicle -> its raw rows' ids. The raw table has no index (an index entry is one more row
   * written per append, and again per delete: billed); the table is a minute or two of appends,
   * so this map is rebuilt from one scan whenever it is dropped (at start, after packing).
   */
  #rawIds: Map<string, number[]> | null = null;
  // (Read in chunks of 90 ids: the object's SQLite binds at most 100 parameters a statement.)

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly bucket: R2Bucket,
    private readonly workspaceId: string,
    private readonly legacy: LegacyPositions,
  ) {
    for (const ddl of POSITIONS_DDL) storage.sql.exec(ddl);
    this.#db = drizzle(storage);
  }

  /** Stores fixes (any vehicles, any order) as one row, written and committed before this returns. */
  append(rows: readonly PositionRow[], now = Date.now()): void {
    if (!rows.length) return;
    const byVehicle = new Map(
      [...groupBy(rows, (r) => r.vehicleId)].map(([vehicleId, fixes]) => [vehicleId, fixes.map(pickFix)]),
    );
    const times = rows.map((r) => r.recordedAt);
    const row = { tMin: Math.min(...times), tMax: Math.max(...times), receivedAt: now, data: encodeAppend(byVehicle) };
    const { id } = this.#db.insert(positionRaw).values(row).returning({ id: positionRaw.id }).get()!;
    // Only once written: a statement that failed gave no id to remember.
    for (const vehicleId of byVehicle.keys()) this.#rawIdsOf(vehicleId).push(id);
  }

  /** The raw rows' ids of a vehicle (the live array: append pushes to it). */
  #rawIdsOf(vehicleId: string): number[] {
    if (!this.#rawIds) {
      this.#rawIds = new Map();
      for (const { id, data } of this.#db
        .select({ id: positionRaw.id, data: positionRaw.data })
        .from(positionRaw)
        .orderBy(asc(positionRaw.id))
        .all()) {
        for (const v of decodeAppend(data).keys()) this.#rawIds.set(v, [...(this.#rawIds.get(v) ?? []), id]);
      }
    }
    let ids = this.#rawIds.get(vehicleId);
    if (!ids) this.#rawIds.set(vehicleId, (ids = []));
    return ids;
  }

  /** Which of these fixes are stored in the object (raw or packed: the recent days), as fixKey strings. */
  storedKeys(keys: readonly FixKey[]): string[] {
    const found: string[] = [];
    for (const [vehicleId, asked] of groupBy(keys, (k) => k.vehicleId)) {
      const times = asked.map((k) => k.recordedAt);
      const stored = new Set(this.#hot(vehicleId, Math.min(...times), Math.max(...times)).map(fixKey));
      for (const k of asked) if (stored.has(fixKey(k))) found.push(fixKey(k));
    }
    return found;
  }

  /** One vehicle's fixes with device time in [from, to], oldest first, from every tier. */
  async read(vehicleId: string, from: number, to: number): Promise<StoredFix[]> {
    // The object's tiers are read before the first await: one consistent view however maintenance
    // interleaves (a day moved to R2 meanwhile is still in its blocks here; duplicates merge away).
    const hot = this.#hot(vehicleId, from, to);
    const days = this.#db
      .select({ day: positionDays.day })
      .from(positionDays)
      .where(
        and(
          eq(positionDays.vehicleId, vehicleId),
          gte(positionDays.day, isoDay(from)),
          lte(positionDays.day, isoDay(to)),
        ),
      )
      .all();
    const [legacy, ...cold] = await Promise.all([
      this.#legacyOf(vehicleId).then((l) => l.read(vehicleId, from, to)),
      ...days.map((d) => this.#getDay(vehicleId, d.day)),
    ]);
    return mergeFixes(legacy!, ...cold, hot).filter((f) => f.recordedAt >= from && f.recordedAt <= to);
  }

  /**
   * A vehicle's newest `limit` fixes with device time in [from, to], oldest first, reading R2's
   * days newest first only until older days cannot matter (the Overview's charts: a wide `from`
   * costs nothing more).
   */
  async latest(vehicleId: string, from: number, to: number, limit: number): Promise<StoredFix[]> {
    const hot = this.#hot(vehicleId, from, to);
    const days = this.#db
      .select({ day: positionDays.day })
      .from(positionDays)
      .where(
        and(
          eq(positionDays.vehicleId, vehicleId),
          gte(positionDays.day, isoDay(from)),
          lte(positionDays.day, isoDay(to)),
        ),
      )
      .orderBy(desc(positionDays.day))
      .all();
    const legacy = await (await this.#legacyOf(vehicleId)).latest(vehicleId, from, to, limit);
    const cold: StoredFix[][] = [];
    const newest = () => mergeFixes(legacy, ...cold, hot).filter((f) => f.recordedAt >= from && f.recordedAt <= to);
    for (const { day } of days) {
      // Everything from this day on is known once its object is read: stop when that is enough.
      cold.push(await this.#getDay(vehicleId, day));
      const dayStart = Date.parse(`${day}T00:00:00Z`);
      if (newest().filter((f) => f.recordedAt >= dayStart).length >= limit) break;
    }
    return newest().slice(-limit);
  }

  /**
   * How many fixes of a vehicle have device time in [from, to]: R2's days wholly inside the range
   * by their stored count, without reading them. A resent fix not yet merged into its day's object
   * is counted twice until compaction merges it.
   */
  async count(vehicleId: string, from: number, to: number): Promise<number> {
    const hot = this.#hot(vehicleId, from, to).length;
    const days = this.#db
      .select({ day: positionDays.day, count: positionDays.count })
      .from(positionDays)
      .where(
        and(
          eq(positionDays.vehicleId, vehicleId),
          gte(positionDays.day, isoDay(from)),
          lte(positionDays.day, isoDay(to)),
        ),
      )
      .all();
    const whole = (day: string) =>
      Date.parse(`${day}T00:00:00Z`) >= from && Date.parse(`${day}T00:00:00Z`) + DAY_MS - 1 <= to;
    const partial = days.filter((d) => !whole(d.day));
    const [legacy, ...edges] = await Promise.all([
      this.#legacyOf(vehicleId).then((l) => l.count(vehicleId, from, to)),
      ...partial.map((d) => this.#getDay(vehicleId, d.day)),
    ]);
    const inRange = edges.flat().filter((f) => f.recordedAt >= from && f.recordedAt <= to).length;
    return hot + legacy! + inRange + days.filter((d) => whole(d.day)).reduce((sum, d) => sum + d.count, 0);
  }

  /**
   * D1's old rows of a vehicle, or nothing once D1 said it has none (remembered here: a vehicle
   * that started after positions moved into the object never asks D1 again, so its history is
   * read with D1 down; docs/decisions/0027).
   */
  async #legacyOf(vehicleId: string): Promise<LegacyPositions> {
    const key = `${LEGACY_NONE_KEY}\n${vehicleId}`;
    if (this.#meta(key) === 1) return NO_LEGACY;
    if (await this.legacy.any(vehicleId)) return this.legacy;
    this.#setMeta(key, 1);
    return NO_LEGACY;
  }

  /** Raw and packed fixes of a vehicle in [from, to] (blocks first: a packed fix was stored first). */
  #hot(vehicleId: string, from: number, to: number): StoredFix[] {
    const blocks = this.#db
      .select({ data: positionBlocks.data })
      .from(positionBlocks)
      .where(
        and(
          eq(positionBlocks.vehicleId, vehicleId),
          gte(positionBlocks.blockStart, floorTo(from, BLOCK_MS)),
          lte(positionBlocks.blockStart, to),
        ),
      )
      .orderBy(asc(positionBlocks.blockStart))
      .all();
    const chunks = this.#db
      .select({ data: positionChunks.data })
      .from(positionChunks)
      .where(
        and(
          eq(positionChunks.vehicleId, vehicleId),
          gte(positionChunks.blockStart, floorTo(from, BLOCK_MS)),
          lte(positionChunks.blockStart, to),
        ),
      )
      .orderBy(asc(positionChunks.blockStart), asc(positionChunks.seq))
      .all();
    const raw = chunkRows(this.#rawIdsOf(vehicleId), 1.1).flatMap((ids) =>
      this.#db
        .select({ data: positionRaw.data })
        .from(positionRaw)
        .where(and(inArray(positionRaw.id, ids), lte(positionRaw.tMin, to), gte(positionRaw.tMax, from)))
        .orderBy(asc(positionRaw.id))
        .all()
        .flatMap((r) => {
          const mine = decodeAppend(r.data).get(vehicleId);
          return mine ? [{ data: mine }] : [];
        }),
    );
    return [...blocks, ...chunks, ...raw]
      .flatMap((r) => decodeFixes(r.data))
      .filter((f) => f.recordedAt >= from && f.recordedAt <= to);
  }

  async #getDay(vehicleId: string, day: string): Promise<StoredFix[]> {
    const object = await this.bucket.get(this.#key(vehicleId, day));
    return object ? decodeFixes(new Uint8Array(await object.arrayBuffer())) : [];
  }

  #key(vehicleId: string, day: string): string {
    return `positions/${encodeURIComponent(this.workspaceId)}/${encodeURIComponent(vehicleId)}/${day}`;
  }

  /** The alarm's work: pack, seal past hours, compact old days to R2, delete past retention. Safe to run again after a crash. */
  async maintain(now = Date.now()): Promise<void> {
    this.pack(now);
    this.seal(now);
    await this.compact(now);
    await this.sweep(now);
  }

  /**
   * Once the oldest raw row is PACK_AFTER_MS old, every raw row (up to a run's bound) becomes one
   * new chunk per vehicle and hour, in one transaction: appends arriving all the time are packed
   * once a minute, each fix encoded once here, whatever the hour already holds. Fixes of an hour
   * already sealable go straight into its block.
   */
  pack(now: number): void {
    const oldest = this.#db
      .select({ at: min(positionRaw.receivedAt) })
      .from(positionRaw)
      .get()?.at;
    if (oldest == null || oldest > now - PACK_AFTER_MS) return;
    const due = this.#db.select().from(positionRaw).orderBy(asc(positionRaw.id)).limit(PACK_ROWS_PER_RUN).all();
    this.storage.transactionSync(() => {
      // A counter of its own, not a raw row id: SQLite reuses those once the table is emptied.
      const seq = (this.#meta(CHUNK_SEQ_KEY) ?? 0) + 1;
      this.#setMeta(CHUNK_SEQ_KEY, seq);
      const appended = due.flatMap((r) => [...decodeAppend(r.data)].map(([vehicleId, data]) => ({ vehicleId, data })));
      for (const [vehicleId, rows] of groupBy(appended, (r) => r.vehicleId)) {
        const fixes = rows.flatMap((r) => decodeFixes(r.data));
        for (const [blockStart, added] of groupBy(fixes, (f) => floorTo(f.recordedAt, BLOCK_MS))) {
          // An hour already over (a tracker's backlog, an import): straight into its block, which
          // the seal would do next anyway; writing a chunk only to delete it costs pages for nothing.
          if (blockStart <= now - BLOCK_MS - SEAL_AFTER_MS) {
            this.#mergeIntoBlock(vehicleId, blockStart, added);
            if (blockStart < compactionCutoff(now))
              this.#db.delete(positionMeta).where(eq(positionMeta.key, COMPACTED_KEY)).run();
            continue;
          }
          const data = encodeFixes(added);
          this.#db.insert(positionChunks).values({ vehicleId, blockStart, seq, count: added.length, data }).run();
        }
      }
      for (const ids of chunkRows(
        due.map((r) => r.id),
        1,
      ))
        this.#db.delete(positionRaw).where(inArray(positionRaw.id, ids)).run();
    });
    this.#rawIds = null;
  }

  /**
   * The chunks of hours over for SEAL_AFTER_MS merged into their vehicle-hour's block (with what
   * it holds already: a late fix), each vehicle-hour in its own transaction; the only re-encoding
   * of packed fixes, once per vehicle-hour (and again per late fix of an hour already sealed).
   */
  seal(now: number): void {
    const hours = this.#db
      .selectDistinct({ vehicleId: positionChunks.vehicleId, blockStart: positionChunks.blockStart })
      .from(positionChunks)
      .where(lte(positionChunks.blockStart, now - BLOCK_MS - SEAL_AFTER_MS))
      .limit(SEAL_PER_RUN)
      .all();
    for (const { vehicleId, blockStart } of hours) {
      this.storage.transactionSync(() => {
        const inHour = and(eq(positionChunks.vehicleId, vehicleId), eq(positionChunks.blockStart, blockStart));
        const chunks = this.#db
          .select({ seq: positionChunks.seq, data: positionChunks.data })
          .from(positionChunks)
          .where(inHour)
          .orderBy(asc(positionChunks.seq))
          .all();
        this.#mergeIntoBlock(
          vehicleId,
          blockStart,
          chunks.flatMap((c) => decodeFixes(c.data)),
        );
        this.#db.delete(positionChunks).where(inHour).run();
        // A late fix of a day already due for R2: compaction has work again today.
        if (blockStart < compactionCutoff(now))
          this.#db.delete(positionMeta).where(eq(positionMeta.key, COMPACTED_KEY)).run();
      });
    }
  }

  #mergeIntoBlock(vehicleId: string, blockStart: number, added: StoredFix[]): void {
    const where = and(eq(positionBlocks.vehicleId, vehicleId), eq(positionBlocks.blockStart, blockStart));
    const existing = this.#db.select({ data: positionBlocks.data }).from(positionBlocks).where(where).get();
    const merged = mergeFixes(existing ? decodeFixes(existing.data) : [], added);
    const data = encodeFixes(merged);
    this.#db
      .insert(positionBlocks)
      .values({ vehicleId, blockStart, count: merged.length, data })
      .onConflictDoUpdate({
        target: [positionBlocks.vehicleId, positionBlocks.blockStart],
        set: { count: merged.length, data },
      })
      .run();
  }

  /**
   * Each vehicle's blocks of a UTC day older than the recent days, merged with what R2 already
   * holds of that day (a late fix), written as the day's one object; the blocks go only after
   * the object is written, so a crash in between redoes the merge (duplicates merge away).
   */
  async compact(now: number): Promise<void> {
    // Once a day (and again after a late fix): the scan of the blocks is not paid every minute.
    if (this.#meta(COMPACTED_KEY) === dayNumber(isoDay(now))) return;
    const cutoff = compactionCutoff(now);
    const old = this.#db
      .select({
        vehicleId: positionBlocks.vehicleId,
        blockStart: positionBlocks.blockStart,
        count: positionBlocks.count,
        data: positionBlocks.data,
      })
      .from(positionBlocks)
      .where(lt(positionBlocks.blockStart, cutoff))
      .orderBy(asc(positionBlocks.vehicleId), asc(positionBlocks.blockStart))
      .limit(COMPACT_BLOCKS_PER_RUN)
      .all();
    const days = groupBy(old, (b) => `${b.vehicleId}\n${isoDay(b.blockStart)}`);
    for (const blocks of days.values())
      await this.#compactDay(blocks[0]!.vehicleId, isoDay(blocks[0]!.blockStart), blocks);
    if (old.length < COMPACT_BLOCKS_PER_RUN) this.#setMeta(COMPACTED_KEY, dayNumber(isoDay(now)));
  }

  async #compactDay(
    vehicleId: string,
    day: string,
    blocks: { blockStart: number; count: number; data: Uint8Array }[],
  ): Promise<void> {
    const known = this.#db
      .select({ day: positionDays.day })
      .from(positionDays)
      .where(and(eq(positionDays.vehicleId, vehicleId), eq(positionDays.day, day)))
      .get();
    const before = known ? await this.#getDay(vehicleId, day) : [];
    const merged = mergeFixes(before, ...blocks.map((b) => decodeFixes(b.data)));
    const data = encodeFixes(merged);
    await this.bucket.put(this.#key(vehicleId, day), data);
    this.storage.transactionSync(() => {
      for (const b of blocks) {
        // Only the block as it was read: one that grew meanwhile stays for the next run.
        this.#db
          .delete(positionBlocks)
          .where(
            and(
              eq(positionBlocks.vehicleId, vehicleId),
              eq(positionBlocks.blockStart, b.blockStart),
              eq(positionBlocks.count, b.count),
            ),
          )
          .run();
      }
      this.#db
        .insert(positionDays)
        .values({ vehicleId, day, count: merged.length, bytes: data.byteLength })
        .onConflictDoUpdate({
          target: [positionDays.vehicleId, positionDays.day],
          set: { count: merged.length, bytes: data.byteLength },
        })
        .run();
    });
  }

  /** Once a UTC day: deletes every tier's fixes older than the workspace's retention. */
  async sweep(now: number): Promise<void> {
    const today = isoDay(now);
    if (this.#meta(SWEPT_KEY) === dayNumber(today)) return;
    const cutoff = Date.parse(`${subtractMonths(today, this.retentionMonths())}T00:00:00Z`);
    const expired = this.#db
      .select()
      .from(positionDays)
      .where(lt(positionDays.day, isoDay(cutoff)))
      .limit(DELETE_PER_RUN)
      .all();
    if (expired.length) {
      await this.bucket.delete(expired.map((d) => this.#key(d.vehicleId, d.day)));
      this.storage.transactionSync(() => {
        for (const d of expired)
          this.#db
            .delete(positionDays)
            .where(and(eq(positionDays.vehicleId, d.vehicleId), eq(positionDays.day, d.day)))
            .run();
      });
    }
    this.storage.transactionSync(() => {
      this.#db
        .delete(positionBlocks)
        .where(lt(positionBlocks.blockStart, floorTo(cutoff, BLOCK_MS) - BLOCK_MS))
        .run();
      this.#db
        .delete(positionChunks)
        .where(lt(positionChunks.blockStart, floorTo(cutoff, BLOCK_MS) - BLOCK_MS))
        .run();
      this.#db.delete(positionRaw).where(lt(positionRaw.tMax, cutoff)).run();
    });
    this.#rawIds = null;
    const legacy = await this.legacy.deleteBefore(cutoff, DELETE_PER_RUN);
    // Done for today only when nothing was left over; otherwise the next run goes on.
    if (expired.length < DELETE_PER_RUN && legacy < DELETE_PER_RUN) this.#setMeta(SWEPT_KEY, dayNumber(today));
  }

  retentionMonths(): number {
    return this.#meta(RETENTION_KEY) ?? DEFAULT_RETENTION_MONTHS;
  }

  /** The workspace's retention, in months (the next sweep applies it). */
  setRetentionMonths(months: number): void {
    if (!Number.isInteger(months) || months < 1)
      throw new RangeError("retention: a whole number of months, at least 1");
    this.#setMeta(RETENTION_KEY, months);
    this.#db.delete(positionMeta).where(eq(positionMeta.key, SWEPT_KEY)).run();
  }

  /** Deletes every position of the workspace, in R2 (its whole prefix) and here (its workspace is deleted). */
  async deleteAll(): Promise<void> {
    const prefix = `positions/${encodeURIComponent(this.workspaceId)}/`;
    for (
      let listed = await this.bucket.list({ prefix });
      ;
      listed = await this.bucket.list({ prefix, cursor: listed.cursor })
    ) {
      if (listed.objects.length) await this.bucket.delete(listed.objects.map((o) => o.key));
      if (!listed.truncated) break;
    }
    this.storage.transactionSync(() => {
      for (const table of [positionRaw, positionChunks, positionBlocks, positionDays, positionMeta])
        this.#db.delete(table).run();
    });
    this.#rawIds = null;
  }

  /** When maintenance should run next (ms since epoch), or null when nothing is pending. */
  nextMaintenance(now: number): number | null {
    const soon = now + 1_000;
    const candidates: number[] = [];
    const raw = this.#db
      .select({ at: min(positionRaw.receivedAt) })
      .from(positionRaw)
      .get();
    if (raw?.at != null) candidates.push(Math.max(soon, raw.at + PACK_AFTER_MS));
    const chunk = this.#db
      .select({ at: min(positionChunks.blockStart) })
      .from(positionChunks)
      .get();
    if (chunk?.at != null) candidates.push(Math.max(soon, chunk.at + BLOCK_MS + SEAL_AFTER_MS));
    // Blocks: compaction once a day (a minute past midnight UTC), or at once when it has work today.
    const hasBlocks =
      this.#db
        .select({ n: sql<number>`1` })
        .from(positionBlocks)
        .limit(1)
        .get() !== undefined;
    if (hasBlocks)
      candidates.push(
        this.#meta(COMPACTED_KEY) === dayNumber(isoDay(now)) ? floorTo(now, DAY_MS) + DAY_MS + 60_000 : soon,
      );
    const swept = this.#meta(SWEPT_KEY);
    const hasDays =
      this.#db
        .select({ n: sql<number>`1` })
        .from(positionDays)
        .limit(1)
        .get() !== undefined;
    if (swept !== dayNumber(isoDay(now)) && (hasDays || candidates.length)) candidates.push(soon);
    else if (hasDays) candidates.push(floorTo(now, DAY_MS) + DAY_MS + 60_000); // tomorrow's retention sweep
    return candidates.length ? Math.min(...candidates) : null;
  }

  /** What the store holds, per tier (tests and the storage benchmark's notes). */
  stats(): { raw: number; chunks: number; blocks: number; days: number } {
    const count = (table: typeof positionRaw | typeof positionChunks | typeof positionBlocks | typeof positionDays) =>
      this.#db
        .select({ n: sql<number>`count(*)` })
        .from(table)
        .get()?.n ?? 0;
    return {
      raw: count(positionRaw),
      chunks: count(positionChunks),
      blocks: count(positionBlocks),
      days: count(positionDays),
    };
  }

  #meta(key: string): number | undefined {
    return this.#db.select({ value: positionMeta.value }).from(positionMeta).where(eq(positionMeta.key, key)).get()
      ?.value;
  }

  #setMeta(key: string, value: number): void {
    this.#db
      .insert(positionMeta)
      .values({ key, value })
      .onConflictDoUpdate({ target: positionMeta.key, set: { value } })
      .run();
  }
}

function pickFix(r: PositionRow): StoredFix {
  return {
    beaconId: r.beaconId,
    recordedAt: r.recordedAt,
    latitude: r.latitude,
    longitude: r.longitude,
    speed: r.speed ?? null,
    heading: r.heading ?? null,
    altitude: r.altitude ?? null,
    accuracy: r.accuracy ?? null,
    battery: r.battery ?? null,
    ignition: r.ignition ?? null,
    fuel: r.fuel ?? null,
    odometer: r.odometer ?? null,
    receivedAt: r.receivedAt,
  };
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;

/** Blocks before this go to R2: the object keeps today and the RECENT_DAYS before it. */
const compactionCutoff = (now: number) => floorTo(now, DAY_MS) - RECENT_DAYS * DAY_MS;

/** YYYY-MM-DD of a time, UTC (clamped to what Date can show). */
export function isoDay(t: number): string {
  return new Date(Math.max(-8.64e15, Math.min(8.64e15, floorTo(t, DAY_MS)))).toISOString().slice(0, 10);
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** The same day of the month `months` earlier (the month's last day when it is shorter). */
function subtractMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}
