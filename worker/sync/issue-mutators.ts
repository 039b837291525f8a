import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { addIssueCommentArgs, createIssueArgs, updateIssueArgs } from "../../shared/maintenance/issues";
import type { SQL } from "drizzle-orm";
import type { Db, LiveWrites } from "../../db/client";
import { issueComments, issues } from "../../db/schema";
import {
  checkIssueReferences,
  commentStatement,
  issueIn,
  IssueRefused,
  openIssueStatements,
  updateIssueStatements,
} from "../maintenance/issues";
import { parseArgs, type ArgsSchema } from "./mutation-args";

type Refuse = (message: string) => never;
/**
 * Who makes a mutation, and what its writes are built with: the version stamp and the builders of
 * the live tables, from the push's run of the one writer (worker/workspace-object.ts
 * commitWorkspaceWrites), which commits them with the version's bump and announces them.
 */
export interface MutationCaller {
  userId: string;
  stamp: SQL<number>;
  live: LiveWrites;
}

/**
 * The authoritative side of shared/maintenance/issues-mutators.ts. The reporter and comment author are the
 * caller, whatever the browser said; ids are the browser's, so one another workspace holds is
 * refused, and a replayed create is a no-op.
 */
export function issueServerMutators(refuse: Refuse) {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (error instanceof IssueRefused) refuse(error.message);
      throw error;
    }
  };

  return {
    async createIssue(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, reportedByUserId: _claimed, createdAt: _at, ...fields } = parse(createIssueArgs, input);
      const taken = await db.select({ workspaceId: issues.workspaceId }).from(issues).where(eq(issues.id, id)).get();
      if (taken) refuse(taken.workspaceId === workspaceId ? "this issue exists" : "issue id taken");
      await checked(() => checkIssueReferences(db, workspaceId, fields));
      return openIssueStatements(db, workspaceId, { ...fields, id, reportedByUserId: caller.userId }, caller.stamp);
    },
    async updateIssue(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, updatedAt: _at, ...changes } = parse(updateIssueArgs, input);
      const current = await issueIn(db, workspaceId, id);
      if (!current) refuse("no such issue in this workspace");
      await checked(() =>
        checkIssueReferences(db, workspaceId, { assigneeUserId: changes.assigneeUserId, photoIds: changes.photoIds }),
      );
      return updateIssueStatements(db, workspaceId, current!, changes, caller.userId, caller.stamp);
    },
    async addIssueComment(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, issueId, text, photoIds } = parse(addIssueCommentArgs, input);
      if (!(await issueIn(db, workspaceId, issueId))) refuse("no such issue in this workspace");
      if (await db.select({ id: issueComments.id }).from(issueComments).where(eq(issueComments.id, id)).get())
        refuse("this comment exists");
      await checked(() => checkIssueReferences(db, workspaceId, { photoIds }));
      return [
        commentStatement(db, workspaceId, { id, issueId, text, photoIds, authorUserId: caller.userId }, caller.stamp),
      ];
    },
  };
}
