import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { api } from "./api";
import { withContentSecurityPolicy } from "./csp";
import { randomToken } from "./lib/crypto";
import { errorAnswer, notFound } from "./lib/errors";
import type { Env } from "./env";
import { database } from "../db/client";
import { config } from "./env";
import { markSilentBeaconsInactive } from "./fleet/silent-beacons";
import { routeRealtime } from "./room-entry";
import { retentionDue, runRetention } from "./retention";
import { sendDueReportEmails } from "./reports/scheduled-email";
import { sendIssueNotifications } from "./maintenance/issue-notifications";
import { announceWrites, forgetRoomChanges } from "./workspace-object";
import { collectTombstones } from "./sync/tombstones";
import { expireOldAlerts } from "./fleet/alert-retention";
import { raiseBeaconAlerts } from "./alerts/beacon-alerts";
import { consumeDeliveries } from "./alerts/delivery-consumer";
import { relayAlerts } from "./alerts/relay";
import { announceDueSchedules, isDueCheckMinute } from "./maintenance/due-notifications";
import { sealClearTotpSecrets } from "./auth/totp-secret";

/** Renders a page; the app's own inline scripts carry `scriptNonce` (worker/csp.ts). */
type PageHandler = (request: Request, env: Env, ctx: ExecutionContext, scriptNonce: string) => Promise<Response>;

/** Security headers for the pages; the Content-Security-Policy is set per page (worker/csp.ts). */
const pageSecurity = secureHeaders({
  contentSecurityPolicy: undefined,
  referrerPolicy: "strict-origin-when-cross-origin",
  crossOriginEmbedderPolicy: false,
  permissionsPolicy: { camera: [], microphone: [], geolocation: ["self"] },
});

/**
 * The Worker: /api/* (Hono), /parties/* (realtime rooms), everything else to the page handler
 * (Remix in production, a 404 in Worker tests that do not build the UI).
 */
export function createApp(pages: PageHandler) {
  const app = new Hono<{ Bindings: Env }>();

  app.route("/api", api);
  // A sub-app's notFound does not apply once mounted: unknown /api paths get JSON here.
  app.all("/api/*", (c) => errorAnswer(notFound(`No API route ${c.req.method} ${c.req.path}`)));

  app.all("/parties/*", async (c) => {
    const res = await routeRealtime(c.req.raw, c.env);
    return res ?? errorAnswer(notFound("No such room"));
  });

  app.all("*", pageSecurity, async (c) => {
    // Hono types its context with an older ExecutionContext shape than workers-types.
    const nonce = randomToken(18);
    const res = await withContentSecurityPolicy(await pages(c.req.raw, c.env, c.executionCtx as unknown as ExecutionContext, nonce), nonce);
    // Pages carry no user data (it lives in the local store), so the edge may cache them briefly
    // and serve stale while it revalidates; routes that need otherwise set their own header.
    if (res.ok && !res.headers.has("Cache-Control") && (c.req.method === "GET" || c.req.method === "HEAD")) {
      const headers = new Headers(res.headers);
      headers.set("Cache-Control", "public, max-age=0, s-maxage=300, stale-while-revalidate=86400");
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
    return res;
  });

  return {
    fetch: app.fetch,
    /**
     * The cron trigger: beacons that fell silent stop being ACTIVE, and their clients hear of it;
     * sync tombstones older than the horizon are collected (worker/sync/tombstones.ts).
     */
    async scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
      ctx.waitUntil(
        collectTombstones(database(env.DB))
          // A room's shared read from before the collection would still diff a cookie below the new floor.
          .then((collected) => Promise.all(collected.map((workspaceId) => forgetRoomChanges(env, workspaceId))))
          .catch((error) => console.error("scheduled: collecting tombstones failed:", error)),
      );
      // Once an hour: the tables that only grow lose their oldest finished rows (worker/retention.ts).
      if (retentionDue(controller.scheduledTime)) ctx.waitUntil(runRetention(database(env.DB)).catch((error) => console.error("scheduled: retention failed:", error)));
      // Issue assignment e-mails whose send right after the assignment failed (docs/decisions/0030).
      ctx.waitUntil(sendIssueNotifications(database(env.DB), config(env)).catch((error) => console.error("scheduled: issue e-mails failed:", error)));
      // TOTP secrets stored in clear before issue 34 are sealed, a hundred a minute.
      ctx.waitUntil(sealClearTotpSecrets(database(env.DB), config(env).WEBHOOK_SECRET_KEY).catch((error) => console.error("scheduled: sealing TOTP secrets failed:", error)));
      // Report e-mails due in each workspace's morning (worker/reports/scheduled-email.ts).
      ctx.waitUntil(sendDueReportEmails(database(env.DB), config(env)).catch((error) => console.error("scheduled: report e-mails failed:", error)));
      const changed = await markSilentBeaconsInactive(database(env.DB));
      const expired = await expireOldAlerts(database(env.DB)).catch((error: unknown) => {
        console.error("scheduled: expiring old alerts failed:", error);
        return [];
      });
      const raised = await raiseBeaconAlerts(database(env.DB)).catch((error: unknown) => {
        console.error("scheduled: raising beacon alerts failed:", error);
        return [];
      });
      // Service schedules that became due soon or overdue: one Inbox entry and e-mail per period (docs/decisions/0032).
      const due = isDueCheckMinute(controller.scheduledTime)
        ? await announceDueSchedules(database(env.DB), config(env)).catch((error: unknown) => {
            console.error("scheduled: service due notifications failed:", error);
            return [];
          })
        : [];
      await announceWrites({ env, waitUntil: (w) => ctx.waitUntil(w) }, [...changed, ...expired, ...raised, ...due]);
      // After the alerts above are stored: new alerts' e-mails and webhooks go to the queue.
      await relayAlerts(database(env.DB), env.ALERT_DELIVERIES, config(env)).catch((error: unknown) => console.error("scheduled: relaying alerts failed:", error));
    },
    /** The alert delivery queue's consumer (worker/alerts/delivery-consumer.ts, docs/decisions/0024). */
    async queue(batch: MessageBatch, env: Env) {
      await consumeDeliveries(database(env.DB), config(env), batch);
    },
  };
}
