import { and, eq, inArray } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { addDays } from "../../shared/units/time-zone";
import { requireSession, workspaceSession } from "../auth/session";
import { vehicleDayRollups, vehicles } from "../../db/schema";
import { inLists, insertChunks } from "../../db/chunk";
import { developmentOnly } from "../lib/development-only";
import { workspaceTimeZone } from "../lib/workspace-time-zone";
import { syntheticDayRollup } from "../reports/synthetic-day";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

const seedSchema = z.object({
  vehicleIds: z.array(z.string().min(1).max(100)).min(1).max(100),
  firstDay: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  days: z.number().int().min(1).max(92),
  hours: z.number().min(0.5).max(12).default(8),
  everySeconds: z.number().int().min(1).max(600).default(10),
});

/**
 * Development and benchmarks only: a month of reports for a large fleet without sending it tens
 * of millions of positions. Each vehicle's working day is folded through the real detector and
 * rollup (worker/reports/synthetic-day.ts), and its day row stored for each of `days` days, as
 * ingestion would store it. Only vehicles of the session's workspace.
 */
export const devReportRoutes = new Hono<AppEnv>().post(
  "/reports/rollups",
  developmentOnly,
  requireSession,
  declared({
    permission: "development",
    summary: "Seed report rollups (development only)",
    tag: "Development",
    body: seedSchema,
  }),
  async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const { vehicleIds, firstDay, days, hours, everySeconds } = c.req.valid("json");
    const db = c.var.db;
    const timeZone = await workspaceTimeZone(db, workspaceId);
    const mine: { id: string }[] = [];
    for (const part of inLists(vehicleIds))
      mine.push(
        ...(await db
          .select({ id: vehicles.id })
          .from(vehicles)
          .where(and(eq(vehicles.workspaceId, workspaceId), inArray(vehicles.id, part)))
          .all()),
      );
    const rows: (typeof vehicleDayRollups.$inferInsert)[] = [];
    mine.forEach((v, i) => {
      const { day: _day, ...figures } = syntheticDayRollup(firstDay, timeZone, hours, everySeconds, i * 7919);
      for (let d = 0; d < days; d++) rows.push({ vehicleId: v.id, workspaceId, day: addDays(firstDay, d), ...figures });
    });
    const statements = insertChunks(vehicleDayRollups, rows).map((part) =>
      db.insert(vehicleDayRollups).values(part).onConflictDoNothing(),
    );
    if (statements.length)
      await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
    return c.json({ vehicles: mine.length, rows: rows.length });
  },
);
