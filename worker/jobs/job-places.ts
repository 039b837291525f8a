import { and, eq } from "drizzle-orm";
import { placeCentre, type JobLocationInput, type JobPoint } from "../../shared/jobs/jobs";
import type { Db } from "../../db/client";
import { places } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { forwardGeocode } from "./geocode-address";

/** A job at a place heads for its centre (arrival is detected against the place itself). 404 for another workspace's place. */
export async function jobPlacePoint(db: Db, workspaceId: string, placeId: string) {
  const row = await db
    .select({ geometry: places.geometry })
    .from(places)
    .where(and(eq(places.id, placeId), eq(places.workspaceId, workspaceId), eq(places.deleted, false)))
    .get();
  if (!row) throw notFound("No such place in this workspace");
  return { ...placeCentre(row.geometry), address: null };
}

/**
 * Where a job given over REST is: the place's centre, the point given, or its address geocoded
 * where a geocoder is configured (MAPBOX_TOKEN). An address with no geocoder, or one it cannot
 * find, is a 400 on `location`.
 */
export async function resolveJobPoint(
  db: Db,
  geocoderToken: string,
  workspaceId: string,
  where: { placeId?: string | null; location?: JobLocationInput },
): Promise<JobPoint> {
  if (where.placeId) return jobPlacePoint(db, workspaceId, where.placeId);
  const location = where.location!;
  if (location.latitude !== undefined && location.longitude !== undefined)
    return { latitude: location.latitude, longitude: location.longitude, address: location.address ?? null };
  const found = await addressPoint(geocoderToken, location.address!);
  if (typeof found === "string") throw badRequest(`location: ${found}`, { location: [found] });
  return found;
}

/** The address's point, or why there is none (what the CSV import reports on the line). */
export async function addressPoint(geocoderToken: string, address: string): Promise<JobPoint | string> {
  if (!geocoderToken) return "No geocoder is configured: give latitude and longitude";
  const found = await forwardGeocode(geocoderToken, address);
  if (!found) return "Address not found: give latitude and longitude";
  return { ...found, address };
}
