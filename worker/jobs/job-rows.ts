import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import {
  compareJobOrder,
  jobLateMinutes,
  jobVisits,
  type Job,
  type JobRoutes,
  type JobStatus,
  type JobStory,
} from "../../shared/jobs/jobs";
import { jobTable } from "../../shared/jobs/job-fields";
import type { Db } from "../../db/client";
import { jobs } from "../../db/schema";
import type { JobRow } from "./job-writes";

/** The jobs a REST list answers at most (a day of a large fleet); narrower filters page below it. */
export const MAX_LISTED_JOBS = 10_000;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A job as the REST API answers it (shared/jobs/jobs.ts `Job`). */
export function toJob(row: JobRow): Job {
  const completed = row.status === "completed";
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    date: row.date,
    vehicleId: row.vehicleId,
    placeId: row.placeId,
    location: { latitude: row.latitude, longitude: row.longitude, address: row.address },
    windowStart: row.windowStart,
    windowEnd: row.windowEnd,
    sequence: row.sequence,
    ...jobTable.valuesOf(row),
    status: row.status,
    enRouteAt: iso(row.enRouteAt),
    arrivedAt: iso(row.arrivedAt),
    departedAt: iso(row.departedAt),
    completedAt: iso(row.completedAt),
    eta: iso(row.eta),
    late: row.late,
    proof: completed
      ? {
          photoIds: row.proofPhotoIds,
          signaturePhotoId: row.signaturePhotoId,
          recipientName: row.recipientName,
          note: row.proofNote,
          completedByUserId: row.completedByUserId,
        }
      : null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** `GET /api/jobs/{id}`: the job, every visit in order (ISO instants) and, when late, by how many minutes. */
export function toJobStory(row: JobRow, timeZone: string): JobStory {
  const visits = jobVisits(row).map((v) => ({
    arrivedAt: iso(v.arrivedAt)!,
    ...(v.departedAt !== null && { departedAt: iso(v.departedAt)! }),
  }));
  const lateMinutes = jobLateMinutes(row, timeZone);
  return { ...toJob(row), visits, ...(lateMinutes !== null && { lateMinutes }) };
}

/** `GET /api/jobs`: the workspace's live jobs, by date, then each day's order (vehicleId `none`: unassigned). */
export async function listJobs(
  db: Db,
  workspaceId: string,
  query: { date?: string; vehicleId?: string; status?: JobStatus },
): Promise<Job[]> {
  const where: SQL[] = [eq(jobs.workspaceId, workspaceId), eq(jobs.deleted, false)];
  if (query.date) where.push(eq(jobs.date, query.date));
  if (query.vehicleId === "none") where.push(isNull(jobs.vehicleId));
  else if (query.vehicleId) where.push(eq(jobs.vehicleId, query.vehicleId));
  if (query.status) where.push(eq(jobs.status, query.status));
  const rows = await db
    .select()
    .from(jobs)
    .where(and(...where))
    .orderBy(asc(jobs.date), asc(jobs.sequence), asc(jobs.number))
    .limit(MAX_LISTED_JOBS)
    .all();
  return rows.map(toJob);
}

/** `GET /api/routes?date=`: each vehicle's jobs of the day in order, and the unassigned ones. */
export async function dayRoutes(db: Db, workspaceId: string, date: string): Promise<JobRoutes> {
  const day = await listJobs(db, workspaceId, { date });
  const byVehicle = new Map<string, Job[]>();
  const unassigned: Job[] = [];
  for (const job of day.sort(compareJobOrder)) {
    if (!job.vehicleId) unassigned.push(job);
    else {
      const list = byVehicle.get(job.vehicleId) ?? [];
      list.push(job);
      byVehicle.set(job.vehicleId, list);
    }
  }
  return { routes: [...byVehicle].map(([vehicleId, list]) => ({ vehicleId, jobs: list })), unassigned };
}
