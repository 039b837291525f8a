import type { WriteTransaction } from "replicache";
import {
  addIssueCommentArgs,
  createIssueArgs,
  decodeIssue,
  encodeIssue,
  encodeIssueComment,
  issueCommentKey,
  issueKey,
  ISSUE_PREFIX,
  updateIssueArgs,
  type AddIssueCommentArgs,
  type CreateIssueArgs,
  type IssueWire,
  type UpdateIssueArgs,
} from "./issues";
import { issueTable } from "./issue-fields";

/**
 * Issues reported, changed and commented on in the browser (optimistic, offline too), applied by
 * the Worker (worker/sync/issue-mutators.ts) with the same schemas. The browser chooses ids, so an
 * issue made offline can be commented on before it reaches the server; its number (#n) is the
 * server's and arrives with the next pull.
 */
export const issueMutators = {
  async createIssue(tx: WriteTransaction, input: CreateIssueArgs) {
    const { id, reportedByUserId, createdAt, ...fields } = createIssueArgs.parse(input);
    if (await tx.has(issueKey(id))) return;
    const at = createdAt ?? Date.now();
    await tx.set(
      issueKey(id),
      encodeIssue(
        {
          number: null,
          vehicleId: fields.vehicleId,
          ...issueTable.given(fields),
          description: fields.description ?? null,
          status: "open",
          reportedByUserId: reportedByUserId ?? null,
          assigneeUserId: fields.assigneeUserId ?? null,
          photoIds: fields.photoIds ?? [],
          sourceInspectionId: null,
          sourceAlertId: null,
          createdAt: at,
          updatedAt: at,
        },
        { whole: true },
      ),
    );
  },
  async updateIssue(tx: WriteTransaction, input: UpdateIssueArgs) {
    const { id, updatedAt, ...changes } = updateIssueArgs.parse(input);
    const current = (await tx.get(issueKey(id))) as IssueWire | undefined;
    if (!current) return;
    const issue = decodeIssue(issueKey(id).slice(ISSUE_PREFIX.length), current);
    // the table's fields as the patch leaves them, the written-out ones it gives
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    // A new description (or none) replaces the one the synced copy left on the server.
    const description = changes.description === undefined ? {} : { descriptionOnServer: false };
    await tx.set(
      issueKey(id),
      encodeIssue(
        {
          ...issue,
          ...defined,
          ...issueTable.patched(issue, changes),
          ...description,
          updatedAt: updatedAt ?? Date.now(),
        },
        { whole: true },
      ),
    );
  },
  async addIssueComment(tx: WriteTransaction, input: AddIssueCommentArgs) {
    const { id, issueId, text, photoIds, authorUserId, createdAt } = addIssueCommentArgs.parse(input);
    await tx.set(
      issueCommentKey(issueId, id),
      encodeIssueComment({
        text,
        photoIds: photoIds ?? [],
        authorUserId: authorUserId ?? null,
        createdAt: createdAt ?? Date.now(),
      }),
    );
  },
};
