import { and, asc, desc, eq, type SQL } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { createIssueBody, issueCommentBody, ISSUE_STATUSES, updateIssueBody } from "../../shared/maintenance/issues";
import { can } from "../../shared/account/roles";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { issueComments, issues } from "../../db/schema";
import { ApiError, forbidden, notFound } from "../lib/errors";
import { sendIssueNotifications } from "../maintenance/issue-notifications";
import {
  checkIssueReferences,
  commentStatement,
  issueIn,
  IssueRefused,
  openIssueStatements,
  toIssueCommentJson,
  toIssueJson,
  updateIssueStatements,
} from "../maintenance/issues";
import type { AppEnv } from "../types";
import { issueJson, issueCommentJson } from "./maintenance-answers";
import { declared } from "./route-declaration/declare";
import { commitWorkspaceWrite } from "../workspace-object";

/**
 * Issues for integrators (DESIGN.md "Maintenance"; docs/decisions/0030); the app itself writes
 * them through sync mutators (worker/sync/issue-mutators.ts), which use the same functions.
 * Every query is scoped to the caller's workspace: another workspace's issue or vehicle is a 404.
 */
export const listQuery = z.object({
  status: z
    .enum([...ISSUE_STATUSES, "all"], {
      errorMap: () => ({ message: "Choose open, in_progress, resolved, closed or all" }),
    })
    .default("all"),
  vehicleId: z.string().max(100).optional(),
  assigneeUserId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});

function reporterSession(session: SessionInfo) {
  const scoped = workspaceSession(session);
  if (!can(session.role, "fleet.edit")) throw forbidden("Viewers cannot report or change issues");
  return scoped;
}

/** Runs a write of issues: IssueRefused becomes its 4xx; committed writes' e-mails go out after. */
async function write<T>(c: Context<AppEnv>, workspaceId: string, work: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (error instanceof IssueRefused)
      throw new ApiError(
        error.status,
        error.status === 404 ? "not_found" : "invalid_input",
        error.message,
        error.fields,
      );
    throw error;
  }
  // The assignment is saved with its e-mail queued; a send that fails here is retried by the cron.
  await sendIssueNotifications(c.var.db, c.var.config, { workspaceId }).catch((error) =>
    console.error("issue e-mails failed:", error),
  );
  return result;
}

const writeContext = (c: Context<AppEnv>) => ({
  env: c.env,
  db: c.var.db,
  waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

async function requireIssue(c: Context<AppEnv>, workspaceId: string) {
  const row = await issueIn(c.var.db, workspaceId, c.req.param("id") ?? "");
  if (!row) throw notFound("No such issue in this workspace");
  return row;
}

export const issueRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "The workspace's issues",
      tag: "Maintenance",
      query: listQuery,
      response: z.object({ issues: z.array(issueJson) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const q = c.req.valid("query");
      const where: SQL[] = [eq(issues.workspaceId, workspaceId), eq(issues.deleted, false)];
      if (q.status !== "all") where.push(eq(issues.status, q.status));
      if (q.vehicleId) where.push(eq(issues.vehicleId, q.vehicleId));
      if (q.assigneeUserId) where.push(eq(issues.assigneeUserId, q.assigneeUserId));
      const rows = await c.var.db
        .select()
        .from(issues)
        .where(and(...where))
        .orderBy(desc(issues.number))
        .limit(q.limit)
        .all();
      return c.json({ issues: rows.map(toIssueJson) });
    },
  )
  .get(
    "/:id",
    declared({
      permission: "workspace.view",
      summary: "An issue and its comments",
      tag: "Maintenance",
      response: z.intersection(issueJson, z.object({ comments: z.array(issueCommentJson) })),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const row = await requireIssue(c, workspaceId);
      const comments = await c.var.db
        .select()
        .from(issueComments)
        .where(
          and(
            eq(issueComments.issueId, row.id),
            eq(issueComments.workspaceId, workspaceId),
            eq(issueComments.deleted, false),
          ),
        )
        .orderBy(asc(issueComments.createdAt))
        .all();
      return c.json({ ...toIssueJson(row), comments: comments.map(toIssueCommentJson) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Report an issue",
      tag: "Maintenance",
      body: createIssueBody,
      response: issueJson,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = reporterSession(c.var.session);
      const input = c.req.valid("json");
      const id = crypto.randomUUID();
      const db = c.var.db;
      await write(c, workspaceId, async () => {
        await checkIssueReferences(db, workspaceId, input);
        await commitWorkspaceWrite(
          writeContext(c),
          workspaceId,
          (stamp) => openIssueStatements(db, workspaceId, { ...input, id, reportedByUserId: userId }, stamp),
          { readYourWrites: true },
        );
      });
      const row = await issueIn(db, workspaceId, id);
      return c.json(toIssueJson(row!), 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "fleet.edit",
      summary: "Change an issue (status, assignee, …); null clears a field",
      tag: "Maintenance",
      body: updateIssueBody,
      response: issueJson,
    }),
    async (c) => {
      const { workspaceId, userId } = reporterSession(c.var.session);
      const current = await requireIssue(c, workspaceId);
      const changes = c.req.valid("json");
      const db = c.var.db;
      await write(c, workspaceId, async () => {
        await checkIssueReferences(db, workspaceId, {
          assigneeUserId: changes.assigneeUserId,
          photoIds: changes.photoIds,
        });
        await commitWorkspaceWrite(
          writeContext(c),
          workspaceId,
          (stamp) => updateIssueStatements(db, workspaceId, current, changes, userId, stamp),
          { readYourWrites: true },
        );
      });
      return c.json(toIssueJson((await issueIn(db, workspaceId, current.id))!));
    },
  )
  .post(
    "/:id/comments",
    declared({
      permission: "fleet.edit",
      summary: "Comment on an issue",
      tag: "Maintenance",
      body: issueCommentBody,
      response: issueCommentJson,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = reporterSession(c.var.session);
      const issue = await requireIssue(c, workspaceId);
      const { text, photoIds } = c.req.valid("json");
      const id = crypto.randomUUID();
      const db = c.var.db;
      await write(c, workspaceId, async () => {
        await checkIssueReferences(db, workspaceId, { photoIds });
        await commitWorkspaceWrite(
          writeContext(c),
          workspaceId,
          (stamp) => [
            commentStatement(db, workspaceId, { id, issueId: issue.id, text, photoIds, authorUserId: userId }, stamp),
          ],
          { readYourWrites: true },
        );
      });
      const row = await db.select().from(issueComments).where(eq(issueComments.id, id)).get();
      return c.json(toIssueCommentJson(row!), 201);
    },
  );
