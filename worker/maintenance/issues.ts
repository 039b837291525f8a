import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQL } from "drizzle-orm";
import type { IssueCommentJson, IssueJson, IssueStatus, UpdateIssueBody } from "../../shared/maintenance/issues";
import { placedAfter } from "../../shared/fields/field-table";
import { issueTable, type IssueTableInput, type IssueTableValues } from "../../shared/maintenance/issue-fields";
import type { Db } from "../../db/client";
import { inLists } from "../../db/chunk";
import { issueComments, issueNotifications, issues, memberships, vehicles } from "../../db/schema";
import { foreignPhotoIds } from "../photos/photo-store";
import { commitWorkspaceWrite, type WriteContext } from "../workspace-object";

/**
 * Issues on the server (docs/decisions/0030): what the REST API, the sync mutators and other
 * features (an inspection's failed item, a service entry that fixes something) call to open,
 * change and resolve issues. Functions named `...Statements` return D1 statements for the
 * caller's own batch (with its version bump: nothing half-written); `openIssue` commits alone.
 */
export class IssueRefused extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export type IssueRow = typeof issues.$inferSelect;

/** The table's fields (a title and a priority always given, the rest as given) and those written out. */
export type NewIssue = IssueTableInput & Pick<IssueTableValues, "title" | "priority"> & WrittenOutOfNewIssue;
interface WrittenOutOfNewIssue {
  /** The browser's id for an issue made offline; otherwise a new UUID. */
  id?: string;
  vehicleId: string;
  description?: string | null;
  assigneeUserId?: string | null;
  photoIds?: string[];
  reportedByUserId: string | null;
  /** Where it came from: the inspection whose failed item opened it, or the alert. */
  sourceInspectionId?: string | null;
  sourceAlertId?: string | null;
}

/** The issue if it is this workspace's and not deleted; null otherwise (another workspace's reads as absent). */
export async function issueIn(db: Db, workspaceId: string, id: string): Promise<IssueRow | null> {
  const row = await db
    .select()
    .from(issues)
    .where(and(eq(issues.id, id), eq(issues.workspaceId, workspaceId), eq(issues.deleted, false)))
    .get();
  return row ?? null;
}

/**
 * Checks what an issue names: its vehicle is this workspace's (404), its assignee a member (400,
 * a field error), its photos not another workspace's (404). A photo not uploaded yet is fine.
 */
export async function checkIssueReferences(
  db: Db,
  workspaceId: string,
  refs: { vehicleId?: string; assigneeUserId?: string | null; photoIds?: string[] },
) {
  if (refs.vehicleId !== undefined) {
    const vehicle = await db
      .select({ id: vehicles.id })
      .from(vehicles)
      .where(and(eq(vehicles.id, refs.vehicleId), eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
      .get();
    if (!vehicle) throw new IssueRefused(404, "No such vehicle in this workspace");
  }
  if (refs.assigneeUserId) {
    const member = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, refs.assigneeUserId)))
      .get();
    if (!member)
      throw new IssueRefused(400, "assigneeUserId: the assignee must be a member of this workspace", {
        assigneeUserId: ["Choose a member of this workspace"],
      });
  }
  if (refs.photoIds?.length && (await foreignPhotoIds(db, workspaceId, refs.photoIds)).length)
    throw new IssueRefused(404, "No such photo in this workspace");
}

const nextNumber = (workspaceId: string) =>
  sql<number>`(SELECT COALESCE(MAX("number"), 0) + 1 FROM "issues" WHERE "workspace_id" = ${workspaceId})`;

/**
 * The statements that open an issue (references checked first with checkIssueReferences). Its
 * number is computed inside the INSERT, in the batch's transaction: several issues opened in one
 * batch (an inspection with three failed items) get consecutive numbers, and two concurrent
 * batches cannot share one (D1 runs them one after the other; a unique index guards it too).
 * An assignee other than the reporter gets an e-mail, queued in the same batch.
 */
export function openIssueStatements(
  db: Db,
  workspaceId: string,
  issue: NewIssue & { id: string },
  stamp: SQL<number>,
): BatchItem<"sqlite">[] {
  const now = Date.now();
  const statements: BatchItem<"sqlite">[] = [
    db.insert(issues).values({
      id: issue.id,
      workspaceId,
      number: nextNumber(workspaceId),
      vehicleId: issue.vehicleId,
      ...issueTable.given(issue),
      description: issue.description ?? null,
      status: "open",
      reportedByUserId: issue.reportedByUserId,
      assigneeUserId: issue.assigneeUserId ?? null,
      photoIds: issue.photoIds ?? [],
      sourceInspectionId: issue.sourceInspectionId ?? null,
      sourceAlertId: issue.sourceAlertId ?? null,
      version: stamp,
      createdAt: now,
      updatedAt: now,
    }),
  ];
  if (issue.assigneeUserId && issue.assigneeUserId !== issue.reportedByUserId) {
    statements.push(notifyStatement(db, workspaceId, issue.id, issue.assigneeUserId, issue.reportedByUserId));
  }
  return statements;
}

/**
 * Opens one issue in a write of its own (version bumped, the workspace's clients told): e.g. from
 * a failed inspection item (`sourceInspectionId`) or an alert (`sourceAlertId`). Throws
 * IssueRefused for a vehicle, assignee or photo not of this workspace.
 */
export async function openIssue(w: WriteContext, workspaceId: string, input: NewIssue): Promise<IssueRow> {
  await checkIssueReferences(w.db, workspaceId, input);
  const id = input.id ?? crypto.randomUUID();
  await commitWorkspaceWrite(
    w,
    workspaceId,
    (stamp) => openIssueStatements(w.db, workspaceId, { ...input, id }, stamp),
    {
      readYourWrites: true,
    },
  );
  const row = await issueIn(w.db, workspaceId, id);
  if (!row) throw new Error("the issue just opened is not there");
  return row;
}

type IssueChanges = Omit<UpdateIssueBody, keyof IssueTableInput | "description" | "assigneeUserId"> &
  IssueTableInput & {
    description?: string | null;
    assigneeUserId?: string | null;
  };

/** The statements that change an issue (references checked first); a new assignee other than `byUserId` is e-mailed. */
export function updateIssueStatements(
  db: Db,
  workspaceId: string,
  current: IssueRow,
  changes: IssueChanges,
  byUserId: string | null,
  stamp: SQL<number>,
): BatchItem<"sqlite">[] {
  const { status, description, assigneeUserId, photoIds } = changes;
  // the table's fields a patch names, and the written-out ones it gives (undefined keeps a column)
  const set: Partial<IssueRow> = { ...issueTable.named(changes), status, description, assigneeUserId, photoIds };
  const statements: BatchItem<"sqlite">[] = [
    db
      .update(issues)
      .set({ ...set, updatedAt: Date.now(), version: stamp })
      .where(and(eq(issues.id, current.id), eq(issues.workspaceId, workspaceId))),
  ];
  const assignee = changes.assigneeUserId;
  if (assignee && assignee !== current.assigneeUserId && assignee !== byUserId)
    statements.push(notifyStatement(db, workspaceId, current.id, assignee, byUserId));
  return statements;
}

/**
 * The statements that resolve these issues of the workspace, e.g. for a service entry that fixes
 * them (`serviceEntryId` is kept on each). Throws IssueRefused (404) if any id is not an issue of
 * this workspace, so the caller's entry is not written with half its links. Issues already
 * resolved or closed are left as they are.
 */
export async function resolveIssuesStatements(
  db: Db,
  workspaceId: string,
  issueIds: readonly string[],
  opts: { serviceEntryId?: string | null } = {},
): Promise<(stamp: SQL<number>) => BatchItem<"sqlite">[]> {
  const ids = [...new Set(issueIds)];
  const rows: { id: string; status: string }[] = [];
  for (const part of inLists(ids))
    rows.push(
      ...(await db
        .select({ id: issues.id, status: issues.status })
        .from(issues)
        .where(and(eq(issues.workspaceId, workspaceId), eq(issues.deleted, false), inArray(issues.id, part)))
        .all()),
    );
  if (rows.length !== ids.length)
    throw new IssueRefused(404, "No such issue in this workspace", {
      resolvesIssueIds: ["An issue is not of this workspace"],
    });
  const active = rows.filter((r) => r.status === "open" || r.status === "in_progress").map((r) => r.id);
  const now = Date.now();
  return (stamp) =>
    inLists(active).map((part) =>
      db
        .update(issues)
        .set({
          status: "resolved",
          resolvedByServiceEntryId: opts.serviceEntryId ?? null,
          updatedAt: now,
          version: stamp,
        })
        .where(and(eq(issues.workspaceId, workspaceId), inArray(issues.id, part))),
    );
}

/** The statement that adds a comment (the issue checked first with issueIn). */
export function commentStatement(
  db: Db,
  workspaceId: string,
  comment: { id: string; issueId: string; text: string; photoIds?: string[]; authorUserId: string | null },
  stamp: SQL<number>,
) {
  return db.insert(issueComments).values({
    ...comment,
    photoIds: comment.photoIds ?? [],
    workspaceId,
    version: stamp,
    createdAt: Date.now(),
  });
}

/** `senderUserId`: who assigned, whose daily share of mail to the assignee it spends (worker/email/member-mail.ts). */
function notifyStatement(db: Db, workspaceId: string, issueId: string, userId: string, senderUserId: string | null) {
  return db.insert(issueNotifications).values({ id: crypto.randomUUID(), workspaceId, issueId, userId, senderUserId });
}

const iso = (ms: number) => new Date(ms).toISOString();

export function toIssueJson(row: IssueRow): IssueJson {
  return {
    id: row.id,
    number: row.number,
    vehicleId: row.vehicleId,
    ...placedAfter(placedAfter(issueTable.valuesOf(row), "title", { description: row.description }), "priority", {
      status: row.status as IssueStatus,
      reportedByUserId: row.reportedByUserId,
      assigneeUserId: row.assigneeUserId,
    }),
    photoIds: row.photoIds,
    sourceInspectionId: row.sourceInspectionId,
    sourceAlertId: row.sourceAlertId,
    resolvedByServiceEntryId: row.resolvedByServiceEntryId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function toIssueCommentJson(row: typeof issueComments.$inferSelect): IssueCommentJson {
  return {
    id: row.id,
    issueId: row.issueId,
    authorUserId: row.authorUserId,
    text: row.text,
    photoIds: row.photoIds,
    createdAt: iso(row.createdAt),
  };
}
