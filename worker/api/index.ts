import { Hono } from "hono";
import { z } from "zod";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { database } from "../../db/client";
import { config } from "../env";
import { developmentOnly } from "../lib/development-only";
import { ApiError, errorResponse, internalError } from "../lib/errors";
import { alertRoutes, alertRuleRoutes } from "./alerts";
import { alertDeliveryRoutes } from "./alert-delivery";
import { webhookSecretRoutes } from "./webhook-secret";
import { authRoutes } from "./auth";
import { beaconRoutes } from "./beacons";
import { devFleetRoutes } from "./dev-fleet";
import { devMeterRoutes } from "./dev-meter";
import { devReportRoutes } from "./dev-reports";
import { devAlertRoutes } from "./dev-alerts";
import { ingestRoutes } from "./ingest";
import { openApiRoutes } from "./openapi";
import { deviceAppRoutes } from "./ingest-apps";
import { oauthRoutes } from "./oauth";
import { inviteRoutes } from "./invites";
import { realtimeTicketRoutes } from "./realtime-ticket";
import { reportRoutes } from "./reports";
import { workspacePreferencesRoutes } from "./workspace-preferences";
import { workspaceSmsRoutes } from "./workspace-sms";
import { passwordRoutes } from "./password";
import { outboxRoutes } from "./dev-outbox";
import { enforceRouteRules } from "./route-rules";
import { declared } from "./route-declaration/declare";
import { placeRoutes } from "./places";
import { serviceEntryRoutes, serviceScheduleRoutes } from "./service";
import { inspectionFormRoutes, inspectionRoutes } from "./inspections";
import { myActionRoutes } from "./my-actions";
import { photoRoutes } from "./photos";
import { issueRoutes } from "./issues";
import { PHOTO_MAX_BYTES } from "../../shared/maintenance/photos";
import { OVERLAND_MAX_BODY_BYTES } from "../../domain/devices/overland";
import { syncRoutes } from "./sync";
import { vehicleRoutes } from "./vehicles";
import { vehicleSettingsRoutes } from "./vehicle-settings";
import { fuelEconomyRoutes, fuelEntryRoutes } from "./fuel";
import { vehicleEventRoutes } from "./vehicle-events";
import { expenseRoutes } from "./expenses";
import { renewalRoutes } from "./renewals";
import { workOrderRoutes } from "./work-orders";
import { partRoutes, vendorRoutes } from "./parts";
import { jobRoutes, routeRoutes } from "./jobs";
import { routePlanRoutes } from "./route-plans";
import { publicShareRoutes, shareRoutes, vehicleShareRoutes, workspaceShareRoutes } from "./shares";
import { jobShareRoutes, trackRoutes } from "../jobs/job-shares";
import { smsStatusRoutes } from "./sms-status";
import { emailEventRoutes } from "./email-events";
import { unsubscribeRoutes } from "./unsubscribe";
import { workspaceRoutes } from "./workspaces";
import { apiTokenRoutes } from "./api-tokens";
import { emailConfirmationRoutes } from "./email-confirmation";
import type { AppEnv } from "../types";
import { safeError } from "../lib/safe-error";
import { accountRoutes } from "./account";
import { twoFactorRoutes } from "./two-factor";
import { pushKeyRoutes, pushSubscriptionRoutes } from "./push";
import { settleLiveReads } from "./settle-live-reads";

/**
 * /api/*: JSON in and out. Every answer is `no-store`; every 4xx is `{ error: { code, message } }`;
 * anything unexpected is logged and answered 500 without internals.
 */
export const api = new Hono<AppEnv>();

api.use("*", async (c, next) => {
  c.set("config", config(c.env));
  c.set("db", database(c.env.DB));
  await next();
  c.header("Cache-Control", "no-store");
  c.header("X-Content-Type-Options", "nosniff");
});
// Every read of a table the workspace object flushes waits for its flush first (worker/api/settle-live-reads.ts).
api.use("*", settleLiveReads);

const tooLarge = (limit: string) => () => {
  throw new ApiError(413, "payload_too_large", `Request body is larger than ${limit}`);
};
const defaultBodyLimit = bodyLimit({ maxSize: 256 * 1024, onError: tooLarge("256 KB") });
// Replicache pushes every pending mutation in one request: a week offline can be megabytes
// (docs/decisions/0003-sync.md); the Worker applies a bounded prefix of it per request.
const pushBodyLimit = bodyLimit({ maxSize: 16 * 1024 * 1024, onError: tooLarge("16 MB") });
// A photo is its own body (docs/decisions/0030).
const photoBodyLimit = bodyLimit({ maxSize: PHOTO_MAX_BYTES, onError: tooLarge("10 MB") });
// Overland's largest batch, 1,000 points, is about 713 KB (docs/decisions/0043).
const overlandBodyLimit = bodyLimit({ maxSize: OVERLAND_MAX_BODY_BYTES, onError: tooLarge("2 MB") });
// A CSV of a day's jobs: 5,000 lines (shared/jobs/jobs.ts MAX_JOBS_PER_IMPORT) of about 100 bytes (docs/decisions/0052).
const jobImportBodyLimit = bodyLimit({ maxSize: 2 * 1024 * 1024, onError: tooLarge("2 MB") });
const limitFor = (path: string) =>
  /^\/api\/jobs\/import\/?$/.test(path)
    ? jobImportBodyLimit
    : path.endsWith("/sync/push")
      ? pushBodyLimit
      : /^\/api\/photos\/?$/.test(path)
        ? photoBodyLimit
        : /^\/api\/ingest\/overland\/?$/.test(path)
          ? overlandBodyLimit
          : defaultBodyLimit;
api.use("*", (c, next) => limitFor(c.req.path)(c, next));

// Who may call what (each route's declared permission, shared/account/roles.ts): checked before any handler.
api.use("*", enforceRouteRules);

/** The cheapest possible route: what the benchmark compares real endpoints against. */
api.get(
  "/health",
  declared({
    permission: "public",
    summary: "Liveness check",
    tag: "Meta",
    response: z.object({ ok: z.literal(true) }),
  }),
  (c) => c.json({ ok: true }),
);
api.route("/", openApiRoutes(api));

api.route("/", authRoutes);
api.route("/workspaces", workspaceRoutes);
api.route("/workspaces", apiTokenRoutes);
api.route("/workspaces", workspaceShareRoutes);
api.route("/sync", syncRoutes);
api.route("/beacons", beaconRoutes);
api.route("/ingest", ingestRoutes);
api.route("/ingest", deviceAppRoutes);
api.route("/vehicles", vehicleRoutes);
api.route("/vehicles", vehicleShareRoutes);
api.route("/vehicles", vehicleSettingsRoutes);
api.route("/vehicles", fuelEconomyRoutes);
api.route("/vehicles", vehicleEventRoutes);
api.route("/shares", shareRoutes);
api.route("/share", publicShareRoutes);
api.route("/jobs", jobShareRoutes);
api.route("/track", trackRoutes);
api.route("/unsubscribe", unsubscribeRoutes);
api.route("/sms", smsStatusRoutes);
api.route("/email", emailEventRoutes);
api.route("/password", passwordRoutes);
api.route("/email", emailConfirmationRoutes);
api.route("/account/two-factor", twoFactorRoutes);
api.route("/account", accountRoutes);
api.route("/oauth", oauthRoutes);
api.route("/realtime", realtimeTicketRoutes);
api.route("/invites", inviteRoutes);
api.route("/reports", reportRoutes);
api.route("/workspace", workspacePreferencesRoutes);
api.route("/workspace", workspaceSmsRoutes);
api.route("/places", placeRoutes);
api.route("/photos", photoRoutes);
api.route("/issues", issueRoutes);
api.route("/alert-rules", alertRuleRoutes);
api.route("/alerts", alertRoutes);
api.route("/webhook-secret", webhookSecretRoutes);
api.route("/alert-deliveries", alertDeliveryRoutes);
api.route("/service-schedules", serviceScheduleRoutes);
api.route("/service-entries", serviceEntryRoutes);
api.route("/inspection-forms", inspectionFormRoutes);
api.route("/inspections", inspectionRoutes);
api.route("/my-actions", myActionRoutes);
api.route("/fuel-entries", fuelEntryRoutes);
api.route("/expenses", expenseRoutes);
api.route("/renewals", renewalRoutes);
api.route("/work-orders", workOrderRoutes);
api.route("/parts", partRoutes);
api.route("/vendors", vendorRoutes);
api.route("/jobs", jobRoutes);
api.route("/routes", routeRoutes);
api.route("/routes/plan", routePlanRoutes);
api.route("/push", pushKeyRoutes);
api.route("/push-subscriptions", pushSubscriptionRoutes);
// Development-only routes: 404 before any of their validation unless local and not production.
api.use("/dev/*", developmentOnly);
api.route("/dev", outboxRoutes);
api.route("/dev", devFleetRoutes);
api.route("/dev", devMeterRoutes);
api.route("/dev", devReportRoutes);
api.route("/dev", devAlertRoutes);

api.onError((err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx, e.g. malformed JSON or a wrong Content-Type in a validator.
    return errorResponse(c, new ApiError(err.status as 400, "bad_request", err.message || "Bad request"));
  }
  // Never the raw error: a query's bound parameters (hashes, device ids, e-mails) would reach the log.
  console.error(`${c.req.method} ${c.req.path} failed:`, safeError(err));
  return errorResponse(c, internalError());
});
