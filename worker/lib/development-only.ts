import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../types";
import { notFound } from "./errors";

/** Routes for development and tests only (the e-mail outbox, demo seeding): 404 in production, as if absent. */
export const developmentOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.config.ENVIRONMENT === "production") throw notFound();
  await next();
});
