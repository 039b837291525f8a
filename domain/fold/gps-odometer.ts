import { distanceMetres } from "./motion";

/**
 * A vehicle's odometer from GPS, for trackers that send none (Traccar Client on a phone, most
 * cheap units): the running distance of its accepted fixes, what Traccar calls `totalDistance`.
 * A pure function of (state, fix), stored with the detector's state per vehicle.
 *
 * Jitter does not count: a fix closer to the last counted one than its own accuracy (or
 * MIN_STEP_M) is skipped, and the next fix is measured from the last counted one again, so slow
 * driving still adds up. A jump faster than MAX_PLAUSIBLE_SPEED_MS for the time elapsed is a bad
 * fix (or the tracker was carried off): it is not counted, and measuring restarts from it, as
 * Traccar's filter.maxSpeed drops such a position.
 */
export const MIN_STEP_M = 10;
/** About 157 mph: faster than any road vehicle this product tracks. */
export const MAX_PLAUSIBLE_SPEED_MS = 70;

export interface OdometerState {
  /** Metres of GPS distance so far. */
  metres: number;
  /** The last fix counted (null before the first). */
  from: { latitude: number; longitude: number; time: number } | null;
  /** The device has sent an odometer of its own: from then on its value wins. */
  deviceOdometer: boolean;
}

export interface OdometerFix {
  latitude: number;
  longitude: number;
  time: number;
  /** metres, as the device reports it */
  accuracy: number | null;
  /** the device's own odometer (metres), if it sent one */
  odometer: number | null;
}

export function initialOdometer(deviceOdometer: boolean): OdometerState {
  return { metres: 0, from: null, deviceOdometer };
}

/** Folds one fix (in time order) into the GPS distance. */
export function advanceOdometer(state: OdometerState, fix: OdometerFix): OdometerState {
  const deviceOdometer = state.deviceOdometer || fix.odometer !== null;
  const here = { latitude: fix.latitude, longitude: fix.longitude, time: fix.time };
  if (!state.from) return { metres: state.metres, from: here, deviceOdometer };
  const step = distanceMetres(state.from, fix);
  const seconds = (fix.time - state.from.time) / 1000;
  if (seconds <= 0 || step < Math.max(MIN_STEP_M, fix.accuracy ?? 0)) return { ...state, deviceOdometer };
  if (step / seconds > MAX_PLAUSIBLE_SPEED_MS) return { metres: state.metres, from: here, deviceOdometer };
  return { metres: state.metres + step, from: here, deviceOdometer };
}

/**
 * The odometer the vehicle shows: the device's value when this report has one; the last device
 * value when the device sends one at times; otherwise the GPS distance.
 */
export function odometerReading(state: OdometerState, reported: number | null, previous: number | null): number | null {
  if (reported !== null) return reported;
  return state.deviceOdometer ? previous : state.metres;
}
