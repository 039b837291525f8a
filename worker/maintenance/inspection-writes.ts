import { eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import type { inspectionSubmissionSchema } from "../../shared/maintenance/inspections";
import type { Db } from "../../db/client";
import { inspections } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { foreignPhotoIds } from "../photos/photo-store";
import { checkResults } from "./inspection-results";
import { storeDefaultForm, workspaceForm } from "./inspection-forms";
import { openIssueWrites } from "./issue-links";
import { vehicleReadings } from "./readings";

/**
 * Submitting an inspection (DESIGN.md "Maintenance"): the checks and the writes, one copy for the
 * REST route (worker/api/inspections.ts) and the sync mutator (worker/sync/inspection-mutators.ts).
 * Each failed pass/fail item opens one issue linked to the inspection, in the caller's one batch.
 * An id this workspace already stored answers that row (a resend stores nothing); another
 * workspace's id is a 400.
 */
export type InspectionRow = typeof inspections.$inferSelect;
type Submission = z.output<typeof inspectionSubmissionSchema>;
/** A submission to store: its row, and the statements (its issues' too) for the caller's batch. */
interface NewInspection {
  existing?: undefined;
  row: Omit<InspectionRow, "version" | "deleted" | "createdVersion" | "createdAt">;
  writes: (stamp: SQL<number>) => BatchItem<"sqlite">[];
}

export async function inspectionWrites(
  db: Db,
  workspaceId: string,
  input: Submission,
  { userId, now }: { userId: string; now: number },
): Promise<{ existing: InspectionRow } | NewInspection> {
  if (input.id) {
    const existing = await db.select().from(inspections).where(eq(inspections.id, input.id)).get();
    if (existing && existing.workspaceId === workspaceId) return { existing };
    if (existing) throw badRequest("id: already used", { id: ["Already used"] });
  }
  const submittedAt = input.submittedAt ? Date.parse(input.submittedAt) : now;
  if (submittedAt > now + 5 * 60_000 || submittedAt < now - 30 * 86_400_000)
    throw badRequest("submittedAt: within the last 30 days", { submittedAt: ["Within the last 30 days"] });
  if (!(await vehicleReadings(db, workspaceId, [input.vehicleId])).has(input.vehicleId))
    throw notFound("No such vehicle in this workspace");
  const form = await workspaceForm(db, workspaceId, input.formId);
  if (!form) throw notFound("No such inspection form in this workspace");
  const { failed } = checkResults(form.items, input.results);
  const photoIds = input.results.flatMap((r) => r.photoIds ?? []);
  // A photo not uploaded yet is fine (the offline queue uploads it after); another workspace's is not.
  if ((await foreignPhotoIds(db, workspaceId, photoIds)).length) throw notFound("No such photo in this workspace");
  const id = input.id ?? crypto.randomUUID();
  const opened = await openIssueWrites(
    db,
    workspaceId,
    failed.map(({ item, result }) => ({
      vehicleId: input.vehicleId,
      title: `${item.label}: failed inspection`,
      description: result.note ?? null,
      photoIds: result.photoIds ?? [],
      sourceInspectionId: id,
    })),
    userId,
    now,
  );
  const row = {
    id,
    workspaceId,
    vehicleId: input.vehicleId,
    formId: form.id,
    odometerMiles: input.odometerMiles ?? null,
    results: input.results,
    signedName: input.signedName,
    failedItems: failed.length,
    issueIds: opened.ids,
    submittedByUserId: userId,
    submittedAt,
  };
  return {
    row,
    // The default form, if this is the first write to name it, is stored in the same batch.
    writes: (stamp) => [
      ...storeDefaultForm(db, form, stamp),
      db.insert(inspections).values({ ...row, version: stamp }),
      ...opened.writes(stamp),
    ],
  };
}
