/**
 * Where a stop sits on the dispatch page's day timeline: its window (or, without one, its
 * expected duration at its ETA) as a share of the day shown. The day shown is 06:00 to 20:00,
 * widened to the hour to take in any window outside it, so a night job is never cut off.
 */
export interface TimelineStop {
  windowStart?: string | null;
  windowEnd?: string | null;
  durationMinutes?: number | null;
}

const DEFAULT_SPAN = { start: 6 * 60, end: 20 * 60 };

/** "HH:MM" as minutes after midnight; null for anything else. */
export function minutesOf(hhmm: string | null | undefined): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm ?? "");
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return Number(match[1]) < 24 && Number(match[2]) < 60 ? minutes : null;
}

/** The stop's time on the timeline, in minutes after midnight, or null when it has no window. */
export function stopRange(stop: TimelineStop): { start: number; end: number } | null {
  const start = minutesOf(stop.windowStart);
  const end = minutesOf(stop.windowEnd);
  const duration = stop.durationMinutes ?? 5;
  if (start === null && end === null) return null;
  if (start === null) return { start: end! - duration, end: end! };
  return { start, end: end !== null && end > start ? end : start + duration };
}

/** The hours the timeline shows: the working day, widened to whole hours to hold every stop. */
export function daySpan(stops: readonly TimelineStop[]): { start: number; end: number } {
  let { start, end } = DEFAULT_SPAN;
  for (const stop of stops) {
    const range = stopRange(stop);
    if (!range) continue;
    start = Math.min(start, Math.floor(range.start / 60) * 60);
    end = Math.max(end, Math.ceil(range.end / 60) * 60);
  }
  return { start: Math.max(0, start), end: Math.min(24 * 60, end) };
}

/** Left offset and width in percent of the span, for CSS. */
export function placeOnSpan(range: { start: number; end: number }, span: { start: number; end: number }) {
  const total = span.end - span.start;
  const left = ((range.start - span.start) / total) * 100;
  const width = ((range.end - range.start) / total) * 100;
  return { left: Math.max(0, left), width: Math.max(0.8, Math.min(100 - Math.max(0, left), width)) };
}
