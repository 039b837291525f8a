import { z } from "zod";

/**
 * Calendar days and times in a workspace's time zone (an IANA name such as America/Chicago),
 * with nothing but `Intl`: reports, their rollups, the scheduled e-mails and the timeline all
 * cut days here, so a day that crosses a daylight-saving change is 23 or 25 hours long
 * everywhere alike. A day is named by its local date, `YYYY-MM-DD`.
 */
export const DEFAULT_TIME_ZONE = "UTC";
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * At most this many formatters are kept: IANA has about 600 names with aliases. Names are kept by
 * their lower-case spelling (IANA names are case-insensitive), so `aMeRiCa/ChIcAgO` and its other
 * 2^15 spellings share one entry instead of each adding one (issue 34).
 */
const MAX_FORMATTERS = 1000;

/** One formatter per zone: creating an Intl.DateTimeFormat costs far more than using one. */
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  const key = timeZone.toLowerCase();
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    if (formatters.size >= MAX_FORMATTERS) formatters.delete(formatters.keys().next().value!);
    formatters.set(key, f);
  }
  return f;
}

/** Whether `name` is a time zone this runtime knows (what the API accepts). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    partsFormatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The runtime's canonical spelling of a zone it knows (`aMeRiCa/ChIcAgO` → America/Chicago). */
export function canonicalTimeZone(name: string): string {
  return partsFormatter(name).resolvedOptions().timeZone;
}

/** How many zone formatters are kept (for the test that proves spellings share one). */
export const keptFormatters = () => formatters.size;

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock and calendar of `time` in `timeZone`, 24-hour (shared/units/clock.ts formats them). */
export function localParts(time: number, timeZone: string): LocalParts {
  const out: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(new Date(time))) {
    if (p.type !== "literal") out[p.type] = Number(p.value);
  }
  return out as unknown as LocalParts;
}

/** The zone's offset from UTC at `time`, in minutes (e.g. -300 for Chicago in winter). */
export function offsetMinutes(time: number, timeZone: string): number {
  const p = localParts(time, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(time / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The local calendar day of `time`: `YYYY-MM-DD`. */
export function dayOf(time: number, timeZone: string): string {
  const p = localParts(time, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** `YYYY-MM-DD` plus `n` days (calendar arithmetic, no zone involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Whole days from `a` to `b` (both `YYYY-MM-DD`). */
export function daysBetween(a: string, b: string): number {
  const t = (day: string) => {
    const [y, m, d] = day.split("-").map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((t(b) - t(a)) / DAY_MS);
}

/**
 * The instant local midnight begins `day`. Found from the offsets around it: a zone whose
 * midnight is skipped by a daylight-saving change (rare: e.g. America/Santiago) starts the day
 * at the first instant that exists.
 */
export function startOfDay(day: string, timeZone: string): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const naive = Date.UTC(y, m - 1, d);
  let guess = naive - offsetMinutes(naive, timeZone) * 60_000;
  // The offset at the guess can differ from the one at the naive instant (a change in between).
  guess = naive - offsetMinutes(guess, timeZone) * 60_000;
  if (dayOf(guess, timeZone) !== day) {
    // Midnight does not exist that day: step forward to the first local time of it.
    while (dayOf(guess, timeZone) < day) guess += 15 * 60_000;
  }
  return guess;
}

/**
 * The instant a local wall-clock time ("HH:MM") falls on `day` in `timeZone` (a job's window end,
 * for the tracker and for "late by how much"). On a day whose clocks change, a time in the hour
 * that does not exist lands an hour later, as a phone's would.
 */
export function localTimeOn(day: string, hhmm: string, timeZone: string): number {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  const midnight = startOfDay(day, timeZone);
  const guess = midnight + (h * 60 + m) * 60_000;
  // The offset at the guess differs from midnight's when the clocks changed in between.
  return guess + (offsetMinutes(midnight, timeZone) - offsetMinutes(guess, timeZone)) * 60_000;
}

/** The instant `day` ends (the next day's start): a day is [startOfDay, endOfDay). */
export const endOfDay = (day: string, timeZone: string) => startOfDay(addDays(day, 1), timeZone);

/** ISO 8601 with the zone's offset at that instant, to the second: 2026-03-08T03:00:00-05:00. */
export function isoWithOffset(time: number, timeZone: string): string {
  const p = localParts(time, timeZone);
  const offset = offsetMinutes(time, timeZone);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Local hour (0-23) and weekday (0 = Sunday) of `time`, for schedules. */
export function localClock(time: number, timeZone: string): { hour: number; weekday: number; day: string } {
  const p = localParts(time, timeZone);
  const weekday = new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay();
  return { hour: p.hour, weekday, day: dayOf(time, timeZone) };
}

/** Every day from `first` to `last`, inclusive. */
export function daysFrom(first: string, last: string): string[] {
  const n = daysBetween(first, last);
  return Array.from({ length: Math.max(0, n + 1) }, (_, i) => addDays(first, i));
}

/** A time zone as the API accepts it: an IANA name this runtime's Intl knows. */
export const timeZoneField = z
  .string({ required_error: "Required" })
  .trim()
  .min(1, "Required")
  .refine(isTimeZone, "Not a time zone we know (use an IANA name such as America/Chicago)")
  // stored and cached as the runtime's own spelling: `america/chicago` becomes America/Chicago
  .transform(canonicalTimeZone);
