import { and, asc, eq } from "drizzle-orm";
import {
  DEFAULT_FORM_NAME,
  DEFAULT_PRE_TRIP_ITEMS,
  defaultFormId,
  type InspectionForm,
} from "../../shared/inspections";
import type { Db } from "../../db/client";
import { inspectionForms } from "../../db/schema";
import { bumpVersion, versionOf } from "../../db/workspace-version";

/**
 * Inspection forms in D1. Every workspace has the default pre-trip form: migrations/0017 gave it
 * to the workspaces that existed then; a newer workspace gets it the first time its forms are read
 * or an inspection names it (its id derives from the workspace, so two first reads create it once).
 */
export type FormRow = typeof inspectionForms.$inferSelect;

export const toForm = (row: FormRow): InspectionForm => ({
  id: row.id,
  name: row.name,
  items: row.items,
  isDefault: row.isDefault,
});

async function createDefaultForm(db: Db, workspaceId: string) {
  await db.batch([
    bumpVersion(db, workspaceId),
    db
      .insert(inspectionForms)
      .values({
        id: defaultFormId(workspaceId),
        workspaceId,
        name: DEFAULT_FORM_NAME,
        items: DEFAULT_PRE_TRIP_ITEMS,
        isDefault: true,
        version: versionOf(workspaceId),
      })
      .onConflictDoNothing(),
  ]);
}

/** The workspace's live forms, the default one created if it has none yet. Default first, then by name. */
export async function workspaceForms(db: Db, workspaceId: string): Promise<FormRow[]> {
  const read = () =>
    db
      .select()
      .from(inspectionForms)
      .where(and(eq(inspectionForms.workspaceId, workspaceId), eq(inspectionForms.deleted, false)))
      .orderBy(asc(inspectionForms.name))
      .all();
  let rows = await read();
  if (!rows.some((r) => r.id === defaultFormId(workspaceId))) {
    await createDefaultForm(db, workspaceId);
    rows = await read();
  }
  return [...rows.filter((r) => r.isDefault), ...rows.filter((r) => !r.isDefault)];
}

/** One live form of the workspace (the default one created on demand), or null. */
export async function workspaceForm(db: Db, workspaceId: string, formId: string): Promise<FormRow | null> {
  const read = () =>
    db
      .select()
      .from(inspectionForms)
      .where(
        and(
          eq(inspectionForms.id, formId),
          eq(inspectionForms.workspaceId, workspaceId),
          eq(inspectionForms.deleted, false),
        ),
      )
      .get();
  const row = await read();
  if (row || formId !== defaultFormId(workspaceId)) return row ?? null;
  await createDefaultForm(db, workspaceId);
  return (await read()) ?? null;
}
