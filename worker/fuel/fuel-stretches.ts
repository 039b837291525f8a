import { and, eq, gte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { storedStretchesOf, type LoggedFill } from "../../shared/costs/fuel-economy";
import { insertChunks } from "../../db/chunk";
import type { Db } from "../../db/client";
import { fuelEntries, fuelStretches } from "../../db/schema";
import { ApiError } from "../lib/errors";

/**
 * The cost report's stored stretches (`fuel_stretches`, docs/decisions/0064, 0078), cut by the one
 * rule (`storedStretchesOf` in shared/costs/fuel-economy.ts) in the batch that writes a vehicle's
 * fill-up: every writer of fill-ups goes through worker/fuel/fuel-writes.ts (REST and the push),
 * so no SQL trigger restates the rule. The log is read before the batch, so the batch first checks
 * that nobody wrote that vehicle's fill-ups since (`versionGuard`); if somebody did, the whole
 * batch fails (nothing written) and the caller cuts again from the new log.
 */

/** A vehicle's live fill-ups as the stretches read them, and the newest version among all its rows. */
export interface VehicleLog {
  vehicleId: string;
  fills: LoggedFill[];
  /** every write of a fill-up stamps the workspace's new version, so this moves on any write */
  lastVersion: number;
}

const NO_VERSION = -1;

/** The newest version of any of the vehicle's fill-ups (tombstones too), or NO_VERSION. */
const lastVersionOf = (workspaceId: string, vehicleId: string) =>
  sql<number>`coalesce((SELECT max(version) FROM fuel_entries
    WHERE workspace_id = ${workspaceId} AND vehicle_id = ${vehicleId}), ${NO_VERSION})`;

export async function readVehicleLog(db: Db, workspaceId: string, vehicleId: string): Promise<VehicleLog> {
  const [version, fills] = await Promise.all([
    db.get<{ v: number }>(sql`SELECT ${lastVersionOf(workspaceId, vehicleId)} AS v`),
    db
      .select({
        id: fuelEntries.id,
        at: fuelEntries.at,
        volumeLitres: fuelEntries.volumeLitres,
        fullTank: fuelEntries.fullTank,
        odometerMiles: fuelEntries.odometerMiles,
      })
      .from(fuelEntries)
      .where(
        and(
          eq(fuelEntries.workspaceId, workspaceId),
          eq(fuelEntries.vehicleId, vehicleId),
          eq(fuelEntries.deleted, false),
        ),
      )
      .all(),
  ]);
  return { vehicleId, fills, lastVersion: version?.v ?? NO_VERSION };
}

/**
 * Fails (a copy of one of the vehicle's fill-ups collides with its id) when the vehicle's fill-ups
 * changed since `log` was read, which aborts the batch it leads: a raw statement cannot raise, so
 * the route plan's guard (worker/jobs/route-plan-apply.ts) fails the same way.
 */
function versionGuard(db: Db, workspaceId: string, log: VehicleLog): BatchItem<"sqlite"> {
  return db.insert(fuelEntries).select(
    db
      .select()
      .from(fuelEntries)
      .where(
        and(
          eq(fuelEntries.workspaceId, workspaceId),
          eq(fuelEntries.vehicleId, log.vehicleId),
          sql`${lastVersionOf(workspaceId, log.vehicleId)} <> ${log.lastVersion}`,
        ),
      )
      .limit(1),
  );
}

/** Whether a batch failed because a vehicle's fill-ups changed under it (the guard above, or an id logged twice). */
export const fuelLogChanged = (error: unknown) => String(error).includes("UNIQUE constraint failed: fuel_entries.id");

/** The statements that make the vehicle's stored stretches closing at or after `fromAt` those of `after`. */
export function stretchRewrites(
  db: Db,
  workspaceId: string,
  vehicleId: string,
  after: readonly LoggedFill[],
  fromAt: number,
): BatchItem<"sqlite">[] {
  const rows = storedStretchesOf(after)
    .filter((s) => s.closeAt >= fromAt)
    .map((s) => ({ workspaceId, vehicleId, ...s }));
  const mine = and(eq(fuelStretches.workspaceId, workspaceId), eq(fuelStretches.vehicleId, vehicleId));
  return [
    db.delete(fuelStretches).where(and(mine, gte(fuelStretches.closeAt, fromAt))),
    ...insertChunks(fuelStretches, rows).map((part) => db.insert(fuelStretches).values(part)),
  ];
}

/**
 * A fill-up write's batch around its statements: the guard, the write, then the stretches cut
 * again from `fromAt` (the earliest moment the write touches: a stretch closing before it holds no
 * changed fill-up) over the log as it will be, `after`.
 */
export function withStretches(
  db: Db,
  workspaceId: string,
  log: VehicleLog,
  after: readonly LoggedFill[],
  fromAt: number,
  write: BatchItem<"sqlite">[],
): BatchItem<"sqlite">[] {
  return [
    versionGuard(db, workspaceId, log),
    ...write,
    ...stretchRewrites(db, workspaceId, log.vehicleId, after, fromAt),
  ];
}

/** The log with `fill` logged, or put in place of the entry with its id (an edit). */
export const withFill = (log: VehicleLog, fill: LoggedFill): LoggedFill[] => [
  ...log.fills.filter((f) => f.id !== fill.id),
  {
    id: fill.id,
    at: fill.at,
    volumeLitres: fill.volumeLitres,
    fullTank: fill.fullTank,
    odometerMiles: fill.odometerMiles,
  },
];

/** The log without the entry `entryId` (a deletion). */
export const withoutFill = (log: VehicleLog, entryId: string): LoggedFill[] =>
  log.fills.filter((f) => f.id !== entryId);

/**
 * Every stored stretch of a vehicle cut again from its log (a restore, a bulk load, a raw fix):
 * the rebuild's unit, guarded like a write so it never lands over a log it did not read.
 */
export async function rebuildVehicleStretches(db: Db, workspaceId: string, vehicleId: string) {
  const log = await readVehicleLog(db, workspaceId, vehicleId);
  const [first, ...rest] = withStretches(db, workspaceId, log, log.fills, Number.MIN_SAFE_INTEGER, []);
  await db.batch([first!, ...rest]);
}

/** How many times a REST write of a fill-up is built and committed again when the vehicle's log moved under it. */
const WRITE_ATTEMPTS = 3;

/**
 * A REST write of a fill-up (checks, log read, commit), done again from the start when another
 * write of the same vehicle's fill-ups landed between its read and its commit; a 409 if that keeps
 * happening. The push does not retry: it stops and the browser pushes again (worker/sync/push.ts).
 */
export async function retryingFuelLogRaces<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!fuelLogChanged(error)) throw error;
      if (tries >= WRITE_ATTEMPTS)
        throw new ApiError(409, "fuel_log_busy", "This vehicle's fuel log is being written: try again");
    }
  }
}

/** Every vehicle's stretches of a workspace cut again, a vehicle at a time (tests and bulk loads in a Worker). */
export async function rebuildWorkspaceStretches(db: Db, workspaceId: string) {
  const logged = await db
    .selectDistinct({ vehicleId: fuelEntries.vehicleId })
    .from(fuelEntries)
    .where(eq(fuelEntries.workspaceId, workspaceId))
    .all();
  for (const { vehicleId } of logged) await rebuildVehicleStretches(db, workspaceId, vehicleId);
}
