import { Hono } from "hono";
import { requireSession, workspaceSession } from "../auth/session";
import type { AppEnv } from "../types";
import { myActionsSchema } from "./maintenance-answers";
import { declared } from "./route-declaration/declare";
import { myActions } from "../maintenance/my-actions";

/** `GET /api/my-actions` (DESIGN.md "Maintenance"): what is the caller's to do in their workspace. */
export const myActionRoutes = new Hono<AppEnv>().use(requireSession).get(
  "/",
  declared({
    permission: "workspace.view",
    summary: "What is the caller's to do",
    tag: "Maintenance",
    response: myActionsSchema,
  }),
  async (c) => {
    const { workspaceId, userId } = workspaceSession(c.var.session);
    return c.json(await myActions(c.var.db, workspaceId, userId, Date.now(), c.var.session.role));
  },
);
