import { offsetMinutes } from "../../shared/units/time-zone";

/**
 * A vehicle's driving per local hour of the day (issue 54, docs/decisions/0097), folded beside
 * its day rollup: the road metres and driving seconds of each local hour it drove, so the
 * planner and the live ETA learn the fleet's speed by hour (domain/routing/street-travel.ts).
 * An hour is handed on once, when it is over (a later fix falls past it), as one contribution of
 * the vehicle to its workspace's row of that day and hour; the rows add the contributions up.
 */
export interface HourDriving {
  /** local date, YYYY-MM-DD */
  day: string;
  /** local hour, 0-23 */
  hour: number;
  drivingMetres: number;
  drivingSeconds: number;
}

/** The hour being added to, and when it ends (ms). */
export interface OpenHour extends HourDriving {
  end: number;
}

/** A local day and its bounds (ms), as the rollup keeps them. */
export interface DayBounds {
  day: string;
  start: number;
  end: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The local hour `at` falls in, and when that hour ends within the day. A 24-hour day needs no
 * time-zone arithmetic (its hours are counted from local midnight, whatever the offset); only a
 * daylight-saving day asks the zone.
 */
function hourOf(at: number, day: DayBounds, timeZone: string): { hour: number; end: number } {
  if (day.end - day.start === DAY_MS) {
    const hour = Math.floor((at - day.start) / HOUR_MS);
    return { hour, end: day.start + (hour + 1) * HOUR_MS };
  }
  const local = at + offsetMinutes(at, timeZone) * 60_000;
  const into = ((local % HOUR_MS) + HOUR_MS) % HOUR_MS;
  const hour = localHour(at, timeZone);
  let end = Math.min(day.end, at - into + HOUR_MS);
  // The fall-back night's hour that comes twice is one hour of the day: it ends after its second coming.
  if (end < day.end && localHour(end, timeZone) === hour) end = Math.min(day.end, end + HOUR_MS);
  return { hour, end };
}

const localHour = (at: number, timeZone: string) =>
  ((Math.floor((at + offsetMinutes(at, timeZone) * 60_000) / HOUR_MS) % 24) + 24) % 24;

const handedOn = ({ day, hour, drivingMetres, drivingSeconds }: OpenHour): HourDriving => ({
  day,
  hour,
  drivingMetres,
  drivingSeconds,
});

/**
 * Adds a stretch of driving [from, to) of `metres` within one local day to the hour it falls in,
 * split at the hours' ends in proportion to time; an hour left behind goes to `closed`. Returns
 * the hour now open (a new object: the rollup's states are kept as snapshots).
 */
export function addHourDriving(
  open: OpenHour | null,
  stretch: { from: number; to: number; metres: number },
  day: DayBounds,
  timeZone: string,
  closed: HourDriving[],
): OpenHour | null {
  const { from, to, metres } = stretch;
  let current = open && { ...open };
  for (let at = from; at < to;) {
    const { hour, end } = hourOf(at, day, timeZone);
    if (current && (current.day !== day.day || current.hour !== hour)) {
      closed.push(handedOn(current));
      current = null;
    }
    current = current
      ? { ...current, end: Math.max(current.end, end) }
      : { day: day.day, hour, end, drivingMetres: 0, drivingSeconds: 0 };
    const until = Math.min(to, end);
    current.drivingMetres += (metres * (until - at)) / (to - from);
    current.drivingSeconds += (until - at) / 1000;
    at = until;
  }
  return current;
}

/** The open hour handed on once `time` is past it (a vehicle that stopped driving still reports). */
export function closeHourBefore(open: OpenHour | null, time: number, closed: HourDriving[]): OpenHour | null {
  if (!open || time < open.end) return open;
  closed.push(handedOn(open));
  return null;
}
