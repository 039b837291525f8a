import type { FuelEventType } from "../fleet/vehicle-event";

/**
 * The Fuel page's "check" (issue 42, docs/decisions/0060): the fuel log held against what the
 * beacon's fuel level showed (refuels found by domain/fuel/level-watch.ts). One rule for the REST
 * answers (worker/fuel/) and the browser's store (app/store/fuel.ts), so both say "check" on the
 * same fill-ups and refuels.
 *
 * - A fill-up is `no_rise_seen` when its vehicle's beacon sends the fuel level, the watch has
 *   already seen that tank move (a refuel or a drop no more than the window after the fill-up), the
 *   window after it has passed, and no refuel of the vehicle is within REFUEL_MATCH_WINDOW_MS of it.
 * - A refuel with no fill-up of its vehicle within the window is "Refuel seen, not logged".
 *
 * Only fuel events of the last FUEL_CHECK_DAYS are kept in the synced set (party/live-fleet/
 * flush-batch.ts), so both sides judge fill-ups of those days alone: an older one is never flagged.
 */

/** How far a logged time may be from the refuel's own (a receipt typed in later, a clock off). */
export const REFUEL_MATCH_WINDOW_MS = 2 * 60 * 60_000;
/** Fill-ups and refuels of the last this many days are held against each other (the synced window). */
export const FUEL_CHECK_DAYS = 90;
export const firstCheckedAt = (now: number) => now - FUEL_CHECK_DAYS * 24 * 60 * 60_000;

/** A refuel or a fuel drop, as the store and D1 hold it (times in ms). */
export interface SeenFuelEvent {
  id: string;
  vehicleId: string;
  type: FuelEventType;
  startTime: number;
  endTime: number | null;
}

/** A fill-up, as much of it as the check reads. */
export interface CheckedFillUp {
  id: string;
  vehicleId: string;
  at: number;
}

/** A refuel "near" a logged time: the logged time within the window of the refuel's span. */
const near = (e: SeenFuelEvent, at: number, now: number) =>
  at >= e.startTime - REFUEL_MATCH_WINDOW_MS && at <= (e.endTime ?? now) + REFUEL_MATCH_WINDOW_MS;

function byVehicle<T extends { vehicleId: string }>(items: readonly T[]) {
  const out = new Map<string, T[]>();
  for (const i of items) out.set(i.vehicleId, [...(out.get(i.vehicleId) ?? []), i]);
  return out;
}

/**
 * The fill-ups (ids) no rise was seen for. `reportsFuel` says whether a vehicle's beacon sends the
 * fuel level now (its latest telemetry carries one); `events` are the vehicles' fuel events.
 */
export function fillUpsWithNoRise(
  fillUps: readonly CheckedFillUp[],
  events: readonly SeenFuelEvent[],
  reportsFuel: (vehicleId: string) => boolean,
  now: number,
): Set<string> {
  const seen = byVehicle(events.filter((e) => e.startTime >= firstCheckedAt(now)));
  const out = new Set<string>();
  for (const f of fillUps) {
    const own = seen.get(f.vehicleId);
    // A level that never moved may be a sensor that does not follow the tank: nothing to hold it against yet.
    if (!own || !reportsFuel(f.vehicleId) || f.at < firstCheckedAt(now)) continue;
    const watched = own.some((e) => e.startTime <= f.at + REFUEL_MATCH_WINDOW_MS);
    // Until the window has passed, the rise may still be on its way (the watch dates it once the level settles).
    const settled = f.at + REFUEL_MATCH_WINDOW_MS <= now;
    if (watched && settled && !own.some((e) => e.type === "REFUEL" && near(e, f.at, now))) out.add(f.id);
  }
  return out;
}

/** The refuels of the checked days with no fill-up of their vehicle near them, newest first. */
export function unloggedRefuels<E extends SeenFuelEvent>(
  events: readonly E[],
  fillUps: readonly CheckedFillUp[],
  now: number,
): E[] {
  const logged = byVehicle(fillUps);
  return events
    .filter((e) => e.type === "REFUEL" && e.startTime >= firstCheckedAt(now))
    .filter((e) => !(logged.get(e.vehicleId) ?? []).some((f) => near(e, f.at, now)))
    .sort((a, b) => b.startTime - a.startTime || (a.id < b.id ? -1 : 1));
}
