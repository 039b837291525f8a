import type { RoutePlan } from "../../shared/jobs/route-plan";
import type { SyncedJob } from "../../shared/jobs/jobs";
import { metresToMiles, type WorkspaceUnits } from "../../shared/units/units";
import { duration } from "../vehicles/format";
import { routeColour, type MapStop } from "./map-stops";

/**
 * What the "Plan the day" proposal shows (issue 54, docs/decisions/0088), apart from React: the
 * planner's reasons in a dispatcher's words, the day's totals, and the proposal's stops for the map.
 */

export type UnassignedReason = RoutePlan["unassigned"][number]["reason"];

/** Why a job was left out, as a dispatcher would say it (the API's codes are for programs). */
export const reasonWords: Record<UnassignedReason, string> = {
  missing_skills: "No vehicle in this plan may take it",
  too_large: "Larger than any vehicle's capacity",
  unreachable_in_window: "No vehicle can reach it within its time window and shift",
  no_room_left: "Every vehicle's day is full",
};

/** "12.4 km" or "7.7 mi": a day's distance in the workspace's units, to a tenth. */
export function planDistanceText(metres: number, units: WorkspaceUnits): string {
  const figure = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  return units === "metric" ? `${figure(metres / 1000)} km` : `${figure(metresToMiles(metres))} mi`;
}

/** "5h 20m": a route's hours, departure to return. */
export const planHoursText = (seconds: number) => duration(seconds * 1000);

/** One total before and after, and whether the plan makes it better (smaller), worse or keeps it. */
export interface TotalChange {
  label: string;
  before: string;
  after: string;
  change: "better" | "worse" | "same";
}

/**
 * The day now and as proposed, total by total. A proposal that visits fewer stops (it leaves out
 * jobs no vehicle can reach in time) is shorter and less late for that alone: then only the stops
 * are marked, worse, and the other totals are shown uncoloured rather than as gains.
 */
export function totalChanges(plan: Pick<RoutePlan, "before" | "after">, units: WorkspaceUnits): TotalChange[] {
  const { before, after } = plan;
  const comparable = after.stops >= before.stops;
  // Figures that read the same are the same: a few metres or seconds apart is no change to anyone.
  const total = (label: string, text: (n: number) => string, a: number, b: number): TotalChange => {
    const [was, will] = [text(a), text(b)];
    return {
      label,
      before: was,
      after: will,
      change: was === will || !comparable ? "same" : b < a ? "better" : "worse",
    };
  };
  const stops = { label: "Stops", before: String(before.stops), after: String(after.stops) };
  return [
    { ...stops, change: after.stops === before.stops ? "same" : comparable ? "better" : "worse" },
    total("Distance", (m) => planDistanceText(m, units), before.distanceMeters, after.distanceMeters),
    total("Hours", planHoursText, before.durationSeconds, after.durationSeconds),
    total("Late stops", String, before.lateStops, after.lateStops),
  ];
}

/**
 * The proposal's stops for the dispatch map, numbered in each proposed route's order and coloured
 * by the vehicle's place in the proposal; the left-out jobs unnumbered. A job the store does not
 * hold (deleted since) is left off: it has no point to draw.
 */
export function proposalStops(plan: RoutePlan, jobsById: ReadonlyMap<string, SyncedJob>): MapStop[] {
  const stops: MapStop[] = [];
  plan.routes.forEach((route, index) =>
    route.stops.forEach((stop, n) => {
      const job = jobsById.get(stop.jobId);
      if (!job) return;
      stops.push({
        id: job.id,
        latitude: job.latitude,
        longitude: job.longitude,
        number: n + 1,
        look: "planned",
        title: job.title,
        routeId: route.vehicleId,
        colour: routeColour(index),
      });
    }),
  );
  for (const { jobId } of plan.unassigned) {
    const job = jobsById.get(jobId);
    if (job)
      stops.push({ id: job.id, latitude: job.latitude, longitude: job.longitude, look: "planned", title: job.title });
  }
  return stops;
}
