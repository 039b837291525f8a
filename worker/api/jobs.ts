import { Hono, type Context } from "hono";
import { z } from "zod";
import {
  jobBodySchema,
  jobCompleteBodySchema,
  jobPatchSchema,
  jobQuerySchema,
  routesQuerySchema,
  JOB_CSV_HEADER,
  type JobImportResult,
} from "../../shared/jobs/jobs";
import { requireSession, workspaceSession } from "../auth/session";
import { ApiError } from "../lib/errors";
import { declared, type RouteLimit } from "./route-declaration/declare";
import { LIMITS } from "../auth/rate-limit";
import { importResult, job } from "./job-answers";
import type { AppEnv } from "../types";
import { commitWorkspaceWrite, type WriteContext } from "../workspace-object";
import { dayRoutes, listJobs, toJob } from "../jobs/job-rows";
import { jobImportWrites } from "../jobs/job-import";
import { sendJobNotifications } from "../jobs/job-notifications";
import { resolveJobPoint } from "../jobs/job-places";
import {
  jobCompleteWrites,
  jobCreateWrites,
  jobDeleteWrites,
  jobUpdateWrites,
  jobVehicle,
  liveJob,
  type JobWrites,
} from "../jobs/job-writes";

/**
 * Jobs and routes for integrators and the pages (DESIGN.md "Jobs and routes", docs/decisions/0052):
 * owners, admins and members plan and complete (each route's declaration), viewers read. Every
 * query is scoped to the caller's workspace; another workspace's job, vehicle, place or photo is a
 * 404 like one that does not exist. Each write goes through worker/jobs/job-writes.ts, which the
 * sync mutators share.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context of this app
type AnyContext = Context<AppEnv, any, any>;

const writeContext = (c: AnyContext): WriteContext => ({
  env: c.env,
  db: c.var.db,
  waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

/**
 * Commits, tells the workspace's object (its job watch reloads), and pushes new assignments to the
 * drivers before answering, as an issue's assignment is sent (a failed push is logged, not retried).
 */
async function commitJobs(c: AnyContext, workspaceId: string, writes: JobWrites) {
  await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true, change: { jobs: true } });
  await sendJobNotifications(c.var.db, c.var.config, { workspaceId }).catch((error) =>
    console.error("job pushes failed:", error),
  );
}

const writer = (userId: string) => ({ userId, now: Date.now() });

/**
 * Imports per API token, then per member and workspace (a token's spend its creator's too; the
 * token's first, so a call it refuses costs its creator nothing): issue 51.
 */
const IMPORT_LIMITS: RouteLimit[] = [
  {
    limit: LIMITS.jobImportsPerToken,
    per: "API token",
    key: (c) => `token:${c.var.session.apiToken?.id}`,
    when: (c) => c.var.session.apiToken !== undefined,
  },
  {
    limit: LIMITS.jobImportsPerMember,
    per: "member of the workspace",
    key: (c) => `${c.var.session.workspaceId}:${c.var.session.userId}`,
  },
];

export const jobRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Jobs by date, vehicle (`none`: unassigned) and status, each day in its order",
      tag: "Jobs",
      query: jobQuerySchema,
      response: z.object({ jobs: z.array(job) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const query = c.req.valid("query");
      if (query.vehicleId && query.vehicleId !== "none") await jobVehicle(c.var.db, workspaceId, query.vehicleId);
      return c.json({ jobs: await listJobs(c.var.db, workspaceId, query) });
    },
  )
  .get(
    "/:id",
    declared({
      permission: "workspace.view",
      summary: "One job, its proof included: the dispatch page's story of a stop",
      tag: "Jobs",
      response: job,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json(toJob(await liveJob(c.var.db, workspaceId, c.req.param("id"))));
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Plan a job at a place or a location (an address alone where a geocoder is configured)",
      tag: "Jobs",
      body: jobBodySchema,
      response: job,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const { location, ...input } = c.req.valid("json");
      const point = await resolveJobPoint(c.var.db, c.var.config.MAPBOX_TOKEN, workspaceId, {
        placeId: input.placeId,
        location,
      });
      const id = crypto.randomUUID();
      const writes = await jobCreateWrites(c.var.db, workspaceId, input, point, { id, writer: writer(userId) });
      await commitJobs(c, workspaceId, writes);
      return c.json(toJob(await liveJob(c.var.db, workspaceId, id)), 201);
    },
  )
  .post(
    "/import",
    declared({
      permission: "fleet.edit",
      summary: `Import jobs from CSV with the header \`${JOB_CSV_HEADER}\`: all or nothing, errors by line`,
      tag: "Jobs",
      binaryBody: ["text/csv"],
      response: importResult,
      status: 201,
      errors: {
        400: "Lines with errors (`errors`, the header being line 1); nothing was imported",
        409: "A day, a vehicle's day or the upcoming jobs would pass their bound (`limit_reached`); nothing was imported",
      },
      limits: IMPORT_LIMITS,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const type = c.req.header("Content-Type") ?? "";
      if (!/^text\/(csv|plain)\b/i.test(type))
        throw new ApiError(415, "unsupported_media_type", "Send the jobs as text/csv");
      const outcome = await jobImportWrites(
        c.var.db,
        c.var.config.MAPBOX_TOKEN,
        workspaceId,
        await c.req.text(),
        writer(userId),
      );
      if ("errors" in outcome) {
        const n = outcome.errors.length;
        const message = `${n} ${n === 1 ? "line has an error" : "lines have errors"}: nothing was imported`;
        const answer: JobImportResult = { created: 0, errors: outcome.errors };
        return c.json({ error: { code: "invalid_input", message }, ...answer }, 400);
      }
      await commitJobs(c, workspaceId, outcome.writes);
      return c.json({ created: outcome.count, errors: [] } satisfies JobImportResult, 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "fleet.edit",
      summary: "Change a job; null clears the vehicle, window or texts; status by the transition rule",
      tag: "Jobs",
      body: jobPatchSchema,
      response: job,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const patch = c.req.valid("json");
      const point = patch.location
        ? await resolveJobPoint(c.var.db, c.var.config.MAPBOX_TOKEN, workspaceId, { location: patch.location })
        : null;
      const id = c.req.param("id");
      const { writes } = await jobUpdateWrites(c.var.db, workspaceId, id, patch, point, writer(userId));
      await commitJobs(c, workspaceId, writes);
      return c.json(toJob(await liveJob(c.var.db, workspaceId, id)));
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "fleet.edit",
      summary: "Delete a job",
      tag: "Jobs",
      status: 204,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      await commitJobs(c, workspaceId, await jobDeleteWrites(c.var.db, workspaceId, c.req.param("id"), Date.now()));
      return c.body(null, 204);
    },
  )
  .post(
    "/:id/complete",
    declared({
      permission: "fleet.edit",
      summary: "Mark a job done, with proof (photos, a signature photo, the recipient's name, a note)",
      tag: "Jobs",
      body: jobCompleteBodySchema,
      response: job,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const id = c.req.param("id");
      const { writes } = await jobCompleteWrites(c.var.db, workspaceId, id, c.req.valid("json"), {
        at: null,
        writer: writer(userId),
      });
      await commitJobs(c, workspaceId, writes);
      return c.json(toJob(await liveJob(c.var.db, workspaceId, id)));
    },
  );

/** `GET /api/routes?date=`: the day's routes per vehicle, in order, and the unassigned jobs; everyone reads. */
export const routeRoutes = new Hono<AppEnv>().use(requireSession).get(
  "/",
  declared({
    permission: "workspace.view",
    summary: "A day's routes: each vehicle's jobs in order, and the unassigned jobs",
    tag: "Jobs",
    query: routesQuerySchema,
    response: z.object({
      routes: z.array(z.object({ vehicleId: z.string(), jobs: z.array(job) })),
      unassigned: z.array(job),
    }),
  }),
  async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    return c.json(await dayRoutes(c.var.db, workspaceId, c.req.valid("query").date));
  },
);
