import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memberships, users } from "../../db/schema";
import type { Config } from "../env";
import { sendEmail } from "../email/email";

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
  for (const { email } of admins)
    await sendEmail(db, config, { to: email, subject: "Alerts could not be delivered", text });
}
