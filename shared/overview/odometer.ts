/**
 * How far a vehicle went in a span, from the odometer readings a device holds: the synced store
 * has no per-day distance (the reports' rollups are the server's), but it does hold odometers
 * with times: each fill-up's (typed, or the GPS odometer the server filled in) and the vehicle's
 * GPS odometer now (its telemetry). Between two readings the odometer is taken to rise evenly;
 * before the first and after the last it stands still, so a span the readings do not reach
 * counts no distance rather than a guessed one.
 */
export interface OdometerReading {
  /** ms since epoch */
  at: number;
  miles: number;
}

/** The odometer at `time`, from readings sorted by time (null with none). */
export function odometerAt(readings: readonly OdometerReading[], time: number): number | null {
  if (!readings.length) return null;
  const first = readings[0]!;
  if (time <= first.at) return first.miles;
  for (let i = 1; i < readings.length; i++) {
    const after = readings[i]!;
    if (time > after.at) continue;
    const before = readings[i - 1]!;
    const share = after.at === before.at ? 1 : (time - before.at) / (after.at - before.at);
    return before.miles + (after.miles - before.miles) * share;
  }
  return readings[readings.length - 1]!.miles;
}

/**
 * Above this average speed between two readings, the later one cannot be on the same odometer
 * (a dashboard odometer typed on a fill-up beside the tracker's GPS one, or a digit too many).
 */
const MAX_AVERAGE_MPH = 100;
/** Readings a moment apart may differ by this much (rounding, a typed tenth). */
const SLACK_MILES = 1;

/** Whether `next` can follow `last` on one odometer: never backwards, never faster than a vehicle goes. */
function follows(last: OdometerReading, next: OdometerReading): boolean {
  const rise = next.miles - last.miles;
  return rise >= 0 && rise <= SLACK_MILES + (MAX_AVERAGE_MPH * (next.at - last.at)) / 3_600_000;
}

/**
 * The readings that tell one consistent story, oldest first: a reading that goes backwards or
 * jumps further than the vehicle could have driven is dropped, so a distance is never negative
 * and never made of two odometers' difference.
 */
export function consistentReadings(readings: readonly OdometerReading[]): OdometerReading[] {
  const kept: OdometerReading[] = [];
  for (const r of [...readings].sort((a, b) => a.at - b.at)) {
    if (!kept.length || follows(kept[kept.length - 1]!, r)) kept.push(r);
  }
  return kept;
}

/** Miles driven in [start, end), from a vehicle's readings. */
export function milesBetween(readings: readonly OdometerReading[], start: number, end: number): number {
  const kept = consistentReadings(readings);
  const from = odometerAt(kept, start);
  const to = odometerAt(kept, end);
  return from === null || to === null ? 0 : to - from;
}
