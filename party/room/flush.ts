import type { LiveFleet } from "../live-fleet/live-fleet";
import type { AlarmTask } from "../alarm/alarm-task";

/**
 * How long reports wait in the room before they are written to D1 (docs/decisions/0016, part 5):
 * one D1 transaction per workspace per FLUSH_MS at most, however many vehicles report. Pulls do
 * not wait for it: a pull flushes what is pending first (see `settle`). 0 writes through (tests).
 */
export const FLUSH_MS = 1_000;
/**
 * The flush's pace while no page of the workspace is open (issue 35: ≤ 2 D1 statements a second
 * for a workspace of 1,000 vehicles at 5 s; a flush is a handful of statements whatever it holds,
 * so the pace is what counts). Nothing waits for it: every reader that goes to D1 for what
 * ingestion derives (pulls, the Inbox, reports, beacon pages) settles first, and a page that
 * opens brings the pace back to FLUSH_MS.
 */
export const FLUSH_IDLE_MS = 10_000;
/**
 * A flush that failed (D1 unreachable) is tried again after FLUSH_RETRY_MS, doubling per failure
 * up to FLUSH_RETRY_MAX_MS, each wait jittered by ±50% (so the objects of a deployment do not come
 * back to D1 in step); what it holds stays durable here meanwhile.
 */
export const FLUSH_RETRY_MS = 1_000;
export const FLUSH_RETRY_MAX_MS = 16_000;

/** The wait before the next flush after `failures` failed ones in a row. */
export function flushBackoffMs(failures: number, random = Math.random()): number {
  return Math.min(FLUSH_RETRY_MAX_MS, FLUSH_RETRY_MS * 2 ** Math.max(0, failures - 1)) * (0.5 + random);
}

/** What the flush needs of its room: the fleet, what a flush invalidates, and the poke's pace. */
export interface FlushRoom {
  fleet(): LiveFleet;
  /** A flush wrote to D1: the shared reads are stale. */
  flushed(): void;
  /** Whether a page of the workspace is open (the pace is the poke's then, FLUSH_IDLE_MS otherwise). */
  pagesOpen(): boolean;
  pokeIntervalMs(): number;
  /** A poke is waiting to go out to open pages and will flush first: the alarm need not. */
  pokeWillFlush(): boolean;
}

/**
 * The flush of pending reports to D1, one at a time with backoff, and the alarm task that paces it.
 * It rides along with every ring of the alarm (what is pending goes while the object is awake).
 */
export class RoomFlush implements AlarmTask {
  readonly name = "flush";
  readonly ridesAlong = true;
  #flushing: Promise<boolean> | null = null;
  /** Flushes failed in a row, and when the next may be tried (backoff: flushBackoffMs). */
  #failures = 0;
  #retryAt = 0;
  /** When the flush asked the alarm for (null: nothing asked since the last run). */
  #wantedAt: number | null = null;

  constructor(private readonly room: FlushRoom) {}

  /**
   * Writes everything pending to D1 now: before a pull reads D1, before the geocoder writes a
   * stop's address, and when the alarm fires. One flush at a time: a caller arriving during one
   * waits for it and then shares the next (callers waiting together start one flush, not one
   * each). While a failed flush's backoff runs, nothing is tried and this rejects at once (the
   * alarm retries when it ends; `retrying` is that retry): pulls and pokes meanwhile read D1 as it
   * is instead of hammering it. Resolved means D1 holds everything acknowledged before the call.
   */
  async settle(retrying = false): Promise<void> {
    // Never rejects before its caller has attached a handler (the runtime reports a promise that
    // rejects with none as unhandled, even if one is attached a moment later).
    await Promise.resolve();
    if (this.#flushing) await this.#flushing.catch(() => undefined);
    if (this.#flushing) return void (await this.#flushing);
    if (!this.room.fleet().hasPending()) return;
    if (!retrying && Date.now() < this.#retryAt)
      throw new Error(`flush to D1 backing off after ${this.#failures} failures; retried by the alarm`);
    const flushing = (this.#flushing = this.room
      .fleet()
      .flush()
      .finally(() => {
        if (this.#flushing === flushing) this.#flushing = null;
      }));
    try {
      if (await flushing) this.room.flushed();
      if (!this.room.fleet().hasPending()) this.#wantedAt = null;
      this.#failures = 0;
      this.#retryAt = 0;
    } catch (error) {
      this.#failures++;
      this.#retryAt = Date.now() + flushBackoffMs(this.#failures);
      throw error;
    }
  }

  /** Reports were stored: the alarm flushes them within `flushIn` (FLUSH_IDLE_MS with no page open). */
  want(flushIn = FLUSH_MS, now = Date.now()): void {
    if (!this.room.fleet().hasPending()) return;
    // With a page open each poke flushes first: the alarm need not flush more often than it pokes.
    const pace = Math.max(flushIn, this.room.pagesOpen() ? this.room.pokeIntervalMs() : FLUSH_IDLE_MS);
    const at = Math.max(now + pace, this.#retryAt);
    this.#wantedAt = Math.min(this.#wantedAt ?? Infinity, at);
  }

  dueAt(now: number): number | null {
    if (!this.room.fleet().hasPending()) return null;
    if (this.#wantedAt === null) this.want(FLUSH_MS, now);
    return this.#wantedAt;
  }

  async run(): Promise<void> {
    this.#wantedAt = null;
    // A poke waiting to go out to open pages flushes first anyway (unless a failed flush is being retried).
    if (this.room.pokeWillFlush() && !this.#failures) return;
    await this.settle(true).catch((error: unknown) =>
      console.error(`flush to D1 failed (${this.#failures} in a row); it is retried:`, error),
    );
  }
}
