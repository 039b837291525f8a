import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { ApiError } from "../lib/errors";
import { IssueRefused, openIssueStatements, resolveIssuesStatements } from "./issues";

/**
 * Where service entries resolve issues and inspections open them, through the Issues entity's own
 * statements (worker/maintenance/issues.ts, docs/decisions/0030), in the caller's transaction:
 * nothing half-written. Their refusals become the API's errors (another workspace's issue: 404).
 */
const asApiError = (error: unknown) =>
  error instanceof IssueRefused
    ? new ApiError(error.status, error.status === 404 ? "not_found" : "invalid_input", error.message, error.fields)
    : error;

/** The statements that resolve these issues (checked now: one not of this workspace is a 404). */
export async function resolveIssueWrites(
  db: Db,
  workspaceId: string,
  issueIds: string[],
  _userId: string,
  _now: number,
  serviceEntryId?: string,
): Promise<(stamp: SQL<number>) => BatchItem<"sqlite">[]> {
  const statements = await resolveIssuesStatements(db, workspaceId, issueIds, {
    serviceEntryId: serviceEntryId ?? null,
  }).catch((error: unknown) => {
    throw asApiError(error);
  });
  return statements;
}

/** An issue a failed inspection item opens. */
export interface NewIssue {
  vehicleId: string;
  title: string;
  description: string | null;
  photoIds: string[];
  sourceInspectionId: string;
}

/** The statements that open these issues (numbered per workspace inside the batch), and their ids. */
export async function openIssueWrites(
  db: Db,
  workspaceId: string,
  list: NewIssue[],
  userId: string,
  _now: number,
): Promise<{ ids: string[]; writes: (stamp: SQL<number>) => BatchItem<"sqlite">[] }> {
  const opened = list.map((issue) => ({
    ...issue,
    id: crypto.randomUUID(),
    priority: "high" as const,
    reportedByUserId: userId,
  }));
  return {
    ids: opened.map((i) => i.id),
    writes: (stamp) => opened.flatMap((issue) => openIssueStatements(db, workspaceId, issue, stamp)),
  };
}
