import { dayOf, endOfDay, startOfDay } from "../units/time-zone";

/**
 * "Drove today without today's inspection" (issue 32), the one rule the Inspections page, My
 * actions (both in the browser, from the synced store) and `GET /api/my-actions` (the Worker, from
 * D1) apply. It lives in shared/ rather than domain/ because the browser runs it and app/ may
 * import only shared/ (docs/decisions/0036).
 *
 * Its inputs are ones both sides truly hold: the vehicle's trips (TRANSIT timeline events, which
 * the device syncs from the same D1 rows the Worker reads) and the inspections submitted today.
 * Not the daily rollups (the device has none) nor "moving now" from telemetry (a trip is opened by
 * the same fold that sets it, so a moving vehicle already has one).
 */

/** A timeline event as both sides hold it; only TRANSIT events (trips) count as driving. */
export interface TripSpan {
  type: string;
  startTime: number;
  /** null while the trip goes on */
  endTime: number | null;
}

/** The workspace's day: [start, end) in ms, midnight to midnight in its time zone. */
export interface DaySpan {
  start: number;
  end: number;
}

/** The day `now` falls in, in `timeZone`. */
export function dayAround(now: number, timeZone: string): DaySpan & { day: string } {
  const day = dayOf(now, timeZone);
  return { day, start: startOfDay(day, timeZone), end: endOfDay(day, timeZone) };
}

/**
 * A vehicle drove today when one of its trips was under way at some moment of the day: it started
 * before the day ended and ended (or goes on) after the day began. A trip from 23:30 to 00:20 counts
 * on both days; a tow (TOW) is not driving; a trip's distance is not looked at (a trip is motion the
 * fold confirmed, distance alone can be GPS drift).
 */
export function droveToday(trips: Iterable<TripSpan>, day: DaySpan): boolean {
  for (const t of trips)
    if (t.type === "TRANSIT" && t.startTime < day.end && (t.endTime === null || t.endTime >= day.start)) return true;
  return false;
}

export interface DroveWithoutInspectionInput<V extends { id: string }> {
  /** The workspace's live vehicles, in the order the answer should keep. */
  vehicles: readonly V[];
  /** A vehicle's trips (any that could fall on the day; more do no harm). */
  tripsOf: (vehicleId: string) => Iterable<TripSpan>;
  /** Inspections submitted (any day; only the day's count). */
  inspections: Iterable<{ vehicleId: string; submittedAt: number }>;
  day: DaySpan;
}

/** The vehicles that drove on the day and have no inspection submitted that day, in the given order. */
export function droveWithoutInspection<V extends { id: string }>(input: DroveWithoutInspectionInput<V>): V[] {
  const { day } = input;
  const inspected = new Set<string>();
  for (const i of input.inspections)
    if (i.submittedAt >= day.start && i.submittedAt < day.end) inspected.add(i.vehicleId);
  return input.vehicles.filter((v) => !inspected.has(v.id) && droveToday(input.tripsOf(v.id), day));
}
