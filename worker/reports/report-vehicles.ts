import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { telemetry, vehicles } from "../../db/schema";
import { notFound } from "../lib/errors";

export interface ReportVehicle {
  id: string;
  name: string;
  driver: string | null;
  /** device time of its latest report: where a trip still going ends for now */
  lastSeen: number | null;
}

/**
 * The vehicles a report covers: the chosen ones, or all of the workspace's. A chosen id that is
 * not a vehicle of this workspace is a 404, the same answer whether it exists elsewhere or not.
 */
export async function reportVehicles(db: Db, workspaceId: string, chosen: string[]): Promise<ReportVehicle[]> {
  const all = await db
    .select({ id: vehicles.id, name: vehicles.name, driver: vehicles.driver, lastSeen: telemetry.recordedAt })
    .from(vehicles)
    .leftJoin(telemetry, eq(telemetry.vehicleId, vehicles.id))
    .where(and(eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
    .all();
  if (!chosen.length) return all.sort(byName);
  const byId = new Map(all.map((v) => [v.id, v]));
  const missing = chosen.find((id) => !byId.has(id));
  if (missing) throw notFound(`No vehicle ${missing} in this workspace`);
  return [...new Set(chosen)].map((id) => byId.get(id)!).sort(byName);
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
