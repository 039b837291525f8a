import { Hono } from "hono";
import { PROTOCOL_VERSION, pullRequestSchema, pushRequestSchema, SCHEMA_VERSION } from "../../shared/sync-protocol";
import { requireSession, workspaceSession } from "../auth/session";
import { body } from "../lib/validate";
import { pokeWorkspace } from "../realtime";
import { pull } from "../sync/pull";
import { push } from "../sync/push";
import { roomChanges } from "../sync/room-changes";
import type { AppEnv } from "../types";

/** Replicache's push and pull endpoints; the session's workspace is the space. */
export const syncRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post("/pull", body(pullRequestSchema), async (c) => {
    const req = c.req.valid("json");
    if (req.pullVersion !== PROTOCOL_VERSION) return c.json({ error: "VersionNotSupported", versionType: "pull" });
    if (req.schemaVersion !== SCHEMA_VERSION) return c.json({ error: "VersionNotSupported", versionType: "schema" });
    return c.json(await pull(c.var.db, workspaceSession(c.var.session), req, roomChanges(c.env)));
  })
  .post("/push", body(pushRequestSchema), async (c) => {
    const req = c.req.valid("json");
    if (req.pushVersion !== PROTOCOL_VERSION) return c.json({ error: "VersionNotSupported", versionType: "push" });
    if (req.schemaVersion !== SCHEMA_VERSION) return c.json({ error: "VersionNotSupported", versionType: "schema" });
    const session = workspaceSession(c.var.session);
    if (await push(c.var.db, session, req)) c.executionCtx.waitUntil(pokeWorkspace(c.env, session.workspaceId));
    return c.json({});
  });
