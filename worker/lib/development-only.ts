import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../types";
import { notFound } from "./errors";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/**
 * Routes for development and tests only (the e-mail outbox with live reset links, demo seeding):
 * they exist only when ENVIRONMENT is development or test AND the request comes from this machine
 * (a loopback host, and no client address from Cloudflare's edge other than loopback). Anything
 * else, a staging deploy included, gets the same 404 as an unknown route, before any validation,
 * so nobody can tell the route exists. Mounted in front of /api/dev/* (worker/api/index.ts).
 */
export const developmentOnly = createMiddleware<AppEnv>(async (c, next) => {
  const environment = c.var.config.ENVIRONMENT;
  const edgeClient = c.req.header("CF-Connecting-IP");
  const fromLoopback =
    LOOPBACK.has(new URL(c.req.url).hostname) && (edgeClient === undefined || LOOPBACK.has(edgeClient));
  if ((environment !== "development" && environment !== "test") || !fromLoopback) {
    throw notFound(`No API route ${c.req.method} ${c.req.path}`);
  }
  await next();
});
