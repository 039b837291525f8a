import { eq } from "drizzle-orm";
import { Hono } from "hono";
import {
  workspacePreferencesPatchSchema,
  workspacePreferencesSchema,
  type WorkspacePreferences,
} from "../../shared/reports/reports";
import type { WorkspaceUnits } from "../../shared/units/units";
import { requireSession, workspaceSession } from "../auth/session";
import { workspaces } from "../../db/schema";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";
import { announceWrites } from "../workspace-object";
import { notFound } from "../lib/errors";
import { hourCycleOf } from "../lib/workspace-time-zone";
import type { Db } from "../../db/client";
import { customerMessageSettingsOf } from "../../shared/jobs/customer-messages";
import { audit } from "../lib/audit";
import { smsConfigured } from "../email/sms-account";

/** The workspace's preferences as GET answers them. */
async function preferencesOf(db: Db, workspaceId: string): Promise<WorkspacePreferences> {
  const row = await db
    .select({
      timeZone: workspaces.timeZone,
      units: workspaces.units,
      hourCycle: workspaces.hourCycle,
      customerMessages: workspaces.customerMessages,
      workOrderLinesRequired: workspaces.workOrderLinesRequired,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!row) throw notFound("No such workspace");
  return {
    timeZone: row.timeZone,
    units: row.units as WorkspaceUnits,
    hourCycle: hourCycleOf(row),
    customerMessages: customerMessageSettingsOf(row.customerMessages),
    customerSms: await smsConfigured(db, workspaceId),
    workOrderLinesRequired: row.workOrderLinesRequired,
  };
}

/**
 * GET/PATCH /api/workspace/preferences: the workspace's time zone, units (docs/decisions/0060) and
 * hour cycle (docs/decisions/0079; the zone's country's until an owner or admin chooses), and what
 * the workspace's customers are told (docs/decisions/0085), and whether a work order needs a line to be
 * completed (docs/decisions/0092).
 */
export const workspacePreferencesRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/preferences",
    declared({
      permission: "workspace.view",
      summary:
        "The workspace's time zone, units (us: miles, gallons, mpg; metric: km, litres, L/100 km), hour cycle (h12: 3:19 PM; h23: 15:19) and whether a work order needs a line to be completed",
      tag: "Workspaces",
      response: workspacePreferencesSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json(await preferencesOf(c.var.db, workspaceId));
    },
  )
  .patch(
    "/preferences",
    declared({
      permission: "workspace.configure",
      summary:
        "Set the workspace's time zone, its units, its hour cycle, what its customers are told, whether a work order needs a line to be completed (owners and admins), or any of them",
      tag: "Workspaces",
      body: workspacePreferencesPatchSchema,
      response: workspacePreferencesSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { timeZone, units, hourCycle, customerMessages: messages, workOrderLinesRequired } = c.req.valid("json");
      // Keys of customerMessages left out keep their value (the jobs' triggers read the whole object).
      const customerMessages = messages && {
        ...(await preferencesOf(c.var.db, workspaceId)).customerMessages,
        ...messages,
      };
      await c.var.db
        .update(workspaces)
        .set({ timeZone, units, hourCycle, customerMessages, workOrderLinesRequired })
        .where(eq(workspaces.id, workspaceId));
      if (customerMessages)
        audit("customer_messages.set", {
          workspaceId,
          by: c.var.session.userId,
          settings: JSON.stringify(customerMessages),
        });
      // The workspace's object folds its vehicles' rollups in this zone from the next report on.
      if (timeZone) await announceWrites({ env: c.env }, [workspaceId], { change: { timeZone, poke: false } });
      return c.json(await preferencesOf(c.var.db, workspaceId));
    },
  );
