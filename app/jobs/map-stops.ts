import type { SyncedJob } from "../../shared/jobs/jobs";

/** How a stop is drawn: done and late stand out from the ones still to come. */
export type StopLook = "planned" | "arrived" | "done" | "late" | "skipped";

export interface MapStop {
  id: string;
  latitude: number;
  longitude: number;
  /** Its place in the vehicle's order, from 1; absent for an unassigned job. */
  number?: number;
  look: StopLook;
  title: string;
  /** The route it belongs to (a vehicle id), so each vehicle's line joins only its own stops. */
  routeId?: string;
  colour?: string;
}

/** A route colour per vehicle, by its place in the day's list (distinct from the beacons' blue). */
const ROUTE_COLOURS = ["#7c3aed", "#db2777", "#0891b2", "#ca8a04", "#059669", "#ea580c", "#4f46e5", "#be123c"];
export const routeColour = (index: number) => ROUTE_COLOURS[index % ROUTE_COLOURS.length]!;

/** Done and late stand out: a completed stop is done whatever its lateness was; a late one is late until reached. */
export function lookOf(job: Pick<SyncedJob, "status" | "late">): StopLook {
  if (job.status === "completed") return "done";
  if (job.status === "skipped" || job.status === "cancelled") return "skipped";
  if (job.late) return "late";
  return job.status === "arrived" ? "arrived" : "planned";
}

/** The map's stops: each route's numbered in order, then the unassigned ones. */
export function mapStopsOf(
  routes: readonly { vehicleId: string | null; jobs: readonly SyncedJob[] }[],
  unassigned: readonly SyncedJob[],
): MapStop[] {
  const stops: MapStop[] = [];
  routes.forEach((route, index) =>
    route.jobs.forEach((job, n) =>
      stops.push({
        id: job.id,
        latitude: job.latitude,
        longitude: job.longitude,
        number: n + 1,
        look: lookOf(job),
        title: job.title,
        routeId: route.vehicleId ?? undefined,
        colour: routeColour(index),
      }),
    ),
  );
  for (const job of unassigned)
    stops.push({ id: job.id, latitude: job.latitude, longitude: job.longitude, look: lookOf(job), title: job.title });
  return stops;
}
