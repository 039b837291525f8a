import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { UNATTACHED_PHOTO_MS } from "../../shared/maintenance/photos";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { photoPurges, photos } from "../../db/schema";
import { photoObjectKey } from "./photo-store";

/**
 * What bounds the photo bucket over time (issue 39, finding 4; docs/decisions/0042), run by the cron:
 *
 * - A photo no record names a day after its upload is deleted, bytes and row. Records name photos
 *   in JSON (issues, comments, service entries, inspections' results), so the collector looks for
 *   each old unattached photo in its own workspace's records once; a photo found is marked
 *   `attached_at` and never looked at again. (A record may name a photo before it is uploaded, so
 *   the upload cannot know; a day covers a phone that took it offline and syncs both together.)
 * - A deleted workspace's prefix (photo_purges, written in the deletion's own transaction) is
 *   emptied a thousand objects a run, and the row goes when nothing is left under it.
 */
export const COLLECT_PER_RUN = 100;
const R2_DELETE_MAX = 1000;
const PURGES_PER_RUN = 10;

/**
 * SQL: some record of the photo's workspace names it. The outer row is written `photos.…` in
 * full: bare `id` inside would be json_each's own column, and bare `workspace_id` the record's.
 */
const named = sql`(
  EXISTS (SELECT 1 FROM issues r, json_each(r.photo_ids) j WHERE r.workspace_id = photos.workspace_id AND j.value = photos.id)
  OR EXISTS (SELECT 1 FROM issue_comments r, json_each(r.photo_ids) j WHERE r.workspace_id = photos.workspace_id AND j.value = photos.id)
  OR EXISTS (SELECT 1 FROM service_entries r, json_each(r.photo_ids) j WHERE r.workspace_id = photos.workspace_id AND j.value = photos.id)
  OR EXISTS (SELECT 1 FROM inspections r, json_each(r.results) item, json_each(item.value, '$.photoIds') j
    WHERE r.workspace_id = photos.workspace_id AND j.value = photos.id)
)`;

/** Deletes up to COLLECT_PER_RUN photos named by nothing a day after upload; answers how many. */
export async function collectUnattachedPhotos(db: Db, bucket: R2Bucket, now = Date.now()): Promise<number> {
  const old = and(isNull(photos.attachedAt), lt(photos.createdAt, now - UNATTACHED_PHOTO_MS));
  const candidates = await db
    .select({ id: photos.id, workspaceId: photos.workspaceId })
    .from(photos)
    .where(old)
    .orderBy(asc(photos.createdAt))
    .limit(COLLECT_PER_RUN)
    .all();
  if (!candidates.length) return 0;
  let deleted = 0;
  for (const part of inLists(candidates.map((c) => c.id))) {
    await db
      .update(photos)
      .set({ attachedAt: now })
      .where(and(inArray(photos.id, part), old, named));
    const orphans = await db
      .select({ id: photos.id, workspaceId: photos.workspaceId })
      .from(photos)
      .where(and(inArray(photos.id, part), old))
      .all();
    if (!orphans.length) continue;
    // Bytes first: a row left behind by a failure here is collected next run; bytes without a row never would be.
    await bucket.delete(orphans.map((o) => photoObjectKey(o.workspaceId, o.id)));
    const gone = orphans.map((o) => o.id);
    // in-list: `gone` is some of `part`
    await db.delete(photos).where(and(inArray(photos.id, gone), old));
    deleted += gone.length;
  }
  return deleted;
}

/** Empties the prefixes of deleted workspaces, a thousand objects each per run; answers how many objects went. */
export async function purgeDeletedWorkspacePhotos(db: Db, bucket: R2Bucket): Promise<number> {
  const purges = await db.select().from(photoPurges).orderBy(asc(photoPurges.createdAt)).limit(PURGES_PER_RUN).all();
  let deleted = 0;
  for (const { prefix } of purges) {
    const listed = await bucket.list({ prefix, limit: R2_DELETE_MAX });
    if (listed.objects.length) await bucket.delete(listed.objects.map((o) => o.key));
    deleted += listed.objects.length;
    if (!listed.truncated) await db.delete(photoPurges).where(eq(photoPurges.prefix, prefix));
  }
  return deleted;
}
