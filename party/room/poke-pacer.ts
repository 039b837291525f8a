import { ReportRate } from "./report-rate";

/**
 * Pokes are coalesced: the first after a quiet spell goes out at once (latency matters), later
 * ones within the interval are folded into a single trailing poke, so a fleet reporting every
 * second cannot make clients pull hundreds of times a second, and the last change is never lost.
 * This is the only pacer between a write and the browsers (docs/decisions/0058): the Worker
 * announces every write and the object paces.
 */
export const POKE_INTERVAL_MS = 250;
/** The longest pokes of a busy fleet are coalesced over (see pokeIntervalMs). */
export const BIG_FLEET_POKE_INTERVAL_MS = 2_000;

/**
 * How long pokes are coalesced over, by the reports the workspace stores a second now (ReportRate):
 * 10 ms per report a second, from POKE_INTERVAL_MS to BIG_FLEET_POKE_INTERVAL_MS (a quarter second
 * up to 25 reports a second, 125 vehicles at 5 s; 2 s from 200, 1,000 vehicles). Each poke with a
 * page open costs D1 a flush and one shared read whatever the fleet's size (about 13 statements),
 * and a busy fleet is never quiet, so it pokes at this pace: a 1,000-vehicle fleet at 5 s costs
 * about 7 statements a second with pages open instead of 55 (issue 35's target: 10), its map
 * moving every 2 s; a small fleet's, or a big one's at night, still within a quarter second.
 */
export function pokeIntervalMs(reportsPerSecond: number): number {
  return Math.min(BIG_FLEET_POKE_INTERVAL_MS, Math.max(POKE_INTERVAL_MS, 10 * reportsPerSecond));
}

/** The room's one poke pacer: `poke()` as often as anything changes; `send` runs at the pace above. */
export class PokePacer {
  /** How busy the fleet is now: sets the pace. */
  readonly reportRate = new ReportRate();
  #lastPokeAt = 0;
  #trailing: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly send: () => Promise<void>) {}

  /** The coalescing interval now (pokeIntervalMs of the current report rate). */
  get intervalMs(): number {
    return pokeIntervalMs(this.reportRate.perSecond());
  }

  /** A trailing poke is scheduled and has not gone out yet. */
  get waiting(): boolean {
    return this.#trailing !== null;
  }

  poke(): void {
    const wait = this.#lastPokeAt + this.intervalMs - Date.now();
    if (wait <= 0 && !this.#trailing) return void this.#go();
    this.#trailing ??= setTimeout(
      () => {
        this.#trailing = null;
        void this.#go();
      },
      Math.max(wait, 0),
    );
  }

  #go(): Promise<void> {
    this.#lastPokeAt = Date.now();
    return this.send();
  }
}
