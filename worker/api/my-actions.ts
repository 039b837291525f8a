import { Hono } from "hono";
import { requireSession, workspaceSession } from "../auth/session";
import type { AppEnv } from "../types";
import { myActions } from "../maintenance/my-actions";

/** `GET /api/my-actions` (DESIGN.md "Maintenance"): what is the caller's to do in their workspace. */
export const myActionRoutes = new Hono<AppEnv>().use(requireSession).get("/", async (c) => {
  const { workspaceId, userId } = workspaceSession(c.var.session);
  return c.json(await myActions(c.var.db, workspaceId, userId));
});
