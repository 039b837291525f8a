import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { can } from "../../shared/account/roles";
import { checkApiTokenRoute } from "../auth/api-tokens";
import { authenticate, membershipRole } from "../auth/session";
import { audit } from "../lib/audit";
import { forbidden, notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { declarationOf, type Permission } from "./route-declaration/declare";
import { routeKey } from "./route-declaration/declared-routes";

/**
 * Who may call each API route is part of the route's declaration (worker/api/route-declaration/,
 * docs/decisions/0056-route-declarations.md); this middleware enforces it before any validation
 * or handler. A route registered without a declaration is refused (403) and fails
 * worker/api/route-rules.worker.test.ts, which walks every route.
 */

/** The handler route this request matched (the last non-middleware one), or null for an unknown path. */
function matchedRoute(c: Context<AppEnv>) {
  const routes = matchedRoutes(c).filter((r) => r.method !== "ALL");
  return routes.at(-1) ?? null;
}

/** The permission declared for the handler route `route` (on one of its chain's handlers), if any. */
function permissionOf(c: Context<AppEnv>, route: { method: string; path: string }): Permission | undefined {
  const chain = matchedRoutes(c).filter((r) => r.method === route.method && r.path === route.path);
  return chain.map((r) => declarationOf(r.handler)).find(Boolean)?.permission;
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
 * Enforces the route's declared permission before any handler runs. For a workspace action it reads the session and
 * sets it (requireSession then reuses it: one query), plus the caller's role in the workspace the
 * route acts on as `c.var.access`. Another workspace's id is 404, as if it did not exist.
 */
export const enforceRouteRules = createMiddleware<AppEnv>(async (c, next) => {
  const route = matchedRoute(c);
  if (!route) return next();
  const rule = permissionOf(c, route);
  if (!rule) throw forbidden("No access rule for this route");
  if (rule === "public" || rule === "development") return next();
  const session = await authenticate(c);
  if (session.apiToken) checkApiTokenRoute(session, rule, routeKey(route.method, route.path), c.req.method);
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
    audit("tenant.access_refused", { userId: session.userId, workspaceId, via: routeKey(route.method, route.path) });
    throw notFound("No such workspace");
  }
  if (!can(role, rule)) throw forbidden(`Your role (${role}) does not allow this`);
  c.set("access", { workspaceId, role });
  return next();
});
