import { env } from "cloudflare:workers";
import { vehicleEvents } from "../../db/schema";
import { METRES_PER_MILE } from "../../shared/units/units";
import { database } from "./db";

/** A finished trip of `miles` between two moments, as the fold writes it (odometers worked back through trips). */
export async function insertTrip(workspaceId: string, vehicleId: string, start: number, end: number, miles: number) {
  await database(env.DB)
    .insert(vehicleEvents)
    .values({
      id: crypto.randomUUID(),
      workspaceId,
      vehicleId,
      type: "TRANSIT",
      startTime: start,
      endTime: end,
      distance: miles * METRES_PER_MILE,
      version: 0,
    });
}
