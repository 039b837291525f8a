import { and, asc, eq } from "drizzle-orm";
import { priorityLabels, type IssuePriority } from "../../shared/maintenance/issues";
import type { Db } from "../../db/client";
import { issueNotifications, issues, memberships, users, vehicles, workspaces } from "../../db/schema";
import { sendMemberMail, type MemberMail } from "../email/member-mail";
import type { Config } from "../env";
import { pushToMember } from "../push/send-push";

/**
 * Sends the e-mails of issue assignments (queued in `issue_notifications` by the assignment's own
 * batch, worker/maintenance/issues.ts): right after the write that assigned, and by the cron for
 * any whose send failed. Each row is claimed by deleting it first, so two senders never send it
 * twice; a failed send puts it back for the next round. A member who left is not written to.
 */
export async function sendIssueNotifications(
  db: Db,
  config: Config,
  opts: { workspaceId?: string; limit?: number } = {},
): Promise<number> {
  const pending = await db
    .select()
    .from(issueNotifications)
    .where(opts.workspaceId ? eq(issueNotifications.workspaceId, opts.workspaceId) : undefined)
    .orderBy(asc(issueNotifications.createdAt))
    .limit(opts.limit ?? 50)
    .all();
  let sent = 0;
  for (const row of pending) {
    const claimed = await db
      .delete(issueNotifications)
      .where(eq(issueNotifications.id, row.id))
      .returning({ id: issueNotifications.id });
    if (claimed.length === 0) continue;
    try {
      const email = await assignmentEmail(db, config, row);
      if (!email) continue;
      if ((await sendMemberMail(db, config, email)) === "sent") sent++;
      // And a push to the assignee's own phones (issue 41): best effort, never sent twice by a retry.
      await pushToMember(
        db,
        config,
        row,
        {
          title: email.pushTitle,
          body: email.pushBody,
          url: `/issues/${row.issueId}`,
          tag: `issue-${row.issueId}`,
        },
        `issue-notification-${row.id}`,
      ).catch((error) => console.error("issue assignment push failed:", error));
    } catch (error) {
      console.error("issue assignment e-mail failed; kept for the next round:", error);
      await db.insert(issueNotifications).values(row).onConflictDoNothing();
    }
  }
  return sent;
}

/**
 * The assignment's e-mail: the issue's title is what a member wrote, so it stays out of the subject
 * (issue 39: "Issue #N assigned to you: Account locked - verify at evil.example"); the body quotes
 * it. It counts against the assigner's daily share to the assignee (worker/email/member-mail.ts).
 */
async function assignmentEmail(
  db: Db,
  config: Config,
  row: typeof issueNotifications.$inferSelect,
): Promise<(MemberMail & { pushTitle: string; pushBody: string }) | null> {
  const found = await db
    .select({
      email: users.email,
      number: issues.number,
      title: issues.title,
      priority: issues.priority,
      dueDate: issues.dueDate,
      assignee: issues.assigneeUserId,
      vehicle: vehicles.name,
      workspace: workspaces.name,
    })
    .from(issues)
    .innerJoin(memberships, and(eq(memberships.workspaceId, issues.workspaceId), eq(memberships.userId, row.userId)))
    .innerJoin(users, eq(users.id, row.userId))
    .innerJoin(workspaces, eq(workspaces.id, issues.workspaceId))
    .leftJoin(vehicles, eq(vehicles.id, issues.vehicleId))
    .where(and(eq(issues.id, row.issueId), eq(issues.workspaceId, row.workspaceId)))
    .get();
  // Reassigned since, or the member left: nothing to say.
  if (!found || found.assignee !== row.userId) return null;
  const link = new URL(`/issues/${row.issueId}`, config.APP_URL).href;
  const lines = [
    `Issue #${found.number} in ${found.workspace} is assigned to you.`,
    "",
    `Title: "${found.title}"`,
    `Vehicle: ${found.vehicle ?? "a removed vehicle"}`,
    `Priority: ${priorityLabels[found.priority as IssuePriority] ?? found.priority}`,
    ...(found.dueDate ? [`Due: ${found.dueDate}`] : []),
    "",
    `Open it: ${link}`,
  ];
  const sender = row.senderUserId;
  return {
    to: found.email,
    subject: `An issue was assigned to you on Fleet Ops`,
    pushTitle: `Issue #${found.number} assigned to you`,
    pushBody: `${found.vehicle ?? "A removed vehicle"} · ${priorityLabels[found.priority as IssuePriority] ?? found.priority} priority`,
    text: lines.join("\n"),
    idempotencyKey: `issue-assignment-${row.id}`,
    senderKey: sender ? `user:${sender}` : `workspace:${row.workspaceId}`,
    senderUserId: sender,
    kind: "issue_assigned",
    digestLine: `Issue #${found.number} in "${found.workspace}" was assigned to you: "${found.title}" (${link})`,
  };
}
