import { z, type AnyZodObject, type ZodTypeAny } from "zod";
import { deleteAccountSchema } from "../../shared/account";
import { alertRuleBodySchema } from "../../shared/alert-rules";
import { apiTokenListSchema, createApiTokenSchema, createdApiTokenSchema } from "../../shared/api-tokens";
import {
  changePasswordSchema,
  createWorkspaceSchema,
  forgotPasswordSchema,
  oauthTokenSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  verifyEmailSchema,
  confirmEmailSchema,
  workspaceSessionSchema,
} from "../../shared/auth";
import { beaconOrderSchema } from "../../shared/beacon";
import { deviceSetupSchema } from "../../shared/device-setup";
import {
  beaconHealthQuerySchema,
  beaconHealthSchema,
  beaconParamsSchema,
  deviceIdRotationSchema,
} from "../../shared/beacon-health";
import { pushPublicKeySchema, pushSubscriptionSchema, pushUnsubscribeSchema } from "../../shared/push";
import { placeBodySchema, placePatchSchema, placeSchema } from "../../shared/places";
import { reportQuerySchema, reportSubscriptionSchema, workspacePreferencesSchema } from "../../shared/reports";
import { acceptInviteSchema, inviteSchema, roleChangeSchema } from "../../shared/roles";
import { meResponseSchema } from "../../shared/session";
import {
  createdShareSchema,
  createShareSchema,
  sharedVehicleSchema,
  shareListSchema,
  workspaceShareListSchema,
} from "../../shared/shares";
import { pullRequestSchema, pullResponseSchema, pushRequestSchema } from "../../shared/sync-protocol";
import { confirmPasswordSchema, enableTwoFactorSchema, secondFactorSchema } from "../../shared/two-factor";
import { historyQuerySchema, historyResponseSchema } from "../../shared/vehicle-history";
import { overlandAnswerSchema, overlandBodySchema } from "../fleet/overland";
import { owntracksAnswerSchema, owntracksBodySchema } from "../fleet/owntracks";
import { osmandJsonBodySchema } from "../fleet/osmand";
import { deliveriesQuery } from "./alert-delivery";
import { alertsQuery, readBody } from "./alerts";
import { maintenanceOperations } from "./openapi-maintenance";
import { fuelOperations } from "./openapi-fuel";
import { costOperations } from "./openapi-costs";

/**
 * The central registry behind GET /api/openapi.json (worker/api/openapi.ts): one entry per route,
 * keyed as worker/api/route-rules.ts keys them, holding the very zod schemas the route validates
 * its input with (imported from where the route imports them) and, where one exists, the schema of
 * its answer. worker/api/openapi.worker.test.ts fails when a route of the Hono app has no entry.
 */
export interface Operation {
  summary: string;
  tag: string;
  body?: ZodTypeAny;
  query?: AnyZodObject;
  params?: AnyZodObject;
  response?: ZodTypeAny;
  status?: 200 | 201 | 204;
  /** Also accepted as a form body (the OsmAnd protocol). */
  form?: boolean;
  /** The body is raw bytes of one of these media types (photos), not JSON. */
  binaryBody?: readonly string[];
  /** The answer is raw bytes of one of these media types. */
  binaryResponse?: readonly string[];
  /** Refusals worth naming beyond the usual 4xx, by status. */
  errors?: Record<number, string>;
}

const ok = z.object({ ok: z.literal(true) });
const token = z.object({ token: z.string() });

/**
 * The OsmAnd query-string variant reads these parameters by hand (worker/fleet/osmand.ts
 * parseOsmandParams); described here, validated there. Every value is a string on the wire.
 */
const osmandQuery = z.object({
  id: z.string().optional().describe("The device id (or `deviceid`)"),
  lat: z.string().optional(),
  lon: z.string().optional(),
  location: z.string().optional().describe("`lat,lon`, instead of lat and lon"),
  timestamp: z.string().optional().describe("Unix seconds or ms, or ISO 8601; now when missing"),
  speed: z.string().optional().describe("knots"),
  bearing: z.string().optional(),
  altitude: z.string().optional(),
  accuracy: z.string().optional(),
  batt: z.string().optional(),
  ignition: z.string().optional(),
  fuel: z.string().optional(),
  odometer: z.string().optional(),
});

export const operations: Record<string, Operation> = {
  "GET /openapi.json": { summary: "This OpenAPI 3.1 description", tag: "Meta" },
  "GET /health": { summary: "Liveness check", tag: "Meta", response: ok },
  "POST /email/confirm": {
    summary: "Confirm the account's e-mail address with the link's token",
    tag: "Auth",
    body: confirmEmailSchema,
    response: ok,
  },
  "POST /email/confirm/resend": { summary: "E-mail a new confirmation link", tag: "Auth", response: ok },
  "GET /push/public-key": {
    summary: "The VAPID key browsers subscribe with",
    tag: "Push",
    response: pushPublicKeySchema,
  },
  "POST /push-subscriptions": {
    summary: "Turn push on for this browser",
    tag: "Push",
    body: pushSubscriptionSchema,
    response: pushUnsubscribeSchema,
    status: 201,
  },
  "DELETE /push-subscriptions": {
    summary: "Turn push off for this browser",
    tag: "Push",
    body: pushUnsubscribeSchema,
    status: 204,
  },
  "POST /verify/email": {
    summary: "Whether an account exists for an e-mail",
    tag: "Auth",
    body: verifyEmailSchema,
    response: z.object({ exists: z.boolean() }),
  },
  "POST /signin": { summary: "Sign in with e-mail and password", tag: "Auth", body: signInSchema },
  "POST /signin/second-factor": {
    summary: "Second step of a sign-in with two-factor authentication",
    tag: "Auth",
    body: secondFactorSchema,
    response: token,
  },
  "POST /signup": { summary: "Create an account", tag: "Auth", body: signUpSchema, response: token, status: 201 },
  "POST /signout": { summary: "End this sign-in", tag: "Auth", response: ok },
  "POST /signout/everywhere": { summary: "End every sign-in of the account", tag: "Auth" },
  "GET /me": { summary: "The signed-in person, their workspaces and role", tag: "Auth", response: meResponseSchema },
  "POST /password/forgot": { summary: "Send a password reset link", tag: "Auth", body: forgotPasswordSchema },
  "POST /password/reset": {
    summary: "Set a new password with a reset link's token",
    tag: "Auth",
    body: resetPasswordSchema,
  },
  "POST /password/change": {
    summary: "Change the password",
    tag: "Account",
    body: changePasswordSchema,
    response: token,
  },
  "GET /oauth/:provider/url": { summary: "The provider's sign-in URL", tag: "Auth" },
  "POST /oauth/:provider/token": { summary: "Finish a sign-in with a provider", tag: "Auth", body: oauthTokenSchema },
  "GET /ingest/osmand": {
    summary: "A position, OsmAnd protocol (Traccar Client, GPSLogger…)",
    tag: "Ingestion",
    query: osmandQuery,
  },
  "POST /ingest/osmand": {
    summary: "Positions, OsmAnd protocol: query, form or JSON body",
    tag: "Ingestion",
    query: osmandQuery,
    body: osmandJsonBodySchema,
    form: true,
  },
  "POST /ingest/owntracks": {
    summary: "Positions from OwnTracks in HTTP mode (device id in X-Limit-D)",
    tag: "Ingestion",
    body: owntracksBodySchema,
    response: owntracksAnswerSchema,
  },
  "POST /ingest/overland": {
    summary: "Positions from Overland",
    tag: "Ingestion",
    body: overlandBodySchema,
    response: overlandAnswerSchema,
  },
  "POST /realtime/ticket": { summary: "A single-use ticket for the workspace's realtime socket", tag: "Sync" },
  "POST /sync/pull": { summary: "Replicache pull", tag: "Sync", body: pullRequestSchema, response: pullResponseSchema },
  "POST /sync/push": { summary: "Replicache push", tag: "Sync", body: pushRequestSchema },
  "POST /beacons/order": {
    summary: "Order beacons, each with a new vehicle",
    tag: "Fleet",
    body: beaconOrderSchema,
    status: 201,
  },
  "GET /beacons": { summary: "The workspace's beacons", tag: "Fleet" },
  "GET /beacons/:vehicleId/health": {
    summary: "A vehicle's beacon health",
    tag: "Fleet",
    params: beaconParamsSchema,
    query: beaconHealthQuerySchema,
    response: beaconHealthSchema,
  },
  "GET /beacons/:vehicleId/setup": {
    summary:
      "Set a phone up as this beacon's tracker: QR contents for Traccar Client and OwnTracks, Overland's URL and id",
    tag: "Fleet",
    params: beaconParamsSchema,
    response: deviceSetupSchema,
  },
  "POST /beacons/:vehicleId/device-id": {
    summary: "Regenerate a beacon's device id",
    tag: "Fleet",
    params: beaconParamsSchema,
    response: deviceIdRotationSchema,
  },
  "GET /vehicles/:vehicleId/history": {
    summary: "A vehicle's recent positions, or a range of them",
    tag: "Fleet",
    query: historyQuerySchema as unknown as AnyZodObject,
    response: historyResponseSchema,
  },
  "POST /vehicles/:vehicleId/shares": {
    summary: "Make a live-share link of a vehicle",
    tag: "Sharing",
    body: createShareSchema,
    response: createdShareSchema,
    status: 201,
  },
  "GET /vehicles/:vehicleId/shares": {
    summary: "A vehicle's open share links",
    tag: "Sharing",
    response: shareListSchema,
  },
  "DELETE /shares/:id": { summary: "End a share link at once", tag: "Sharing", response: ok },
  "GET /share/:token": {
    summary: "What a share link shows: the vehicle's name and latest position",
    tag: "Sharing",
    response: sharedVehicleSchema,
  },
  "GET /account/sessions": { summary: "The account's sign-ins", tag: "Account" },
  "GET /account/export": { summary: "Export the account's data", tag: "Account" },
  "GET /account/deletion": { summary: "What deleting the account would delete", tag: "Account" },
  "POST /account/delete": { summary: "Delete the account", tag: "Account", body: deleteAccountSchema },
  "GET /account/two-factor": { summary: "Two-factor authentication status", tag: "Account" },
  "POST /account/two-factor/setup": {
    summary: "Start setting up two-factor authentication",
    tag: "Account",
    body: confirmPasswordSchema,
  },
  "POST /account/two-factor/enable": {
    summary: "Turn two-factor authentication on",
    tag: "Account",
    body: enableTwoFactorSchema,
  },
  "POST /account/two-factor/disable": {
    summary: "Turn two-factor authentication off",
    tag: "Account",
    body: confirmPasswordSchema,
  },
  "POST /account/sessions/:id/signout": { summary: "End one sign-in of the account", tag: "Account" },
  "GET /workspaces": { summary: "The person's workspaces", tag: "Workspaces" },
  "POST /workspaces": { summary: "Create a workspace", tag: "Workspaces", body: createWorkspaceSchema, status: 201 },
  "POST /workspaces/session": {
    summary: "Switch the session to a workspace",
    tag: "Workspaces",
    body: workspaceSessionSchema,
    response: token,
  },
  "GET /workspaces/:id/members": { summary: "Members and pending invites", tag: "Members" },
  "POST /workspaces/:id/invites": { summary: "Invite someone", tag: "Members", body: inviteSchema, status: 201 },
  "DELETE /workspaces/:id/invites/:inviteId": { summary: "Revoke an invite", tag: "Members", response: ok },
  "POST /workspaces/:id/invites/:inviteId/resend": { summary: "Resend an invite", tag: "Members" },
  "PATCH /workspaces/:id/members/:userId": {
    summary: "Change a member's role",
    tag: "Members",
    body: roleChangeSchema,
    response: ok,
  },
  "DELETE /workspaces/:id/members/:userId": { summary: "Remove a member, or leave", tag: "Members", response: ok },
  "GET /workspaces/:id/api-tokens": {
    summary: "The workspace's API tokens",
    tag: "API tokens",
    response: apiTokenListSchema,
  },
  "POST /workspaces/:id/api-tokens": {
    summary: "Create an API token (its secret is answered once)",
    tag: "API tokens",
    body: createApiTokenSchema,
    response: createdApiTokenSchema,
    status: 201,
  },
  "DELETE /workspaces/:id/api-tokens/:tokenId": { summary: "Revoke an API token", tag: "API tokens", response: ok },
  "GET /workspaces/:id/shares": {
    summary: "Every live share link of the workspace, with who made it",
    tag: "Sharing",
    response: workspaceShareListSchema,
  },
  "GET /reports/subscription": {
    summary: "The person's report e-mail subscription",
    tag: "Reports",
    response: reportSubscriptionSchema,
  },
  "PUT /reports/subscription": {
    summary: "Subscribe to report e-mails",
    tag: "Reports",
    body: reportSubscriptionSchema,
    response: reportSubscriptionSchema,
  },
  "GET /reports/:report": {
    summary: "A report (summary, trips, stops, daily) as JSON or CSV",
    tag: "Reports",
    query: reportQuerySchema as unknown as AnyZodObject,
  },
  "GET /workspace/preferences": {
    summary: "The workspace's time zone",
    tag: "Workspaces",
    response: workspacePreferencesSchema,
  },
  "PATCH /workspace/preferences": {
    summary: "Set the workspace's time zone",
    tag: "Workspaces",
    body: workspacePreferencesSchema,
    response: workspacePreferencesSchema,
  },
  "GET /places": {
    summary: "The workspace's places",
    tag: "Places",
    response: z.object({ places: z.array(placeSchema) }),
  },
  "POST /places": {
    summary: "Create a place",
    tag: "Places",
    body: placeBodySchema,
    response: placeSchema,
    status: 201,
  },
  "PATCH /places/:id": { summary: "Change a place", tag: "Places", body: placePatchSchema, response: placeSchema },
  "DELETE /places/:id": { summary: "Delete a place", tag: "Places", status: 204 },
  "GET /alert-rules": { summary: "The workspace's alert rules", tag: "Alerts" },
  "POST /alert-rules": { summary: "Create an alert rule", tag: "Alerts", body: alertRuleBodySchema, status: 201 },
  "PATCH /alert-rules/:id": { summary: "Change an alert rule", tag: "Alerts", body: alertRuleBodySchema },
  "DELETE /alert-rules/:id": { summary: "Delete an alert rule", tag: "Alerts", status: 204 },
  "GET /alerts": { summary: "Recent alerts", tag: "Alerts", query: alertsQuery },
  "POST /alerts/read": { summary: "Mark alerts read", tag: "Alerts", body: readBody },
  "GET /webhook-secret": { summary: "The webhook signing secret", tag: "Alerts" },
  "POST /webhook-secret/rotate": { summary: "Rotate the webhook signing secret", tag: "Alerts" },
  "GET /alert-deliveries": {
    summary: "Alert deliveries (e-mail, webhook) and their state",
    tag: "Alerts",
    query: deliveriesQuery,
  },
  "GET /invites/:token": { summary: "What an invite link invites to", tag: "Members" },
  "POST /invites/accept": { summary: "Accept an invite", tag: "Members", body: acceptInviteSchema, response: token },
  ...maintenanceOperations,
  ...fuelOperations,
  ...costOperations,
};
