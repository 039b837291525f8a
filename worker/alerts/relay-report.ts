import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memberships, users } from "../../db/schema";
import type { Config } from "../env";
import { sendMemberMail } from "../email/member-mail";

/**
 * Tells a workspace's owners and admins that alerts of theirs were set aside by the relay (issue
 * 34): what went wrong, so they can fix the rule. One e-mail per run per workspace, whatever the
 * count; nothing about any other workspace.
 */
export async function reportSetAside(db: Db, workspaceId: string, reasons: string[], config: Config): Promise<void> {
  const admins = await db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), inArray(memberships.role, ["owner", "admin"])))
    .all();
  const distinct = [...new Set(reasons)];
  const text = [
    `${reasons.length} alert${reasons.length === 1 ? "" : "s"} of your workspace could not be handed to delivery and ${reasons.length === 1 ? "was" : "were"} set aside:`,
    ...distinct.map((r) => `- ${r}`),
    "",
    `Check the e-mail and webhook settings of your alert rules: ${config.APP_URL}/inbox`,
  ].join("\n");
  // At most a few a day to each (worker/email/member-mail.ts): a poisoned rule fails every minute.
  for (const { email } of admins)
    await sendMemberMail(db, config, {
      to: email,
      subject: "Alerts could not be delivered",
      text,
      senderKey: `workspace:${workspaceId}`,
      senderUserId: null,
      kind: "alerts_set_aside",
      digestLine: `${reasons.length} alert${reasons.length === 1 ? "" : "s"} could not be delivered: ${distinct.join("; ")}`,
    });
}
