import { desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { emailOutbox } from "../../db/schema";
import { developmentOnly } from "../lib/development-only";
import { notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/** Development and tests only: the latest e-mail sent to an address (404 in production). */
export const outboxRoutes = new Hono<AppEnv>().get(
  "/outbox",
  developmentOnly,
  declared({
    permission: "development",
    summary: "The e-mails sent to an address (development only)",
    tag: "Development",
    query: z.object({ to: z.string().min(1) }),
  }),
  async (c) => {
    const { to } = c.req.valid("query");
    const mail = await c.var.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, to.toLowerCase()))
      .orderBy(desc(emailOutbox.id))
      .get();
    if (!mail) throw notFound("No e-mail to this address");
    return c.json(mail);
  },
);
