import { LIMITS, rateLimit } from "../auth/rate-limit";
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { workspaceNameSchema, workspaceSessionSchema } from "../../shared/auth";
import { endSession } from "../auth/end-sessions";
import { createSession, requireSession, signInOf } from "../auth/session";
import { memberships, workspaces } from "../db/schema";
import { audit, auditRefusal } from "../lib/audit";
import { forbidden } from "../lib/errors";
import { body } from "../lib/validate";
import type { AppEnv } from "../types";

/** Creating a workspace and switching the session to one (SPEC.md section 7). */
export const workspaceRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post("/", body(workspaceNameSchema), async (c) => {
    const { name } = c.req.valid("json");
    await rateLimit(c, LIMITS.workspaceCreations, [`user:${c.var.session.userId}`]).catch(auditRefusal("sync.bound_exceeded", { userId: c.var.session.userId, bound: "workspaces_per_day" }));
    const id = crypto.randomUUID();
    await c.var.db.batch([
      c.var.db.insert(workspaces).values({ id, name }),
      c.var.db.insert(memberships).values({ workspaceId: id, userId: c.var.session.userId, role: "owner" }),
    ]);
    return c.json({ id, name }, 201);
  })
  .post("/session", body(workspaceSessionSchema), async (c) => {
    const { workspaceId } = c.req.valid("json");
    const member = await c.var.db
      .select({ id: memberships.workspaceId })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, c.var.session.userId)))
      .get();
    if (!member) {
      audit("tenant.access_refused", { userId: c.var.session.userId, workspaceId, via: "workspace_switch" });
      throw forbidden("You are not a member of this workspace");
    }
    // A token names one workspace: switching issues a new token of the same sign-in (same id, same
    // absolute end) and revokes the one it replaces, so only one of them is ever live.
    const { db, session } = c.var;
    const token = await createSession(db, session.userId, workspaceId, await signInOf(db, session.tokenHash));
    await endSession(c, session.tokenHash, "workspace_switch");
    return c.json({ token });
  });
