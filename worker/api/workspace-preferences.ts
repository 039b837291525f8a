import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { workspacePreferencesSchema } from "../../shared/reports";
import { requireSession, workspaceSession } from "../auth/session";
import { workspaces } from "../../db/schema";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";
import { announceWrites } from "../workspace-object";
import { workspaceTimeZone } from "./reports";

/** GET/PATCH /api/workspace/preferences: the workspace's time zone. */
export const workspacePreferencesRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/preferences",
    declared({
      permission: "workspace.view",
      summary: "The workspace's time zone",
      tag: "Workspaces",
      response: workspacePreferencesSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json({ timeZone: await workspaceTimeZone(c.var.db, workspaceId) });
    },
  )
  .patch(
    "/preferences",
    declared({
      permission: "workspace.configure",
      summary: "Set the workspace's time zone",
      tag: "Workspaces",
      body: workspacePreferencesSchema,
      response: workspacePreferencesSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { timeZone } = c.req.valid("json");
      await c.var.db.update(workspaces).set({ timeZone }).where(eq(workspaces.id, workspaceId));
      // The workspace's object folds its vehicles' rollups in this zone from the next report on.
      await announceWrites({ env: c.env }, [workspaceId], { change: { timeZone, poke: false } });
      return c.json({ timeZone });
    },
  );
