import { and, eq, inArray, sql } from "drizzle-orm";
import type { JobInput, JobPoint } from "../../shared/jobs/jobs";
import { csvJob, csvLines, type CsvValues, type LineError } from "../../domain/jobs/csv-import";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { jobs, vehicles } from "../../db/schema";
import { addressPoint } from "./job-places";
import { bulkJobWrites } from "./job-bulk";
import { refuseOverJobBounds } from "./job-caps";
import type { JobWriter, JobWrites } from "./job-writes";

/** Address-only lines geocoded at once (the provider's rate, and the Worker's open connections). */
const GEOCODE_CONCURRENCY = 6;
/** Address-only lines in one import at most: each is a subrequest of this one request. */
export const MAX_GEOCODED_LINES = 500;

type Checked = { line: number; input: JobInput; point: JobPoint | null };

/** Live vehicles by name (trimmed, any case); a name two vehicles share resolves to neither. */
async function vehiclesByName(db: Db, workspaceId: string) {
  const rows = await db
    .select({ id: vehicles.id, name: vehicles.name })
    .from(vehicles)
    .where(and(eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
    .all();
  const byName = new Map<string, string | null>();
  for (const r of rows) {
    const key = r.name.trim().toLowerCase();
    byName.set(key, byName.has(key) ? null : r.id);
  }
  return byName;
}

function checkLine(line: number, values: CsvValues, byName: Map<string, string | null>): Checked | LineError {
  let vehicleId: string | null = null;
  if (values.vehicleName) {
    const found = byName.get(values.vehicleName.toLowerCase());
    if (found === undefined) return { line, error: `vehicleName: no vehicle named "${values.vehicleName}"` };
    if (found === null) return { line, error: `vehicleName: more than one vehicle is named "${values.vehicleName}"` };
    vehicleId = found;
  }
  const input = csvJob(values, vehicleId);
  if (typeof input === "string") return { line, error: input };
  const { latitude, longitude, address } = input.location!;
  const point =
    latitude !== undefined && longitude !== undefined ? { latitude, longitude, address: address ?? null } : null;
  return { line, input, point };
}

/** Geocodes the address-only lines, a few at a time; a line whose address finds nothing is an error. */
async function geocodeLines(token: string, lines: Checked[]): Promise<LineError[]> {
  const pending = lines.filter((l) => l.point === null);
  if (pending.length > MAX_GEOCODED_LINES)
    return [
      { line: pending[MAX_GEOCODED_LINES]!.line, error: `At most ${MAX_GEOCODED_LINES} lines without coordinates` },
    ];
  const errors: LineError[] = [];
  for (let i = 0; i < pending.length; i += GEOCODE_CONCURRENCY) {
    await Promise.all(
      pending.slice(i, i + GEOCODE_CONCURRENCY).map(async (l) => {
        const found = await addressPoint(token, l.input.location!.address!);
        if (typeof found === "string") errors.push({ line: l.line, error: `address: ${found}` });
        else l.point = found;
      }),
    );
  }
  return errors.sort((a, b) => a.line - b.line);
}

/** The next free place of each (vehicle, date) day the import adds to, so the lines keep their order after what is planned. */
async function nextSequences(db: Db, workspaceId: string, dates: string[]) {
  const next = new Map<string, number>();
  for (const part of inLists(dates)) {
    const rows = await db
      .select({ vehicleId: jobs.vehicleId, date: jobs.date, last: sql<number>`MAX(${jobs.sequence})` })
      .from(jobs)
      .where(and(eq(jobs.workspaceId, workspaceId), eq(jobs.deleted, false), inArray(jobs.date, part)))
      .groupBy(jobs.vehicleId, jobs.date)
      .all();
    for (const r of rows) next.set(`${r.vehicleId}|${r.date}`, r.last + 1);
  }
  return next;
}

/**
 * A CSV of jobs checked whole (DESIGN.md: all or nothing): every line's errors, or the writes that
 * create them all in one batch. Vehicle names resolve within the workspace only. Past a bound on
 * a day's or the upcoming jobs (job-caps.ts), nothing is imported: 409 `limit_reached`.
 */
export async function jobImportWrites(
  db: Db,
  geocoderToken: string,
  workspaceId: string,
  text: string,
  writer: JobWriter,
): Promise<{ errors: LineError[] } | { count: number; writes: JobWrites }> {
  const lines = csvLines(text);
  if (lines.length && "error" in lines[0]!) return { errors: lines as LineError[] };
  const byName = await vehiclesByName(db, workspaceId);
  const checked = (lines as { line: number; values: CsvValues }[]).map((l) => checkLine(l.line, l.values, byName));
  const errors = checked.filter((c): c is LineError => "error" in c);
  if (errors.length) return { errors };
  const ok = checked as Checked[];
  const geocodeErrors = await geocodeLines(geocoderToken, ok);
  if (geocodeErrors.length) return { errors: geocodeErrors };
  const sequences = await nextSequences(db, workspaceId, [...new Set(ok.map((c) => c.input.date))]);
  const rows = ok.map(({ input, point }) => {
    const day = `${input.vehicleId}|${input.date}`;
    const sequence = sequences.get(day) ?? 0;
    sequences.set(day, sequence + 1);
    return { id: crypto.randomUUID(), input, point: point!, sequence };
  });
  const moves = rows.map(({ input }) => ({ from: null, to: { vehicleId: input.vehicleId ?? null, date: input.date } }));
  await refuseOverJobBounds(db, workspaceId, moves, writer.now);
  return { count: rows.length, writes: bulkJobWrites(db, workspaceId, rows, writer) };
}
