import { and, eq, isNotNull, isNull, ne, or } from "drizzle-orm";
import type { SummaryRow } from "../../shared/reports/reports";
import type { Db } from "../../db/client";
import { memberships, reportSubscriptions, users, workspaces } from "../../db/schema";
import { sendEmail } from "../email/email";
import type { Config } from "../env";
import { duePeriod, type Frequency } from "./email-schedule";
import { reportRange } from "./range";
import { summaryReport } from "./summary";
import { reportVehicles } from "./report-vehicles";

const hm = (seconds: number) =>
  `${Math.floor(seconds / 3600)}h ${String(Math.round((seconds % 3600) / 60)).padStart(2, "0")}m`;
const line = (r: SummaryRow) =>
  `${r.vehicleName}: ${r.distanceMiles.toFixed(1)} mi, driving ${hm(r.drivingSeconds)}, idling ${hm(r.idlingSeconds)}, ${r.trips} trips, max ${Math.round(r.maxSpeedMph)} mph, ${r.speedingEpisodes} speeding`;

/** The e-mail of one workspace's summary over a period: the fleet total, then the vehicles that moved. */
export async function summaryEmailText(
  db: Db,
  workspaceId: string,
  workspaceName: string,
  timeZone: string,
  period: { from: string; to: string },
  appUrl: string,
) {
  const range = reportRange(period.from, period.to, timeZone);
  const { rows, total } = await summaryReport(db, workspaceId, range, await reportVehicles(db, workspaceId, []));
  const moved = rows
    .filter((r) => r.distanceMiles > 0 || r.idlingSeconds > 0)
    .sort((a, b) => b.distanceMiles - a.distanceMiles);
  const days = period.from === period.to ? period.from : `${period.from} to ${period.to}`;
  const link = new URL("/reports", appUrl).href;
  return [
    `${workspaceName}: fleet summary for ${days} (${timeZone})`,
    "",
    line(total),
    "",
    ...(moved.length ? moved.slice(0, 50).map((r) => `- ${line(r)}`) : ["No vehicle moved."]),
    ...(moved.length > 50 ? [`...and ${moved.length - 50} more`] : []),
    "",
    `Trips, stops and CSV: ${link}`,
  ].join("\n");
}

/**
 * Run by the cron trigger every minute: every subscription whose period is due in its
 * workspace's time zone and not yet sent gets its e-mail, once. The period is claimed first (a
 * conditional update: two overlapping runs cannot both claim it); if sending fails the claim is
 * undone, so the next minute tries again.
 */
export async function sendDueReportEmails(db: Db, config: Config, now = Date.now()): Promise<number> {
  const subscriptions = await db
    .select({
      workspaceId: reportSubscriptions.workspaceId,
      userId: reportSubscriptions.userId,
      frequency: reportSubscriptions.frequency,
      lastPeriod: reportSubscriptions.lastPeriod,
      email: users.email,
      workspaceName: workspaces.name,
      timeZone: workspaces.timeZone,
    })
    .from(reportSubscriptions)
    // never to an address its account has not confirmed (issue 39)
    .innerJoin(users, and(eq(users.id, reportSubscriptions.userId), isNotNull(users.emailConfirmedAt)))
    .innerJoin(workspaces, eq(workspaces.id, reportSubscriptions.workspaceId))
    // only to members now: a subscription of someone removed (before removals ended them) sends nothing
    .innerJoin(
      memberships,
      and(
        eq(memberships.workspaceId, reportSubscriptions.workspaceId),
        eq(memberships.userId, reportSubscriptions.userId),
      ),
    )
    .all();
  let sent = 0;
  for (const s of subscriptions) {
    const period = duePeriod(s.frequency as Frequency, now, s.timeZone);
    if (s.lastPeriod === period.from) continue;
    const mine = and(eq(reportSubscriptions.workspaceId, s.workspaceId), eq(reportSubscriptions.userId, s.userId));
    const claimed = await db
      .update(reportSubscriptions)
      .set({ lastPeriod: period.from })
      .where(and(mine, or(isNull(reportSubscriptions.lastPeriod), ne(reportSubscriptions.lastPeriod, period.from))))
      .returning({ userId: reportSubscriptions.userId });
    if (!claimed.length) continue;
    try {
      const text = await summaryEmailText(db, s.workspaceId, s.workspaceName, s.timeZone, period, config.APP_URL);
      const title = s.frequency === "daily" ? "Daily" : "Weekly";
      // The workspace's name is what its owner typed: in the body, not the subject (issue 39).
      await sendEmail(db, config, { to: s.email, subject: `${title} fleet summary from Fleet Ops`, text });
      sent++;
    } catch (error) {
      console.error("report e-mail failed:", error);
      await db.update(reportSubscriptions).set({ lastPeriod: s.lastPeriod }).where(mine);
    }
  }
  return sent;
}
