import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { notFound } from "../lib/errors";

/**
 * Where service entries resolve issues (and inspections open them): the Issues entity belongs to
 * the issues branch of issue 32. Until it is merged there is no issue to name, so any id is one
 * this workspace does not have: 404, and nothing is written.
 */
export async function resolveIssueWrites(_db: Db, _workspaceId: string, issueIds: string[], _userId: string, _now: number): Promise<(stamp: SQL<number>) => BatchItem<"sqlite">[]> {
  if (issueIds.length) throw notFound("No such issue in this workspace");
  return () => [];
}

/** An issue a failed inspection item opens. */
export interface NewIssue {
  vehicleId: string;
  title: string;
  description: string | null;
  photoIds: string[];
  sourceInspectionId: string;
}

/**
 * The writes that open these issues (numbered per workspace) in the same transaction as the
 * inspection that found them, and their ids. Until the issues branch is merged: none.
 */
export async function openIssueWrites(_db: Db, _workspaceId: string, _issues: NewIssue[], _userId: string, _now: number): Promise<{ ids: string[]; writes: (stamp: SQL<number>) => BatchItem<"sqlite">[] }> {
  return { ids: [], writes: () => [] };
}
