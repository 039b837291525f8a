import { downsampleTrack } from "../../shared/fleet/downsample";
import type { HistoryPoint } from "../../shared/fleet/vehicle-history";
import type { AlarmTask } from "../alarm/alarm-task";
import type { StoredFix } from "../positions/codec";
import { PACK_AFTER_MS, type FixKey, type PositionRow, type PositionStore } from "../positions/store";

/** Which of a vehicle's history the caller wants (see RoomPositions.history). */
export interface HistoryShape {
  newest?: number;
  maxRows?: number;
  maxPoints?: number;
}

/** How long after a failed maintenance it is tried again. */
const MAINTENANCE_RETRY_MS = 60_000;

/**
 * The room's positions (party/positions/, docs/decisions/0023): reads shaped for the history API,
 * and the alarm task that packs, compacts to R2 and applies retention when due. The store is
 * opened on first use; `due` asks the room to set its alarm after a change of schedule.
 */
export class RoomPositions implements AlarmTask {
  readonly name = "positions' maintenance";
  /** When the maintenance is next due (null: nothing to do; undefined: ask the store, which reads a few rows). */
  #nextMaintenance: number | null | undefined = undefined;

  constructor(
    private readonly store: () => PositionStore,
    private readonly due: () => Promise<void>,
  ) {}

  /**
   * Stores fixes of this workspace's vehicles directly (imports and tests; live reports are
   * appended by the live fleet, in the same commit as the vehicle's state): durable when this answers.
   */
  async append(rows: PositionRow[]): Promise<void> {
    this.store().append(rows);
    this.appended();
    await this.due();
  }

  /** Fixes were appended: packing is due a minute later (no query on the ingestion path once known). */
  appended(now = Date.now()): void {
    const packAt = now + PACK_AFTER_MS;
    const due = this.dueAt(now);
    if (due === null || due > packAt) this.#nextMaintenance = packAt;
  }

  /**
   * A vehicle's fixes in [from, to], oldest first, as the history API answers them: with `newest`,
   * only the newest that many; with `maxPoints`, the first `maxRows` downsampled for the screen
   * here, so only what is shown crosses the RPC.
   */
  async history(vehicleId: string, from: number, to: number, shape: HistoryShape = {}): Promise<HistoryPoint[]> {
    const { newest, maxRows, maxPoints } = shape;
    const fixes =
      newest === undefined
        ? await this.store().read(vehicleId, from, to)
        : await this.store().latest(vehicleId, from, to, newest);
    const points = fixes
      .slice(0, maxRows)
      .map((f) => ({ t: f.recordedAt, speed: f.speed, fuel: f.fuel, lat: f.latitude, lng: f.longitude }));
    return maxPoints === undefined ? points : downsampleTrack(points, maxPoints);
  }

  /** A vehicle's fixes in [from, to] with every stored field, oldest first. */
  async read(vehicleId: string, from: number, to: number): Promise<StoredFix[]> {
    return this.store().read(vehicleId, from, to);
  }

  /** Which of these fixes are already stored (fixKey strings). */
  storedKeys(keys: FixKey[]): string[] {
    return this.store().storedKeys(keys);
  }

  /** How many fixes of a vehicle are stored with device time in [from, to] (beacon health). */
  async count(vehicleId: string, from: number, to: number): Promise<number> {
    return this.store().count(vehicleId, from, to);
  }

  /** The maintenance (pack, compact to R2, retention) now, due or not. */
  async maintain(now = Date.now()): Promise<void> {
    await this.store().maintain(now);
    this.#nextMaintenance = undefined;
    await this.due();
  }

  /** Deletes every position of this workspace (the workspace is being deleted). */
  async deleteAll(): Promise<void> {
    await this.store().deleteAll();
    this.#nextMaintenance = undefined;
  }

  /** This workspace's position retention in months (default 13); the next maintenance applies it. */
  async setRetention(months: number): Promise<void> {
    this.store().setRetentionMonths(months);
    this.#nextMaintenance = undefined;
    await this.due();
  }

  dueAt(now: number): number | null {
    if (this.#nextMaintenance === undefined) this.#nextMaintenance = this.store().nextMaintenance(now);
    return this.#nextMaintenance;
  }

  async run(now: number): Promise<void> {
    try {
      await this.store().maintain(now);
      this.#nextMaintenance = undefined;
    } catch (error) {
      // The other tasks go on; maintenance is tried again a minute later.
      this.#nextMaintenance = Date.now() + MAINTENANCE_RETRY_MS;
      throw error;
    }
  }
}
