import { and, eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import {
  renewalAfterRenew,
  renewalFieldsOf,
  type RenewBody,
  type renewalBodySchema,
} from "../../shared/costs/renewals";
import type { Db } from "../../db/client";
import { renewals } from "../../db/schema";
import { notFound } from "../lib/errors";
import { fuelVehicle } from "../fuel/fuel-writes";
import { refuseForeignPhotos } from "./expense-writes";

/**
 * Adding, renewing and deleting a renewal (issue 42, docs/decisions/0049): the checks and the
 * writes, one copy for the REST routes (worker/api/renewals.ts) and the sync mutators
 * (worker/sync/renewal-mutators.ts). Checked first (another workspace's vehicle, renewal or photo:
 * a 404), then the statements for the caller's one batch, stamped with its version.
 */
type Writes = (stamp: SQL<number>) => BatchItem<"sqlite">[];
export type RenewalRow = typeof renewals.$inferSelect;

export async function renewalIdTaken(db: Db, renewalId: string) {
  return (await db.select({ id: renewals.id }).from(renewals).where(eq(renewals.id, renewalId)).get()) !== undefined;
}

export async function renewalWrites(
  db: Db,
  workspaceId: string,
  input: z.output<typeof renewalBodySchema>,
  { id, userId, now }: { id: string; userId: string; now: number },
): Promise<{ row: RenewalRow; writes: Writes }> {
  await fuelVehicle(db, workspaceId, input.vehicleId);
  await refuseForeignPhotos(db, workspaceId, input.photoIds);
  const row: RenewalRow = {
    id,
    workspaceId,
    ...renewalFieldsOf(input),
    announced: null,
    renewedAt: null,
    createdByUserId: userId,
    version: 0,
    deleted: false,
    createdVersion: null,
    createdAt: now,
  };
  return { row, writes: (stamp) => [db.insert(renewals).values({ ...row, version: stamp })] };
}

const scoped = (workspaceId: string, renewalId: string) =>
  and(eq(renewals.id, renewalId), eq(renewals.workspaceId, workspaceId));

export async function liveRenewal(db: Db, workspaceId: string, renewalId: string): Promise<RenewalRow> {
  const row = await db
    .select()
    .from(renewals)
    .where(and(scoped(workspaceId, renewalId), eq(renewals.deleted, false)))
    .get();
  if (!row) throw notFound("No such renewal in this workspace");
  return row;
}

/**
 * Renewed (members and up): the new due date, and a new document when one came. The reminder of
 * the old date stays announced under that date, so the new one is reminded of afresh.
 */
export async function renewWrites(
  db: Db,
  workspaceId: string,
  renewalId: string,
  renew: RenewBody,
  now: number,
): Promise<{ row: RenewalRow; writes: Writes }> {
  const current = await liveRenewal(db, workspaceId, renewalId);
  await refuseForeignPhotos(db, workspaceId, renew.photoIds ?? []);
  const row = { ...renewalAfterRenew(current, renew), renewedAt: now };
  return {
    row,
    writes: (stamp) => [
      db
        .update(renewals)
        .set({ dueDate: row.dueDate, photoIds: row.photoIds, renewedAt: now, version: stamp })
        .where(scoped(workspaceId, renewalId)),
    ],
  };
}

/** Deleted (owners and admins): a tombstone, so the pull tells every device to drop it. */
export async function renewalDeleteWrites(db: Db, workspaceId: string, renewalId: string): Promise<Writes> {
  await liveRenewal(db, workspaceId, renewalId);
  return (stamp) => [db.update(renewals).set({ deleted: true, version: stamp }).where(scoped(workspaceId, renewalId))];
}
