import { REORDER_WINDOW_MS, type ReorderWindow } from "../../domain/fold/late-reports";

/**
 * At most this many vehicles keep a reorder window in one object. A window is about 10 KB at a fix
 * every 5 s (docs/decisions/0037) and an object has 128 MB for everything: 5,000 windows are about
 * 48 MB, next to about 12.5 MB of the same vehicles' state (docs/decisions/0017). A vehicle that
 * finds the object full keeps no window until one is freed: its late reports are history only,
 * as they were before windows existed.
 */
export const MAX_REORDER_WINDOWS = 5_000;
/** A window not used for this long (server time) is dropped: a report that late is history anyway. */
export const WINDOW_IDLE_MS = 2 * REORDER_WINDOW_MS;

/**
 * The vehicles' reorder windows of one object, in memory, bounded in number and in idle time. Kept
 * in order of last use, so the idle ones are at the front and go first, a few at each use.
 */
export class ReorderWindows {
  readonly #held = new Map<string, { window: ReorderWindow; usedAt: number }>();

  constructor(
    private readonly max = MAX_REORDER_WINDOWS,
    private readonly idleMs = WINDOW_IDLE_MS,
  ) {}

  get size() {
    return this.#held.size;
  }

  get(vehicleId: string): ReorderWindow | undefined {
    return this.#held.get(vehicleId)?.window;
  }

  /** Keeps the vehicle's window as of `now`; a vehicle new here gets none while the object is full. */
  set(vehicleId: string, window: ReorderWindow, now: number) {
    this.#dropIdle(now);
    const held = this.#held.delete(vehicleId);
    if (!held && this.#held.size >= this.max) return;
    this.#held.set(vehicleId, { window, usedAt: now });
  }

  delete(vehicleId: string) {
    this.#held.delete(vehicleId);
  }

  #dropIdle(now: number) {
    for (const [vehicleId, { usedAt }] of this.#held) {
      if (usedAt >= now - this.idleMs) return;
      this.#held.delete(vehicleId);
    }
  }
}
