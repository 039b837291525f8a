import { Hono } from "hono";
import { z } from "zod";
import { routePlanApplySchema, routePlanBodySchema, routePlanSchema } from "../../shared/jobs/route-plan";
import { requireSession, workspaceSession } from "../auth/session";
import { LIMITS } from "../auth/rate-limit";
import { declared, type RouteLimit } from "./route-declaration/declare";
import type { AppEnv } from "../types";
import { commitWorkspaceWrite } from "../workspace-object";
import { proposeRoutePlan } from "../jobs/route-plan";
import { applyRoutePlan, planOutdated } from "../jobs/route-plan-apply";
import { sendJobNotifications } from "../jobs/job-notifications";
import { dayRoutes } from "../jobs/job-rows";
import { job } from "./job-answers";

/**
 * A workspace's plans a minute, whoever of it asks: a plan is seconds of CPU, and one workspace's
 * planning must leave the rest of the service to the others (docs/decisions/0088).
 */
const PLAN_LIMITS: RouteLimit[] = [
  { limit: LIMITS.routePlans, per: "workspace", key: (c) => `ws:${c.var.session.workspaceId}` },
];

/**
 * Planning a day (issue 54, DESIGN.md "Jobs and routes", docs/decisions/0076): those who edit jobs
 * plan and apply, viewers do neither; another workspace's job, vehicle or place is a 404.
 */
export const routePlanRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary:
        "Propose routes for a day's scheduled jobs: each vehicle's stops with arrival and start, the unassigned with why, the day before and after",
      tag: "Jobs",
      body: routePlanBodySchema,
      response: routePlanSchema,
      errors: {
        400: "A shift ending before it starts, more jobs than a plan takes, a job of another date or not scheduled",
      },
      limits: PLAN_LIMITS,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json(await proposeRoutePlan(c.var.db, workspaceId, c.req.valid("json"), Date.now()));
    },
  )
  .post(
    "/apply",
    declared({
      permission: "fleet.edit",
      summary:
        "Apply a plan: each job given to its route's vehicle in its order, in one write; answers the day's routes as `GET /api/routes`",
      tag: "Jobs",
      body: routePlanApplySchema,
      response: z.object({
        routes: z.array(z.object({ vehicleId: z.string(), jobs: z.array(job) })),
        unassigned: z.array(job),
      }),
      errors: {
        409: "A job changed since the plan was made (`plan_outdated`), or a day would pass its bound (`limit_reached`); nothing was written",
      },
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const plan = c.req.valid("json");
      const application = await applyRoutePlan(c.var.db, workspaceId, plan, { userId, now: Date.now() });
      const w = { env: c.env, db: c.var.db, waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work) };
      try {
        await commitWorkspaceWrite(w, workspaceId, application.writes, {
          readYourWrites: true,
          change: { jobs: true },
          guards: application.guards,
        });
      } catch (error) {
        const changed = await application.changedSince();
        if (changed) throw planOutdated(changed);
        throw error;
      }
      await sendJobNotifications(c.var.db, c.var.config, { workspaceId }).catch((error) =>
        console.error("job pushes failed:", error),
      );
      return c.json(await dayRoutes(c.var.db, workspaceId, application.date));
    },
  );
