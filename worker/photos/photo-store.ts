import { eq, inArray } from "drizzle-orm";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { photos } from "../../db/schema";

/** Where a photo's bytes live in R2: under its workspace, so a listing never mixes tenants. */
export const photoObjectKey = (workspaceId: string, photoId: string) => `${workspaceId}/${photoId}`;

/** The photo's row if it is this workspace's; null for an unknown id or another workspace's. */
export async function photoIn(db: Db, workspaceId: string, photoId: string) {
  const row = await db.select().from(photos).where(eq(photos.id, photoId)).get();
  return row && row.workspaceId === workspaceId ? row : null;
}

/**
 * Which of `ids` belong to another workspace. A record may name a photo not uploaded yet (made
 * offline: the browser uploads it when the network returns), so an unknown id is accepted; only
 * one that another workspace holds is refused.
 */
export async function foreignPhotoIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<string[]> {
  const foreign: string[] = [];
  for (const part of inLists(ids)) {
    const rows = await db
      .select({ id: photos.id, workspaceId: photos.workspaceId })
      .from(photos)
      .where(inArray(photos.id, part))
      .all();
    foreign.push(...rows.filter((r) => r.workspaceId !== workspaceId).map((r) => r.id));
  }
  return foreign;
}
