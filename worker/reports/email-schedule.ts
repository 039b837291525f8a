import { addDays, localClock } from "../../shared/units/time-zone";

/** Summaries go out once the workspace's day has reached this hour (its morning). */
export const MORNING_HOUR = 7;

export type Frequency = "daily" | "weekly";

/**
 * The period a subscription's e-mail covers at `now`: daily, the day before the workspace's
 * latest morning; weekly, the last whole week (Monday to Sunday) before the latest Monday
 * morning. Named by its first day, so "sent once per period" is "last_period = this". Pure.
 */
export function duePeriod(frequency: Frequency, now: number, timeZone: string): { from: string; to: string } {
  const clock = localClock(now, timeZone);
  // Before the morning, the latest morning was yesterday's.
  const morning = clock.hour >= MORNING_HOUR ? clock.day : addDays(clock.day, -1);
  if (frequency === "daily") {
    const day = addDays(morning, -1);
    return { from: day, to: day };
  }
  const weekday = new Date(`${morning}T00:00:00Z`).getUTCDay();
  const monday = addDays(morning, -((weekday + 6) % 7));
  return { from: addDays(monday, -7), to: addDays(monday, -1) };
}
