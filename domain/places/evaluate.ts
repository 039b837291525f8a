import { wrapDelta } from "../../shared/places/places";
import type { PlaceIndex } from "./place-index";
import { boundaryCrossings, signedDistance, toLocal, type CompiledPlace } from "./shape";

/**
 * Which places hold a vehicle, per accepted fix: state in, fix in -> state out, events out
 * (Traccar's geofence shape, plus what it lacks; docs/decisions/0019-places-and-alert-episodes.md):
 * - enter as soon as a fix is inside; exit only once fixes are outside by more than their accuracy
 *   (at least `minMarginM`) for `dwellMs`, so a vehicle parked on an edge does not flap;
 * - enter and exit times are interpolated where the segment between two fixes crosses the edge;
 * - a segment that crosses a place both of its fixes are outside of is a pass-through: an enter
 *   and an exit, both interpolated;
 * - only places whose bounding box meets the fix (or the segment) are tested exactly.
 * The state is plain JSON, persisted per vehicle so that a restart loses nothing.
 */
export interface PlaceFix {
  time: number;
  latitude: number;
  longitude: number;
  /** metres, as reported; null when unknown */
  accuracy: number | null;
}

export interface InsidePlace {
  /** when the vehicle entered */
  since: number;
  /** when the current run of clearly-outside fixes started, and the interpolated crossing time */
  outsideSince?: number;
  exitAt?: number;
  exitLatitude?: number;
  exitLongitude?: number;
}

export interface PlaceState {
  last: { time: number; latitude: number; longitude: number } | null;
  inside: Record<string, InsidePlace>;
}

export interface PlaceEvent {
  type: "enter" | "exit";
  placeId: string;
  at: number;
  latitude: number;
  longitude: number;
}

export interface PlaceOptions {
  dwellMs: number;
  minMarginM: number;
  /** accuracies worse than this are taken as this, so one wild fix cannot pin a vehicle inside */
  maxMarginM: number;
  /** two fixes further apart in time are not joined by a straight line */
  maxSegmentMs: number;
}

export const defaultPlaceOptions: PlaceOptions = {
  dwellMs: 60_000,
  minMarginM: 10,
  maxMarginM: 250,
  maxSegmentMs: 300_000,
};

export const emptyPlaceState = (): PlaceState => ({ last: null, inside: {} });

interface Segment {
  from: { time: number; latitude: number; longitude: number };
  to: PlaceFix;
}

export function evaluatePlaces(
  state: PlaceState,
  fix: PlaceFix,
  index: PlaceIndex,
  options: PlaceOptions = defaultPlaceOptions,
): { state: PlaceState; events: PlaceEvent[] } {
  // evaluation runs in time order; a late fix is history, not news
  if (state.last && fix.time <= state.last.time) return { state, events: [] };
  const margin = Math.min(options.maxMarginM, Math.max(options.minMarginM, fix.accuracy ?? 0));
  const segment =
    state.last && fix.time - state.last.time <= options.maxSegmentMs ? { from: state.last, to: fix } : null;
  const events: PlaceEvent[] = [];
  const inside: Record<string, InsidePlace> = {};
  for (const [id, entry] of Object.entries(state.inside)) {
    const place = index.get(id);
    if (!place) continue; // a deleted place ends silently
    const next = stayOrLeave(place, entry, fix, segment, margin, options.dwellMs);
    if ("exit" in next) events.push(next.exit);
    else inside[id] = next.stay;
  }
  for (const place of index.search(fix.longitude, fix.latitude, fix.longitude, fix.latitude)) {
    if (inside[place.id] || state.inside[place.id]) continue;
    const [x, y] = toLocal(place, fix.longitude, fix.latitude);
    if (signedDistance(place, x, y) >= 0) continue;
    const crossing = segment ? crossingOf(place, segment, "first") : null;
    const entered = crossing ?? { at: fix.time, latitude: fix.latitude, longitude: fix.longitude };
    inside[place.id] = { since: entered.at };
    events.push({ type: "enter", placeId: place.id, ...entered });
  }
  if (segment) events.push(...passThroughs(index, segment, state.inside, inside, options.minMarginM));
  events.sort((a, b) => a.at - b.at);
  return { state: { last: { time: fix.time, latitude: fix.latitude, longitude: fix.longitude }, inside }, events };
}

/** The entry of a place the vehicle was in, updated by this fix, or its exit once it has left. */
function stayOrLeave(
  place: CompiledPlace,
  entry: InsidePlace,
  fix: PlaceFix,
  segment: Segment | null,
  margin: number,
  dwellMs: number,
): { stay: InsidePlace } | { exit: PlaceEvent } {
  const [x, y] = toLocal(place, fix.longitude, fix.latitude);
  if (signedDistance(place, x, y) <= margin) return { stay: { since: entry.since } };
  let pending = entry;
  if (entry.outsideSince === undefined) {
    const here = { at: fix.time, latitude: fix.latitude, longitude: fix.longitude };
    const crossing = (segment ? crossingOf(place, segment, "last") : null) ?? here;
    pending = {
      since: entry.since,
      outsideSince: fix.time,
      exitAt: crossing.at,
      exitLatitude: crossing.latitude,
      exitLongitude: crossing.longitude,
    };
  }
  if (fix.time - pending.outsideSince! < dwellMs) return { stay: pending };
  return {
    exit: {
      type: "exit",
      placeId: place.id,
      at: pending.exitAt!,
      latitude: pending.exitLatitude!,
      longitude: pending.exitLongitude!,
    },
  };
}

/** Enter-exit pairs for places the segment crosses while both of its ends are outside them. */
function passThroughs(
  index: PlaceIndex,
  segment: Segment,
  before: Record<string, InsidePlace>,
  after: Record<string, InsidePlace>,
  minDepth: number,
): PlaceEvent[] {
  const { from, to } = segment;
  const toLon = from.longitude + wrapDelta(to.longitude - from.longitude);
  const box = [
    Math.min(from.longitude, toLon),
    Math.min(from.latitude, to.latitude),
    Math.max(from.longitude, toLon),
    Math.max(from.latitude, to.latitude),
  ] as const;
  const events: PlaceEvent[] = [];
  for (const place of index.search(...box)) {
    if (before[place.id] || after[place.id]) continue;
    const [ax, ay] = toLocal(place, from.longitude, from.latitude);
    const [bx, by] = toLocal(place, to.longitude, to.latitude);
    if (signedDistance(place, ax, ay) <= 0 || signedDistance(place, bx, by) <= 0) continue;
    const crossings = boundaryCrossings(place, ax, ay, bx, by);
    if (crossings.length < 2 || deepest(place, crossings, ax, ay, bx, by) < minDepth) continue;
    // a concave place crossed in, out and in again counts as one visit, first crossing to last
    const visit = [crossings[0]!, crossings[crossings.length - 1]!];
    events.push(
      { type: "enter", placeId: place.id, ...along(segment, visit[0]!) },
      { type: "exit", placeId: place.id, ...along(segment, visit[1]!) },
    );
  }
  return events;
}

/** How deep the segment gets inside the place (at the middles of its inside stretches), in metres. */
function deepest(place: CompiledPlace, crossings: number[], ax: number, ay: number, bx: number, by: number): number {
  let depth = -Infinity;
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const mid = (crossings[i]! + crossings[i + 1]!) / 2;
    depth = Math.max(depth, -signedDistance(place, ax + mid * (bx - ax), ay + mid * (by - ay)));
  }
  return depth;
}

function crossingOf(place: CompiledPlace, segment: Segment, which: "first" | "last") {
  const [ax, ay] = toLocal(place, segment.from.longitude, segment.from.latitude);
  const [bx, by] = toLocal(place, segment.to.longitude, segment.to.latitude);
  const crossings = boundaryCrossings(place, ax, ay, bx, by);
  if (crossings.length === 0) return null;
  return along(segment, which === "first" ? crossings[0]! : crossings[crossings.length - 1]!);
}

/** Time and position a fraction t of the way along the segment (linear in time and space). */
function along({ from, to }: Segment, t: number) {
  const longitude = from.longitude + t * wrapDelta(to.longitude - from.longitude);
  return {
    at: Math.round(from.time + t * (to.time - from.time)),
    latitude: from.latitude + t * (to.latitude - from.latitude),
    longitude: wrapDelta(longitude),
  };
}
