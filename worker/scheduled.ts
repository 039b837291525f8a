import type { Env } from "./env";
import { database } from "../db/client";
import { config } from "./env";
import { wakeSilentWorkspaces } from "./beacon-watch/wake-watches";
import { retentionDue, runRetention } from "./retention";
import { sendDueReportEmails } from "./reports/scheduled-email";
import { sendIssueNotifications } from "./maintenance/issue-notifications";
import { sendJobNotifications } from "./jobs/job-notifications";
import { queueArrivingMessages, sendJobMessages } from "./jobs/customer-messages";
import { collectTombstones } from "./sync/tombstones";
import { expireOldAlerts } from "./fleet/alert-retention";
import { relayAlerts } from "./alerts/relay";
import { isDueCheckMinute } from "./maintenance/due-notifications";
import { wakeWorkspacesWithDue } from "./maintenance/due-notice-wake";
import { announceDueRenewals } from "./costs/renewal-notifications";
import { sealClearTotpSecrets } from "./auth/totp-secret";
import { releaseHeldMail } from "./email/release";
import { collectUnattachedPhotos, purgeDeletedWorkspacePhotos } from "./photos/photo-collector";

/**
 * The cron trigger, every minute: workspace objects with silent beacons and no alarm are woken (the
 * object decides and writes silence itself, docs/decisions/0059), and every quarter hour those with
 * service due (the object writes the notices, docs/decisions/0066); sync tombstones older than the
 * horizon are collected (worker/sync/tombstones.ts); alerts and e-mails go out; once an hour the
 * tables that only grow are trimmed.
 */
export async function runScheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
  startHousekeeping(controller, env, ctx);
  // Read-only: the objects write what the silence changes, and announce it themselves.
  await wakeSilentWorkspaces(database(env.DB), env).catch((error: unknown) =>
    console.error("scheduled: waking workspaces with silent beacons failed:", error),
  );
  // Alerts past their 90 days: one transaction through the one writer, which pokes their workspaces (docs/decisions/0069).
  await expireOldAlerts({ env, db: database(env.DB), waitUntil: (w) => ctx.waitUntil(w) }).catch((error: unknown) =>
    console.error("scheduled: expiring old alerts failed:", error),
  );
  // Service schedules that became due soon or overdue: their objects write one Inbox entry and e-mail per period (docs/decisions/0032, 0066).
  if (isDueCheckMinute(controller.scheduledTime))
    await wakeWorkspacesWithDue(database(env.DB), env).catch((error: unknown) =>
      console.error("scheduled: waking workspaces with service due failed:", error),
    );
  // Renewals due soon or overdue: one e-mail per due date to owners and admins (docs/decisions/0049).
  if (isDueCheckMinute(controller.scheduledTime))
    await announceDueRenewals(database(env.DB), config(env)).catch((error: unknown) =>
      console.error("scheduled: renewal reminders failed:", error),
    );
  // After the alerts above are stored: new alerts' e-mails and webhooks go to the queue.
  await relayAlerts(database(env.DB), env.ALERT_DELIVERIES, config(env)).catch((error: unknown) =>
    console.error("scheduled: relaying alerts failed:", error),
  );
}

/** What runs beside the minute's alerts, each on its own (one failing stops none of the others). */
function startHousekeeping(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
  ctx.waitUntil(
    // Each workspace's collection is announced by the writer: a room's shared read from before it
    // would still diff a cookie below the new floor.
    collectTombstones({ env, db: database(env.DB) }).catch((error) =>
      console.error("scheduled: collecting tombstones failed:", error),
    ),
  );
  // Once an hour: the tables that only grow lose their oldest finished rows (worker/retention.ts).
  if (retentionDue(controller.scheduledTime))
    ctx.waitUntil(
      runRetention(database(env.DB)).catch((error) => console.error("scheduled: retention failed:", error)),
    );
  // Issue assignment e-mails whose send right after the assignment failed (docs/decisions/0030).
  ctx.waitUntil(
    sendIssueNotifications(database(env.DB), config(env)).catch((error) =>
      console.error("scheduled: issue e-mails failed:", error),
    ),
  );
  // Job pushes to drivers whose send right after the assignment did not happen (docs/decisions/0052).
  ctx.waitUntil(
    sendJobNotifications(database(env.DB), config(env)).catch((error) =>
      console.error("scheduled: job pushes failed:", error),
    ),
  );
  // Customers told of their visit (docs/decisions/0085): "arriving" for ETAs now within the
  // workspace's minutes, then every queued message (the object's flush queues most of them).
  ctx.waitUntil(
    queueArrivingMessages(database(env.DB))
      .then(() => sendJobMessages(database(env.DB), config(env)))
      .catch((error) => console.error("scheduled: customer messages failed:", error)),
  );
  // Mail held for a confirmation or past a daily share goes out once it may (worker/email/release.ts).
  ctx.waitUntil(
    releaseHeldMail(database(env.DB), config(env)).catch((error) =>
      console.error("scheduled: held mail failed:", error),
    ),
  );
  // TOTP secrets stored in clear before issue 34 are sealed, a hundred a minute.
  ctx.waitUntil(
    sealClearTotpSecrets(database(env.DB), config(env).WEBHOOK_SECRET_KEY).catch((error) =>
      console.error("scheduled: sealing TOTP secrets failed:", error),
    ),
  );
  // Photos named by nothing a day after upload, and deleted workspaces' photos, leave the bucket (issue 39).
  ctx.waitUntil(
    collectUnattachedPhotos(database(env.DB), env.PHOTOS)
      .then(() => purgeDeletedWorkspacePhotos(database(env.DB), env.PHOTOS))
      .catch((error) => console.error("scheduled: collecting photos failed:", error)),
  );
  // Report e-mails due in each workspace's morning (worker/reports/scheduled-email.ts).
  ctx.waitUntil(
    sendDueReportEmails(database(env.DB), config(env)).catch((error) =>
      console.error("scheduled: report e-mails failed:", error),
    ),
  );
}
