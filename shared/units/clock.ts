import { localParts, startOfDay } from "./time-zone";

/**
 * How every time and date a person reads is written (issue 52, docs/decisions/0079): in the
 * workspace's time zone and hour cycle, by the browser and the Worker alike. A date is always
 * `YYYY-MM-DD`; a time is "3:19 PM" (12-hour) or "15:19" (24-hour); a reader whose device is in
 * another zone sees the zone's short name after it ("3:19 PM CST"), so a time is never mistaken
 * for one of their own clock's.
 */
export const hourCycleValues = ["h12", "h23"] as const;
export type HourCycle = (typeof hourCycleValues)[number];

export interface WorkspaceClock {
  /** The workspace's IANA zone: every time is shown on its clock. */
  timeZone: string;
  hourCycle: HourCycle;
  /**
   * The reader's own zone, where known (a browser knows its device's). Unknown (an e-mail, a push)
   * means the zone is always named; known and on the workspace's offset, never.
   */
  readerTimeZone?: string;
}

/**
 * Zones whose countries read a 12-hour clock: the United States and its territories, Canada
 * (outside Quebec, which shares Toronto's zone and reads 12-hour there too), Australia, New
 * Zealand, India, Pakistan, Bangladesh, the Philippines, Egypt and Saudi Arabia. Everyone else
 * defaults to 24-hour; a workspace sets the other in Preferences.
 */
const TWELVE_HOUR_ZONES =
  /^(US\/|Canada\/|Australia\/|America\/(New_York|Detroit|Chicago|Denver|Boise|Phoenix|Los_Angeles|Anchorage|Juneau|Sitka|Metlakatla|Yakutat|Nome|Adak|Menominee|(Indiana|Kentucky|North_Dakota)\/\w+|Toronto|Vancouver|Edmonton|Winnipeg|Regina|Halifax|St_Johns|Moncton|Glace_Bay|Goose_Bay|Whitehorse|Yellowknife|Dawson_Creek|Fort_Nelson|Creston|Swift_Current|Puerto_Rico)$|Pacific\/(Honolulu|Guam|Saipan|Pago_Pago|Auckland|Chatham)$|Asia\/(Kolkata|Calcutta|Karachi|Dhaka|Manila|Riyadh)$|Africa\/Cairo$)/;
const TWELVE_HOUR_EXACT = new Set(["EST5EDT", "CST6CDT", "MST7MDT", "PST8PDT", "NZ"]);

/** The hour cycle a workspace in `timeZone` reads unless it chose one: its country's habit. */
export function defaultHourCycle(timeZone: string): HourCycle {
  return TWELVE_HOUR_ZONES.test(timeZone) || TWELVE_HOUR_EXACT.has(timeZone) ? "h12" : "h23";
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A wall-clock hour and minute (and second) in the hour cycle: "9:05 PM" or "21:05". */
function clockFace(hour: number, minute: number, hourCycle: HourCycle, second?: number): string {
  const rest = `${pad(minute)}${second === undefined ? "" : `:${pad(second)}`}`;
  if (hourCycle === "h23") return `${pad(hour)}:${rest}`;
  return `${hour % 12 || 12}:${rest} ${hour < 12 ? "AM" : "PM"}`;
}

const zoneNamers = new Map<string, Intl.DateTimeFormat>();

/** The zone's short name at `time` as an English reader knows it: "CST", "CDT", "GMT+1", "UTC". */
export function zoneShortName(time: number, timeZone: string): string {
  let namer = zoneNamers.get(timeZone);
  if (!namer) {
    namer = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" });
    // Few zones are ever named (a workspace's and its readers'): no bound needed beyond IANA's list.
    zoneNamers.set(timeZone, namer);
  }
  return namer.formatToParts(new Date(time)).find((p) => p.type === "timeZoneName")?.value ?? timeZone;
}

/** Whether the reader's clock shows another hour than the workspace's at `time` (then the zone is named). */
function readerElsewhere(time: number, clock: WorkspaceClock): boolean {
  if (!clock.readerTimeZone) return true;
  if (clock.readerTimeZone === clock.timeZone) return false;
  const a = localParts(time, clock.timeZone);
  const b = localParts(time, clock.readerTimeZone);
  return a.hour !== b.hour || a.minute !== b.minute || a.day !== b.day;
}

const withZone = (text: string, time: number, clock: WorkspaceClock) =>
  readerElsewhere(time, clock) ? `${text} ${zoneShortName(time, clock.timeZone)}` : text;

/** An instant's time of day on the workspace's clock: "3:19 PM", "15:19", "3:19 PM CST" for a reader elsewhere. */
export function timeText(time: number, clock: WorkspaceClock, options: { seconds?: boolean } = {}): string {
  const p = localParts(time, clock.timeZone);
  return withZone(clockFace(p.hour, p.minute, clock.hourCycle, options.seconds ? p.second : undefined), time, clock);
}

/** The one date format (docs/decisions/0079): `YYYY-MM-DD`, of an instant in the workspace's zone or of a day. */
export function dateText(timeOrDay: number | string, clock: Pick<WorkspaceClock, "timeZone">): string {
  if (typeof timeOrDay === "string") return timeOrDay;
  const p = localParts(timeOrDay, clock.timeZone);
  return `${String(p.year).padStart(4, "0")}-${pad(p.month)}-${pad(p.day)}`;
}

/** "2026-11-28 3:19 PM" (and the zone for a reader elsewhere). */
export const dateTimeText = (time: number, clock: WorkspaceClock) =>
  `${dateText(time, clock)} ${timeText(time, clock)}`;

/** A local wall-clock time as stored ("HH:MM", a job's window end) in the hour cycle, without a zone. */
export function wallClockText(hhmm: string, hourCycle: HourCycle): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  if (!match) return hhmm;
  return clockFace(Number(match[1]), Number(match[2]), hourCycle);
}

/**
 * A window of two local wall-clock times ("HH:MM", on the workspace's clock): "9:15 PM–11:30 PM",
 * "from 09:00", "by 11:00", or "" when there is none. With its `day`, named with the zone for a
 * reader elsewhere, as an instant would be (the zone's name at noon that day).
 */
export function windowText(
  start: string | null | undefined,
  end: string | null | undefined,
  clock: WorkspaceClock,
  day?: string,
): string {
  const face = (hhmm: string) => wallClockText(hhmm, clock.hourCycle);
  const text =
    start && end ? `${face(start)}–${face(end)}` : start ? `from ${face(start)}` : end ? `by ${face(end)}` : "";
  if (!text || !day) return text;
  return withZone(text, startOfDay(day, clock.timeZone) + 12 * 3_600_000, clock);
}
