import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { workspaces } from "../../db/schema";
import { workspaceUnitsValues, type WorkspaceUnits } from "../../shared/units/units";

/** The workspace's units (Preferences, migrations/0033): what its screens and CSV downloads count in. */
export async function workspaceUnits(db: Db, workspaceId: string): Promise<WorkspaceUnits> {
  const row = await db.select({ units: workspaces.units }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
  return (workspaceUnitsValues as readonly string[]).includes(row?.units ?? "") ? (row!.units as WorkspaceUnits) : "us";
}
