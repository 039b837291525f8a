import { and, asc, eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  DEFAULT_FORM_NAME,
  DEFAULT_PRE_TRIP_ITEMS,
  defaultFormId,
  type InspectionForm,
} from "../../shared/maintenance/inspections";
import type { Db } from "../../db/client";
import { inspectionForms } from "../../db/schema";

/**
 * Inspection forms in D1. Every workspace has the default pre-trip form: migrations/0017 gave it
 * to the workspaces that existed then; a newer workspace has it unstored (`stored: false`, its id
 * derives from the workspace) until a write needs the row: an inspection that names it, or an
 * edit of it, stores it in that write's own batch (`storeDefaultForm`), which is announced like
 * any write. A read never writes (docs/decisions/0058).
 */
export type FormRow = typeof inspectionForms.$inferSelect & { stored?: false };

export const toForm = (row: FormRow): InspectionForm => ({
  id: row.id,
  name: row.name,
  items: row.items,
  isDefault: row.isDefault,
});

/** The default form as it is until stored. */
function unstoredDefault(workspaceId: string): FormRow {
  return {
    id: defaultFormId(workspaceId),
    workspaceId,
    name: DEFAULT_FORM_NAME,
    items: DEFAULT_PRE_TRIP_ITEMS,
    isDefault: true,
    deleted: false,
    version: 0,
    createdVersion: null,
    createdAt: Date.now(),
    stored: false,
  };
}

/** The statement that stores the default form if `form` is it and is not stored yet, stamped with the write's version. */
export function storeDefaultForm(db: Db, form: FormRow, stamp: SQL<number>): BatchItem<"sqlite">[] {
  if (form.stored !== false) return [];
  const { id, workspaceId, name, items, isDefault } = form;
  return [
    db
      .insert(inspectionForms)
      .values({ id, workspaceId, name, items, isDefault, version: stamp })
      .onConflictDoNothing(),
  ];
}

/** The workspace's live forms, the default one included. Default first, then by name. */
export async function workspaceForms(db: Db, workspaceId: string): Promise<FormRow[]> {
  const rows: FormRow[] = await db
    .select()
    .from(inspectionForms)
    .where(and(eq(inspectionForms.workspaceId, workspaceId), eq(inspectionForms.deleted, false)))
    .orderBy(asc(inspectionForms.name))
    .all();
  if (!rows.some((r) => r.id === defaultFormId(workspaceId))) rows.unshift(unstoredDefault(workspaceId));
  return [...rows.filter((r) => r.isDefault), ...rows.filter((r) => !r.isDefault)];
}

/** One live form of the workspace (the default one, stored or not), or null. */
export async function workspaceForm(db: Db, workspaceId: string, formId: string): Promise<FormRow | null> {
  const row = await db
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
  if (row || formId !== defaultFormId(workspaceId)) return row ?? null;
  return unstoredDefault(workspaceId);
}
