import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { api } from "./api";
import { mapHostsFor, withContentSecurityPolicy } from "./csp";
import { randomToken } from "./lib/crypto";
import { errorAnswer, notFound } from "./lib/errors";
import type { Env } from "./env";
import { database } from "../db/client";
import { config } from "./env";
import { routeRealtime } from "./room-entry";
import { consumeDeliveries } from "./alerts/delivery-consumer";
import { runScheduled } from "./scheduled";

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

  // A tab opened on a build with lazy route discovery asks here for each new page's routes; this
  // build sends every route with the first page (docs/decisions/0039). Remix's own answer to a
  // stale manifest makes that tab load its next page afresh, on this build, instead of failing.
  app.get("/__manifest", () => new Response(null, { status: 204, headers: { "X-Remix-Reload-Document": "true" } }));

  // Traccar Client posts its fixes to the address its user typed: given only the server's, that
  // is `/` (docs/decisions/0043). A tracker's request there is the OsmAnd ingestion's; the app's
  // own pages never post JSON or a device id to `/`.
  app.on(["GET", "POST"], "/", async (c, next) => {
    if (!isTrackerRequest(c.req.raw)) return next();
    const url = new URL(c.req.url);
    url.pathname = "/api/ingest/osmand";
    return app.fetch(new Request(url, c.req.raw), c.env, c.executionCtx);
  });

  app.all("*", pageSecurity, async (c) => {
    // Hono types its context with an older ExecutionContext shape than workers-types.
    const nonce = randomToken(18);
    const res = await withContentSecurityPolicy(
      await pages(c.req.raw, c.env, c.executionCtx as unknown as ExecutionContext, nonce),
      nonce,
      mapHostsFor(config(c.env).MAPBOX_TOKEN),
    );
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
    /** The cron trigger, every minute (worker/scheduled.ts). */
    scheduled: runScheduled,
    /** The alert delivery queue's consumer (worker/alerts/delivery-consumer.ts, docs/decisions/0024). */
    async queue(batch: MessageBatch, env: Env) {
      await consumeDeliveries(database(env.DB), config(env), batch);
    },
  };
}

/** A fix as a tracker sends it to the server's root: Traccar Client's JSON, or OsmAnd's `id` and position in the query. */
function isTrackerRequest(request: Request): boolean {
  const query = new URL(request.url).searchParams;
  const positionInQuery = (query.has("id") || query.has("deviceid")) && (query.has("lat") || query.has("location"));
  if (positionInQuery) return true;
  return request.method === "POST" && (request.headers.get("Content-Type") ?? "").includes("application/json");
}
