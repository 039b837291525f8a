import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { endSessions } from "../auth/end-sessions";
import { requireSession } from "../auth/session";
import { sessions } from "../db/schema";
import { audit } from "../lib/audit";
import { notFound } from "../lib/errors";
import { zod } from "../lib/validate";
import type { AppEnv } from "../types";
import type { ActiveSession, ActiveSessionsAnswer } from "../../shared/account";

/**
 * The account's active sign-ins and sign-out of any one of them (ASVS V3.3.4): the id is the
 * sign-in id, scoped to the caller, so another account's sign-in is a 404 like an unknown one.
 */
export const accountRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get("/sessions", async (c) => {
    const { db, session } = c.var;
    const now = Date.now();
    const signinId = sql<string>`coalesce(${sessions.signinId}, ${sessions.tokenHash})`;
    const rows = await db
      .select({
        id: signinId,
        device: sql<string | null>`max(${sessions.userAgent})`,
        network: sql<string | null>`max(${sessions.network})`,
        signedInAt: sql<number>`min(${sessions.createdAt})`,
        lastUsedAt: sql<number>`max(coalesce(${sessions.lastUsedAt}, ${sessions.createdAt}))`,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, session.userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .groupBy(signinId)
      .orderBy(desc(sql`max(coalesce(${sessions.lastUsedAt}, ${sessions.createdAt}))`))
      .limit(100)
      .all();
    const list: ActiveSession[] = rows.map((r) => ({ ...r, current: r.id === session.signinId }));
    return c.json<ActiveSessionsAnswer>({ sessions: list });
  })
  .post("/sessions/:id/signout", zod("param", z.object({ id: z.string().min(1).max(100) })), async (c) => {
    const { id } = c.req.valid("param");
    const { db, session } = c.var;
    const mine = await db
      .select({ id: sessions.tokenHash })
      .from(sessions)
      .where(and(eq(sessions.userId, session.userId), sql`coalesce(${sessions.signinId}, ${sessions.tokenHash}) = ${id}`))
      .get();
    if (!mine) {
      audit("tenant.access_refused", { userId: session.userId, via: "session_signout" });
      throw notFound("No such session");
    }
    // Its open sockets are closed by their rooms (endSessions tells them).
    const ended = await endSessions(c, { signinId: id }, "session_signed_out");
    return c.json({ ok: true, ended });
  });
