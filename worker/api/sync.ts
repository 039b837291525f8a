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
import { JOB_MUTATIONS } from "../sync/jobs-mutators";
import { announceWrites, roomChanges } from "../workspace-object";
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

/** The mutators that change places (worker/sync/places-mutators.ts): the workspace's object reloads its watch after them. */
const PLACE_MUTATIONS = new Set(["createPlace", "updatePlace", "deletePlace"]);

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
      const { wrote, recorded, refused, clientStateNotFound } = await push(c.var.db, session, req);
      if (clientStateNotFound) return c.json({ error: "ClientStateNotFound" as const });
      if (wrote) {
        // Read-your-writes for the pushing client: no pull after this answer is served a shared read
        // from before it (the poke may be throttled; docs/decisions/0013).
        // A place changed by a push reaches the object's watch before the next report.
        const placesChanged = req.mutations.some((m) => PLACE_MUTATIONS.has(m.name));
        // A vehicle's settings may hold a new fuel tank, which fuel_drop rules measure litres with.
        const tanksChanged = req.mutations.some((m) => m.name === "updateVehicle");
        // Likewise a job planned or moved reaches the object's job watch (issue 43).
        const jobsChanged = req.mutations.some((m) => JOB_MUTATIONS.has(m.name));
        const change = {
          ...(placesChanged && { places: true }),
          ...(tanksChanged && { tanks: true }),
          ...(jobsChanged && { jobs: true }),
        };
        await announceWrites({ env: c.env, waitUntil: (w) => c.executionCtx.waitUntil(w) }, [session.workspaceId], {
          readYourWrites: true,
          ...(placesChanged || tanksChanged || jobsChanged ? { change } : {}),
        });
        // An issue assigned offline e-mails its assignee now it reached the server (the cron retries).
        c.executionCtx.waitUntil(
          sendIssueNotifications(c.var.db, c.var.config, { workspaceId: session.workspaceId }).catch((error) =>
            console.error("issue e-mails failed:", error),
          ),
        );
        // A job given to a vehicle (offline too) nudges its driver's phones now it reached the server.
        if (jobsChanged)
          c.executionCtx.waitUntil(
            sendJobNotifications(c.var.db, c.var.config, { workspaceId: session.workspaceId }).catch((error) =>
              console.error("job pushes failed:", error),
            ),
          );
      } else if (recorded) {
        // only refused or unknown mutations (issue 34): nobody else is poked, but the pusher's next
        // pull must see its mutations processed, so the room's shared reads go
        await announceWrites({ env: c.env }, [session.workspaceId], { readYourWrites: true, change: { poke: false } });
      }
      // `refused` is ours, not Replicache's: the page tells the user why an edit went back.
      return c.json(refused.length ? { refused } : {});
    },
  );
