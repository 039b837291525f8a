import { Hono } from "hono";
import { z } from "zod";
import { unsubscribeStateSchema, type UnsubscribeState } from "../../shared/jobs/job-shares";
import { unsubscribe, unsubscribeState } from "../email/customer-mail";
import { notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

const params = z.object({ token: z.string().min(1).max(100) });

/**
 * One-click unsubscribe from a workspace's mail to customers (issue 51, docs/decisions/0072):
 * public, the token the credential (an HMAC of the workspace and the address, worker/email/customer-mail.ts).
 * POST records it: what a mail client sends for the List-Unsubscribe header (RFC 8058, body
 * `List-Unsubscribe=One-Click`) and the button of the page /unsubscribe/{token}. GET only reads,
 * so a link scanner that opens the page unsubscribes nobody. An unknown token is a 404.
 */
export const unsubscribeRoutes = new Hono<AppEnv>()
  .get(
    "/:token",
    declared({
      permission: "public",
      summary: "Which workspace an unsubscribe link stops mail from, and whether it has",
      tag: "Jobs",
      params,
      response: unsubscribeStateSchema,
    }),
    async (c) => {
      c.header("X-Robots-Tag", "noindex, nofollow");
      const state = await unsubscribeState(c.var.db, c.req.valid("param").token);
      if (!state) throw notFound("No such unsubscribe link");
      return c.json<UnsubscribeState>(state);
    },
  )
  .post(
    "/:token",
    declared({
      permission: "public",
      summary: "Stop a workspace's mail to this address (one click, RFC 8058)",
      tag: "Jobs",
      params,
      response: unsubscribeStateSchema,
    }),
    async (c) => {
      const done = await unsubscribe(c.var.db, c.req.valid("param").token);
      if (!done) throw notFound("No such unsubscribe link");
      return c.json<UnsubscribeState>({ workspace: done.workspace, unsubscribed: true });
    },
  );
