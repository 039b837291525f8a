import { eq, inArray, sql } from "drizzle-orm";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { photos, workspaces } from "../../db/schema";

/** Where a photo's bytes live in R2: under its workspace, so a listing never mixes tenants. */
export const photoObjectKey = (workspaceId: string, photoId: string) => `${workspaceId}/${photoId}`;
/** Every photo of a workspace in R2 (what deleting the workspace deletes). */
export const workspacePhotoPrefix = (workspaceId: string) => `${workspaceId}/`;

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

const usedBytesOf = (workspaceId: string) =>
  sql<number>`(SELECT coalesce(sum(${photos.size}), 0) FROM ${photos} WHERE ${photos.workspaceId} = ${workspaceId})`;
const quotaOf = (workspaceId: string) =>
  sql<number>`(SELECT ${workspaces.photoQuotaBytes} FROM ${workspaces} WHERE ${workspaces.id} = ${workspaceId})`;

/** The workspace's photo bytes stored, and how many it may keep. */
export async function photoUsage(db: Db, workspaceId: string): Promise<{ usedBytes: number; allowedBytes: number }> {
  const row = await db
    .select({ usedBytes: usedBytesOf(workspaceId), allowedBytes: workspaces.photoQuotaBytes })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  return { usedBytes: Number(row?.usedBytes ?? 0), allowedBytes: row?.allowedBytes ?? 0 };
}

export interface NewPhoto {
  id: string;
  workspaceId: string;
  contentType: string;
  size: number;
  createdBy: string;
}

/**
 * Inserts the photo's row only while the workspace's photos, this one included, fit its quota: one
 * statement (INSERT ... SELECT ... WHERE), so parallel uploads cannot pass the quota together; and
 * never over an existing row (an upload creates, it never replaces). Answers whether it inserted.
 */
export async function insertPhotoUnderQuota(db: Db, photo: NewPhoto): Promise<boolean> {
  const rows = await db
    .insert(photos)
    .select(
      sql`SELECT ${photo.id}, ${photo.workspaceId}, ${photo.contentType}, ${photo.size}, ${photo.createdBy}, (unixepoch('subsec') * 1000), NULL
      WHERE ${usedBytesOf(photo.workspaceId)} + ${photo.size} <= ${quotaOf(photo.workspaceId)}`,
    )
    .onConflictDoNothing()
    .returning({ id: photos.id });
  return rows.length > 0;
}
