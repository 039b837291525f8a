import { distanceMetres, type LatLon } from "../../shared/units/geo";
import type { PlaceGeometry } from "../../shared/places/places";
import { compilePlace, signedDistance, toLocal, type CompiledPlace } from "../places/shape";

/**
 * Where a stop's "there" ends (issue 43, docs/decisions/0062). A job at a place is there inside the
 * place's own outline, a polygon's or a circle's, as the place's enter and exit alerts are; a job
 * at a point, within its radius of the point. Detection (domain/jobs/progress.ts) asks one thing
 * of either: how many metres outside the edge a fix is (negative inside).
 */
export interface JobArea {
  place: CompiledPlace;
  /** The farthest the outline gets from the job's point (metres): beyond reach + margin nothing is near. */
  reach: number;
}

/** What detection needs of a stop. */
export interface JobEdge extends LatLon {
  radiusMeters: number;
  area: JobArea | null;
}

/** A place's outline compiled once per plan read, around the job's point (the place's centre). */
export function jobArea(placeId: string, geometry: PlaceGeometry, centre: LatLon): JobArea {
  const place = compilePlace(placeId, geometry);
  if (geometry.type === "Circle")
    return { place, reach: distanceMetres(centre, vertex(geometry.center)) + geometry.radius };
  let reach = 0;
  for (const ring of geometry.coordinates)
    for (const p of ring) reach = Math.max(reach, distanceMetres(centre, vertex(p)));
  return { place, reach };
}

const vertex = ([longitude, latitude]: readonly number[]): LatLon => ({ latitude: latitude!, longitude: longitude! });

/**
 * Metres from the stop's edge to the fix: negative inside, positive outside. Far from a place (past
 * its reach by more than `far`) the answer is a cheaper lower bound, which every comparison with
 * a margin up to `far` reads the same: a vehicle miles away costs no walk along a long outline.
 */
export function metresOutside(stop: JobEdge, fix: LatLon, far: number): number {
  const metres = distanceMetres(stop, fix);
  if (!stop.area) return metres - stop.radiusMeters;
  if (metres - stop.area.reach > far) return metres - stop.area.reach;
  const [x, y] = toLocal(stop.area.place, fix.longitude, fix.latitude);
  return signedDistance(stop.area.place, x, y);
}
