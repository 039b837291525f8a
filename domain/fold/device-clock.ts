/**
 * How far a device's clock may be from the server's before its reports are not used. Cheap GPS
 * units report dates years off (GPS week rollover), and a report from the future would become
 * the vehicle's latest position and make every genuine one after it look late: the vehicle would
 * freeze on the map. Traccar's answer is filter.future / filter.past: such a report is
 * acknowledged (so the device's buffer moves on) but dropped. We do the same, and count it on the
 * beacon's health with its skew (worker/fleet/beacon-health.ts).
 *
 * Configured by INGEST_MAX_AHEAD_S (default 300 s, as the issue asks) and INGEST_MAX_BEHIND_S
 * (default 0: no bound, as Traccar's filter.past is off by default; buffered reports of a
 * tracker that was offline for days are genuine history).
 */
export interface ClockBounds {
  /** A report dated more than this ahead of the server's clock is dropped. */
  maxAheadMs: number;
  /** A report dated more than this behind the server's clock is dropped; 0 = no bound. */
  maxBehindMs: number;
}

export const DEFAULT_CLOCK_BOUNDS: ClockBounds = { maxAheadMs: 300_000, maxBehindMs: 0 };

/** A device clock this far ahead is worth showing to an operator (network delay never is). */
export const SKEW_WORTH_SHOWING_MS = 10_000;

export type ClockVerdict = "ok" | "clock_ahead" | "too_old";

/**
 * No tracker report predates 2000-01-01 (issue 39, finding 6): such a time is a device whose
 * clock was never set (1970), a GPS week rollover (1999) or garbage, and a position dated so
 * would become the vehicle's "latest" and feed the day totals a date they cannot name. Always
 * "too_old", whatever INGEST_MAX_BEHIND_S says.
 */
export const EARLIEST_DEVICE_TIME = Date.UTC(2000, 0, 1);

export function judgeClock(deviceTime: number, now: number, bounds: ClockBounds): ClockVerdict {
  // Written so that NaN is refused too.
  if (!(deviceTime >= EARLIEST_DEVICE_TIME)) return "too_old";
  if (deviceTime - now > bounds.maxAheadMs) return "clock_ahead";
  if (bounds.maxBehindMs > 0 && now - deviceTime > bounds.maxBehindMs) return "too_old";
  return "ok";
}
