import type { Hono } from "hono";
import type { AppEnv } from "../../types";
import { declarationOf, type RouteDeclaration } from "./declare";

/** `/api/workspaces/:id/members` → `/workspaces/:id/members`; a trailing slash is the same route. */
export const routeKey = (method: string, path: string) =>
  `${method} ${path.replace(/^\/api(?=\/)/, "").replace(/(.)\/$/, "$1")}`;

/**
 * Every handler route of `app` (`METHOD /path`, as registered under /api) with its declaration, or
 * undefined for one registered without: the role table and GET /api/openapi.json are read from
 * this, and worker/api/route-rules.worker.test.ts fails on an undefined one.
 */
export function declaredRoutes(app: Hono<AppEnv>): Map<string, RouteDeclaration | undefined> {
  const routes = new Map<string, RouteDeclaration | undefined>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    const key = routeKey(route.method, route.path);
    routes.set(key, routes.get(key) ?? declarationOf(route.handler));
  }
  return routes;
}
