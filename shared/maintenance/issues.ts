import { z } from "zod";
import { photoIdsSchema } from "./photos";
import { packId, setIfPresent, unpackId } from "../sync/wire";
import { placedAfter } from "../fields/field-table";
import { issueTable, type IssueTableValues, type IssueTableWire } from "./issue-fields";

/**
 * Issues (defects) of vehicles, numbered #1, #2, ... per workspace (DESIGN.md "Maintenance",
 * docs/decisions/0030). The same schemas check the REST API, the sync mutators and the forms; the
 * plain fields (title, priority, due date) are shared/maintenance/issue-fields.ts's table
 * (docs/decisions/0106), the rest is written out here.
 * Synced under `issue/{id}` while open or in progress (and for a while after any change), their
 * comments under `issue-comment/{issueId}/{commentId}`.
 */
export const ISSUE_PREFIX = "issue/";
export const ISSUE_COMMENT_PREFIX = "issue-comment/";
/**
 * An id as it travels in a synced issue (its key, its vehicle, its assignee): a UUID as 22
 * base64url characters, any other id as itself after a "~" (docs/decisions/0034).
 */
export { packId, unpackId };
export const issueKey = (id: string) => `${ISSUE_PREFIX}${packId(id)}`;
/** The issue id of the part of its key after the prefix. */
export const issueIdOfKeyPart = unpackId;
export const issueCommentKey = (issueId: string, id: string) => `${ISSUE_COMMENT_PREFIX}${issueId}/${id}`;

export { ISSUE_PRIORITIES, priorityLabels, dueDateSchema, type IssuePriority } from "./issue-fields";
export const ISSUE_STATUSES = ["open", "in_progress", "resolved", "closed"] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];
export const statusLabels: Record<IssueStatus, string> = {
  open: "Open",
  in_progress: "In progress",
  resolved: "Resolved",
  closed: "Closed",
};
/** Open and in progress: the issues still to do (synced, counted on the vehicle). */
export const isActiveStatus = (s: IssueStatus) => s === "open" || s === "in_progress";

/** Resolved and closed issues changed within this long are still synced (a list shows what was just done). */
export const ISSUE_RECENT_MS = 7 * 24 * 60 * 60 * 1000;

const id = z.string().min(1).max(100);
const description = z
  .string()
  .trim()
  .max(4000, "Use at most 4000 characters")
  .nullable()
  .optional()
  // Left out stays left out (a PATCH that does not name it keeps it); empty clears it.
  .transform((v) => (v === undefined ? undefined : v || null));
const status = z.enum(ISSUE_STATUSES, {
  errorMap: () => ({ message: "Choose open, in_progress, resolved or closed" }),
});
const userId = z.string().min(1, "Choose a member").max(100);
/**
 * The table's fields with the description placed after the title and the assignee after the
 * priority, where they always stood (the body's, the patch's and the OpenAPI document's order).
 */
const issueFields = placedAfter(placedAfter(issueTable.inputs, "title", { description }), "priority", {
  assigneeUserId: userId.nullable().optional(),
});

/** POST /api/issues (DESIGN.md). */
export const createIssueBody = z.object({
  vehicleId: z.string({ required_error: "Choose a vehicle" }).min(1, "Choose a vehicle").max(100),
  ...issueFields,
  photoIds: photoIdsSchema.optional(),
});
export type CreateIssueBody = z.input<typeof createIssueBody>;

/** PATCH /api/issues/{id}: any of these; null clears the assignee, due date or description. */
export const updateIssueBody = z.object({ status, ...issueFields, photoIds: photoIdsSchema }).partial();
export type UpdateIssueBody = z.input<typeof updateIssueBody>;

export const issueCommentBody = z.object({
  text: z.string({ required_error: "Required" }).trim().min(1, "Required").max(4000, "Use at most 4000 characters"),
  photoIds: photoIdsSchema.optional(),
});

/** The mutators' arguments: the browser chooses ids (offline), and says who and when for its optimistic copy. */
export const createIssueArgs = createIssueBody.extend({
  id,
  reportedByUserId: z.string().max(100).nullable().optional(),
  createdAt: z.number().int().optional(),
});
export const updateIssueArgs = updateIssueBody.extend({ id, updatedAt: z.number().int().optional() });
export const addIssueCommentArgs = issueCommentBody.extend({
  id,
  issueId: id,
  authorUserId: z.string().max(100).nullable().optional(),
  createdAt: z.number().int().optional(),
});
export type CreateIssueArgs = z.input<typeof createIssueArgs>;
export type UpdateIssueArgs = z.input<typeof updateIssueArgs>;
export type AddIssueCommentArgs = z.input<typeof addIssueCommentArgs>;

/** An issue: the table's fields (title, priority, due date) and those written out. */
export interface Issue extends IssueTableValues {
  id: string;
  /** null until the server has numbered it (made offline, not synced yet). */
  number: number | null;
  vehicleId: string;
  description: string | null;
  status: IssueStatus;
  reportedByUserId: string | null;
  assigneeUserId: string | null;
  photoIds: string[];
  sourceInspectionId: string | null;
  sourceAlertId: string | null;
  createdAt: number;
  updatedAt: number;
  /**
   * The synced copy leaves out a long description (and the reporter): true when there is one on
   * the server that this copy does not hold (the issue's page reads it when online).
   */
  descriptionOnServer?: boolean;
}

/**
 * As synced and stored (docs/decisions/0013, 0034): the id is the key's, ids packed (packId),
 * nulls left out, enums as digits with the usual values (open, medium) left out, times in
 * seconds. What the list does not show is left out of the server's copy (the first sync): the
 * reporter, when it was last changed, and a description longer than SYNCED_DESCRIPTION (`dl`:
 * there is one, read on demand). The browser's own optimistic copy keeps them (`r`, `u`, `d`).
 */
export type IssueWire = IssueTableWire & {
  n?: number;
  /** vehicle id, packed */
  v: string;
  d?: string;
  /** 1: a description longer than SYNCED_DESCRIPTION is on the server (not in this copy) */
  dl?: 1;
  s?: number;
  r?: string;
  /** assignee id, packed */
  a?: string;
  ph?: string[];
  si?: string;
  sa?: string;
  /** created, seconds */
  c: number;
  /** updated, seconds, when not `c` */
  u?: number;
};

/** Descriptions up to this long travel whole in the first sync; longer ones are read on demand. */
export const SYNCED_DESCRIPTION = 32;
const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * The server's synced copy, or with `whole` the browser's optimistic copy (all it knows: the
 * reporter, the change time, a long description).
 */
export function encodeIssue(i: Omit<Issue, "id">, { whole = false } = {}): IssueWire {
  const w = { v: packId(i.vehicleId) } as IssueWire;
  issueTable.encode(i, w);
  w.c = seconds(i.createdAt);
  const s = ISSUE_STATUSES.indexOf(i.status);
  if (s !== 0) w.s = s;
  setIfPresent(w, "n", i.number);
  if (i.description && (whole || i.description.length <= SYNCED_DESCRIPTION)) w.d = i.description;
  else if (i.description || i.descriptionOnServer) w.dl = 1;
  if (i.assigneeUserId) w.a = packId(i.assigneeUserId);
  if (i.photoIds.length) w.ph = i.photoIds;
  setIfPresent(w, "si", i.sourceInspectionId);
  setIfPresent(w, "sa", i.sourceAlertId);
  if (whole) {
    setIfPresent(w, "r", i.reportedByUserId);
    if (seconds(i.updatedAt) !== w.c) w.u = seconds(i.updatedAt);
  }
  return w;
}

/** `keyPart`: the issue's key after the prefix (its packed id). */
export function decodeIssue(keyPart: string, w: IssueWire): Issue {
  const issue: Issue = {
    id: issueIdOfKeyPart(keyPart),
    number: w.n ?? null,
    vehicleId: unpackId(w.v),
    ...issueTable.decode(w),
    description: w.d ?? null,
    status: ISSUE_STATUSES[w.s ?? 0] ?? "open",
    reportedByUserId: w.r ?? null,
    assigneeUserId: w.a ? unpackId(w.a) : null,
    photoIds: w.ph ?? [],
    sourceInspectionId: w.si ?? null,
    sourceAlertId: w.sa ?? null,
    createdAt: w.c * 1000,
    updatedAt: (w.u ?? w.c) * 1000,
  };
  if (w.dl && !w.d) issue.descriptionOnServer = true;
  return issue;
}

export interface IssueComment {
  id: string;
  issueId: string;
  authorUserId: string | null;
  text: string;
  photoIds: string[];
  createdAt: number;
}
export type IssueCommentWire = { x: string; a?: string; ph?: string[]; c: number };

export function encodeIssueComment(c: Omit<IssueComment, "id" | "issueId">): IssueCommentWire {
  const w: IssueCommentWire = { x: c.text, c: c.createdAt };
  setIfPresent(w, "a", c.authorUserId);
  if (c.photoIds.length) w.ph = c.photoIds;
  return w;
}

/** `rest` is the key after the prefix: `{issueId}/{commentId}`. */
export function decodeIssueComment(rest: string, w: IssueCommentWire): IssueComment {
  const slash = rest.indexOf("/");
  return {
    id: rest.slice(slash + 1),
    issueId: rest.slice(0, slash),
    authorUserId: w.a ?? null,
    text: w.x,
    photoIds: w.ph ?? [],
    createdAt: w.c,
  };
}

/** The REST shape of an issue (DESIGN.md): ISO 8601 times, every field present. */
export interface IssueJson extends Omit<Issue, "createdAt" | "updatedAt" | "number" | "descriptionOnServer"> {
  number: number;
  resolvedByServiceEntryId: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface IssueCommentJson extends Omit<IssueComment, "createdAt"> {
  createdAt: string;
}
