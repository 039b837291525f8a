import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { workspaces } from "../../db/schema";
import { notFound } from "./errors";

/** The workspace's time zone (migrations/0008): its days, "today", and the times its people read. */
export async function workspaceTimeZone(db: Db, workspaceId: string): Promise<string> {
  const row = await db
    .select({ timeZone: workspaces.timeZone })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!row) throw notFound("No such workspace");
  return row.timeZone;
}
