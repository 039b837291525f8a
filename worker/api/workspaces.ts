import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { workspaceNameSchema, workspaceSessionSchema } from "../../shared/auth";
import { createSession, requireSession } from "../auth/session";
import { memberships, workspaces } from "../db/schema";
import { forbidden } from "../lib/errors";
import { body } from "../lib/validate";
import type { AppEnv } from "../types";

/** Creating a workspace and switching the session to one (SPEC.md section 7). */
export const workspaceRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post("/", body(workspaceNameSchema), async (c) => {
    const { name } = c.req.valid("json");
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
    if (!member) throw forbidden("You are not a member of this workspace");
    // A token names one workspace: switching issues a new session for it.
    return c.json({ token: await createSession(c.var.db, c.var.session.userId, workspaceId) });
  });
