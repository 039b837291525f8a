import { EARLIEST_DEVICE_TIME } from "./device-clock";

/**
 * Reading a tracker's device time, whatever protocol carried it (OsmAnd, its JSON variant,
 * OwnTracks, Overland): Unix seconds, Unix milliseconds or ISO 8601, to milliseconds. Pure, so
 * every decoder in worker/fleet/ shares one rule and Node tests pin it (device-time.test.ts).
 */

/** Numbers above this are milliseconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const MILLISECONDS_ABOVE = 1e11;

/** The largest time a JavaScript Date can hold (ms): beyond it no day, no ISO string exists. */
export const LAST_REPRESENTABLE_TIME = 8.64e15;

/**
 * The device time of `value` in ms; `now` when it is absent (as Traccar does); null when it is
 * no time at all: not a number or date, not finite, or beyond what a Date can hold (such a value
 * would fail later, in the day totals, as a 500: issue 39, finding 6).
 */
export function readDeviceTime(value: unknown, now: number): number | null {
  if (value === undefined || value === null || value === "") return now;
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() ? Number(value) : NaN;
  const ms = Number.isFinite(n)
    ? Math.abs(n) > MILLISECONDS_ABOVE
      ? Math.round(n)
      : Math.round(n * 1000)
    : typeof value === "string"
      ? Date.parse(value)
      : NaN;
  return Number.isFinite(ms) && Math.abs(ms) <= LAST_REPRESENTABLE_TIME ? ms : null;
}

/** A report dated before 2000-01-01 (domain/fold/device-clock.ts): refused alone, dropped from a batch. */
export const beforeDeviceEpoch = (time: number) => !(time >= EARLIEST_DEVICE_TIME);
