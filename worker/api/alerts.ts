import { and, asc, count, desc, eq, gte } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { alertRuleBodySchema, MAX_ALERT_RULES, type Alert, type AlertRule } from "../../shared/alerts/alert-rules";
import { alertJob, MAX_READ_IDS } from "../../shared/alerts/alerts";
import { isoInstant } from "../../shared/units/instant";
import { can } from "../../shared/account/roles";
import { redactWebhook } from "../sync/places-entities";
import { requireSession, workspaceSession } from "../auth/session";
import type { Db } from "../../db/client";
import { alertReads, alertRules, alerts } from "../../db/schema";
import { insertAlertRuleUnderCap } from "../../db/capped-insert";
import { limitReached, notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";
import { checkNotify } from "./alert-delivery";
import { commitWatched, editorSession } from "./watch-edits";

/**
 * Alert rules (CRUD) and alerts (read, mark read) for integrators and the Inbox (DESIGN.md
 * "Places and alerts"). Rules are synced to every browser of the workspace; writes bump the
 * workspace's version and poke its room like every synced write.
 */
const toRule = (row: typeof alertRules.$inferSelect): AlertRule => ({ ...row.config, id: row.id });

async function liveRule(db: Db, workspaceId: string, id: string) {
  const row = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.id, id), eq(alertRules.workspaceId, workspaceId), eq(alertRules.deleted, false)))
    .get();
  if (!row) throw notFound("No such alert rule in this workspace");
  return row;
}

export const alertRuleRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({ permission: "workspace.view", summary: "The workspace's alert rules", tag: "Alerts" }),
    async (c) => {
      const { workspaceId, role } = workspaceSession(c.var.session);
      const rows = await c.var.db
        .select()
        .from(alertRules)
        .where(and(eq(alertRules.workspaceId, workspaceId), eq(alertRules.deleted, false)))
        .orderBy(asc(alertRules.createdAt))
        .all();
      // a webhook URL is a secret: roles that cannot edit rules see its host only (issue 34)
      const shown = can(role, "fleet.edit") ? rows : rows.map((r) => ({ ...r, config: redactWebhook(r.config) }));
      return c.json({ rules: shown.map(toRule) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Create an alert rule",
      tag: "Alerts",
      body: alertRuleBodySchema,
      status: 201,
    }),
    async (c) => {
      const { workspaceId } = editorSession(c.var.session);
      const config = c.req.valid("json");
      const id = crypto.randomUUID();
      const db = c.var.db;
      const live = await db
        .select({ n: count() })
        .from(alertRules)
        .where(and(eq(alertRules.workspaceId, workspaceId), eq(alertRules.deleted, false)))
        .get();
      if ((live?.n ?? 0) >= MAX_ALERT_RULES)
        throw limitReached(`A workspace has at most ${MAX_ALERT_RULES} alert rules`);
      await checkNotify(db, c.var.config, workspaceId, config);
      // the cap is also in the insert itself: a creation racing this one cannot pass it too
      await commitWatched(c, workspaceId, (stamp) => [
        insertAlertRuleUnderCap(db, { id, workspaceId, config, version: stamp }, MAX_ALERT_RULES),
      ]);
      const inserted = await db.select({ id: alertRules.id }).from(alertRules).where(eq(alertRules.id, id)).get();
      if (!inserted) throw limitReached(`A workspace has at most ${MAX_ALERT_RULES} alert rules`);
      return c.json({ ...config, id } satisfies AlertRule, 201);
    },
  )
  // PATCH replaces the rule's settings (a rule's fields depend on its type, so a partial merge
  // across types would be ambiguous): send the whole rule as from GET, changed.
  .patch(
    "/:id",
    declared({ permission: "fleet.edit", summary: "Change an alert rule", tag: "Alerts", body: alertRuleBodySchema }),
    async (c) => {
      const { workspaceId } = editorSession(c.var.session);
      const db = c.var.db;
      const current = await liveRule(db, workspaceId, c.req.param("id"));
      const config = c.req.valid("json");
      await checkNotify(db, c.var.config, workspaceId, config);
      await commitWatched(c, workspaceId, (stamp) => [
        db
          .update(alertRules)
          .set({ config, version: stamp })
          .where(and(eq(alertRules.id, current.id), eq(alertRules.workspaceId, workspaceId))),
      ]);
      return c.json({ ...config, id: current.id } satisfies AlertRule);
    },
  )
  .delete(
    "/:id",
    declared({ permission: "fleet.edit", summary: "Delete an alert rule", tag: "Alerts", status: 204 }),
    async (c) => {
      const { workspaceId } = editorSession(c.var.session);
      const db = c.var.db;
      const current = await liveRule(db, workspaceId, c.req.param("id"));
      await commitWatched(c, workspaceId, (stamp) => [
        db
          .update(alertRules)
          .set({ deleted: true, version: stamp })
          .where(and(eq(alertRules.id, current.id), eq(alertRules.workspaceId, workspaceId))),
      ]);
      return c.body(null, 204);
    },
  );

export const alertsQuery = z.object({
  since: isoInstant("since must be an ISO 8601 time").optional(),
  limit: z.coerce
    .number()
    .int("limit must be a whole number")
    .min(1, "limit must be 1 to 1000")
    .max(1000, "limit must be 1 to 1000")
    .default(100),
});

export const readBody = z.union([
  z.object({ ids: z.array(z.string().min(1).max(100)).min(1).max(MAX_READ_IDS) }),
  z.object({ all: z.literal(true) }),
]);

const toAlert = (row: typeof alerts.$inferSelect) => {
  const alert: Alert = {
    id: row.id,
    type: row.type,
    ruleId: row.ruleId,
    vehicleId: row.vehicleId,
    placeId: row.placeId,
    at: row.at,
    endAt: row.endAt,
    latitude: row.latitude,
    longitude: row.longitude,
    peak: row.peak,
  };
  return {
    ...alert,
    at: new Date(row.at).toISOString(),
    endAt: row.endAt === null ? null : new Date(row.endAt).toISOString(),
    // job_late, job_arrived, job_completed: the job's id, number and title as they were then
    job: alertJob(row),
  };
};

export const alertRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({ permission: "workspace.view", summary: "Recent alerts", tag: "Alerts", query: alertsQuery }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { since, limit } = c.req.valid("query");
      const where = [eq(alerts.workspaceId, workspaceId), eq(alerts.deleted, false)];
      if (since !== undefined) where.push(gte(alerts.at, since));
      const rows = await c.var.db
        .select()
        .from(alerts)
        .where(and(...where))
        .orderBy(desc(alerts.at), desc(alerts.id))
        .limit(limit)
        .all();
      return c.json({ alerts: rows.map(toAlert) });
    },
  )
  // Per member: `{ids}` marks those read, `{all: true}` everything up to now (viewers too: it is
  // their own Inbox). Synced as `alert-reads/{userId}`.
  .post(
    "/read",
    declared({ permission: "person.own", summary: "Mark alerts read", tag: "Alerts", body: readBody }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const db = c.var.db;
      const input = c.req.valid("json");
      const id = `${workspaceId}:${userId}`;
      const current = await db.select().from(alertReads).where(eq(alertReads.id, id)).get();
      const readBefore = "all" in input ? Date.now() : (current?.readBefore ?? 0);
      const readIds =
        "all" in input ? [] : [...new Set([...(current?.readIds ?? []), ...input.ids])].slice(-MAX_READ_IDS);
      await commitWatched(c, workspaceId, (stamp) => [
        db
          .insert(alertReads)
          .values({ id, workspaceId, userId, readBefore, readIds, version: stamp })
          .onConflictDoUpdate({ target: alertReads.id, set: { readBefore, readIds, version: stamp } }),
      ]);
      return c.json({ readBefore, readIds });
    },
  );
