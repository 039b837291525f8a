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

/**
 * Lanes for one vehicle's row (issue 53): stops whose windows overlap are stacked one under
 * another instead of drawn over each other ("6" covered stops 2–5). Greedy by start, each stop
 * in the first lane free by then (a window ending as the next starts shares its lane), so the row
 * has as many lanes as the most windows open at one moment. Stops without a window get no lane.
 */
export function laneLayout(stops: readonly (TimelineStop & { id: string })[]): {
  lanes: Map<string, number>;
  count: number;
} {
  const placed = stops
    .map((stop, order) => ({ id: stop.id, order, range: stopRange(stop) }))
    .filter((s): s is { id: string; order: number; range: { start: number; end: number } } => s.range !== null)
    .sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end || a.order - b.order);
  const laneEnds: number[] = [];
  const lanes = new Map<string, number>();
  for (const { id, range } of placed) {
    let lane = laneEnds.findIndex((end) => end <= range.start);
    if (lane < 0) lane = laneEnds.push(range.end) - 1;
    else laneEnds[lane] = range.end;
    lanes.set(id, lane);
  }
  return { lanes, count: Math.max(1, laneEnds.length) };
}

/** The minute of the day under a point `fraction` (0 to 1) of the way along the span. */
export const minuteAt = (fraction: number, span: { start: number; end: number }) =>
  span.start + Math.max(0, Math.min(1, fraction)) * (span.end - span.start);

/**
 * A vehicle's new order once `jobId` is dropped on its row at `minute` (dragged from this row or
 * another): before the first of its other stops whose window starts later, else last. Stops
 * without a window keep their places among the others.
 */
export function orderAfterDrop(
  row: readonly (TimelineStop & { id: string })[],
  jobId: string,
  minute: number,
): string[] {
  const others = row.filter((s) => s.id !== jobId);
  const at = others.findIndex((s) => (stopRange(s)?.start ?? -1) > minute);
  const ids = others.map((s) => s.id);
  ids.splice(at < 0 ? ids.length : at, 0, jobId);
  return ids;
}
