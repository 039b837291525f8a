import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { JobInput, JobPoint } from "../../shared/jobs/jobs";
import { jobTable } from "../../shared/jobs/job-fields";
import { BULK_JSON_CHARS } from "../../db/bulk";
import type { Db, LiveWrites } from "../../db/client";
import type { Writes } from "../../db/writer";
import { jobNotifications, jobs } from "../../db/schema";

/**
 * A day of jobs written in a handful of statements (the CSV import, docs/decisions/0052): 2,000
 * single-row INSERTs (each with its number's subquery and its created-version trigger) took 7 s on
 * this machine; `INSERT ... SELECT ... FROM json_each(?)` writes a chunk of rows per statement.
 * Numbers follow the workspace's highest, read inside each statement (one transaction: a job
 * planned meanwhile cannot take one), in the lines' order. The rows are new and their fields
 * checked: only what a CSV line carries is set, the rest is the column's default; the table's fields
 * (shared/jobs/job-fields.ts) each as the line gives it or its default, after the fixed ten.
 */
export interface BulkJob {
  id: string;
  input: Omit<JobInput, "location">;
  point: JobPoint;
  sequence: number;
}

/** The cells each row's JSON array starts with, before the table's fields. */
const FIXED_CELLS = 10;
const at = (i: number) => sql.raw(`json_extract(j.value, '$[${i}]')`);

function chunkStatement(
  db: LiveWrites,
  workspaceId: string,
  json: string,
  stamp: SQL<number>,
  writer: { userId: string | null; now: number },
) {
  const nextNumber = sql`(SELECT COALESCE(MAX("number"), 0) FROM "jobs" WHERE "workspace_id" = ${workspaceId}) + j.key + 1`;
  const values: Record<string, SQL> = {
    id: at(0),
    workspace_id: sql`${workspaceId}`,
    version: stamp,
    deleted: sql`0`,
    created_version: stamp,
    number: nextNumber,
    title: at(1),
    date: at(2),
    vehicle_id: at(3),
    latitude: at(4),
    longitude: at(5),
    address: at(6),
    window_start: at(7),
    window_end: at(8),
    sequence: at(9),
    ...Object.fromEntries(jobTable.keys.map((k, i) => [jobs[k].name, at(FIXED_CELLS + i)])),
    status: sql`'scheduled'`,
    late: sql`0`,
    visits: sql`'[]'`,
    proof_photo_ids: sql`'[]'`,
    created_by_user_id: sql`${writer.userId}`,
    // a line naming a vehicle assigns it now: a phone's "arrived" is never before (job-writes.ts deviceStamp)
    assigned_at: sql`CASE WHEN ${at(3)} IS NOT NULL THEN ${writer.now} END`,
    created_at: sql`${writer.now}`,
    updated_at: sql`${writer.now}`,
  };
  // Drizzle's insert-select names every column in the table's order (db/capped-insert.ts).
  const select = Object.values(getTableColumns(jobs)).map((c) => values[c.name] ?? sql`NULL`);
  return db.insert(jobs).select(sql`SELECT ${sql.join(select, sql`, `)} FROM json_each(${json}) j`);
}

/** The statements creating `rows` (stamped with the batch's version) and queueing their drivers' pushes. */
export function bulkJobWrites(
  db: Db,
  workspaceId: string,
  rows: BulkJob[],
  writer: { userId: string | null; now: number },
): Writes {
  const encoded = rows.map(({ id, input, point, sequence }) => {
    const table = jobTable.given(input);
    return JSON.stringify([
      id,
      input.title,
      input.date,
      input.vehicleId ?? null,
      point.latitude,
      point.longitude,
      point.address,
      input.windowStart ?? null,
      input.windowEnd ?? null,
      sequence,
      ...jobTable.keys.map((k) => table[k]),
    ]);
  });
  const chunks: string[] = [];
  for (let i = 0; i < encoded.length;) {
    let size = 0;
    let end = i;
    while (end < encoded.length && (end === i || size + encoded[end]!.length < BULK_JSON_CHARS))
      size += encoded[end++]!.length + 1;
    chunks.push(`[${encoded.slice(i, end).join(",")}]`);
    i = end;
  }
  return (stamp, live) => [
    ...chunks.map((json) => chunkStatement(live, workspaceId, json, stamp, writer)),
    // Every job this batch gave a vehicle, for its driver (worker/jobs/job-notifications.ts).
    db.insert(jobNotifications).select(
      sql`SELECT lower(hex(randomblob(16))), ${workspaceId}, "id", "vehicle_id", ${writer.userId}, ${writer.now}
        FROM "jobs" WHERE "workspace_id" = ${workspaceId} AND "version" = ${stamp} AND "created_version" = ${stamp}
          AND "vehicle_id" IS NOT NULL`,
    ),
  ];
}
