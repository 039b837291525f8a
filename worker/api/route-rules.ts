import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { can, type Action } from "../../shared/roles";
import { checkApiTokenRoute } from "../auth/api-tokens";
import { authenticate, membershipRole } from "../auth/session";
import { audit } from "../lib/audit";
import { forbidden, notFound } from "../lib/errors";
import type { AppEnv } from "../types";

/**
 * Who may call each API route (docs/decisions/0018-role-model.md). `public` and `development`
 * need no session (development routes have their own gate), `signed-in` any live session; an
 * Action needs a workspace role that `can` do it: the workspace named in the path (`:id`) or
 * else the session's. Keys are `METHOD /path` as registered under /api. A route missing here is
 * refused (403) and fails worker/api/route-rules.worker.test.ts, which walks every route.
 * An action names what the route does, and both kinds of caller are checked against it: a person
 * by their role, an API token by its scope (shared/api-tokens.ts `scopeActions`) and its role.
 */
export type RouteRule = "public" | "development" | "signed-in" | Action;

export const routeRules: Record<string, RouteRule> = {
  "GET /health": "public",
  // Web Push (issue 41): the VAPID key is public; anyone in a workspace may be notified, viewers too.
  "GET /push/public-key": "public",
  "POST /push-subscriptions": "person.own",
  "DELETE /push-subscriptions": "person.own",
  "GET /openapi.json": "public",
  "POST /verify/email": "public",
  "POST /signin": "public",
  "POST /signin/second-factor": "public",
  "POST /signup": "public",
  "POST /signout": "signed-in",
  "POST /signout/everywhere": "signed-in",
  "GET /me": "signed-in",
  "POST /password/forgot": "public",
  "POST /password/reset": "public",
  "POST /password/change": "signed-in",
  // Confirming the address (issue 39): the link's token is the credential; a new link is the person's.
  "POST /email/confirm": "public",
  "POST /email/confirm/resend": "signed-in",
  "GET /oauth/:provider/url": "public",
  "POST /oauth/:provider/token": "public",
  // A device authenticates with its own unguessable id, not a session.
  "GET /ingest/osmand": "public",
  "POST /ingest/osmand": "public",
  "POST /ingest/owntracks": "public",
  "POST /ingest/overland": "public",
  // The room re-checks the session's membership and role when the socket arrives.
  "POST /realtime/ticket": "signed-in",
  // A browser's own sync (never an API token); each pushed mutation is checked on its own (worker/sync/push.ts).
  "POST /sync/pull": "person.own",
  "POST /sync/push": "person.own",
  "POST /beacons/order": "fleet.edit",
  "GET /beacons": "workspace.view",
  "GET /beacons/:vehicleId/health": "workspace.view",
  "POST /beacons/:vehicleId/device-id": "fleet.edit",
  // It carries the device id, ingestion's credential: only roles that may see it (issue 34).
  "GET /beacons/:vehicleId/setup": "fleet.edit",
  // Every device id at once, after someone who could read them left (issue 34): owners only.
  "POST /beacons/device-ids/replace": "devices.replace",
  "GET /vehicles/:vehicleId/history": "workspace.view",
  // A vehicle's settings (its tank too): members and up, as the Settings tab's updateVehicle.
  "PATCH /vehicles/:vehicleId": "fleet.edit",
  // Live-share links (docs/decisions/0029): members make and end them, everyone sees them; the
  // link itself is public (its unguessable token is the credential, rate-limited per address).
  "POST /vehicles/:vehicleId/shares": "fleet.edit",
  "GET /vehicles/:vehicleId/shares": "workspace.view",
  "DELETE /shares/:id": "fleet.edit",
  "GET /share/:token": "public",
  // Only the caller's own sign-ins (the handlers scope by user).
  "GET /account/sessions": "signed-in",
  "GET /account/export": "signed-in",
  "GET /account/deletion": "signed-in",
  "POST /account/delete": "signed-in",
  "GET /account/two-factor": "signed-in",
  "POST /account/two-factor/setup": "signed-in",
  "POST /account/two-factor/enable": "signed-in",
  "POST /account/two-factor/disable": "signed-in",
  "POST /account/sessions/:id/signout": "signed-in",
  "GET /workspaces": "signed-in",
  "POST /workspaces": "signed-in",
  "POST /workspaces/session": "signed-in",
  "GET /workspaces/:id/members": "workspace.view",
  "POST /workspaces/:id/invites": "members.manage",
  "DELETE /workspaces/:id/invites/:inviteId": "members.manage",
  "POST /workspaces/:id/invites/:inviteId/resend": "members.manage",
  "PATCH /workspaces/:id/members/:userId": "members.manage",
  // Integrators' API tokens: owners and admins, never a token itself (worker/auth/api-tokens.ts).
  "GET /workspaces/:id/api-tokens": "workspace.configure",
  "POST /workspaces/:id/api-tokens": "workspace.configure",
  "DELETE /workspaces/:id/api-tokens/:tokenId": "workspace.configure",
  // Every live share link of the workspace with who made it (issue 39): owners and admins.
  "GET /workspaces/:id/shares": "workspace.configure",
  // Leaving is everyone's with a session (no token scope holds it); removing someone else is
  // checked in the handler (shared canAssign).
  "DELETE /workspaces/:id/members/:userId": "workspace.leave",
  // Reports read the fleet; a subscription is the caller's own e-mail, so viewers may have one (tokens none).
  "GET /reports/subscription": "person.own",
  "PUT /reports/subscription": "person.own",
  "GET /reports/:report": "workspace.view",
  "GET /workspace/preferences": "workspace.view",
  "PATCH /workspace/preferences": "workspace.configure",
  // Places and alert rules: members change them, everyone reads them (docs/decisions/0019);
  // marking alerts read touches only the caller's own read state.
  "GET /places": "workspace.view",
  "POST /places": "fleet.edit",
  "PATCH /places/:id": "fleet.edit",
  "DELETE /places/:id": "fleet.edit",
  "GET /alert-rules": "workspace.view",
  "POST /alert-rules": "fleet.edit",
  "PATCH /alert-rules/:id": "fleet.edit",
  "DELETE /alert-rules/:id": "fleet.edit",
  "GET /alerts": "workspace.view",
  "POST /alerts/read": "person.own",
  // The webhook signing secret and the delivery records: owners and admins only (docs/decisions/0024).
  "GET /webhook-secret": "workspace.configure",
  "POST /webhook-secret/rotate": "workspace.configure",
  "GET /alert-deliveries": "workspace.configure",
  // Service (issue 32, DESIGN.md "Maintenance"): everyone reads; members log service; owners and admins manage schedules.
  "GET /service-schedules": "workspace.view",
  "POST /service-schedules": "maintenance.manage",
  "PATCH /service-schedules/:id": "maintenance.manage",
  "DELETE /service-schedules/:id": "maintenance.manage",
  "GET /service-entries": "workspace.view",
  "POST /service-entries": "fleet.edit",
  // An entry logged by mistake: owners and admins remove it (ADR 0040); members log, not erase.
  "DELETE /service-entries/:id": "maintenance.manage",
  // Fuel (issue 42): everyone reads, members log fill-ups, owners and admins correct or remove them.
  "GET /fuel-entries": "workspace.view",
  "POST /fuel-entries": "fleet.edit",
  "PATCH /fuel-entries/:id": "maintenance.manage",
  "DELETE /fuel-entries/:id": "maintenance.manage",
  // Expenses (issue 42, ADR 0049): everyone reads, members add, owners and admins correct or remove.
  "GET /expenses": "workspace.view",
  "POST /expenses": "fleet.edit",
  "PATCH /expenses/:id": "maintenance.manage",
  "DELETE /expenses/:id": "maintenance.manage",
  // Renewals (issue 42, ADR 0049): owners and admins set them up and remove them, members renew.
  "GET /renewals": "workspace.view",
  "POST /renewals": "maintenance.manage",
  "POST /renewals/:id/renew": "fleet.edit",
  "DELETE /renewals/:id": "maintenance.manage",
  "GET /vehicles/:vehicleId/fuel-economy": "workspace.view",
  "GET /inspection-forms": "workspace.view",
  "POST /inspection-forms": "maintenance.manage",
  "PATCH /inspection-forms/:id": "maintenance.manage",
  "GET /inspections": "workspace.view",
  "POST /inspections": "fleet.edit",
  // The caller's own to-do list (viewers have one too: alerts to read).
  "GET /my-actions": "workspace.view",
  // Photos and issues (docs/decisions/0030): members report and upload, everyone reads.
  "POST /photos": "fleet.edit",
  "GET /photos/usage": "workspace.view",
  "GET /photos/:id": "workspace.view",
  "GET /issues": "workspace.view",
  "GET /issues/:id": "workspace.view",
  "POST /issues": "fleet.edit",
  "PATCH /issues/:id": "fleet.edit",
  "POST /issues/:id/comments": "fleet.edit",
  "GET /invites/:token": "public",
  "POST /invites/accept": "signed-in",
  "GET /dev/outbox": "development",
  "POST /dev/reports/rollups": "development",
  "POST /dev/alerts/relay": "development",
  "POST /dev/vehicles/profile": "development",
  "POST /dev/d1-meter": "development",
  "GET /dev/d1-meter": "development",
};

/** `/api/workspaces/:id/members` → `/workspaces/:id/members`; a trailing slash is the same route. */
export const ruleKey = (method: string, path: string) =>
  `${method} ${path.replace(/^\/api(?=\/)/, "").replace(/(.)\/$/, "$1")}`;

/** The handler route this request matched (the last non-middleware one), or null for an unknown path. */
function matchedRoute(c: Context<AppEnv>) {
  const routes = matchedRoutes(c).filter((r) => r.method !== "ALL");
  return routes.at(-1) ?? null;
}

/**
 * The value of `:name` in `pattern`, read from the request's path segment by segment. A segment
 * that is not valid percent-encoding names no workspace: 404, never the session's workspace
 * instead, and never a 500 (found by worker/api/fuzz.worker.test.ts).
 */
function pathParam(pattern: string, path: string, name: string): string | null {
  const at = pattern.split("/").indexOf(`:${name}`);
  if (at < 0) return null;
  try {
    return decodeURIComponent(path.split("/")[at] ?? "") || null;
  } catch {
    throw notFound("No such workspace");
  }
}

/**
 * Enforces `routeRules` before any handler runs. For a workspace action it reads the session and
 * sets it (requireSession then reuses it: one query), plus the caller's role in the workspace the
 * route acts on as `c.var.access`. Another workspace's id is 404, as if it did not exist.
 */
export const enforceRouteRules = createMiddleware<AppEnv>(async (c, next) => {
  const route = matchedRoute(c);
  if (!route) return next();
  const rule = routeRules[ruleKey(route.method, route.path)];
  if (!rule) throw forbidden("No access rule for this route");
  if (rule === "public" || rule === "development") return next();
  const session = await authenticate(c);
  if (session.apiToken) checkApiTokenRoute(session, rule, ruleKey(route.method, route.path), c.req.method);
  if (rule === "signed-in") return next();

  // Only /workspaces/:id/... names a workspace in its path; other routes' ids (a place's, an
  // alert rule's) are of things inside the session's workspace, which their handlers scope.
  const fromPath = route.path.includes("/workspaces/:id") ? pathParam(route.path, c.req.path, "id") : null;
  const workspaceId = fromPath ?? session.workspaceId;
  if (!workspaceId) throw forbidden("Choose a workspace first");
  // An API token acts in its own workspace only, whatever its creator belongs to.
  const role =
    workspaceId === session.workspaceId
      ? session.role
      : session.apiToken
        ? null
        : await membershipRole(c.var.db, workspaceId, session.userId);
  if (!role) {
    audit("tenant.access_refused", { userId: session.userId, workspaceId, via: ruleKey(route.method, route.path) });
    throw notFound("No such workspace");
  }
  if (!can(role, rule)) throw forbidden(`Your role (${role}) does not allow this`);
  c.set("access", { workspaceId, role });
  return next();
});
