import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { pushRequestSchema } from "../../shared/sync/sync-protocol";
import { requireSession, workspaceSession } from "../auth/session";
import { answerPull } from "../sync/answer-pull";
import { push } from "../sync/push";
import { pushSchemaSupported, unsupportedProtocol, versionNotSupported } from "../sync/protocol-versions";
import { sendIssueNotifications } from "../maintenance/issue-notifications";
import { sendJobNotifications } from "../jobs/job-notifications";
import { sendJobMessages } from "../jobs/customer-messages";
import { JOB_MUTATIONS } from "../sync/jobs-mutators";
import { roomChanges } from "../workspace-object";
import type { AppEnv } from "../types";
import { pullRequestSchema, pullResponseSchema } from "../../shared/sync/sync-protocol";
import { declared } from "./route-declaration/declare";

/**
 * Another push protocol version is answered VersionNotSupported (status 200, what Replicache
 * expects) before the body is checked as version 1: an old client's request has another shape.
 * Pulls get the same treatment in answerPull, shared with the room's socket.
 */
const protocolGate = createMiddleware<AppEnv>(async (c, next) => {
  const raw: unknown = await c.req.json().catch(() => undefined);
  if (unsupportedProtocol(raw, "pushVersion")) return c.json(versionNotSupported("push"));
  await next();
});

/** Replicache's push and pull endpoints; the session's workspace is the space. */
export const syncRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post(
    "/pull",
    declared({
      permission: "person.own",
      summary: "Replicache pull",
      tag: "Sync",
      described: { body: pullRequestSchema },
      response: pullResponseSchema,
    }),
    async (c) => {
      const raw: unknown = await c.req.json().catch(() => undefined);
      // A full answer reads D1 after the workspace's object has flushed (worker/api/settle-live-reads.ts);
      // an incremental one asks the object, which does the same. Nothing pending: no D1.
      const { status, body } = await answerPull(c.var.db, workspaceSession(c.var.session), raw, roomChanges(c.env));
      return c.json(body, status as ContentfulStatusCode);
    },
  )
  .post(
    "/push",
    protocolGate,
    declared({ permission: "person.own", summary: "Replicache push", tag: "Sync", body: pushRequestSchema }),
    async (c) => {
      const req = c.req.valid("json");
      if (!pushSchemaSupported(req.schemaVersion)) return c.json(versionNotSupported("schema"));
      const session = workspaceSession(c.var.session);
      // The push commits through the one writer, which announces its writes to the workspace's object.
      const w = { env: c.env, db: c.var.db, waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work) };
      const { wrote, refused, clientStateNotFound } = await push(w, session, req);
      if (clientStateNotFound) return c.json({ error: "ClientStateNotFound" as const });
      if (wrote) {
        // An issue assigned offline e-mails its assignee now it reached the server (the cron retries).
        c.executionCtx.waitUntil(
          sendIssueNotifications(c.var.db, c.var.config, { workspaceId: session.workspaceId }).catch((error) =>
            console.error("issue e-mails failed:", error),
          ),
        );
        // A job given to a vehicle (offline too) nudges its driver's phones now it reached the server.
        // and a job done or called off there tells its customer (the jobs' triggers queued it, ADR 0085).
        if (req.mutations.some((m) => JOB_MUTATIONS.has(m.name)))
          c.executionCtx.waitUntil(
            Promise.all([
              sendJobNotifications(c.var.db, c.var.config, { workspaceId: session.workspaceId }).catch((error) =>
                console.error("job pushes failed:", error),
              ),
              sendJobMessages(c.var.db, c.var.config, { workspaceId: session.workspaceId }).catch((error) =>
                console.error("customer messages failed:", error),
              ),
            ]),
          );
      }
      // `refused` is ours, not Replicache's: the page tells the user why an edit went back.
      return c.json(refused.length ? { refused } : {});
    },
  );
