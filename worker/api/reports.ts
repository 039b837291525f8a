import { and, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import {
  reportNames,
  reportQuerySchema,
  reportSubscriptionSchema,
  type ReportName,
  type ReportResponse,
} from "../../shared/reports/reports";
import { requireSession, workspaceSession } from "../auth/session";
import { reportSubscriptions } from "../../db/schema";
import { notFound } from "../lib/errors";
import { workspaceTimeZone } from "../lib/workspace-time-zone";
import { workspaceUnits } from "../lib/workspace-units";
import { parseInput } from "../lib/validate";
import { costCsvTable } from "../../shared/costs/cost-columns";
import { costReportQuerySchema, type CostReportResponse } from "../../shared/costs/cost-report";
import { costReport } from "../reports/costs";
import { toCsv } from "../reports/csv";
import { duePeriod } from "../reports/email-schedule";
import { stopsReport, tripsReport } from "../reports/events";
import { jobsReport } from "../reports/jobs";
import { reportRange } from "../reports/range";
import { dailyReport, summaryReport } from "../reports/summary";
import { reportVehicles } from "../reports/report-vehicles";
import type { AppEnv } from "../types";
import { type AnyZodObject } from "zod";
import { declared } from "./route-declaration/declare";

/** CSV columns of each report, in order: the JSON rows' keys, units in their names. */
const summaryColumns = [
  "vehicleId",
  "vehicleName",
  "distanceMiles",
  "drivingSeconds",
  "idlingSeconds",
  "trips",
  "stops",
  "maxSpeedMph",
  "averageSpeedMph",
  "speedingEpisodes",
  "fuelUsedPercent",
] as const;

const csvColumns = {
  summary: summaryColumns,
  daily: ["day", ...summaryColumns],
  trips: [
    "vehicleId",
    "vehicleName",
    "driver",
    "type",
    "start",
    "end",
    "startAddress",
    "startLatitude",
    "startLongitude",
    "endAddress",
    "endLatitude",
    "endLongitude",
    "distanceMiles",
    "durationSeconds",
    "maxSpeedMph",
    "averageSpeedMph",
    "inProgress",
  ],
  stops: [
    "vehicleId",
    "vehicleName",
    "start",
    "end",
    "durationSeconds",
    "address",
    "latitude",
    "longitude",
    "idlingSeconds",
    "ignition",
    "inProgress",
  ],
  jobs: ["vehicleId", "vehicleName", "driver", "jobs", "completed", "onTime", "late", "skipped", "averageDwellMinutes"],
} as const;

/** Runs one report for the session's workspace: rows, and the fleet total of a summary. */
async function runReport(c: Context<AppEnv>, name: ReportName) {
  const { workspaceId } = workspaceSession(c.var.session);
  const query = await parseInput(reportQuerySchema, { ...c.req.query(), vehicleId: c.req.queries("vehicleId") });
  const db = c.var.db;
  const timeZone = await workspaceTimeZone(db, workspaceId);
  const range = reportRange(query.from, query.to, timeZone);
  const vehicles = await reportVehicles(db, workspaceId, query.vehicleId);
  const answer = { timeZone, from: range.fromDay, to: range.toDay };
  const result =
    name === "summary"
      ? await summaryReport(db, workspaceId, range, vehicles)
      : name === "daily"
        ? await dailyReport(db, workspaceId, range, vehicles)
        : name === "trips"
          ? await tripsReport(db, workspaceId, range, vehicles)
          : name === "jobs"
            ? await jobsReport(db, workspaceId, range, vehicles)
            : await stopsReport(db, workspaceId, range, vehicles);
  return { query, response: { ...answer, ...result } as ReportResponse<object> };
}

/**
 * GET /api/reports/{summary|trips|stops|daily|jobs}?from=&to=&vehicleId=...&format=json|csv
 * (DESIGN.md "Reports"), and the viewer's subscription to the summary by e-mail. Everything is
 * scoped to the session's workspace; a vehicle of another workspace is a 404.
 */
export const reportRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/subscription",
    declared({
      permission: "person.own",
      summary: "The person's report e-mail subscription",
      tag: "Reports",
      response: reportSubscriptionSchema,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const row = await c.var.db
        .select({ frequency: reportSubscriptions.frequency })
        .from(reportSubscriptions)
        .where(and(eq(reportSubscriptions.workspaceId, workspaceId), eq(reportSubscriptions.userId, userId)))
        .get();
      return c.json({ frequency: row?.frequency ?? "none" });
    },
  )
  .put(
    "/subscription",
    declared({
      permission: "person.own",
      summary: "Subscribe to report e-mails",
      tag: "Reports",
      body: reportSubscriptionSchema,
      response: reportSubscriptionSchema,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const { frequency } = c.req.valid("json");
      const db = c.var.db;
      const mine = and(eq(reportSubscriptions.workspaceId, workspaceId), eq(reportSubscriptions.userId, userId));
      if (frequency === "none") await db.delete(reportSubscriptions).where(mine);
      else {
        // The period due now counts as sent: the first e-mail is the next morning's, not one at once.
        const lastPeriod = duePeriod(frequency, Date.now(), await workspaceTimeZone(db, workspaceId)).from;
        await db
          .insert(reportSubscriptions)
          .values({ workspaceId, userId, frequency, lastPeriod })
          .onConflictDoUpdate({
            target: [reportSubscriptions.workspaceId, reportSubscriptions.userId],
            set: { frequency, lastPeriod },
          });
      }
      return c.json({ frequency });
    },
  )
  .get(
    "/costs",
    declared({
      permission: "workspace.view",
      summary: "The cost report: fuel, distance, economy, service and expenses per vehicle or month",
      tag: "Reports",
      described: { query: costReportQuerySchema as unknown as AnyZodObject },
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const query = await parseInput(costReportQuerySchema, {
        ...c.req.query(),
        vehicleId: c.req.queries("vehicleId"),
      });
      const timeZone = await workspaceTimeZone(c.var.db, workspaceId);
      const response: CostReportResponse = { timeZone, ...(await costReport(c.var.db, workspaceId, timeZone, query)) };
      if (query.format === "json") return c.json(response);
      const file = `costs-by-${query.by}-${response.from}-to-${response.to}.csv`;
      // In the workspace's units, as the Costs tab shows them (shared/costs/cost-columns.ts).
      const table = costCsvTable(response, await workspaceUnits(c.var.db, workspaceId));
      return c.body(toCsv(table.columns, table.rows), 200, {
        "Content-Type": "text/csv; charset=utf-8; header=present",
        "Content-Disposition": `attachment; filename="${file}"`,
      });
    },
  )
  .get(
    "/:report",
    declared({
      permission: "workspace.view",
      summary: "A report (summary, trips, stops, daily, jobs: on time per vehicle and driver) as JSON or CSV",
      tag: "Reports",
      described: { query: reportQuerySchema as unknown as AnyZodObject },
    }),
    async (c) => {
      const name = c.req.param("report");
      if (!(reportNames as readonly string[]).includes(name)) {
        throw notFound(`No report "${name}": use one of ${reportNames.join(", ")}`);
      }
      const report = name as ReportName;
      const { query, response } = await runReport(c, report);
      if (query.format === "json") return c.json(response);
      const file = `${report}-${response.from}-to-${response.to}.csv`;
      return c.body(toCsv(csvColumns[report] as readonly string[], response.rows as Record<string, unknown>[]), 200, {
        "Content-Type": "text/csv; charset=utf-8; header=present",
        "Content-Disposition": `attachment; filename="${file}"`,
      });
    },
  );
