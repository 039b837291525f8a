import { and, eq, gte, inArray, lte } from "drizzle-orm";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { jobs } from "../../db/schema";
import { empty, onTimeFigures, type OnTimeJob } from "../../domain/jobs/on-time";
import type { JobsReportDay, JobsReportRow } from "../../shared/reports/reports";
import { addDays } from "../../shared/units/time-zone";
import type { ReportRange } from "./range";
import type { ReportVehicle } from "./report-vehicles";

/**
 * The on-time report (`GET /api/reports/jobs`, issue 43): the jobs of the range's local days
 * assigned to the report's vehicles, counted per vehicle (domain/jobs/on-time.ts), each row with
 * the vehicle's driver. A vehicle with no jobs in the range has a row of zeros. `days` counts the
 * same jobs by the same rule per local day, every day of the range (zeros too), for the page's chart.
 */
export async function jobsReport(
  db: Db,
  workspaceId: string,
  range: ReportRange,
  vehicles: ReportVehicle[],
): Promise<{ rows: JobsReportRow[]; days: JobsReportDay[] }> {
  const rows: OnTimeJob[] = [];
  for (const ids of inLists(vehicles.map((v) => v.id))) {
    const part = await db
      .select({
        vehicleId: jobs.vehicleId,
        date: jobs.date,
        status: jobs.status,
        windowEnd: jobs.windowEnd,
        arrivedAt: jobs.arrivedAt,
        departedAt: jobs.departedAt,
        completedAt: jobs.completedAt,
        visits: jobs.visits,
      })
      .from(jobs)
      .where(
        and(
          eq(jobs.workspaceId, workspaceId),
          eq(jobs.deleted, false),
          inArray(jobs.vehicleId, ids),
          gte(jobs.date, range.fromDay),
          lte(jobs.date, range.toDay),
        ),
      )
      .all();
    rows.push(...part.map((r) => ({ ...r, vehicleId: r.vehicleId! })));
  }
  const figures = onTimeFigures(rows, range.timeZone);
  const byDay = onTimeFigures(rows, range.timeZone, (job) => job.date);
  const days: JobsReportDay[] = [];
  for (let day = range.fromDay; day <= range.toDay; day = addDays(day, 1))
    days.push({ day, ...(byDay.get(day) ?? empty()) });
  return {
    days,
    rows: vehicles.map((v) => ({
      vehicleId: v.id,
      vehicleName: v.name,
      driver: v.driver,
      ...(figures.get(v.id) ?? empty()),
    })),
  };
}
