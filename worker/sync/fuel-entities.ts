import { and, eq, gt, gte } from "drizzle-orm";
import { encodeFuelEntry, firstSyncedFuelAt, fuelEntryKey } from "../../shared/costs/fuel";
import type { Db } from "../../db/client";
import { fuelEntries } from "../../db/schema";
import type { Add, Rows } from "./add-rows";

/**
 * Fill-ups in a pull (issue 42, docs/decisions/0045), bounded as service history is (ADR 0033): a
 * full answer carries the live entries of the last 90 days by when they were filled; an incremental
 * one every change since the cookie (tombstones included), so a device sees a fill-up typed in late
 * or removed elsewhere, whatever its date. Older ones are read over REST when asked.
 */
export function fuelChangeQuery(db: Db, workspaceId: string, since: number, live: boolean, now = Date.now()) {
  const scope = and(eq(fuelEntries.workspaceId, workspaceId), gt(fuelEntries.version, since));
  return db
    .select()
    .from(fuelEntries)
    .where(live ? and(scope, eq(fuelEntries.deleted, false), gte(fuelEntries.at, firstSyncedFuelAt(now))) : scope);
}

export function addFuel(changes: { fuelEntryRows: Rows<typeof fuelEntries> }, add: Add) {
  add(
    changes.fuelEntryRows,
    (r) => fuelEntryKey(r.id),
    (r) => encodeFuelEntry(r),
  );
}
